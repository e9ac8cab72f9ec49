/* test_pattern.c: line classification (gmk_pattern_classify_line) on hand cases for each rule
 * variant, the threat combination, and the lookup tables against the classifier on every
 * reachable line key. */
#include <criterion/criterion.h>

#include "core/weights.h"
#include "support.h"

/* Classifies an 11-cell line written as text: '.' empty, 'X' own stone, 'O' opponent, '|'
 * wall. The middle character (index 5) must be 'X': the stone being played. */
static gmk_pattern line(const char *text, gmk_line_variant v) {
    cr_assert_eq(strlen(text), (size_t)GMK_LINE_LEN, "bad test line '%s'", text);
    cr_assert_eq(text[GMK_LINE_HALF], 'X', "test line '%s' has no stone in the middle", text);
    uint8_t cells[GMK_LINE_LEN];
    for (int i = 0; i < GMK_LINE_LEN; i++) {
        switch (text[i]) {
        case '.': cells[i] = 0; break;
        case 'X': cells[i] = 1; break;
        case 'O': cells[i] = 2; break;
        case '|': cells[i] = 3; break;
        default: cr_assert_fail("bad character in test line '%s'", text);
        }
    }
    return gmk_pattern_classify_line(cells, v);
}

#define EXPECT_LINE(text, v, want)                                                                 \
    do {                                                                                           \
        gmk_pattern got_ = line(text, v);                                                          \
        cr_expect_eq(got_, want, "'%s' variant %d: got %s, expected %s", text, v,                  \
                     gmk_pattern_name(got_), gmk_pattern_name(want));                              \
    } while (0)

static const gmk_line_variant all_variants[] = {GMK_LINE_FREE, GMK_LINE_EXACT, GMK_LINE_RENJU_BLACK,
                                                GMK_LINE_CARO};

Test(pattern_line, five) {
    for (int i = 0; i < 4; i++) {
        EXPECT_LINE("..XXXXX....", all_variants[i], GMK_PAT_F5);
        EXPECT_LINE(".....XXXXX.", all_variants[i], GMK_PAT_F5);
        EXPECT_LINE("|||XXXXX...", all_variants[i], GMK_PAT_F5); /* against the edge */
        EXPECT_LINE(".OXXXXX....", all_variants[i], GMK_PAT_F5); /* one side blocked */
    }
}

Test(pattern_line, overline) {
    EXPECT_LINE("..XXXXXX...", GMK_LINE_FREE, GMK_PAT_F5);
    EXPECT_LINE("..XXXXXX...", GMK_LINE_EXACT, GMK_PAT_OL);
    EXPECT_LINE("..XXXXXX...", GMK_LINE_RENJU_BLACK, GMK_PAT_OL);
    EXPECT_LINE("..XXXXXX...", GMK_LINE_CARO, GMK_PAT_OL);
    EXPECT_LINE("XXXXXXXXXXX", GMK_LINE_FREE, GMK_PAT_F5);
    EXPECT_LINE("XXXXXXXXXXX", GMK_LINE_RENJU_BLACK, GMK_PAT_OL);
    /* the overline is seen across the gap: filling the gap of XXX.XX makes six */
    EXPECT_LINE(".XXX.XX....", GMK_LINE_FREE, GMK_PAT_B4);
    EXPECT_LINE(".XXX.XX....", GMK_LINE_EXACT, GMK_PAT_B2);
    EXPECT_LINE(".XXX.XX....", GMK_LINE_RENJU_BLACK, GMK_PAT_B2);
    EXPECT_LINE(".XXX.XX....", GMK_LINE_CARO, GMK_PAT_B2);
    EXPECT_LINE("..XXXXX.X..", GMK_LINE_FREE, GMK_PAT_F5);
    EXPECT_LINE("..XXXXX.X..", GMK_LINE_EXACT, GMK_PAT_F5);
}

Test(pattern_line, open_four) {
    for (int i = 0; i < 4; i++) {
        EXPECT_LINE("...XXXX....", all_variants[i], GMK_PAT_F4);
        EXPECT_LINE("..XXXX.....", all_variants[i], GMK_PAT_F4);
    }
}

