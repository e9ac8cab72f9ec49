/* weights.c: which rule plays with which set of weights (weights.h). */
#include "weights.h"

const gmk_weights *gmk_weights_for(gmk_rule rule) {
    return rule == GMK_RULE_RENJU ? &gmk_weights_renju : &gmk_weights_freestyle;
}
