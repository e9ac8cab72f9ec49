/* test_differential.c: the fast, incremental machinery against slow definitions, on thousands
 * of seeded random positions.
 *
 * 1. Patterns: for every empty cell, colour and direction, the board's incremental pattern
 *    (gmk_cell_pattern) must equal what gmk_pattern_classify_line says about the 11 cells
 *    read straight from b->stone by (x, y) coordinates (walls off the board), and the cell's
 *    threat, score and the board's per-threat counts must follow from those patterns.
 * 2. Renju: on every empty point, gmk_renju_forbidden (pattern pre-filter + exact check) must
 *    equal gmk_renju_classify (exact check alone), on positions dense with black stones so
 *    that forbidden points really occur. */
#include <criterion/criterion.h>

#include "support.h"

/* (dx, dy) of the four directions, matching gmk_dir_step: +x, +y, +x+y, -x+y. */
static const int dir_dx[GMK_DIRS] = {1, 0, 1, -1};
static const int dir_dy[GMK_DIRS] = {0, 1, 1, 1};

/* ---- the slow scanner ---------------------------------------------------------------------- */

/* The 11 cells through (x, y) along direction d, seen by colour `own`: 0 empty, 1 own, 2 the
 * opponent, 3 off the board. The middle cell is the stone being played. */
static void read_line(const gmk_board *b, int x, int y, int d, gmk_color own,
                      uint8_t cells[GMK_LINE_LEN]) {
    for (int k = -GMK_LINE_HALF; k <= GMK_LINE_HALF; k++) {
        int cx = x + k * dir_dx[d], cy = y + k * dir_dy[d];
        uint8_t v;
        if (k == 0)
            v = 1;
        else if (cx < 0 || cy < 0 || cx >= b->size || cy >= b->size)
            v = 3;
        else if (b->stone[gmk_pos_xy(cx, cy)] == GMK_EMPTY)
            v = 0;
        else
            v = b->stone[gmk_pos_xy(cx, cy)] == own ? 1 : 2;
        cells[GMK_LINE_HALF + k] = v;
    }
}

/* gmk_pattern_classify_line is slow (an exhaustive search over the line), so its answers are
 * remembered per variant and line contents: a pure function's cache, keyed here by the cells
 * themselves in base 4, independent of the library's key layout. */
static uint8_t *slow_cache[GMK_LINE_VARIANTS];

static gmk_pattern slow_pattern(const uint8_t cells[GMK_LINE_LEN], gmk_line_variant v) {
    if (!slow_cache[v]) {
        slow_cache[v] = malloc((size_t)1 << 20);
        cr_assert_not_null(slow_cache[v]);
        memset(slow_cache[v], 0xFF, (size_t)1 << 20);
    }
    uint32_t key = 0;
    for (int i = 0; i < GMK_LINE_LEN; i++)
        if (i != GMK_LINE_HALF) key = key * 4 + cells[i];
    if (slow_cache[v][key] == 0xFF)
        slow_cache[v][key] = (uint8_t)gmk_pattern_classify_line(cells, v);
    return (gmk_pattern)slow_cache[v][key];
}

typedef struct {
    long positions, cells, mismatches;
} diff_stats;

