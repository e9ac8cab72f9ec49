/* match.h: engine-vs-engine matches between two Gomocup brains (gomoku match).
 *
 * Each engine is a shell command speaking the Gomocup protocol. Games come in pairs: each
 * opening (a line of a Gomocup offset-format file, or the empty board) is played twice with
 * the colours swapped. Every game starts both engines afresh, sends START, the INFO settings and
 * the position (BOARD with the opening, or BEGIN), then TURN after each move, and adjudicates:
 * a five, a full board or the move limit; an illegal move, a renju foul, a loss on time (the
 * per-move or game limit plus the tolerance, measured here from outside the process), an
 * ERROR reply, or a crash loses. Results are reported as they come, with the score, the Elo
 * difference and an optional SPRT that stops the match early; games go to PSQ files and an
 * SGF collection, and the whole conversation to a log. Called by the CLI (cmd_match.c). The
 * statistics functions are pure. */
#ifndef GMK_MATCH_H
#define GMK_MATCH_H

#include <stdio.h>

#include "core/notation.h"
#include "core/rules.h"

#define GMK_MATCH_MAX_INFO 16

typedef struct {
    const char *cmd;                      /* shell command, e.g. "build/gomoku brain" */
    const char *name;                     /* for reports and records; NULL: "engine1" / "engine2" */
    const char *info[GMK_MATCH_MAX_INFO]; /* extra INFO lines: "key value" */
    int ninfo;
} gmk_match_engine;

typedef struct {
    gmk_match_engine engine[2];
    int games;            /* total games; 0: 2 * rounds */
    int rounds;           /* openings, each played twice; used when games is 0 */
    const char *openings; /* offset-format file; NULL: every game starts on the empty board */
    int opening_start;    /* first opening line used (0-based); they cycle */
    gmk_rule rule;
    int size;
    int64_t turn_ms;      /* per move; 0: none (the brains get timeout_turn 0 = fast) */
    int64_t match_ms;     /* per game and engine; 0: none */
    int64_t increment_ms; /* added to the game time after each move */
    int64_t tolerance_ms; /* allowed overrun before a time loss */
    int64_t max_memory;   /* INFO max_memory; 0: none */
    int jobs;             /* games played at once */
    int draw_after;       /* a draw once this many stones are on the board; 0: full board */
    bool sprt;
    double elo0, elo1, alpha, beta;
    const char *psq_dir;     /* write game-NNNN.psq files here (NULL: none) */
    const char *sgf_path;    /* append every game to this SGF collection (NULL: none) */
    const char *log_path;    /* the protocol conversation (NULL: none) */
    const char *stderr_path; /* the engines' standard error (NULL: discarded) */
    bool quiet;              /* no line per game */
} gmk_match_options;

typedef enum { GMK_SPRT_CONTINUE = 0, GMK_SPRT_H0, GMK_SPRT_H1 } gmk_sprt_verdict;

typedef struct {
    int games, wins, losses, draws; /* from engine 1's side */
    int black_wins, white_wins;
    int time_losses[2], illegal[2], fouls[2], errors[2], crashes[2];
    int64_t max_move_ms[2];        /* the longest reply of each engine, measured here */
    int moves;                     /* moves played by the engines, all games */
    double score, elo, elo_margin; /* score in [0,1]; margin: 95% */
    double llr, llr_lower, llr_upper;
    gmk_sprt_verdict sprt;
    bool stopped_early;
} gmk_match_summary;

/* Plays the match, writing progress to out. Returns false with a message when it cannot start
 * (bad options, unreadable openings, unwritable output files); adjudicated games are not
 * failures. */
bool gmk_match_run(const gmk_match_options *o, FILE *out, gmk_match_summary *sum, char *err,
                   size_t errlen);

/* Writes the end-of-match report (also printed by gmk_match_run). */
void gmk_match_report(const gmk_match_options *o, const gmk_match_summary *s, FILE *out);

/* One line of an offset-format opening file ("0,0, 1,0, 1,3": dx,dy from the centre, black
 * first) on a size x size board. */
bool gmk_match_parse_opening(const char *line, int size, gmk_move_list *out, char *err,
                             size_t errlen);

/* Elo difference for a score and its 95% error margin (infinite margins and differences come
 * back as +-9999). */
void gmk_match_elo(int wins, int losses, int draws, double *elo, double *margin);

/* The log-likelihood ratio of elo1 against elo0 (logistic Elo, trinomial model). */
double gmk_match_llr(int wins, int losses, int draws, double elo0, double elo1);

/* The SPRT bounds for alpha and beta: log(beta / (1 - alpha)) and log((1 - beta) / alpha). */
void gmk_match_sprt_bounds(double alpha, double beta, double *lower, double *upper);

#endif
