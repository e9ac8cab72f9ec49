/* winrate.c: search scores as win rates (winrate.h). */
#include "engine/winrate.h"

#include <math.h>

#include "engine/engine.h"

const gmk_winrate_fit *gmk_winrate_for(gmk_rule rule) {
    return rule == GMK_RULE_RENJU ? &gmk_winrate_renju : &gmk_winrate_freestyle;
}

double gmk_winrate(gmk_rule rule, int score) {
    int plies;
    if (gmk_score_is_mate(score, &plies)) return score > 0 ? 1.0 : 0.0;
    double k = gmk_winrate_for(rule)->scale;
    if (!(k > 0)) k = 400;
    return 1.0 / (1.0 + exp(-(double)score / k));
}

int gmk_winrate_percent(gmk_rule rule, int score) {
    int plies;
    if (gmk_score_is_mate(score, &plies)) return score > 0 ? 100 : 0;
    int p = (int)lround(gmk_winrate(rule, score) * 100.0);
    return p < 1 ? 1 : p > 99 ? 99 : p;
}