/* Compares every empty cell of b with the slow scanner; reports the first few mismatches. */
static void check_patterns(const gmk_board *b, const char *label, diff_stats *st) {
    int count[3][GMK_TH_COUNT] = {{0}};
    int32_t sum[3] = {0};
    st->positions++;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (b->stone[p] != GMK_EMPTY) continue;
            st->cells++;
            for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
                gmk_line_variant v = gmk_line_variant_of(b->rule, c);
                uint8_t pat[GMK_DIRS];
                for (int d = 0; d < GMK_DIRS; d++) {
                    uint8_t cells[GMK_LINE_LEN];
                    read_line(b, x, y, d, c, cells);
                    pat[d] = (uint8_t)slow_pattern(cells, v);
                    if (pat[d] != gmk_cell_pattern(&b->cell[p], c, d) && ++st->mismatches <= 10) {
                        char text[GMK_LINE_LEN + 1];
                        for (int i = 0; i < GMK_LINE_LEN; i++) text[i] = ".XO|"[cells[i]];
                        text[GMK_LINE_LEN] = '\0';
                        cr_expect_fail(
                            "%s: cell %d,%d colour %d dir %d line '%s': board %s, "
                            "slow %s",
                            label, x, y, c, d, text,
                            gmk_pattern_name((gmk_pattern)gmk_cell_pattern(&b->cell[p], c, d)),
                            gmk_pattern_name((gmk_pattern)pat[d]));
                    }
                }
                gmk_threat t = gmk_threat_of(pat, v);
                int s = gmk_shape_score(pat, b->rule, c);
                int board_score = gmk_board_cell_score(b, p, c);
                if ((t != b->cell[p].threat[c] || s != board_score) && ++st->mismatches <= 10)
                    cr_expect_fail("%s: cell %d,%d colour %d: threat %d score %d, slow %d %d",
                                   label, x, y, c, b->cell[p].threat[c], board_score, t, s);
                count[c][t]++;
                sum[c] += s;
            }
        }
    for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++)
        if ((memcmp(count[c], b->count[c], sizeof count[c]) != 0 ||
             sum[c] != gmk_board_score_sum(b, c)) &&
            ++st->mismatches <= 10)
            cr_expect_fail("%s: colour %d: threat counts or score sum differ", label, c);
}

/* A random empty point: mostly near an existing stone (so that shapes form), sometimes anywhere. */
static gmk_pos random_point(const gmk_board *b, test_rng *rng) {
    for (;;) {
        int x, y;
        if (b->move_count > 0 && rng_below(rng, 10) < 7) {
            gmk_pos near = b->moves[rng_below(rng, b->move_count)];
            x = gmk_pos_x(near) + rng_below(rng, 5) - 2;
            y = gmk_pos_y(near) + rng_below(rng, 5) - 2;
        } else {
            x = rng_below(rng, b->size);
            y = rng_below(rng, b->size);
        }
        if (gmk_board_on(b, x, y) && b->stone[gmk_pos_xy(x, y)] == GMK_EMPTY)
            return gmk_pos_xy(x, y);
    }
}

static const int pattern_sizes[] = {5, 9, 15, 20, 22};

/* Random games with take-backs; every position along the way is compared. */
static void pattern_games(gmk_rule rule) {
    static gmk_board b;
    diff_stats st = {0};
    for (size_t s = 0; s < sizeof pattern_sizes / sizeof pattern_sizes[0]; s++) {
        int size = pattern_sizes[s];
        int games = size == 5 ? 10 : 3, plies = size * size < 120 ? size * size : 120;
        for (int g = 0; g < games; g++) {
            test_rng rng = {(uint64_t)(77 + 1000 * rule + 100 * size + g)};
            gmk_board_init(&b, size, rule);
            char label[64];
            snprintf(label, sizeof label, "rule %s size %d game %d", gmk_rule_name(rule), size, g);
            while (b.move_count < plies && !gmk_board_full(&b)) {
                if (b.move_count > 2 && rng_below(&rng, 6) == 0) {
                    gmk_board_undo(&b);
                } else {
                    gmk_board_make(&b, random_point(&b, &rng));
                }
                check_patterns(&b, label, &st);
            }
            while (b.move_count > 0) { /* and all the way back */
                gmk_board_undo(&b);
                if (b.move_count % 7 == 0) check_patterns(&b, label, &st);
            }
        }
    }
    cr_log_info("patterns, rule %s: %ld positions, %ld empty cells, %ld mismatches",
                gmk_rule_name(rule), st.positions, st.cells, st.mismatches);
    cr_expect_gt(st.positions, 1000);
    cr_expect_eq(st.mismatches, 0);
}

