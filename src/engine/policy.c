/* policy.c: which rule plays with which move-ordering policy (policy.h). */
#include "policy.h"

const gmk_policy_weights *gmk_policy_for(gmk_rule rule) {
    return rule == GMK_RULE_RENJU ? &gmk_policy_renju : &gmk_policy_freestyle;
}
