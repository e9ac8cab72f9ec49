/* rules.h: what each rule set allows and when a game is over (RULES.md section 1).
 *
 * Move legality (occupied, off the board, renju fouls), the result after a move with its
 * reason and winning line, and the names and Gomocup numbers of the rules. A five is judged on
 * the whole line through the stone: freestyle takes five or more, standard exactly five, renju
 * exactly five for black and five or more for white, caro exactly five not blocked at both
 * ends by opponent stones (the board edge does not block). Pure functions. */
#ifndef GMK_RULES_H
#define GMK_RULES_H

#include "board.h"
#include "renju.h"

typedef enum {
    GMK_MOVE_LEGAL = 0,
    GMK_MOVE_OFF_BOARD,
    GMK_MOVE_OCCUPIED,
    GMK_MOVE_FORBIDDEN, /* renju: black foul; the kind comes back separately */
    GMK_MOVE_GAME_OVER,
} gmk_move_verdict;

typedef enum {
    GMK_ONGOING = 0,
    GMK_BLACK_WINS,
    GMK_WHITE_WINS,
    GMK_DRAW,
} gmk_outcome;

typedef enum {
    GMK_REASON_NONE = 0,
    GMK_REASON_FIVE,
    GMK_REASON_FORBIDDEN,
    GMK_REASON_RESIGN,
    GMK_REASON_TIME,
    GMK_REASON_FULL_BOARD,
    GMK_REASON_AGREEMENT, /* a draw offered and accepted (online rooms) */
    GMK_REASON_ABANDON,   /* the side to move stayed disconnected and the other claimed the win */
    GMK_REASON_NO_LEGAL_POINT, /* a draw: renju black to move and every empty point forbidden */
} gmk_reason;

typedef struct {
    gmk_outcome outcome;
    gmk_reason reason;
    gmk_forbid_kind forbid; /* with GMK_REASON_FORBIDDEN */
    gmk_pos point;          /* the deciding move, or GMK_POS_NONE */
    int line_len;           /* the winning line, with GMK_REASON_FIVE */
    gmk_pos line[GMK_MAX_SIZE];
} gmk_result;

/* Parses "freestyle", "standard", "renju", "caro" or a Gomocup number (0, 1, 2 and 4 for
 * renju as Yixin-Board and Piskvork send it, 8 and 9 caro). Returns false when unknown. */
bool gmk_rule_parse(const char *text, gmk_rule *out);
const char *gmk_rule_name(gmk_rule rule);
/* The Gomocup INFO rule number of a rule: 0, 1, 4 or 9. */
int gmk_rule_gomocup_number(gmk_rule rule);

/* Would the side to move be allowed to play p? For GMK_MOVE_FORBIDDEN, *kind says why
 * (kind may be NULL). */
gmk_move_verdict gmk_rules_check_move(const gmk_board *b, gmk_pos p, gmk_forbid_kind *kind);

/* Has the side to move a legal point? Only renju black can have none while the board has
 * empty points (every one forbidden): the game is then drawn, as on a full board, since
 * Gomocup has no pass (RULES.md); gmk_rules_result reports it so (GMK_REASON_NO_LEGAL_POINT).
 * Stops at the first legal point. */
bool gmk_rules_has_legal_move(const gmk_board *b);

/* A legal point for the side to move when a search gave none (stopped before its first move,
 * say): the one with the highest sum of both colours' shape scores, then the nearest the
 * centre; GMK_POS_NONE when there is none. */
gmk_pos gmk_rules_fallback_move(const gmk_board *b);

/* Does colour c have a winning five through its stone at p (already on the board)? Fills the
 * line when given (line_len may be NULL). */
bool gmk_rules_five_at(const gmk_board *b, gmk_pos p, gmk_color c, gmk_pos *line, int *line_len);

/* Replays the board's history and says whether and how the game ended: a five, a black foul
 * in renju, or a draw when no point is left to play: GMK_REASON_FULL_BOARD when the board is
 * full, GMK_REASON_NO_LEGAL_POINT when in renju black is to move and every empty point is
 * forbidden. Moves after the end are reported as *moves_after_end (may be NULL). */
void gmk_rules_result(const gmk_board *b, gmk_result *out, int *moves_after_end);

/* The result after the last move only, assuming the game was on before it. Fast. */
void gmk_rules_result_after_last(const gmk_board *b, gmk_result *out);

const char *gmk_outcome_name(gmk_outcome o);
const char *gmk_reason_name(gmk_reason r);

#endif
