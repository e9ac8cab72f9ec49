/* evaltext.h: an evaluation as a person reads it, the same in every front end.
 *
 * A search score (engine.h) of a position becomes a win rate for the side to move
 * (engine/winrate.h), or, when the search proved the result, who wins and in how many of the
 * winner's moves: "Black 62%" or "Black wins in 7" ("黑方胜率 62%", "黑方 7 手胜"). The raw
 * score stays with the caller (`analyze --json` and the web API show both). Pure functions;
 * called by src/cli (analyze, review), src/web (analysis, review) and src/tui (the hint line). */
#ifndef GMK_EVALTEXT_H
#define GMK_EVALTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/defs.h"

typedef struct {
    int percent;       /* win rate of the side to move, 0..100 (0 and 100 only when proved) */
    int black_percent; /* the same for black */
    bool proved;       /* the search proved who wins */
    gmk_color winner;  /* when proved */
    int moves;         /* when proved: the winner's moves to five, the last one included */
} gmk_eval_view;

/* The view of score, the search's score for the side to move `to_move` under rule. */
void gmk_eval_view_of(gmk_rule rule, gmk_color to_move, int score, gmk_eval_view *out);

/* "Black 62%" / "White wins in 12" (zh: "黑方胜率 62%" / "白方 12 手胜"): the side named is the
 * side to move, or the winner. buf gets at most cap bytes, NUL included. */
void gmk_eval_view_text(const gmk_eval_view *v, gmk_color to_move, bool zh, char *buf, size_t cap);

#endif
