/* weights.c: the hand-set weights, before the first `make weights`. */
#include "weights.h"

const int16_t gmk_pattern_weight[GMK_PAT_COUNT] = {
    [GMK_PAT_DEAD] = 0, [GMK_PAT_OL] = 0,   [GMK_PAT_B1] = 1,  [GMK_PAT_F1] = 3,
    [GMK_PAT_B2] = 6,   [GMK_PAT_F2] = 16,  [GMK_PAT_B3] = 20, [GMK_PAT_F3] = 60,
    [GMK_PAT_B4] = 64,  [GMK_PAT_F4] = 256, [GMK_PAT_DF4] = 0, [GMK_PAT_F5] = 512,
};
const int16_t gmk_threat_bonus[GMK_TH_COUNT] = {
    [GMK_TH_DOUBLE_THREE] = 160,
    [GMK_TH_FOUR_THREE] = 320,
    [GMK_TH_OPEN_FOUR] = 400,
};
const gmk_eval_weight_set gmk_eval_weights = {
    .mover = 24,
    .opponent = 20,
    .tempo = 20,
    .four_three = 1500,
    .double_three = 800,
    .futility = {0, -700, 100, -300},
};
