/* prune.h: the search's selectivity rules, kept apart from the search so that tests can hold
 * them to their promise. Every move after the first may be reduced or skipped, threes, fours
 * and blocks included, by the move-count, reduction and near-horizon rules below; the search
 * applies them only once a move of the node holds (a node where every move tried so far loses
 * is searched in full), and never to the single block of a four. Two older rules for quiet
 * moves (no three or four for either side) stay beside them: move-count pruning of quiet
 * moves at non-PV nodes, and futility pruning of quiet moves near the leaves.
 *
 * The node rules before the move loop read the static evaluation: reverse futility (an
 * evaluation far enough over beta returns at once) and razoring (one far under alpha at depth
 * 1 or 2 drops into the threat quiescence). Their margins are in the evaluation's units (732
 * a logit of the win rate). The rules and their constants follow the design of the strongest
 * open engine's alpha-beta search (Rapfi, github.com/dhbloo/rapfi: move counts 3 + d^1.32,
 * reductions log d x log i, margins converted from its 1/200 logit), measured here in the
 * engine journal (2026-12-06, seventh session). */
#ifndef GMK_PRUNE_H
#define GMK_PRUNE_H

#include "core/board.h"

/* What the rules know of a node. */
typedef struct {
    bool pv_node;   /* on the principal variation */
    bool forced;    /* its list holds only defences (movegen's forced list) */
    bool improving; /* its static evaluation is above the mover's two plies before */
} gmk_prune_node;

/* True when p makes no three or four for the side to move nor for its opponent. */
bool gmk_prune_is_quiet(const gmk_board *b, gmk_pos p);

/* True when no line through p holds an open two, a closed three or more for either colour. */
bool gmk_prune_is_trivial(const gmk_board *b, gmk_pos p);

/* True when p is a point where the opponent of the side to move would make a four or more:
 * a move there blocks a three. */
bool gmk_prune_blocks_four(const gmk_board *b, gmk_pos p);

/* The king's-move distance from p to the move played `back` plies ago (1: the opponent's
 * last move, 2: the mover's); 99 when there is none. */
int gmk_prune_distance_back(const gmk_board *b, gmk_pos p, int back);

/* Move-count pruning of every move: the search stops at the move numbered (from 1) this
 * count at a node of this depth: 3 + depth^1.32, halved when not improving, at least 1. */
int gmk_prune_move_limit(int depth, bool improving);

/* Near the horizon (depth under 4) a move after the first is skipped when it is trivial at a
 * node that is not forced, or, at a forced node, when it blocks no four and is far (over 4)
 * from both sides' last moves. */
bool gmk_prune_near_horizon(const gmk_board *b, gmk_pos p, int depth, int index,
                            const gmk_prune_node *node);

/* The reduction, in plies, of move p searched index-th (from 0) at a node of this depth, so
 * that the reduced search keeps at least one ply; 0 for the first move and under depth 2.
 * log(depth) x log(index + 1), a ply more at a non-PV node that is not improving, a ply less
 * at a PV node; for a defence that blocks no four, 1.9 more when it is over 4 from the
 * opponent's last move and 1.0 more when over 4 from the mover's; one more at a non-PV node
 * for a move that neither threatens nor defends and is not a killer; and less the better the
 * move's history (`history`, history.h's stat score). Rounded to whole plies. */
int gmk_prune_reduction(const gmk_board *b, gmk_pos p, int depth, int index,
                        const gmk_prune_node *node, bool killer, int history);

/* Reverse futility: the margin over beta at which a non-PV node that is not forced returns
 * its static evaluation: 230 a ply over the first, a ply less when improving. */
int gmk_prune_reverse_futility_margin(int depth, bool improving);

/* Razoring: the margin under alpha at which a non-PV node of depth 1 or 2 drops into the
 * threat quiescence; -1 (never) at other depths. */
int gmk_prune_razor_margin(int depth);

/* Move-count pruning of quiet moves: true when the quiet move p, index-th at a non-PV node
 * that is not forced, is far enough down the list at this depth to be skipped. */
bool gmk_prune_late_move(const gmk_board *b, gmk_pos p, int depth, int index, bool pv_node,
                         bool forced);

/* Futility pruning: true when the quiet move p (not the first) at a shallow non-PV node that
 * is not forced may be skipped, the static evaluation plus the depth's margin being no more
 * than alpha. Never near mate scores. */
bool gmk_prune_futile(const gmk_board *b, gmk_pos p, int depth, int index, int static_eval,
                      int alpha, bool pv_node, bool forced);

/* The futility bound: static_eval plus the margin of this depth (depth 1..3) under the
 * board's rule. */
int gmk_prune_futility_value(const gmk_board *b, int depth, int static_eval);

/* The deepest node where futility pruning applies. */
enum { GMK_PRUNE_FUTILITY_DEPTH = 3 };

#endif
