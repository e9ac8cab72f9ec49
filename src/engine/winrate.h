/* winrate.h: the engine's score as a win rate a person can read.
 *
 * A search score (engine.h: centi-stones from the side to move, or a proved win or loss) maps
 * to the probability that the side to move wins, counting a draw as half: sigmoid(score / K)
 * for an unproved score, 1 or 0 for a proved one. K is fitted for each rule, by logistic
 * regression of the results of the engine's own self-play games on the search's scores of their
 * positions (tools/winrate.c, run by `make weights` beside the evaluation's fit, which writes
 * src/engine/winrate_<rule>.c). Standard and caro use freestyle's fit, as they use its weights.
 * Pure functions; no state; any thread. */
#ifndef GMK_WINRATE_H
#define GMK_WINRATE_H

#include "core/defs.h"

/* One rule's fit (generated). */
typedef struct {
    double scale; /* K, in score units: sigmoid(score / K) */
    int games;    /* games and positions it was fitted on (for the docs and `analyze`) */
    int positions;
} gmk_winrate_fit;

extern const gmk_winrate_fit gmk_winrate_freestyle;
extern const gmk_winrate_fit gmk_winrate_renju;

/* The fit a rule uses (an unknown rule gets freestyle's). */
const gmk_winrate_fit *gmk_winrate_for(gmk_rule rule);

/* The probability (0..1) that the side to move wins with this search score under rule. */
double gmk_winrate(gmk_rule rule, int score);

/* The same in whole percent, 0..100; an unproved score never gives 0 or 100 (it is clamped
 * to 1..99), so 0 and 100 always mean proved. */
int gmk_winrate_percent(gmk_rule rule, int score);

#endif