Test(pattern_line, four) {
    for (int i = 0; i < 4; i++) {
        EXPECT_LINE("..OXXXX....", all_variants[i], GMK_PAT_B4); /* closed by a stone */
        EXPECT_LINE("||XXXX.....", all_variants[i], GMK_PAT_B4); /* closed by the edge */
        EXPECT_LINE("...X.XXX...", all_variants[i], GMK_PAT_B4); /* split X.XXX */
        EXPECT_LINE("..XX.XX....", all_variants[i], GMK_PAT_B4); /* split XX.XX */
        EXPECT_LINE(".XXX.X.....", all_variants[i], GMK_PAT_B4); /* split XXX.X */
    }
    /* four whose second completion point would make six: exact rules see one four */
    EXPECT_LINE("..XXXX.X...", GMK_LINE_RENJU_BLACK, GMK_PAT_B4);
    EXPECT_LINE("..XXXX.X...", GMK_LINE_EXACT, GMK_PAT_B4);
    EXPECT_LINE("..XXXX.X...", GMK_LINE_CARO, GMK_PAT_B4);
    EXPECT_LINE("..XXXX.X...", GMK_LINE_FREE, GMK_PAT_F4); /* two winning points */
    /* dead row of four: no completion point */
    for (int i = 0; i < 4; i++) EXPECT_LINE("..OXXXXO...", all_variants[i], GMK_PAT_DEAD);
    /* a four whose only completion makes six is no four under exact rules */
    EXPECT_LINE(".XOXXXX.X..", GMK_LINE_RENJU_BLACK, GMK_PAT_DEAD);
    EXPECT_LINE(".XOXXXX.X..", GMK_LINE_FREE, GMK_PAT_B4);
}

Test(pattern_line, same_line_double_four) {
    /* X.XXX.X, XX.XX.XX, XXX.X.XXX with the stone in the middle part */
    static const char *const shapes[] = {"..X.XXX.X..", ".XX.XX.XX..", ".XXX.X.XXX."};
    for (int i = 0; i < 3; i++) {
        EXPECT_LINE(shapes[i], GMK_LINE_RENJU_BLACK, GMK_PAT_DF4);
        EXPECT_LINE(shapes[i], GMK_LINE_FREE, GMK_PAT_F4);
        EXPECT_LINE(shapes[i], GMK_LINE_EXACT, GMK_PAT_F4);
        EXPECT_LINE(shapes[i], GMK_LINE_CARO, GMK_PAT_F4);
    }
    /* the two ends of one straight four are one four, not two */
    EXPECT_LINE("...XXXX....", GMK_LINE_RENJU_BLACK, GMK_PAT_F4);
}

Test(pattern_line, threes) {
    for (int i = 0; i < 4; i++) {
        EXPECT_LINE("....XXX....", all_variants[i], GMK_PAT_F3);   /* .XXX. */
        EXPECT_LINE("..XX.X.....", all_variants[i], GMK_PAT_F3);   /* split three */
        EXPECT_LINE("...X.XX....", all_variants[i], GMK_PAT_F3);   /* split three */
        EXPECT_LINE("...OXXX....", all_variants[i], GMK_PAT_B3);   /* closed by a stone */
        EXPECT_LINE("|||XXX.....", all_variants[i], GMK_PAT_B3);   /* closed by the edge */
        EXPECT_LINE("..X..XX....", all_variants[i], GMK_PAT_B3);   /* X..XX */
        EXPECT_LINE("..OXXX.O...", all_variants[i], GMK_PAT_DEAD); /* no room for five */
    }
    /* O.XXX.O: no open four; in caro the only five would be blocked at both ends */
    EXPECT_LINE(".O.XXX.O...", GMK_LINE_FREE, GMK_PAT_B3);
    EXPECT_LINE(".O.XXX.O...", GMK_LINE_EXACT, GMK_PAT_B3);
    EXPECT_LINE(".O.XXX.O...", GMK_LINE_RENJU_BLACK, GMK_PAT_B3);
    EXPECT_LINE(".O.XXX.O...", GMK_LINE_CARO, GMK_PAT_DEAD);
    /* a three whose straight-four extensions all end in an overline */
    EXPECT_LINE("X..XXX..X..", GMK_LINE_RENJU_BLACK, GMK_PAT_B3);
    EXPECT_LINE("X..XXX..X..", GMK_LINE_FREE, GMK_PAT_F3);
}

