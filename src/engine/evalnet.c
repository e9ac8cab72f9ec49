/* evalnet.c: the evaluation network's inputs and integer forward pass (evalnet.h). */
#include "evalnet.h"

const gmk_net_weights *gmk_net_for(gmk_rule rule) {
    return rule == GMK_RULE_RENJU ? &gmk_net_renju : &gmk_net_freestyle;
}

void gmk_net_inputs(const gmk_board *b, uint8_t in[GMK_NET_INPUTS]) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    for (int t = 0; t < GMK_TH_COUNT; t++) {
        int mine = b->count[me][t], theirs = b->count[opp][t];
        in[t] = (uint8_t)(mine > 255 ? 255 : mine);
        in[GMK_TH_COUNT + t] = (uint8_t)(theirs > 255 ? 255 : theirs);
    }
    for (int k = 0; k < GMK_COMBO_COUNT; k++) {
        in[GMK_NET_COMBO + k] = b->combo_count[me][k];
        in[GMK_NET_COMBO + GMK_COMBO_COUNT + k] = b->combo_count[opp][k];
    }
    bool four_three = b->count[me][GMK_TH_FOUR_THREE] > 0;
    in[GMK_NET_FLAGS] = four_three;
    in[GMK_NET_FLAGS + 1] = !four_three && b->count[me][GMK_TH_DOUBLE_THREE] > 0 &&
                            b->count[opp][GMK_TH_FOUR] == 0 &&
                            b->count[opp][GMK_TH_FOUR_THREE] == 0;
}

int gmk_net_output(const gmk_net_weights *net, const uint8_t in[GMK_NET_INPUTS]) {
    int32_t acc[GMK_NET_HIDDEN];
    for (int j = 0; j < GMK_NET_HIDDEN; j++) acc[j] = net->hidden_bias[j];
    /* most counts are 0: only the others add their row */
    for (int i = 0; i < GMK_NET_INPUTS; i++) {
        if (!in[i]) continue;
        const int16_t *row = net->hidden_weight[i];
        for (int j = 0; j < GMK_NET_HIDDEN; j++) acc[j] += in[i] * row[j];
    }
    int64_t out = 0;
    for (int j = 0; j < GMK_NET_HIDDEN; j++)
        if (acc[j] > 0) out += (int64_t)acc[j] * net->output_weight[j];
    return net->output_bias + (int)(out >> GMK_NET_SHIFT);
}
