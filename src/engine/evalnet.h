/* evalnet.h: a small learned correction to the linear evaluation, one network per rule.
 *
 * The linear evaluation (eval.c, core/weights.h) adds up the empty cells' shapes; it cannot
 * say how the counts of threats and combinations of both sides act together (two closed threes
 * of the side to move are worth more when the opponent has no three to answer with, say). The
 * network reads those counts and adds its output to the linear score: GMK_NET_INPUTS counts
 * (each colour's empty cells of each threat and of each combination class, the side to move's
 * first, then whether the side to move has a four-three and an unanswerable double three), one
 * hidden layer of GMK_NET_HIDDEN rectified units, one output. The arithmetic is integers only:
 * the inputs are small whole numbers, the first layer's weights are fixed-point numbers with
 * GMK_NET_SHIFT fraction bits, and the output is in evaluation units. tools/evalnet.c fits the
 * network to the same self-play games as the linear weights, on top of them (`make weights`,
 * docs/engine.md "Evaluation"), and prints src/engine/evalnet_<rule>.c. Pure. */
#ifndef GMK_EVALNET_H
#define GMK_EVALNET_H

#include <stdint.h>

#include "core/board.h"

enum {
    GMK_NET_COMBO = 2 * GMK_TH_COUNT, /* first input of the combination counts */
    GMK_NET_FLAGS = GMK_NET_COMBO + 2 * GMK_COMBO_COUNT,
    GMK_NET_INPUTS = GMK_NET_FLAGS + 2,
    GMK_NET_HIDDEN = 16,
    GMK_NET_SHIFT = 10, /* fraction bits of the first layer */
};

typedef struct {
    int32_t hidden_bias[GMK_NET_HIDDEN];                   /* fixed point */
    int16_t hidden_weight[GMK_NET_INPUTS][GMK_NET_HIDDEN]; /* fixed point, by input */
    int32_t output_weight[GMK_NET_HIDDEN]; /* evaluation units per unit of a hidden value */
    int32_t output_bias;                   /* evaluation units */
} gmk_net_weights;

/* The rule's network: renju's, or freestyle's for the other rules (as with the linear weights).
 * Never NULL. */
const gmk_net_weights *gmk_net_for(gmk_rule rule);

extern const gmk_net_weights gmk_net_freestyle;
extern const gmk_net_weights gmk_net_renju;

/* The network's inputs for the position, from the side to move's point of view. */
void gmk_net_inputs(const gmk_board *b, uint8_t in[GMK_NET_INPUTS]);

/* The network's output for those inputs, in evaluation units. */
int gmk_net_output(const gmk_net_weights *net, const uint8_t in[GMK_NET_INPUTS]);

#endif