Test(pattern_line, twos_and_ones) {
    for (int i = 0; i < 4; i++) {
        EXPECT_LINE("....XX.....", all_variants[i], GMK_PAT_F2);
        EXPECT_LINE("...X.X.....", all_variants[i], GMK_PAT_F2);
        EXPECT_LINE("...OXX.....", all_variants[i], GMK_PAT_B2);
        EXPECT_LINE(".....X.....", all_variants[i], GMK_PAT_F1);
        EXPECT_LINE("....OX.....", all_variants[i], GMK_PAT_B1);
        EXPECT_LINE("|||||X.....", all_variants[i], GMK_PAT_B1);
        EXPECT_LINE("..O..X.O...", all_variants[i], GMK_PAT_DEAD); /* four cells of room */
        EXPECT_LINE("|||||X...O.", all_variants[i], GMK_PAT_DEAD);
    }
    /* exactly five cells of room: a closed one, except in caro where that five is blocked */
    EXPECT_LINE("..O..X..O..", GMK_LINE_FREE, GMK_PAT_B1);
    EXPECT_LINE("..O..X..O..", GMK_LINE_RENJU_BLACK, GMK_PAT_B1);
    EXPECT_LINE("..O..X..O..", GMK_LINE_CARO, GMK_PAT_DEAD);
    EXPECT_LINE("|||||X...X.", GMK_LINE_CARO, GMK_PAT_B2);
}

Test(pattern_line, caro_blocks) {
    /* exactly five blocked at both ends by opponent stones does not win */
    EXPECT_LINE(".OXXXXXO...", GMK_LINE_CARO, GMK_PAT_DEAD);
    EXPECT_LINE(".OXXXXXO...", GMK_LINE_FREE, GMK_PAT_F5);
    EXPECT_LINE(".OXXXXXO...", GMK_LINE_EXACT, GMK_PAT_F5);
    EXPECT_LINE(".OXXXXXO...", GMK_LINE_RENJU_BLACK, GMK_PAT_F5);
    /* the edge is not a block: edge + opponent still wins */
    EXPECT_LINE("|XXXXXO....", GMK_LINE_CARO, GMK_PAT_F5);
    EXPECT_LINE("|||||XXXXXO", GMK_LINE_CARO, GMK_PAT_F5);
    /* a blocked gap beyond the stone: .O.XXXXXO -> five, since the left end is empty */
    EXPECT_LINE("O.XXXXXO...", GMK_LINE_CARO, GMK_PAT_F5);
    /* a four that can only complete into a blocked five is dead in caro, alive elsewhere */
    EXPECT_LINE(".OXXXX.O...", GMK_LINE_CARO, GMK_PAT_DEAD);
    EXPECT_LINE(".OXXXX.O...", GMK_LINE_FREE, GMK_PAT_B4);
    EXPECT_LINE(".OXXXX.O...", GMK_LINE_EXACT, GMK_PAT_B4);
    EXPECT_LINE("....OXX.XXO", GMK_LINE_CARO, GMK_PAT_DEAD);
    EXPECT_LINE("....OXX.XXO", GMK_LINE_FREE, GMK_PAT_B4);
    /* one more empty cell before the blocker and the five is no longer blocked */
    EXPECT_LINE(".OXXXX..O..", GMK_LINE_CARO, GMK_PAT_B4);
    /* walls are not opponent stones: the same four against the edge is alive in caro */
    EXPECT_LINE("||XXXX.O...", GMK_LINE_CARO, GMK_PAT_B4);
    EXPECT_LINE("||||XX.XXO.", GMK_LINE_CARO, GMK_PAT_B4);
    /* renju black treats the edge like a stone for threes: no open four against it */
    EXPECT_LINE("|||XXX.....", GMK_LINE_RENJU_BLACK, GMK_PAT_B3);
    EXPECT_LINE("...OXXX....", GMK_LINE_RENJU_BLACK, GMK_PAT_B3);
}

