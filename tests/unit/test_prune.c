/* test_prune.c: the selectivity rules of src/engine/prune.c keep their promises.
 *
 * For every position of the tactics suite where the side to move must defend (block, block3,
 * defend: a four, an open three, or a VCF the opponent would have if it moved twice), the
 * real defences are found by trying every candidate move against the threat solver. Then, at
 * every depth and every place in the move list, at least one real defence must be neither
 * skipped by the quiet-move rules (move counts, futility with an evaluation far under alpha),
 * no defence that makes or blocks a three or four may be skipped by them, and no block of a
 * four may be skipped by the near-horizon rule. The reductions, move counts and margins are
 * checked for their shape. (The search applies the move counts to every move only once a
 * move of the node holds; the tactics suite, test_tactics.c, checks the search as a whole.) */
#include <criterion/criterion.h>
#include <math.h>

#include "engine/engine.h"
#include "engine/movegen.h"
#include "engine/prune.h"
#include "engine/threat.h"
#include "support.h"

static gmk_threat_ctx solver;

/* After the mover plays m: can the opponent still win by VCF (a four it completes, or a
 * longer sequence)? */
static bool opponent_still_wins(gmk_board *b, gmk_pos m) {
    gmk_color me = b->side, opp = gmk_opponent(me);
    gmk_board_make(b, m);
    bool wins;
    if (b->count[me][GMK_TH_FIVE] > 0) {
        wins = false; /* our four: the opponent must block first; counted as a defence */
    } else {
        gmk_pos seq[GMK_THREAT_MAX_SEQ];
        int len;
        gmk_threat_ctx_clear(&solver);
        solver.nodes = 0;
        solver.node_limit = 1000000;
        wins = b->count[opp][GMK_TH_FIVE] > 0 || gmk_vcf(b, &solver, 60, seq, &len);
    }
    gmk_board_undo(b);
    return wins;
}

Test(prune, defences_are_never_all_pruned, .timeout = 300) {
    cr_assert(gmk_threat_ctx_init(&solver, 1 << 20));
    char path[1024];
    data_path("tactics.txt", path, sizeof path);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char line[4096];
    int cases = 0, line_no = 0;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        char kind[16], rule_name[16], moves[2048], answer[1024];
        if (line[0] == '#' ||
            sscanf(line, "%15s %15s %2047s %1023s", kind, rule_name, moves, answer) < 4)
            continue;
        if (strcmp(kind, "block") && strcmp(kind, "block3") && strcmp(kind, "defend")) continue;
        gmk_rule rule;
        gmk_move_list list;
        gmk_board b;
        char err[160];
        cr_assert(gmk_rule_parse(rule_name, &rule));
        cr_assert(gmk_notation_parse_moves(moves, 15, &list, err, sizeof err), "%s", err);
        cr_assert(gmk_move_list_to_board(&list, rule, &b));
        gmk_scored_move m[GMK_MAX_MOVES];
        bool forced;
        int n = gmk_movegen_generate(&b, m, &forced);
        gmk_movegen_sort(m, n);
        int defences = 0, kept = 0;
        for (int i = 0; i < n; i++) {
            if (opponent_still_wins(&b, m[i].pos)) continue;
            defences++;
            bool never_pruned = true;
            for (int depth = 1; depth <= 12; depth++)
                for (int index = 1; index < GMK_MAX_MOVES; index++) {
                    if (gmk_prune_late_move(&b, m[i].pos, depth, index, false, forced) ||
                        gmk_prune_futile(&b, m[i].pos, depth, index, -5000, 0, false, forced))
                        never_pruned = false;
                }
            if (never_pruned) kept++;
            if (forced || !gmk_prune_is_quiet(&b, m[i].pos))
                cr_expect(never_pruned, "line %d: defence %d of a forced or threat move pruned",
                          line_no, i);
            gmk_prune_node node = {.pv_node = false, .forced = forced, .improving = false};
            if (forced && gmk_prune_blocks_four(&b, m[i].pos))
                for (int depth = 1; depth <= 12; depth++)
                    for (int index = 0; index < GMK_MAX_MOVES; index++)
                        cr_expect_not(gmk_prune_near_horizon(&b, m[i].pos, depth, index, &node),
                                      "line %d: block %d skipped near the horizon", line_no, i);
        }
        cr_expect_gt(defences, 0, "line %d: no defence among the candidates", line_no);
        cr_expect_gt(kept, 0, "line %d: every one of %d defences may be pruned", line_no, defences);
        cases++;
    }
    fclose(f);
    gmk_threat_ctx_free(&solver);
    cr_assert_gt(cases, 10, "too few defence cases: %d", cases);
}

static void position(const char *moves, gmk_board *b) {
    gmk_move_list list;
    char err[100];
    cr_assert(gmk_notation_parse_moves(moves, 15, &list, err, sizeof err), "%s", err);
    cr_assert(gmk_move_list_to_board(&list, GMK_RULE_FREESTYLE, b));
}