Test(differential_patterns, freestyle, .timeout = 300) {
    pattern_games(GMK_RULE_FREESTYLE);
}
Test(differential_patterns, standard, .timeout = 300) {
    pattern_games(GMK_RULE_STANDARD);
}
Test(differential_patterns, renju, .timeout = 300) {
    pattern_games(GMK_RULE_RENJU);
}
Test(differential_patterns, caro, .timeout = 300) {
    pattern_games(GMK_RULE_CARO);
}

/* Dense, one-sided positions: long lines of one colour next to walls of the other, the shapes
 * that exercise overlines, blocked fives and split fours. */
Test(differential_patterns, dense_lines, .timeout = 300) {
    static gmk_board b;
    diff_stats st = {0};
    for (int round = 0; round < 48; round++) {
        test_rng rng = {(uint64_t)(9000 + round)};
        gmk_rule rule = (gmk_rule)(round % GMK_RULE_COUNT);
        int size = pattern_sizes[rng_below(&rng, 5)];
        gmk_board_init(&b, size, rule);
        int stones = size * size * (30 + rng_below(&rng, 40)) / 100;
        int black_share = 50 + rng_below(&rng, 40);
        for (int i = 0; i < stones; i++) {
            gmk_pos p;
            if (b.move_count > 0 && rng_below(&rng, 3)) { /* extend a line */
                gmk_pos from = b.moves[rng_below(&rng, b.move_count)];
                int d = rng_below(&rng, GMK_DIRS), k = rng_below(&rng, 3) + 1;
                if (rng_below(&rng, 2)) k = -k;
                int x = gmk_pos_x(from) + k * dir_dx[d], y = gmk_pos_y(from) + k * dir_dy[d];
                if (!gmk_board_on(&b, x, y)) continue;
                p = gmk_pos_xy(x, y);
                if (b.stone[p] != GMK_EMPTY) continue;
            } else {
                p = random_point(&b, &rng);
            }
            gmk_board_put(&b, p, rng_below(&rng, 100) < black_share ? GMK_BLACK : GMK_WHITE);
            if (i % 3 == 0) {
                char label[64];
                snprintf(label, sizeof label, "dense round %d", round);
                check_patterns(&b, label, &st);
            }
        }
    }
    cr_log_info("patterns, dense: %ld positions, %ld empty cells, %ld mismatches", st.positions,
                st.cells, st.mismatches);
    cr_expect_gt(st.positions, 800);
    cr_expect_eq(st.mismatches, 0);
}

/* ---- renju: pre-filter + exact against exact alone ----------------------------------------- */

typedef struct {
    long positions, points, candidates, fouls[5], mismatches;
} renju_stats;

static void check_forbidden(const gmk_board *b, const char *label, renju_stats *st) {
    st->positions++;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (b->stone[p] != GMK_EMPTY) continue;
            st->points++;
            gmk_forbid_kind exact = gmk_renju_classify(b, p);
            gmk_forbid_kind fast = gmk_renju_forbidden(b, p);
            bool candidate = gmk_renju_is_candidate(b, p);
            st->candidates += candidate;
            st->fouls[exact]++;
            gmk_forbid_kind want = gmk_forbid_is_foul(exact) ? exact : GMK_FORBID_NONE;
            if (fast != want || (gmk_forbid_is_foul(exact) && !candidate)) {
                if (++st->mismatches <= 10) {
                    char moves[4 * GMK_MAX_MOVES + 1];
                    gmk_notation_moves(b, moves, sizeof moves);
                    cr_expect_fail("%s: point %d,%d: exact %s, fast %s, candidate %d; stones "
                                   "(black/white as put) %s",
                                   label, x, y, rc_verdict_name(exact), rc_verdict_name(fast),
                                   candidate, moves);
                }
            }
        }
}

