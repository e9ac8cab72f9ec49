/* prune.h: the search's selectivity rules, kept apart from the search so that tests can hold
 * them to their promise: which moves are quiet, how far a late quiet move is reduced (a table
 * of depth x move number), which late quiet moves are skipped at low depth (move-count
 * pruning), and when the static evaluation says quiet moves near the leaves cannot reach
 * alpha (futility pruning, margins in the evaluation's units).
 *
 * Only quiet moves are ever reduced or skipped: a move that makes a three or a four for either
 * side (an attack, or a block of the opponent's shapes) is always searched in full, and at a
 * node whose list was narrowed to defences (movegen's forced list) nothing is skipped. */
#ifndef GMK_PRUNE_H
#define GMK_PRUNE_H

#include "core/board.h"

enum { GMK_PRUNE_DEPTHS = 65, GMK_PRUNE_MOVES = 64 };

typedef struct {
    uint8_t r[GMK_PRUNE_DEPTHS][GMK_PRUNE_MOVES]; /* plies, by depth and move number */
} gmk_prune_table;

/* Fills t: about 1 + log(depth) x log(move number) plies. */
void gmk_prune_init(gmk_prune_table *t);

/* True when p makes no three or four for the side to move nor for its opponent. */
bool gmk_prune_is_quiet(const gmk_board *b, gmk_pos p);

/* The reduction, in plies, of move p searched index-th (from 0) at a node of this depth, so
 * that the reduced search keeps at least one ply: 0 for moves that are not quiet, the first
 * move, forced lists and depths under 3; one less at PV nodes, for killers and for quiet
 * moves that build the mover's own shapes (b is the position before p is played). */
int gmk_prune_reduction(const gmk_prune_table *t, const gmk_board *b, gmk_pos p, int depth,
                        int index, bool pv_node, bool forced, bool killer);

/* Move-count pruning: true when the quiet move p, index-th at a non-PV node that is not
 * forced, is far enough down the list at this depth to be skipped. */
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
