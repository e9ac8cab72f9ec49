/* test_prune.c: the selectivity rules of src/engine/prune.c never drop a forced defence.
 *
 * For every position of the tactics suite where the side to move must defend (block, block3,
 * defend: a four, an open three, or a VCF the opponent would have if it moved twice), the
 * real defences are found by trying every candidate move against the threat solver. Then, at
 * every depth and every place in the move list, at least one real defence must be neither
 * skipped by move-count pruning nor by futility pruning (with an evaluation far under alpha,
 * where futility prunes all it may), and no defence that makes or blocks a three or four may
 * be reduced or skipped. The reduction table is checked for its shape. */
#include <criterion/criterion.h>

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
        }
        cr_expect_gt(defences, 0, "line %d: no defence among the candidates", line_no);
        cr_expect_gt(kept, 0, "line %d: every one of %d defences may be pruned", line_no, defences);
        cases++;
    }
    fclose(f);
    gmk_threat_ctx_free(&solver);
    cr_assert_gt(cases, 10, "too few defence cases: %d", cases);
}

Test(prune, reductions_grow_with_depth_and_move_number) {
    static gmk_prune_table t;
    gmk_prune_init(&t);
    for (int d = 1; d < GMK_PRUNE_DEPTHS; d++)
        for (int i = 1; i < GMK_PRUNE_MOVES; i++) {
            cr_assert_geq(t.r[d][i], t.r[d - 1][i], "depth %d move %d", d, i);
            cr_assert_geq(t.r[d][i], t.r[d][i - 1], "depth %d move %d", d, i);
        }
    cr_assert_eq(t.r[8][0], 0);
    cr_assert_gt(t.r[10][30], t.r[3][3]);
    /* applied: never below one ply, never to the first move or to a shallow node */
    gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    gmk_board_make(&b, gmk_pos_xy(7, 7));
    gmk_board_make(&b, gmk_pos_xy(8, 8));
    gmk_pos far = gmk_pos_xy(1, 1);
    cr_assert(gmk_prune_is_quiet(&b, far));
    for (int depth = 1; depth < 40; depth++)
        for (int index = 0; index < 100; index++) {
            int r = gmk_prune_reduction(&t, &b, far, depth, index, false, false, false);
            cr_assert_leq(r, depth < 3 ? 0 : depth - 2, "depth %d index %d: %d", depth, index, r);
            if (index == 0) cr_assert_eq(r, 0);
            cr_assert_eq(gmk_prune_reduction(&t, &b, far, depth, index, false, true, false), 0);
        }
}

Test(prune, threats_and_blocks_are_never_pruned_or_reduced) {
    static gmk_prune_table t;
    gmk_prune_init(&t);
    gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    /* black h8 i8 j8 (an open three), white far away; white to move */
    const char *moves = "h8a1i8o1j8";
    gmk_move_list list;
    char err[100];
    cr_assert(gmk_notation_parse_moves(moves, 15, &list, err, sizeof err));
    cr_assert(gmk_move_list_to_board(&list, GMK_RULE_FREESTYLE, &b));
    gmk_pos block;
    cr_assert(gmk_notation_parse_point("k8", 15, &block, err, sizeof err));
    cr_assert_not(gmk_prune_is_quiet(&b, block));
    for (int depth = 1; depth < 20; depth++)
        for (int index = 1; index < 100; index++) {
            cr_assert_not(gmk_prune_late_move(&b, block, depth, index, false, false));
            cr_assert_not(gmk_prune_futile(&b, block, depth, index, -9000, 0, false, false));
            cr_assert_eq(gmk_prune_reduction(&t, &b, block, depth, index, false, false, false), 0);
        }
}

/* A quiet move that builds the mover's own shape is reduced a ply less than one that builds
 * nothing; the opponent's shape at the point does not matter (a move there is searched before
 * the stone is placed, and the rule reads the mover's side of it). */
Test(prune, building_moves_are_reduced_less) {
    static gmk_prune_table t;
    gmk_prune_init(&t);
    gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    /* black h8, j8 and h10, white far away at a1, o15 and a15; black to move */
    gmk_move_list list;
    char err[100];
    cr_assert(gmk_notation_parse_moves("h8a1j8o15h10a15", 15, &list, err, sizeof err));
    cr_assert(gmk_move_list_to_board(&list, GMK_RULE_FREESTYLE, &b));
    gmk_pos build = GMK_POS_NONE, far;
    for (int y = 0; y < 15 && build == GMK_POS_NONE; y++)
        for (int x = 0; x < 15 && build == GMK_POS_NONE; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (gmk_board_empty_at(&b, p) && gmk_prune_is_quiet(&b, p) &&
                gmk_movegen_shape(&b, p, GMK_BLACK) >= 40)
                build = p;
        }
    cr_assert_neq(build, GMK_POS_NONE, "no quiet point builds a shape");
    cr_assert(gmk_notation_parse_point("d4", 15, &far, err, sizeof err));
    cr_assert(gmk_prune_is_quiet(&b, far));
    cr_assert_lt(gmk_movegen_shape(&b, far, GMK_BLACK), 40);
    int r_build = gmk_prune_reduction(&t, &b, build, 12, 20, false, false, false);
    int r_far = gmk_prune_reduction(&t, &b, far, 12, 20, false, false, false);
    cr_assert_eq(r_build, r_far - 1, "building %d, far %d", r_build, r_far);
    /* with white to move, that point is on black's shapes but builds nothing of white's */
    cr_assert(gmk_board_empty_at(&b, gmk_pos_xy(14, 7)));
    gmk_board_make(&b, gmk_pos_xy(14, 7));
    cr_assert_lt(gmk_movegen_shape(&b, build, GMK_WHITE), 40);
    cr_assert_eq(gmk_prune_reduction(&t, &b, build, 12, 20, false, false, false),
                 gmk_prune_reduction(&t, &b, far, 12, 20, false, false, false));
}
