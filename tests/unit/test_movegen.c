/* test_movegen.c: the forced defences against an open three or a double four. movegen finds
 * them without making each candidate (a stone only weakens the opponent's lines), except for
 * renju with black to stop; here every empty cell is made and the opponent's open-four points
 * counted, in positions from seeded random games on every rule, and the two lists must hold
 * the same blocks. The ordering score of a move is the policy (policy.h) of the rule, read
 * here from each line's patterns as the mover and the opponent see them, plus bonuses that
 * depend only on the threats the move makes and blocks; the hand-set order of levels 1-2 has
 * the same bonuses and the hand-set shape scores instead of the policy. */
#include <criterion/criterion.h>

#include "engine/movegen.h"
#include "engine/policy.h"
#include "support.h"

/* A random move near the last stones, or anywhere empty; GMK_POS_NONE when the board is full. */
static gmk_pos random_move(gmk_board *b, test_rng *rng) {
    for (int tries = 0; tries < 50; tries++) {
        gmk_pos last = gmk_board_last(b);
        int x, y;
        if (last == GMK_POS_NONE) {
            x = b->size / 2, y = b->size / 2;
        } else {
            x = gmk_pos_x(last) + rng_below(rng, 5) - 2;
            y = gmk_pos_y(last) + rng_below(rng, 5) - 2;
        }
        if (!gmk_board_on(b, x, y)) continue;
        gmk_pos p = gmk_pos_xy(x, y);
        if (gmk_movegen_legal(b, p)) return p;
    }
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            if (gmk_movegen_legal(b, gmk_pos_xy(x, y))) return gmk_pos_xy(x, y);
    return GMK_POS_NONE;
}

/* Marks every legal move that, once made, leaves the opponent no open-four point. */
static int blocks_by_making(gmk_board *b, bool block[GMK_CELLS]) {
    gmk_color opp = gmk_opponent(gmk_board_side(b));
    int n = 0;
    memset(block, 0, GMK_CELLS * sizeof block[0]);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (!gmk_movegen_legal(b, p)) continue;
            gmk_board_make(b, p);
            block[p] = b->count[opp][GMK_TH_OPEN_FOUR] == 0;
            gmk_board_undo(b);
            n += block[p];
        }
    return n;
}

static void check_rule(gmk_rule rule, int games, long *positions) {
    test_rng rng = {0xDEFE4CE5u + (uint64_t)rule};
    static gmk_board b;
    static bool block[GMK_CELLS];
    gmk_scored_move moves[GMK_MAX_MOVES];
    for (int g = 0; g < games; g++) {
        gmk_board_init(&b, 15, rule);
        for (int ply = 0; ply < 120; ply++) {
            gmk_color me = gmk_board_side(&b), opp = gmk_opponent(me);
            if (b.count[me][GMK_TH_FIVE] || b.count[opp][GMK_TH_FIVE]) break;
            if (b.count[opp][GMK_TH_OPEN_FOUR] > 0) {
                int want = blocks_by_making(&b, block);
                bool forced;
                int n = gmk_movegen_generate(&b, moves, &forced);
                int got = 0, strays = 0;
                for (int i = 0; forced && i < n; i++) {
                    gmk_pos p = moves[i].pos;
                    gmk_threat t = gmk_movegen_threat(&b, p, me);
                    if (block[p])
                        got++;
                    else if (t != GMK_TH_FOUR && t != GMK_TH_FOUR_THREE)
                        strays++; /* a forced list holds blocks and the mover's fours only */
                }
                if (want > 0 || forced) {
                    cr_assert(forced && got == want && strays == 0,
                              "rule %d game %d ply %d: forced %d, %d of %d blocks listed, %d "
                              "other moves",
                              rule, g, ply, forced, got, want, strays);
                }
                (*positions)++;
            }
            gmk_pos p = random_move(&b, &rng);
            if (p == GMK_POS_NONE) break;
            gmk_board_make(&b, p);
        }
    }
}

Test(movegen, defences_are_exactly_the_blocks, .timeout = 120) {
    for (gmk_rule rule = GMK_RULE_FREESTYLE; rule < GMK_RULE_COUNT; rule++) {
        long positions = 0;
        check_rule(rule, 200, &positions);
        /* the random games must reach many threats, or the test checks nothing */
        cr_expect_gt(positions, 500, "rule %d: only %ld positions with a threat", rule, positions);
    }
}

/* The policy's score of p for the side to move, from its patterns, classes and threats. */
static int policy_score(const gmk_board *b, gmk_pos p) {
    const gmk_policy_weights *w = gmk_policy_for(b->rule);
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    const gmk_cell *cell = &b->cell[p];
    uint8_t mine[GMK_DIRS], theirs[GMK_DIRS];
    gmk_cell_patterns(cell, me, mine);
    gmk_cell_patterns(cell, opp, theirs);
    int s = w->mine_combo[cell->combo[me]] + w->theirs_combo[cell->combo[opp]] +
            w->mine_threat[cell->threat[me]] + w->theirs_threat[cell->threat[opp]];
    for (int d = 0; d < GMK_DIRS; d++) s += w->line[mine[d] * GMK_PAT_COUNT + theirs[d]];
    return s;
}

