/* eval.c: static evaluation (see eval.h). */
#include "eval.h"

#include "core/weights.h"

int gmk_eval(const gmk_board *b) {
    const gmk_eval_weight_set *w = &gmk_eval_weights;
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    /* the side to move turns its potential into threats first */
    int v = (b->score_sum[me] * w->mover - b->score_sum[opp] * w->opponent) / 16 + w->tempo;
    for (int t = GMK_TH_THREE; t < GMK_TH_FORBID; t++)
        v += w->mine[t] * b->count[me][t] - w->theirs[t] * b->count[opp][t];
    /* a four-three or an open four-to-be of the mover is usually decisive */
    if (b->count[me][GMK_TH_FOUR_THREE] > 0)
        v += w->four_three;
    else if (b->count[me][GMK_TH_DOUBLE_THREE] > 0 && b->count[opp][GMK_TH_FOUR] == 0 &&
             b->count[opp][GMK_TH_FOUR_THREE] == 0)
        v += w->double_three;
    if (v > GMK_EVAL_LIMIT) v = GMK_EVAL_LIMIT;
    if (v < -GMK_EVAL_LIMIT) v = -GMK_EVAL_LIMIT;
    return v;
}