Test(pattern_line, variant_of) {
    cr_expect_eq(gmk_line_variant_of(GMK_RULE_FREESTYLE, GMK_BLACK), GMK_LINE_FREE);
    cr_expect_eq(gmk_line_variant_of(GMK_RULE_FREESTYLE, GMK_WHITE), GMK_LINE_FREE);
    cr_expect_eq(gmk_line_variant_of(GMK_RULE_STANDARD, GMK_BLACK), GMK_LINE_EXACT);
    cr_expect_eq(gmk_line_variant_of(GMK_RULE_STANDARD, GMK_WHITE), GMK_LINE_EXACT);
    cr_expect_eq(gmk_line_variant_of(GMK_RULE_RENJU, GMK_BLACK), GMK_LINE_RENJU_BLACK);
    cr_expect_eq(gmk_line_variant_of(GMK_RULE_RENJU, GMK_WHITE), GMK_LINE_FREE);
    cr_expect_eq(gmk_line_variant_of(GMK_RULE_CARO, GMK_BLACK), GMK_LINE_CARO);
    cr_expect_eq(gmk_line_variant_of(GMK_RULE_CARO, GMK_WHITE), GMK_LINE_CARO);
}

static gmk_threat threat4(int a, int b, int c, int d, gmk_line_variant v) {
    uint8_t pat[GMK_DIRS] = {(uint8_t)a, (uint8_t)b, (uint8_t)c, (uint8_t)d};
    return gmk_threat_of(pat, v);
}

Test(pattern_threat, combinations) {
    const int D = GMK_PAT_DEAD;
    const gmk_line_variant F = GMK_LINE_FREE, R = GMK_LINE_RENJU_BLACK;
    cr_expect_eq(threat4(D, D, D, D, F), GMK_TH_NONE);
    cr_expect_eq(threat4(GMK_PAT_F2, GMK_PAT_B3, D, D, F), GMK_TH_NONE);
    cr_expect_eq(threat4(GMK_PAT_F3, D, D, D, F), GMK_TH_THREE);
    cr_expect_eq(threat4(GMK_PAT_F3, GMK_PAT_F3, D, D, F), GMK_TH_DOUBLE_THREE);
    cr_expect_eq(threat4(GMK_PAT_F3, GMK_PAT_F3, D, D, R), GMK_TH_FORBID);
    cr_expect_eq(threat4(GMK_PAT_B4, D, D, D, F), GMK_TH_FOUR);
    cr_expect_eq(threat4(GMK_PAT_B4, GMK_PAT_F3, D, D, F), GMK_TH_FOUR_THREE);
    cr_expect_eq(threat4(GMK_PAT_B4, GMK_PAT_F3, D, D, R), GMK_TH_FOUR_THREE); /* 4x3 legal */
    cr_expect_eq(threat4(GMK_PAT_F4, D, D, D, F), GMK_TH_OPEN_FOUR);
    cr_expect_eq(threat4(GMK_PAT_F4, D, D, D, R), GMK_TH_OPEN_FOUR);
    cr_expect_eq(threat4(GMK_PAT_B4, GMK_PAT_B4, D, D, F), GMK_TH_OPEN_FOUR);
    cr_expect_eq(threat4(GMK_PAT_B4, GMK_PAT_B4, D, D, R), GMK_TH_FORBID);
    cr_expect_eq(threat4(GMK_PAT_DF4, D, D, D, R), GMK_TH_FORBID);
    cr_expect_eq(threat4(GMK_PAT_OL, D, D, D, R), GMK_TH_FORBID);
    cr_expect_eq(threat4(GMK_PAT_OL, D, D, D, F), GMK_TH_NONE);
    /* five beats everything, forbidden shapes included */
    cr_expect_eq(threat4(GMK_PAT_F5, GMK_PAT_OL, D, D, R), GMK_TH_FIVE);
    cr_expect_eq(threat4(GMK_PAT_F5, GMK_PAT_B4, GMK_PAT_B4, D, R), GMK_TH_FIVE);
    cr_expect_eq(threat4(D, D, D, GMK_PAT_F5, F), GMK_TH_FIVE);
    /* the score of a forbidden cell is 0; others are not negative */
    uint8_t forb[GMK_DIRS] = {GMK_PAT_F3, GMK_PAT_F3, GMK_PAT_DEAD, GMK_PAT_DEAD};
    cr_expect_eq(gmk_shape_score(forb, GMK_RULE_RENJU, GMK_BLACK), 0);
    cr_expect_gt(gmk_shape_score(forb, GMK_RULE_RENJU, GMK_WHITE), 0);
    cr_expect_gt(gmk_shape_score(forb, GMK_RULE_FREESTYLE, GMK_BLACK), 0);
}

