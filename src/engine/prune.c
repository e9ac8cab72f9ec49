/* prune.c: reductions and pruning of quiet moves (see prune.h). */
#include "prune.h"

#include <math.h>
#include <stdlib.h>

#include "core/weights.h"
#include "engine.h"
#include "movegen.h"

/* A quiet move that builds the mover's own shapes (closed threes and open twos crossing there)
 * is reduced a ply less. */
enum { BUILDING_SCORE = 40 };

void gmk_prune_init(gmk_prune_table *t) {
    for (int d = 0; d < GMK_PRUNE_DEPTHS; d++)
        for (int i = 0; i < GMK_PRUNE_MOVES; i++) {
            double r = d > 0 && i > 0 ? 1.0 + log(d) * log(i) : 0;
            t->r[d][i] = (uint8_t)(r > 30 ? 30 : r);
        }
}

bool gmk_prune_is_quiet(const gmk_board *b, gmk_pos p) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    return b->cell[p].threat[me] < GMK_TH_THREE && b->cell[p].threat[opp] < GMK_TH_THREE;
}

int gmk_prune_reduction(const gmk_prune_table *t, const gmk_board *b, gmk_pos p, int depth,
                        int index, bool pv_node, bool forced, bool killer) {
    if (depth < 3 || index < 1 || forced || !gmk_prune_is_quiet(b, p)) return 0;
    int d = depth < GMK_PRUNE_DEPTHS ? depth : GMK_PRUNE_DEPTHS - 1;
    int i = index < GMK_PRUNE_MOVES ? index : GMK_PRUNE_MOVES - 1;
    int r = t->r[d][i];
    if (pv_node) r--;
    if (killer) r--;
    if (gmk_movegen_shape(b, p, gmk_board_side(b)) >= BUILDING_SCORE) r--;
    if (r > depth - 2) r = depth - 2; /* the reduced search keeps a ply */
    return r < 0 ? 0 : r;
}

bool gmk_prune_late_move(const gmk_board *b, gmk_pos p, int depth, int index, bool pv_node,
                         bool forced) {
    if (pv_node || forced || !gmk_prune_is_quiet(b, p)) return false;
    int limit = depth <= 4 ? 3 + depth * depth : 6 + 3 * depth;
    return index >= limit;
}

int gmk_prune_futility_value(const gmk_board *b, int depth, int static_eval) {
    if (depth < 1 || depth > GMK_PRUNE_FUTILITY_DEPTH) return GMK_SCORE_WIN;
    return static_eval + b->tables->weights->eval.futility[depth];
}

bool gmk_prune_futile(const gmk_board *b, gmk_pos p, int depth, int index, int static_eval,
                      int alpha, bool pv_node, bool forced) {
    if (pv_node || forced || index < 1 || depth < 1 || depth > GMK_PRUNE_FUTILITY_DEPTH ||
        abs(alpha) >= GMK_SCORE_MATE_BOUND || !gmk_prune_is_quiet(b, p))
        return false;
    return gmk_prune_futility_value(b, depth, static_eval) <= alpha;
}