/* The same timeout as the test above: with 60 here, Criterion's runner leaked 48 bytes under
 * LeakSanitizer (make test BUILD=asan) in every run, and never with the two equal. */
Test(movegen, order_is_the_policy_plus_threat_bonuses, .timeout = 120) {
    for (gmk_rule rule = GMK_RULE_FREESTYLE; rule < GMK_RULE_COUNT; rule++) {
        test_rng rng = {0x0DE12u + (uint64_t)rule};
        static gmk_board b;
        gmk_scored_move moves[GMK_MAX_MOVES];
        long compared = 0;
        for (int g = 0; g < 40; g++) {
            gmk_board_init(&b, 15, rule);
            /* the bonus seen for each (mover's threat, opponent's threat) */
            int bonus[GMK_TH_COUNT][GMK_TH_COUNT];
            bool seen[GMK_TH_COUNT][GMK_TH_COUNT] = {{false}};
            for (int ply = 0; ply < 80; ply++) {
                gmk_color me = gmk_board_side(&b), opp = gmk_opponent(me);
                if (b.count[me][GMK_TH_FIVE] || b.count[opp][GMK_TH_FIVE]) break;
                bool forced;
                int n = gmk_movegen_generate(&b, moves, &forced);
                for (int i = 0; i < n && b.move_count > 0; i++) {
                    gmk_pos p = moves[i].pos;
                    int mine = gmk_movegen_threat(&b, p, me), theirs = b.cell[p].threat[opp];
                    int rest = moves[i].score - policy_score(&b, p);
                    if (!seen[mine][theirs]) {
                        seen[mine][theirs] = true;
                        bonus[mine][theirs] = rest;
                    }
                    cr_assert_eq(rest, bonus[mine][theirs],
                                 "rule %d game %d ply %d: the order of %d is %d, the policy %d: "
                                 "a bonus of %d where another move with threats %d/%d had %d",
                                 rule, g, ply, p, moves[i].score, policy_score(&b, p), rest, mine,
                                 theirs, bonus[mine][theirs]);
                    compared++;
                }
                /* levels 1-2: the same bonuses, then the hand-set shape scores */
                gmk_movegen_order_by_hand(&b, moves, n);
                for (int i = 0; i < n && b.move_count > 0; i++) {
                    gmk_pos p = moves[i].pos;
                    int mine = gmk_movegen_threat(&b, p, me), theirs = b.cell[p].threat[opp];
                    int shape = 2 * gmk_movegen_shape(&b, p, me) + gmk_movegen_shape(&b, p, opp);
                    cr_assert_eq(moves[i].score - shape, bonus[mine][theirs],
                                 "rule %d game %d ply %d: the hand order of %d is %d, its shape "
                                 "%d, the bonus for threats %d/%d %d",
                                 rule, g, ply, p, moves[i].score, shape, mine, theirs,
                                 bonus[mine][theirs]);
                }
                gmk_pos p = random_move(&b, &rng);
                if (p == GMK_POS_NONE) break;
                gmk_board_make(&b, p);
            }
        }
        cr_expect_gt(compared, 10000, "rule %d: only %ld moves compared", rule, compared);
    }
}

/* The search tries the table's move before it generates the others, when the opponent has no
 * open-four threat, once gmk_movegen_is_candidate accepts it: that must be exactly the cells
 * the generator lists there (and none while it narrows the list to defences). */
Test(movegen, candidate_check_is_the_generated_list, .timeout = 120) {
    for (gmk_rule rule = GMK_RULE_FREESTYLE; rule < GMK_RULE_COUNT; rule++) {
        test_rng rng = {0xCA4D1u + (uint64_t)rule};
        static gmk_board b;
        gmk_scored_move moves[GMK_MAX_MOVES];
        long compared = 0, narrowed = 0;
        for (int g = 0; g < 40; g++) {
            gmk_board_init(&b, 15, rule);
            for (int ply = 0; ply < 100; ply++) {
                gmk_color me = gmk_board_side(&b), opp = gmk_opponent(me);
                if (b.count[me][GMK_TH_FIVE] || b.count[opp][GMK_TH_FIVE]) break;
                bool forced;
                int n = gmk_movegen_generate(&b, moves, &forced);
                bool listed[GMK_CELLS] = {false};
                for (int i = 0; i < n; i++) listed[moves[i].pos] = true;
                if (gmk_movegen_must_defend(&b)) {
                    narrowed += forced;
                } else if (b.move_count > 0) {
                    cr_assert(!forced, "rule %d game %d ply %d: narrowed with no threat", rule, g,
                              ply);
                    for (gmk_pos p = 0; p < GMK_CELLS; p++) {
                        cr_assert_eq(gmk_movegen_is_candidate(&b, p), listed[p],
                                     "rule %d game %d ply %d: cell %d listed %d", rule, g, ply, p,
                                     listed[p]);
                        compared++;
                    }
                }
                cr_assert(!gmk_movegen_is_candidate(&b, GMK_POS_NONE));
                gmk_pos p = random_move(&b, &rng);
                if (p == GMK_POS_NONE) break;
                gmk_board_make(&b, p);
            }
        }
        cr_expect_gt(narrowed, 20, "rule %d: only %ld narrowed lists", rule, narrowed);
        cr_expect_gt(compared, 100000, "rule %d: only %ld cells compared", rule, compared);
    }
}
