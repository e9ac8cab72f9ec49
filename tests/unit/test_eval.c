/* test_eval.c: the static evaluation against the model that tools/texel.c fits (weights.h),
 * recomputed here from each empty cell's four patterns over seeded random games on every rule,
 * and the limits the generated weights must respect to fit the board's sums. */
#include <criterion/criterion.h>

#include "core/weights.h"
#include "engine/eval.h"
#include "support.h"

/* The evaluation as weights.h defines it, from the patterns alone. */
static int model_eval(const gmk_board *b) {
    const gmk_weights *set = gmk_weights_for(b->rule);
    const gmk_eval_weight_set *w = &set->eval;
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    long sum[3] = {0, 0, 0}, combo_sum[3] = {0, 0, 0};
    int count[3][GMK_TH_COUNT] = {{0}};
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (!gmk_board_empty_at(b, p)) continue;
            for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
                uint8_t pat[GMK_DIRS];
                gmk_cell_patterns(&b->cell[p], c, pat);
                gmk_threat t = gmk_threat_of(pat, gmk_line_variant_of(b->rule, c));
                count[c][t]++;
                if (t == GMK_TH_FORBID) continue;
                int combo = gmk_combo_of(pat);
                combo_sum[c] += c == me ? w->mine_combo[combo] : -w->theirs_combo[combo];
                const gmk_shape_weights *shape = gmk_shape_weights_of(set, c);
                sum[c] += shape->threat[t];
                for (int d = 0; d < GMK_DIRS; d++) sum[c] += shape->pattern[pat[d]];
            }
        }
    long v = (sum[me] * w->mover - sum[opp] * w->opponent) / 16 + w->tempo + combo_sum[me] +
             combo_sum[opp];
    for (int t = GMK_TH_THREE; t < GMK_TH_FORBID; t++)
        v += (long)w->mine[t] * count[me][t] - (long)w->theirs[t] * count[opp][t];
    if (count[me][GMK_TH_FOUR_THREE] > 0)
        v += w->four_three;
    else if (count[me][GMK_TH_DOUBLE_THREE] > 0 && count[opp][GMK_TH_FOUR] == 0 &&
             count[opp][GMK_TH_FOUR_THREE] == 0)
        v += w->double_three;
    if (v > GMK_EVAL_LIMIT) v = GMK_EVAL_LIMIT;
    if (v < -GMK_EVAL_LIMIT) v = -GMK_EVAL_LIMIT;
    return (int)v;
}

Test(eval, matches_the_fitted_model_on_random_games) {
    test_rng rng = {20261201};
    int checked = 0, nonzero_threat_terms = 0;
    for (gmk_rule rule = 0; rule < GMK_RULE_COUNT; rule++)
        for (int game = 0; game < 30; game++) {
            gmk_board b;
            gmk_board_init(&b, 15, rule);
            gmk_board_make(&b, gmk_pos_xy(7, 7));
            for (int ply = 0; ply < 120 && !gmk_board_full(&b); ply++) {
                int expected = model_eval(&b), got = gmk_eval(&b);
                cr_assert_eq(got, expected, "rule %d game %d ply %d: eval %d, model %d", rule, game,
                             ply, got, expected);
                checked++;
                gmk_color me = gmk_board_side(&b);
                if (b.count[me][GMK_TH_THREE] || b.count[me][GMK_TH_FOUR]) nonzero_threat_terms++;
                /* a random empty cell near the stones; stop when the game is won */
                gmk_pos p;
                do p = gmk_pos_xy(rng_below(&rng, 15), rng_below(&rng, 15));
                while (!gmk_board_empty_at(&b, p) || !b.near[p]);
                if (b.cell[p].threat[me] == GMK_TH_FIVE) break;
                gmk_board_make(&b, p);
            }
        }
    cr_assert_gt(checked, 5000);
    cr_assert_gt(nonzero_threat_terms, 100, "the games should reach threes and fours");
}

Test(eval, weights_fit_the_board_sums) {
    /* pattern weights are summed per colour in 16 bits, and a cell's score is an int16 */
    for (gmk_rule rule = 0; rule < GMK_RULE_COUNT; rule++) {
        const gmk_weights *set = gmk_weights_for(rule);
        for (int c = 0; c < 2; c++) {
            const gmk_shape_weights *shape = &set->shape[c];
            int max_weight = 0, max_bonus = 0;
            for (int p = 0; p < GMK_PAT_COUNT; p++) {
                cr_assert_geq(shape->pattern[p], 0, "rule %d colour %d pattern %d", rule, c, p);
                if (shape->pattern[p] > max_weight) max_weight = shape->pattern[p];
            }
            for (int t = 0; t < GMK_TH_COUNT; t++) {
                cr_assert_geq(shape->threat[t], 0, "rule %d colour %d threat %d", rule, c, t);
                if (shape->threat[t] > max_bonus) max_bonus = shape->threat[t];
            }
            cr_assert_lt(4 * max_weight + max_bonus, 32768);
            cr_assert_eq(shape->pattern[GMK_PAT_DEAD], 0);
            cr_assert_eq(shape->threat[GMK_TH_FORBID], 0, "a forbidden cell scores nothing");
        }
        cr_assert_gt(set->eval.mover, 0);
        cr_assert_gt(set->eval.opponent, 0);
    }
}

/* Renju has a set of its own; standard and caro play with freestyle's, and so does a rule
 * number out of range. */
Test(eval, each_rule_has_its_set) {
    cr_assert_eq(gmk_weights_for(GMK_RULE_FREESTYLE), &gmk_weights_freestyle);
    cr_assert_eq(gmk_weights_for(GMK_RULE_RENJU), &gmk_weights_renju);
    cr_assert_eq(gmk_weights_for(GMK_RULE_STANDARD), &gmk_weights_freestyle);
    cr_assert_eq(gmk_weights_for(GMK_RULE_CARO), &gmk_weights_freestyle);
    cr_assert_eq(gmk_weights_for((gmk_rule)99), &gmk_weights_freestyle);
    for (gmk_rule rule = 0; rule < GMK_RULE_COUNT; rule++)
        cr_assert_eq(gmk_pattern_tables_for(rule)->weights, gmk_weights_for(rule));
}