Test(pattern_threat, names) {
    cr_expect_str_eq(gmk_pattern_name(GMK_PAT_F5), "F5");
    cr_expect_str_eq(gmk_pattern_name(GMK_PAT_DEAD), "dead");
    cr_expect_str_eq(gmk_pattern_name((gmk_pattern)99), "?");
}

/* ---- tables against the classifier ---------------------------------------------------------
 * A reachable key has, on each side, zero to five walls at the far end and any of empty /
 * black / white nearer the cell: 364 choices per side, 132,496 keys. Every one is checked,
 * for both colours of every rule that uses the variant. */

enum { SIDE_CHOICES = 364 };

/* side[i][d] = cell at distance d+1 on one side, for the i-th side choice. */
static void side_choices(uint8_t side[SIDE_CHOICES][GMK_LINE_HALF]) {
    int m = 0;
    for (int walls = 0; walls <= GMK_LINE_HALF; walls++) {
        int free_cells = GMK_LINE_HALF - walls, combos = 1;
        for (int i = 0; i < free_cells; i++) combos *= 3;
        for (int t = 0; t < combos; t++) {
            int rest = t;
            for (int d = 0; d < GMK_LINE_HALF; d++) {
                if (d < free_cells) {
                    side[m][d] = (uint8_t)(rest % 3);
                    rest /= 3;
                } else {
                    side[m][d] = 3;
                }
            }
            m++;
        }
    }
    cr_assert_eq(m, SIDE_CHOICES);
}

/* Key of the line cells[] as the board stores it, with `own` the colour of the line's owner. */
static uint32_t board_key(const uint8_t cells[GMK_LINE_LEN], gmk_color own) {
    uint32_t key = 0;
    for (int k = -GMK_LINE_HALF; k <= GMK_LINE_HALF; k++) {
        if (k == 0) continue;
        uint32_t c = cells[GMK_LINE_HALF + k];
        if (own == GMK_WHITE && (c == 1 || c == 2)) c = 3 - c; /* own 1 -> white 2 */
        key |= c << gmk_key_shift(k);
    }
    return key;
}

static void check_tables_for_variant(gmk_line_variant v) {
    static uint8_t side[SIDE_CHOICES][GMK_LINE_HALF];
    side_choices(side);
    /* the tables that must follow variant v */
    const gmk_pattern_tables *tables[2 * GMK_RULE_COUNT];
    gmk_color owners[2 * GMK_RULE_COUNT];
    int n = 0;
    for (gmk_rule r = GMK_RULE_FREESTYLE; r < GMK_RULE_COUNT; r++)
        for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++)
            if (gmk_line_variant_of(r, c) == v) {
                tables[n] = gmk_pattern_tables_for(r);
                owners[n++] = c;
            }
    cr_assert_gt(n, 0);
    long keys = 0, mismatches = 0;
    for (int l = 0; l < SIDE_CHOICES; l++)
        for (int r = 0; r < SIDE_CHOICES; r++) {
            uint8_t cells[GMK_LINE_LEN];
            cells[GMK_LINE_HALF] = 1;
            for (int d = 0; d < GMK_LINE_HALF; d++) {
                cells[GMK_LINE_HALF - 1 - d] = side[l][d];
                cells[GMK_LINE_HALF + 1 + d] = side[r][d];
            }
            gmk_pattern want = gmk_pattern_classify_line(cells, v);
            keys++;
            for (int t = 0; t < n; t++) {
                uint8_t got = gmk_pattern_lookup(tables[t], owners[t], board_key(cells, owners[t]));
                if (got == want) continue;
                if (++mismatches <= 20) {
                    char text[GMK_LINE_LEN + 1];
                    for (int i = 0; i < GMK_LINE_LEN; i++) text[i] = ".XO|"[cells[i]];
                    text[GMK_LINE_LEN] = '\0';
                    cr_expect_fail("variant %d, table %d (colour %d): '%s' table %s, classifier %s",
                                   v, t, owners[t], text, gmk_pattern_name(got),
                                   gmk_pattern_name(want));
                }
            }
        }
    cr_expect_eq(keys, (long)SIDE_CHOICES * SIDE_CHOICES);
    cr_expect_eq(mismatches, 0, "variant %d: %ld mismatches", v, mismatches);
}

