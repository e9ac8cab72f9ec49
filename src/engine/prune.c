/* prune.c: reductions and pruning (see prune.h). */
#include "prune.h"

#include <math.h>
#include <stdlib.h>

#include "core/weights.h"
#include "engine.h"

/* The margins per ply: the reference engine's units (1/200 logit) times 732/200, in
 * hundredths (366). */
enum { REVERSE_FUTILITY_PER_PLY = 63 * 366 / 100 };
/* a history stat score counts as neutral at this value, and a reduction's ply at these */
enum { HISTORY_NEUTRAL = 3300, HISTORY_PER_PLY_SHALLOW = 12300, HISTORY_PER_PLY_DEEP = 16600 };

bool gmk_prune_is_quiet(const gmk_board *b, gmk_pos p) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    return b->cell[p].threat[me] < GMK_TH_THREE && b->cell[p].threat[opp] < GMK_TH_THREE;
}

bool gmk_prune_is_trivial(const gmk_board *b, gmk_pos p) {
    for (int c = GMK_BLACK; c <= GMK_WHITE; c++)
        for (int d = 0; d < GMK_DIRS; d++) {
            int pat = gmk_cell_pattern(&b->cell[p], (gmk_color)c, d);
            if (pat >= GMK_PAT_F2 && pat != GMK_PAT_DF4) return false;
        }
    return true;
}

bool gmk_prune_blocks_four(const gmk_board *b, gmk_pos p) {
    gmk_threat t = (gmk_threat)b->cell[p].threat[gmk_opponent(gmk_board_side(b))];
    return t >= GMK_TH_FOUR && t != GMK_TH_FORBID;
}

int gmk_prune_distance_back(const gmk_board *b, gmk_pos p, int back) {
    if (back < 1 || b->move_count < back) return 99;
    gmk_pos q = b->moves[b->move_count - back];
    int dx = abs(gmk_pos_x(p) - gmk_pos_x(q)), dy = abs(gmk_pos_y(p) - gmk_pos_y(q));
    return dx > dy ? dx : dy;
}

/* 3 + (int)pow(depth, 1.32) by depth (pow in every node cost 1% of the time; a unit test
 * checks the table against pow) */
enum { MOVE_LIMIT_DEPTHS = 64 };
static const int16_t move_limit_table[MOVE_LIMIT_DEPTHS] = {
    3,   4,   5,   7,   9,   11,  13,  16,  18,  21,  23,  26,  29,  32,  35,  38,
    41,  45,  48,  51,  55,  58,  62,  65,  69,  73,  76,  80,  84,  88,  92,  96,
    100, 104, 108, 112, 116, 120, 124, 128, 133, 137, 141, 146, 150, 155, 159, 164,
    168, 173, 177, 182, 187, 191, 196, 201, 206, 210, 215, 220, 225, 230, 235, 240,
};

int gmk_prune_move_limit(int depth, bool improving) {
    if (depth < 0) depth = 0;
    if (depth >= MOVE_LIMIT_DEPTHS) depth = MOVE_LIMIT_DEPTHS - 1;
    int limit = move_limit_table[depth] / (improving ? 1 : 2);
    return limit < 1 ? 1 : limit;
}

/* far from both sides' last moves */
static bool distracted(const gmk_board *b, gmk_pos p) {
    return gmk_prune_distance_back(b, p, 2) > 4 && gmk_prune_distance_back(b, p, 1) > 4;
}

bool gmk_prune_near_horizon(const gmk_board *b, gmk_pos p, int depth, int index,
                            const gmk_prune_node *node) {
    if (depth >= 4) return false;
    if (!node->forced) return gmk_prune_is_trivial(b, p);
    return index > 0 && !gmk_prune_blocks_four(b, p) && distracted(b, p);
}

int gmk_prune_reduction(const gmk_board *b, gmk_pos p, int depth, int index,
                        const gmk_prune_node *node, bool killer, int history) {
    if (depth < 2 || index < 1) return 0;
    gmk_color me = gmk_board_side(b);
    double r = log(depth) * log(index + 1);
    if (!node->pv_node && !node->improving && r > 1) r += 1;
    if (node->pv_node) r -= 1;
    if (node->forced && !gmk_prune_blocks_four(b, p))
        r += (gmk_prune_distance_back(b, p, 1) > 4 ? 1.9 : 0) +
             (gmk_prune_distance_back(b, p, 2) > 4 ? 1.0 : 0);
    gmk_threat mine = (gmk_threat)b->cell[p].threat[me];
    bool attack = mine >= GMK_TH_THREE && mine != GMK_TH_FORBID;
    if (!node->pv_node && !attack && !node->forced && !killer) r += 1.0;
    r -= (history - HISTORY_NEUTRAL) /
         (depth > 5 ? (double)HISTORY_PER_PLY_DEEP : (double)HISTORY_PER_PLY_SHALLOW);
    int plies = (int)(r + 0.5);
    if (plies > depth - 2) plies = depth - 2; /* the reduced search keeps a ply */
    return plies < 0 ? 0 : plies;
}

int gmk_prune_reverse_futility_margin(int depth, bool improving) {
    int margin = REVERSE_FUTILITY_PER_PLY * (depth - 1 - (improving ? 1 : 0));
    return margin < 0 ? 0 : margin;
}

int gmk_prune_razor_margin(int depth) {
    if (depth < 1 || depth > 2) return -1;
    return 366 * (17 * depth * depth / 100 + 14 * depth + 19) / 100;
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