/* A cluster of stones, mostly black, around a random centre (edges and corners included). */
static void black_heavy_cluster(gmk_board *b, test_rng *rng) {
    int size = b->size;
    int cx = rng_below(rng, size), cy = rng_below(rng, size);
    int radius = 3 + rng_below(rng, 3);
    int stones = 12 + rng_below(rng, 24);
    int black_share = 60 + rng_below(rng, 25);
    for (int i = 0, tries = 0; i < stones && tries < 1000; tries++) {
        int x = cx + rng_below(rng, 2 * radius + 1) - radius;
        int y = cy + rng_below(rng, 2 * radius + 1) - radius;
        if (!gmk_board_on(b, x, y) || b->stone[gmk_pos_xy(x, y)] != GMK_EMPTY) continue;
        gmk_board_put(b, gmk_pos_xy(x, y),
                      rng_below(rng, 100) < black_share ? GMK_BLACK : GMK_WHITE);
        i++;
    }
    b->side = GMK_BLACK;
}

static void renju_positions(int first_seed, int count, renju_stats *st) {
    static gmk_board b;
    static const int sizes[] = {15, 15, 15, 9, 22};
    for (int i = 0; i < count; i++) {
        test_rng rng = {(uint64_t)(first_seed + i)};
        gmk_board_init(&b, sizes[rng_below(&rng, 5)], GMK_RULE_RENJU);
        int clusters = 1 + rng_below(&rng, 2);
        for (int c = 0; c < clusters; c++) black_heavy_cluster(&b, &rng);
        char label[64];
        snprintf(label, sizeof label, "renju seed %d size %d", first_seed + i, b.size);
        check_forbidden(&b, label, st);
        /* and the same position after a few more black stones, one at a time: the status of
         * far points changes with them */
        for (int k = 0; k < 3; k++) {
            gmk_pos p = random_point(&b, &rng);
            gmk_board_put(&b, p, GMK_BLACK);
            check_forbidden(&b, label, st);
        }
        /* and again after taking them back */
        for (int k = 0; k < 3; k++) gmk_board_undo(&b);
        check_forbidden(&b, label, st);
    }
}

Test(differential_renju, forbidden_matches_exact, .timeout = 300) {
    renju_stats st = {0};
    renju_positions(1, 1500, &st);
    long fouls = st.fouls[GMK_FORBID_OVERLINE] + st.fouls[GMK_FORBID_DOUBLE_FOUR] +
                 st.fouls[GMK_FORBID_DOUBLE_THREE];
    cr_log_info("renju: %ld positions, %ld empty points, %ld candidates, %ld forbidden "
                "(%ld overline, %ld double-four, %ld double-three), %ld fives, %ld mismatches",
                st.positions, st.points, st.candidates, fouls, st.fouls[GMK_FORBID_OVERLINE],
                st.fouls[GMK_FORBID_DOUBLE_FOUR], st.fouls[GMK_FORBID_DOUBLE_THREE],
                st.fouls[GMK_FORBID_FIVE], st.mismatches);
    cr_expect_eq(st.mismatches, 0);
    /* the test can only fail if forbidden points actually occur: at least 1% of the points
     * checked, and every kind */
    cr_expect_gt(fouls * 100, st.points, "only %ld forbidden points in %ld", fouls, st.points);
    cr_expect_gt(st.fouls[GMK_FORBID_OVERLINE], 50);
    cr_expect_gt(st.fouls[GMK_FORBID_DOUBLE_FOUR], 50);
    cr_expect_gt(st.fouls[GMK_FORBID_DOUBLE_THREE], 50);
}