Test(prune, reductions_keep_a_ply_and_spare_the_first_move) {
    gmk_board b;
    position("h8i9", &b);
    gmk_pos far = test_point("b2");
    cr_assert(gmk_prune_is_quiet(&b, far));
    for (int pv = 0; pv < 2; pv++)
        for (int improving = 0; improving < 2; improving++) {
            gmk_prune_node node = {.pv_node = pv, .forced = false, .improving = improving};
            for (int depth = 1; depth < 40; depth++)
                for (int index = 0; index < 100; index++) {
                    int r = gmk_prune_reduction(&b, far, depth, index, &node, false, 0);
                    cr_assert_leq(r, depth < 2 ? 0 : depth - 2, "depth %d index %d: %d", depth,
                                  index, r);
                    cr_assert_geq(r, 0);
                    if (index == 0) cr_assert_eq(r, 0);
                }
        }
    /* deeper and later means no less; a PV node, a good history and a killer mean no more */
    gmk_prune_node cut = {.pv_node = false, .forced = false, .improving = true};
    gmk_prune_node pv = {.pv_node = true, .forced = false, .improving = true};
    for (int depth = 2; depth < 30; depth++)
        for (int index = 1; index < 60; index++) {
            int r = gmk_prune_reduction(&b, far, depth, index, &cut, false, 0);
            cr_assert_geq(gmk_prune_reduction(&b, far, depth + 1, index, &cut, false, 0), r);
            cr_assert_geq(gmk_prune_reduction(&b, far, depth, index + 1, &cut, false, 0), r);
            cr_assert_leq(gmk_prune_reduction(&b, far, depth, index, &pv, false, 0), r);
            cr_assert_leq(gmk_prune_reduction(&b, far, depth, index, &cut, true, 0), r);
            cr_assert_leq(gmk_prune_reduction(&b, far, depth, index, &cut, false, 20000), r);
        }
    cr_assert_gt(gmk_prune_reduction(&b, far, 12, 30, &cut, false, 0),
                 gmk_prune_reduction(&b, far, 12, 30, &cut, false, 20000));
    cr_assert_gt(gmk_prune_reduction(&b, far, 12, 30, &cut, false, 0),
                 gmk_prune_reduction(&b, far, 3, 2, &cut, false, 0));
}

/* Black h8 i8 j8 (an open three), white far away; white to move must block. */
Test(prune, blocks_are_reduced_less_than_far_moves_and_never_trivial) {
    gmk_board b;
    position("h8a1i8o1j8", &b);
    gmk_pos block = test_point("k8"), far = test_point("c13");
    cr_assert_not(gmk_prune_is_quiet(&b, block));
    cr_assert_not(gmk_prune_is_trivial(&b, block));
    cr_assert(gmk_prune_blocks_four(&b, block));
    cr_assert_not(gmk_prune_blocks_four(&b, far));
    cr_assert(gmk_prune_is_trivial(&b, far));
    gmk_prune_node forced = {.pv_node = false, .forced = true, .improving = true};
    for (int depth = 2; depth < 20; depth++)
        for (int index = 1; index < 60; index++) {
            cr_assert_not(gmk_prune_late_move(&b, block, depth, index, false, false));
            cr_assert_not(gmk_prune_futile(&b, block, depth, index, -9000, 0, false, false));
            cr_assert_not(gmk_prune_near_horizon(&b, block, depth, index, &forced));
            cr_assert_leq(gmk_prune_reduction(&b, block, depth, index, &forced, false, 0),
                          gmk_prune_reduction(&b, far, depth, index, &forced, false, 0),
                          "depth %d index %d", depth, index);
        }
    cr_assert_lt(gmk_prune_reduction(&b, block, 12, 10, &forced, false, 0),
                 gmk_prune_reduction(&b, far, 12, 10, &forced, false, 0));
    /* near the horizon, far from both last moves, a move that blocks nothing is dropped */
    cr_assert(gmk_prune_near_horizon(&b, far, 3, 1, &forced));
    cr_assert_not(gmk_prune_near_horizon(&b, far, 4, 1, &forced));
    cr_assert_not(gmk_prune_near_horizon(&b, far, 3, 0, &forced));
    cr_assert_eq(gmk_prune_distance_back(&b, block, 1), 1);  /* j8, the last move */
    cr_assert_eq(gmk_prune_distance_back(&b, block, 2), 7);  /* o1, white's last */
    cr_assert_eq(gmk_prune_distance_back(&b, block, 9), 99); /* before the first move */
}

Test(prune, move_counts_and_margins_grow_with_depth) {
    for (int depth = 1; depth < 60; depth++) {
        int improving = gmk_prune_move_limit(depth, true),
            halved = gmk_prune_move_limit(depth, false);
        cr_assert_geq(halved, 1);
        cr_assert_geq(improving, halved);
        cr_assert_geq(gmk_prune_move_limit(depth + 1, true), improving, "depth %d", depth);
        cr_assert_geq(gmk_prune_move_limit(depth + 1, false), halved, "depth %d", depth);
        int margin = gmk_prune_reverse_futility_margin(depth, false);
        cr_assert_geq(margin, gmk_prune_reverse_futility_margin(depth, true));
        cr_assert_geq(gmk_prune_reverse_futility_margin(depth + 1, false), margin);
        cr_assert_geq(gmk_prune_reverse_futility_margin(depth, true), 0);
    }
    /* the table is the formula, 3 + depth^1.32, up to its last depth */
    for (int depth = 0; depth < 64; depth++)
        cr_assert_eq(gmk_prune_move_limit(depth, true), 3 + (int)pow(depth, 1.32), "depth %d",
                     depth);
    cr_assert_eq(gmk_prune_move_limit(200, true), gmk_prune_move_limit(63, true));
    cr_assert_eq(gmk_prune_move_limit(1, true), 4);
    cr_assert_eq(gmk_prune_move_limit(10, true), 23);
    cr_assert_eq(gmk_prune_move_limit(10, false), 11);
    cr_assert_gt(gmk_prune_reverse_futility_margin(8, false), 1000);
    cr_assert_eq(gmk_prune_razor_margin(0), -1);
    cr_assert_eq(gmk_prune_razor_margin(3), -1);
    cr_assert_gt(gmk_prune_razor_margin(2), gmk_prune_razor_margin(1));
    cr_assert_gt(gmk_prune_razor_margin(1), 0);
}
