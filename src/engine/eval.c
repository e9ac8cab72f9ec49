/* eval.c: static evaluation (see eval.h). */
#include "eval.h"

#include "core/weights.h"
#include "evalnet.h"
#include "movegen.h"

/* Adds the mover's four-three or unanswerable double-three bonus to v, and clamps it. */
static int with_bonuses(const gmk_board *b, int v, int four_three, int double_three) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    /* a four-three or an open four-to-be of the mover is usually decisive */
    if (b->count[me][GMK_TH_FOUR_THREE] > 0)
        v += four_three;
    else if (b->count[me][GMK_TH_DOUBLE_THREE] > 0 && b->count[opp][GMK_TH_FOUR] == 0 &&
             b->count[opp][GMK_TH_FOUR_THREE] == 0)
        v += double_three;
    if (v > GMK_EVAL_LIMIT) v = GMK_EVAL_LIMIT;
    if (v < -GMK_EVAL_LIMIT) v = -GMK_EVAL_LIMIT;
    return v;
}

int gmk_eval_linear(const gmk_board *b) {
    const gmk_eval_weight_set *w = &b->tables->weights->eval;
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    /* the side to move turns its potential into threats first */
    int v =
        (gmk_board_score_sum(b, me) * w->mover - gmk_board_score_sum(b, opp) * w->opponent) / 16 +
        w->tempo;
    for (int t = GMK_TH_THREE; t < GMK_TH_FORBID; t++)
        v += w->mine[t] * b->count[me][t] - w->theirs[t] * b->count[opp][t];
    v += b->combo_sum[me][0] - b->combo_sum[opp][1];
    return with_bonuses(b, v, w->four_three, w->double_three);
}

int gmk_eval(const gmk_board *b) {
    int v = gmk_eval_linear(b);
    uint8_t in[GMK_NET_INPUTS];
    gmk_net_inputs(b, in);
    v += gmk_net_output(gmk_net_for(b->rule), in);
    return v > GMK_EVAL_LIMIT ? GMK_EVAL_LIMIT : v < -GMK_EVAL_LIMIT ? -GMK_EVAL_LIMIT : v;
}

int gmk_eval_hand(const gmk_board *b) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    int sum[3] = {0, 0, 0};
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (!gmk_board_empty_at(b, p)) continue;
            sum[me] += gmk_movegen_shape(b, p, me);
            sum[opp] += gmk_movegen_shape(b, p, opp);
        }
    return with_bonuses(b, (sum[me] * 6 - sum[opp] * 5) / 4 + 20, 1500, 800);
}
