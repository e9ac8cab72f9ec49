/* renju.h: the exact renju forbidden-move check for black (RULES.md section 2.2).
 *
 * The check places stones on a private copy of the stones, never on the caller's board, and
 * recurses without a depth cap: each level adds one stone, so it always ends. The board's
 * pattern codes give a cheap pre-filter (gmk_renju_is_candidate); the exact check decides.
 * Pure functions: safe from any thread on a board nobody is changing. */
#ifndef GMK_RENJU_H
#define GMK_RENJU_H

#include "board.h"

typedef enum {
    GMK_FORBID_NONE = 0, /* legal, not a five */
    GMK_FORBID_FIVE,     /* an exact five: wins, never forbidden */
    GMK_FORBID_OVERLINE,
    GMK_FORBID_DOUBLE_FOUR,
    GMK_FORBID_DOUBLE_THREE,
} gmk_forbid_kind;

/* Verdict for black playing the empty point p, by the exact definition, ignoring the board's
 * rule and pattern tables (works on any board). */
gmk_forbid_kind gmk_renju_classify(const gmk_board *b, gmk_pos p);

/* True when p may be forbidden for black according to the pattern codes; a superset of the
 * forbidden points on a renju board. */
static inline bool gmk_renju_is_candidate(const gmk_board *b, gmk_pos p) {
    return b->rule == GMK_RULE_RENJU && b->cell[p].threat[GMK_BLACK] == GMK_TH_FORBID;
}

/* Forbidden kind of empty point p for black on a renju board (GMK_FORBID_NONE when legal or
 * a five, and on other rules). Fast: exact check only for pre-filter candidates. */
gmk_forbid_kind gmk_renju_forbidden(const gmk_board *b, gmk_pos p);

static inline bool gmk_forbid_is_foul(gmk_forbid_kind k) {
    return k >= GMK_FORBID_OVERLINE;
}

/* "double-three", "double-four", "overline", or "" for the others. */
const char *gmk_forbid_name(gmk_forbid_kind k);

#endif
