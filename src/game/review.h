/* review.h: a game reviewed by the engine: every move labelled by the win rate it lost.
 *
 * A review searches every position of a game (the one before each move, and the last one
 * when the game has not ended) with a fixed node budget and one thread, each search from a
 * cleared table, so the same game gives the same review on any machine and any engine. From those
 * searches it derives, for each move: the engine's move and line in the position before it, the
 * mover's win rate before and after (engine/winrate.h), the win rate lost, and a label:
 *
 *   best         the engine's own move, or nothing lost
 *   good         lost less than 10 points of win rate
 *   inaccuracy   lost 10 to 19 points
 *   mistake      lost 20 to 29 points
 *   blunder      lost 30 points or more, or walked into a proved loss with 10 points or more
 *                before it (a mistake below 10)
 *   missed win   the search proved a win in the position and the move played let it go
 *
 * Mistakes, blunders and missed wins are the game's turning points (the page marks them on
 * its win-rate graph). The searches are independent jobs, so a caller may run them on any
 * number of engines at once (the web server's pool) or one after another (gmk_review_run, for
 * the command line and the terminal); gmk_review_put takes each result and the labels are
 * computed when the last one is in. The searches alone are what is stored
 * (gmk_review_save_text / gmk_review_load_text, the store's reviews table), and the labels are
 * derived again when read. No I/O; a review is used from one thread at a time. */
#ifndef GMK_REVIEW_H
#define GMK_REVIEW_H

#include <stdatomic.h>
#include <stddef.h>

#include "core/gmk.h"
#include "engine/engine.h"

/* The node budget of each position by default (`gomoku review --nodes`, the web's review). */
#define GMK_REVIEW_NODES 60000
#define GMK_REVIEW_PV 12

typedef enum {
    GMK_LABEL_NONE = 0, /* not reviewed yet */
    GMK_LABEL_BEST,
    GMK_LABEL_GOOD,
    GMK_LABEL_INACCURACY,
    GMK_LABEL_MISTAKE,
    GMK_LABEL_BLUNDER,
    GMK_LABEL_MISSED_WIN,
    GMK_LABEL_COUNT
} gmk_review_label;

/* The engine's search of one position. */
typedef struct {
    bool done;
    bool forced; /* the engine answered without searching (a single forced reply) and the
                    reply was played: the score is taken from the position after it */
    bool follow; /* the same, but the reply was not played: the position after the reply is
                    searched instead (gmk_review_position gives it), and its score taken */
    gmk_pos best;
    int score; /* for the side to move there */
    int pv_len;
    gmk_pos pv[GMK_REVIEW_PV];
} gmk_review_search;

/* One move, as judged. Win rates are in percent (0 and 100 only when proved). */
typedef struct {
    gmk_pos played;
    gmk_color color;
    gmk_pos best; /* the engine's move in the position before */
    int pv_len;   /* its line, starting with best */
    gmk_pos pv[GMK_REVIEW_PV];
    int score_best;    /* the position before, for the mover */
    int score_played;  /* the position after, for the mover */
    int before, after; /* the mover's win rate before (best play) and after the move */
    int black_after;   /* black's win rate after the move (the graph) */
    int lost;          /* before - after, at least 0 */
    gmk_review_label label;
    bool turning; /* mistake, blunder or missed win */
} gmk_review_move;

typedef struct {
    gmk_rule rule;
    int size;
    int count;       /* moves in the game */
    int64_t nodes;   /* each search's budget */
    gmk_outcome end; /* the result after the last move (GMK_ONGOING when unfinished) */
    gmk_pos moves[GMK_MAX_MOVES];
    int positions; /* searches needed: count, or count + 1 when the game has not ended */
    int searched;  /* of them, done */
    gmk_review_search search[GMK_MAX_MOVES + 1];
    bool complete; /* every search in, labels computed */
    gmk_review_move move[GMK_MAX_MOVES];
} gmk_review;

/* Starts a review of the game (moves of a legal game under rule on size x size; the game may
 * be finished or not) with `nodes` per search (0: GMK_REVIEW_NODES). False with a reason in err
 * for an illegal game or one without moves. */
bool gmk_review_begin(gmk_review *rv, gmk_rule rule, int size, const gmk_pos *moves, int count,
                      int64_t nodes, char *err, size_t errlen);

/* The position searched by search i (0..positions-1): the board before move i (after the
 * forced reply there, for a follow-up search). */
void gmk_review_position(const gmk_review *rv, int i, gmk_board *out);

/* The limits of every search (fixed nodes, one thread: deterministic). */
void gmk_review_limits(const gmk_review *rv, gmk_limits *out);

/* Takes the result of search i; computes the labels once the last one is in (rv->complete).
 * A result that asks for a follow-up search leaves search i to do again (rv->search[i].done
 * stays false): callers search every position until all are done. */
void gmk_review_put(gmk_review *rv, int i, const gmk_search_result *r);

/* Runs every search still missing on engine e, one after another, calling progress (may be
 * NULL) after each with (searched, positions). Stops early when *stop becomes true (may be
 * NULL): then rv->complete stays false. */
void gmk_review_run(gmk_review *rv, gmk_engine *e, const atomic_bool *stop,
                    void (*progress)(int done, int total, void *ctx), void *ctx);

/* The label's name: "best", "good", "inaccuracy", "mistake", "blunder", "missed-win". */
const char *gmk_review_label_name(gmk_review_label l);

/* Per colour counts of each label (counts[colour 0 black, 1 white][label]). */
void gmk_review_tally(const gmk_review *rv, int counts[2][GMK_LABEL_COUNT]);

/* The searches as text for the store (malloc'ed; NULL when out of memory), and back: false
 * when the text is not a complete review of exactly this game (rv must have been begun with
 * the same moves and nodes), rv unchanged then. */
char *gmk_review_save_text(const gmk_review *rv);
bool gmk_review_load_text(gmk_review *rv, const char *text);

#endif