Test(pattern_tables, free_all_keys, .timeout = 120) {
    check_tables_for_variant(GMK_LINE_FREE);
}
Test(pattern_tables, exact_all_keys, .timeout = 120) {
    check_tables_for_variant(GMK_LINE_EXACT);
}
Test(pattern_tables, renju_black_all_keys, .timeout = 120) {
    check_tables_for_variant(GMK_LINE_RENJU_BLACK);
}
Test(pattern_tables, caro_all_keys, .timeout = 120) {
    check_tables_for_variant(GMK_LINE_CARO);
}

/* The combination class counts open twos and closed threes up to two, and notes any open three
 * and any four (a same-line double four is a four). */
Test(pattern_threat, combination_classes) {
    enum { D = GMK_PAT_DEAD, F2 = GMK_PAT_F2, B3 = GMK_PAT_B3, F3 = GMK_PAT_F3, B4 = GMK_PAT_B4 };
    uint8_t none[GMK_DIRS] = {D, GMK_PAT_B2, GMK_PAT_F1, GMK_PAT_F5};
    uint8_t two_twos[GMK_DIRS] = {F2, D, F2, D};
    uint8_t three_twos[GMK_DIRS] = {F2, F2, F2, D};
    uint8_t three_and_two[GMK_DIRS] = {F3, F2, D, D};
    uint8_t four_two_closed_three[GMK_DIRS] = {B4, F2, B3, D};
    uint8_t double_four_line[GMK_DIRS] = {GMK_PAT_DF4, B3, B3, B3};
    cr_expect_eq(gmk_combo_of(none), 0);
    cr_expect_eq(gmk_combo_of(two_twos), 2);
    cr_expect_eq(gmk_combo_of(three_twos), 2);
    cr_expect_eq(gmk_combo_of(three_and_two), 1 + 9);
    cr_expect_eq(gmk_combo_of(four_two_closed_three), 1 + 3 + 18);
    cr_expect_eq(gmk_combo_of(double_four_line), 6 + 18);
    cr_expect_lt(gmk_combo_of(four_two_closed_three), GMK_COMBO_COUNT);
}

/* The threat read by tally, and the score summed from the weights, are gmk_threat_of and
 * gmk_shape_score of every combination of four patterns. */
Test(pattern_tables, threat_and_score_tables) {
    for (gmk_rule r = GMK_RULE_FREESTYLE; r < GMK_RULE_COUNT; r++) {
        const gmk_pattern_tables *t = gmk_pattern_tables_for(r);
        for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
            gmk_line_variant v = gmk_line_variant_of(r, c);
            long bad = 0, combos = 0;
            for (int i = 0; i < GMK_PAT_COUNT * GMK_PAT_COUNT * GMK_PAT_COUNT * GMK_PAT_COUNT;
                 i++) {
                uint8_t pat[GMK_DIRS];
                int rest = i, weights = 0;
                for (int d = GMK_DIRS - 1; d >= 0; d--) {
                    pat[d] = (uint8_t)(rest % GMK_PAT_COUNT);
                    rest /= GMK_PAT_COUNT;
                    weights += gmk_shape_weights_of(t->weights, c)->pattern[pat[d]];
                }
                int tally = gmk_pattern_tally(pat);
                cr_assert(tally >= 0 && tally < GMK_TALLY_COUNT);
                gmk_threat threat = (gmk_threat)t->threat_by_tally[c][tally];
                if (threat != gmk_threat_of(pat, v)) bad++;
                int minor = gmk_minor_tally(pat);
                cr_assert(minor >= 0 && minor < GMK_MINOR_TALLY_COUNT);
                if (t->combo_by_minor[minor] != gmk_combo_of(pat)) bad++;
                if (gmk_score_of(t->threat_bonus[c], threat, weights) != gmk_shape_score(pat, r, c))
                    bad++;
                combos++;
            }
            cr_expect_eq(combos, 20736);
            cr_expect_eq(bad, 0, "rule %d colour %d: %ld combinations differ", r, c, bad);
        }
    }
    /* an out-of-range rule falls back to freestyle rather than crashing */
    cr_expect_eq(gmk_pattern_tables_for((gmk_rule)99), gmk_pattern_tables_for(GMK_RULE_FREESTYLE));
}
