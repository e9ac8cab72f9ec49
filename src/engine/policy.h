/* policy.h: the learned move-ordering policy, one set per rule.
 *
 * A policy gives each candidate move a score: the higher, the likelier the search is to play
 * it. It is a sum of table entries over what the move makes: for each of its four lines, the
 * pair of patterns the side to move and the opponent would make there; the combination class
 * (pattern.h) of the cell for the side to move and for the opponent; and the threat of each.
 * The entries are log-probabilities (times GMK_POLICY_SCALE) fitted by tools/policy.c to the
 * moves of self-play games (`make weights`, docs/engine.md), so moves are ranked as the
 * self-play search (a few thousand nodes a move) ranked them. Each rule's set is generated
 * into src/engine/policy_<rule>.c; standard and caro use freestyle's (policy.c). movegen.c
 * adds the policy to its own bonuses for threats and blocks, which keep fours, fives and their
 * answers first. */
#ifndef GMK_POLICY_H
#define GMK_POLICY_H

#include "core/defs.h"
#include "core/pattern.h"

/* one unit of log-probability in the tables */
enum { GMK_POLICY_SCALE = 64 };

typedef struct {
    /* [the mover's pattern * GMK_PAT_COUNT + the opponent's pattern] on one line */
    int16_t line[GMK_PAT_COUNT * GMK_PAT_COUNT];
    int16_t mine_combo[GMK_COMBO_COUNT];   /* the cell's class for the side to move */
    int16_t theirs_combo[GMK_COMBO_COUNT]; /* ... for the opponent */
    int16_t mine_threat[GMK_TH_COUNT];     /* the cell's threat for the side to move */
    int16_t theirs_threat[GMK_TH_COUNT];   /* ... for the opponent */
} gmk_policy_weights;

extern const gmk_policy_weights gmk_policy_freestyle;
extern const gmk_policy_weights gmk_policy_renju;

const gmk_policy_weights *gmk_policy_for(gmk_rule rule);

#endif