/* Positions reached by play under renju rules (black never plays a foul), checked every move. */
Test(differential_renju, along_games, .timeout = 300) {
    static gmk_board b;
    renju_stats st = {0};
    for (int g = 0; g < 60; g++) {
        test_rng rng = {(uint64_t)(500 + g)};
        gmk_board_init(&b, 15, GMK_RULE_RENJU);
        char label[64];
        snprintf(label, sizeof label, "renju game %d", g);
        while (b.move_count < 100) {
            gmk_pos p = random_point(&b, &rng);
            if (gmk_rules_check_move(&b, p, NULL) != GMK_MOVE_LEGAL) continue;
            gmk_board_make(&b, p);
            gmk_result r;
            gmk_rules_result_after_last(&b, &r);
            if (r.outcome != GMK_ONGOING) break;
            if (b.side == GMK_WHITE) {
                /* white answers anywhere, often far away */
                gmk_pos w;
                do w = gmk_pos_xy(rng_below(&rng, 15), rng_below(&rng, 15));
                while (b.stone[w] != GMK_EMPTY);
                gmk_board_make(&b, w);
                gmk_rules_result_after_last(&b, &r);
                if (r.outcome != GMK_ONGOING) break;
            }
            check_forbidden(&b, label, &st);
        }
    }
    cr_log_info("renju games: %ld positions, %ld points, %ld overline, %ld double-four, "
                "%ld double-three, %ld mismatches",
                st.positions, st.points, st.fouls[GMK_FORBID_OVERLINE],
                st.fouls[GMK_FORBID_DOUBLE_FOUR], st.fouls[GMK_FORBID_DOUBLE_THREE], st.mismatches);
    cr_expect_gt(st.positions, 1000);
    cr_expect_eq(st.mismatches, 0);
}

/* The slow scanner is the definition only if it is right: spot checks against hand cases. */
Test(differential_patterns, scanner_sanity) {
    static gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_STANDARD);
    /* black e8 f8 g8 h8 (row 8 = y 7); white nothing */
    for (int x = 4; x < 8; x++) gmk_board_put(&b, gmk_pos_xy(x, 7), GMK_BLACK);
    uint8_t cells[GMK_LINE_LEN];
    read_line(&b, 8, 7, 0, GMK_BLACK, cells);
    cr_expect_eq(slow_pattern(cells, GMK_LINE_EXACT), GMK_PAT_F5);
    read_line(&b, 3, 7, 0, GMK_BLACK, cells);
    cr_expect_eq(slow_pattern(cells, GMK_LINE_EXACT), GMK_PAT_F5);
    read_line(&b, 9, 7, 0, GMK_BLACK, cells); /* j8: filling i8 makes six */
    cr_expect_eq(slow_pattern(cells, GMK_LINE_FREE), GMK_PAT_B4);
    cr_expect_neq(slow_pattern(cells, GMK_LINE_EXACT), GMK_PAT_B4);
    read_line(&b, 8, 7, 0, GMK_WHITE, cells); /* white i8: room only to the right */
    cr_expect_eq(slow_pattern(cells, GMK_LINE_EXACT), GMK_PAT_B1);
    /* the corner: a line off the board is walls */
    read_line(&b, 0, 0, 2, GMK_BLACK, cells);
    for (int k = 0; k < GMK_LINE_HALF; k++) cr_expect_eq(cells[k], 3);
    cr_expect_eq(cells[GMK_LINE_HALF + 1], 0);
    read_line(&b, 14, 0, 3, GMK_BLACK, cells); /* anti-diagonal: +1 step is x-1, y+1 */
    cr_expect_eq(cells[GMK_LINE_HALF + 1], 0);
    cr_expect_eq(cells[GMK_LINE_HALF - 1], 3);
    cr_expect_eq(gmk_pos_xy(14, 0) + gmk_dir_step[3], gmk_pos_xy(13, 1));
    for (int d = 0; d < GMK_DIRS; d++)
        cr_expect_eq(gmk_pos_xy(7, 7) + gmk_dir_step[d], gmk_pos_xy(7 + dir_dx[d], 7 + dir_dy[d]),
                     "direction %d", d);
}
