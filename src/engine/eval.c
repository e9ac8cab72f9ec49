/* eval.c: static evaluation (see eval.h). */
#include "eval.h"

int gmk_eval(const gmk_board *b) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    /* the side to move turns its potential into threats first */
    int v = (b->score_sum[me] * 6 - b->score_sum[opp] * 5) / 4 + 20;
    /* a four-three or an open four-to-be of the mover is usually decisive */
    if (b->count[me][GMK_TH_FOUR_THREE] > 0)
        v += 1500;
    else if (b->count[me][GMK_TH_DOUBLE_THREE] > 0 && b->count[opp][GMK_TH_FOUR] == 0 &&
             b->count[opp][GMK_TH_FOUR_THREE] == 0)
        v += 800;
    if (v > GMK_EVAL_LIMIT) v = GMK_EVAL_LIMIT;
    if (v < -GMK_EVAL_LIMIT) v = -GMK_EVAL_LIMIT;
    return v;
}
