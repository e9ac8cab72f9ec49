/* test_eval.c: the static evaluation against the model that tools/texel.c and tools/evalnet.c
 * fit (weights.h, evalnet.h), recomputed here from each empty cell's four patterns over seeded
 * random games on every rule (the network's forward pass written out again, weight by weight),
 * the network's fixed-point arithmetic on a network set by hand, and the limits the generated
 * weights must respect to fit the board's sums. */
#include <criterion/criterion.h>

#include "core/weights.h"
#include "engine/eval.h"
#include "engine/evalnet.h"
#include "support.h"

/* The network's forward pass as evalnet.h defines it, unit by unit. */
static long model_net(const gmk_net_weights *net, const int in[GMK_NET_INPUTS]) {
    long out = 0;
    for (int j = 0; j < GMK_NET_HIDDEN; j++) {
        long acc = net->hidden_bias[j];
        for (int i = 0; i < GMK_NET_INPUTS; i++) acc += (long)in[i] * net->hidden_weight[i][j];
        if (acc > 0) out += acc * net->output_weight[j];
    }
    return net->output_bias + (out >> GMK_NET_SHIFT);
}

/* The evaluation as weights.h defines it, from the patterns alone. */
static int model_eval(const gmk_board *b) {
    const gmk_weights *set = gmk_weights_for(b->rule);
    const gmk_eval_weight_set *w = &set->eval;
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    long sum[3] = {0, 0, 0}, combo_sum[3] = {0, 0, 0};
    int count[3][GMK_TH_COUNT] = {{0}}, combo_count[3][GMK_COMBO_COUNT] = {{0}};
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (!gmk_board_empty_at(b, p)) continue;
            for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
                uint8_t pat[GMK_DIRS];
                gmk_cell_patterns(&b->cell[p], c, pat);
                gmk_threat t = gmk_threat_of(pat, gmk_line_variant_of(b->rule, c));
                count[c][t]++;
                if (t == GMK_TH_FORBID) {
                    combo_count[c][0]++; /* a forbidden point has no class */
                    continue;
                }
                int combo = gmk_combo_of(pat);
                combo_count[c][combo]++;
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
    const gmk_net_weights *net = gmk_net_for(b->rule);
    if (!net) return (int)v;
    int in[GMK_NET_INPUTS];
    for (int t = 0; t < GMK_TH_COUNT; t++) {
        in[t] = count[me][t];
        in[GMK_TH_COUNT + t] = count[opp][t];
    }
    for (int k = 0; k < GMK_COMBO_COUNT; k++) {
        in[GMK_NET_COMBO + k] = combo_count[me][k];
        in[GMK_NET_COMBO + GMK_COMBO_COUNT + k] = combo_count[opp][k];
    }
    in[GMK_NET_FLAGS] = count[me][GMK_TH_FOUR_THREE] > 0;
    in[GMK_NET_FLAGS + 1] = count[me][GMK_TH_FOUR_THREE] == 0 &&
                            count[me][GMK_TH_DOUBLE_THREE] > 0 && count[opp][GMK_TH_FOUR] == 0 &&
                            count[opp][GMK_TH_FOUR_THREE] == 0;
    v += model_net(net, in);
    if (v > GMK_EVAL_LIMIT) v = GMK_EVAL_LIMIT;
    if (v < -GMK_EVAL_LIMIT) v = -GMK_EVAL_LIMIT;
    return (int)v;
}

Test(eval, matches_the_fitted_model_on_random_games) {
    test_rng rng = {20261201};
    int checked = 0, nonzero_threat_terms = 0, net_moved = 0;
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
                net_moved += got != gmk_eval_linear(&b);
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
    cr_assert_gt(net_moved, checked / 4, "the network should change most evaluations (%d of %d)",
                 net_moved, checked);
}

/* A network set by hand: one hidden unit that reads input 5 at a half (0.5 = 512 / 1024) less
 * 1, and passes 10 evaluation units per unit of its value, and a second unit that is always
 * off. Below the unit's threshold only the output bias is left. */
Test(eval, network_arithmetic_on_a_hand_set_network) {
    static gmk_net_weights net;
    net.hidden_bias[0] = -1024;
    net.hidden_weight[5][0] = 512;
    net.output_weight[0] = 10;
    net.hidden_bias[1] = -1;
    net.output_weight[1] = 1000;
    net.output_bias = -3;
    uint8_t in[GMK_NET_INPUTS] = {0};
    in[5] = 6; /* 6 x 0.5 - 1 = 2: 2 x 10 - 3 */
    cr_assert_eq(gmk_net_output(&net, in), 17);
    in[5] = 2; /* 2 x 0.5 - 1 = 0: the unit is off */
    cr_assert_eq(gmk_net_output(&net, in), -3);
    in[5] = 1; /* negative: off */
    cr_assert_eq(gmk_net_output(&net, in), -3);
    in[5] = 255; /* the largest count: 126.5 x 10 */
    cr_assert_eq(gmk_net_output(&net, in), 1262);
    in[6] = 200; /* an input the units do not read */
    cr_assert_eq(gmk_net_output(&net, in), 1262);
}

/* Renju has a network of its own; standard and caro play with freestyle's. */
Test(eval, each_rule_has_its_network) {
    cr_assert_eq(gmk_net_for(GMK_RULE_FREESTYLE), &gmk_net_freestyle);
    cr_assert_eq(gmk_net_for(GMK_RULE_STANDARD), &gmk_net_freestyle);
    cr_assert_eq(gmk_net_for(GMK_RULE_CARO), &gmk_net_freestyle);
    cr_assert_eq(gmk_net_for(GMK_RULE_RENJU), &gmk_net_renju);
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
