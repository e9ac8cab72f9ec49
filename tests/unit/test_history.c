/* test_history.c: the search's move history (src/engine/history.c): a cut raises the cutting
 * move's entry and lowers the moves of its kind tried before it, entries stay within their
 * range however many cuts come, and attacks and quiet moves are kept apart. */
#include <criterion/criterion.h>

#include "engine/history.h"
#include "support.h"

static gmk_board board_of(const char *moves) {
    gmk_move_list list;
    gmk_board b;
    char err[100];
    cr_assert(gmk_notation_parse_moves(moves, 15, &list, err, sizeof err), "%s", err);
    cr_assert(gmk_move_list_to_board(&list, GMK_RULE_FREESTYLE, &b));
    return b;
}

/* Black h8 i8 (an open two), white far; black to move: g8 makes an open three (an attack),
 * d4 and c3 are quiet. */
Test(history, a_cut_rewards_the_move_and_punishes_the_tried) {
    static gmk_history h;
    gmk_history_clear(&h);
    gmk_board b = board_of("h8a1i8o1");
    gmk_pos attack = test_point("g8"), quiet = test_point("d4"), tried = test_point("c3");
    cr_assert(gmk_history_is_attack(&b, attack));
    cr_assert_not(gmk_history_is_attack(&b, quiet));
    gmk_history_tried t = {.nattack = 0, .nquiet = 0};
    gmk_history_note_tried(&t, &b, tried, false);
    cr_assert_eq(t.nquiet, 1);
    gmk_history_cut(&h, &b, quiet, false, 6, &t);
    cr_assert_gt(gmk_history_stat(&h, GMK_BLACK, quiet), 0);
    cr_assert_lt(gmk_history_stat(&h, GMK_BLACK, tried), 0);
    cr_assert_eq(gmk_history_stat(&h, GMK_WHITE, quiet), 0, "the other colour's entry moved");
    cr_assert_gt(gmk_history_order(&h, &b, quiet), gmk_history_order(&h, &b, tried));
    /* an attack's cut goes to the attack table, which counts double in the order */
    gmk_history_tried none = {.nattack = 0, .nquiet = 0};
    gmk_history_cut(&h, &b, attack, false, 6, &none);
    cr_assert_eq(h.quiet[GMK_BLACK][attack], 0);
    cr_assert_gt(h.attack[GMK_BLACK][attack], 0);
    cr_assert_eq(gmk_history_order(&h, &b, attack), h.attack[GMK_BLACK][attack] / 8);
    /* at a forced node quiet moves learn nothing */
    gmk_history_tried forced_tried = {.nattack = 0, .nquiet = 0};
    gmk_history_note_tried(&forced_tried, &b, tried, true);
    cr_assert_eq(forced_tried.nquiet, 0);
    int before = h.quiet[GMK_BLACK][test_point("e5")];
    gmk_history_cut(&h, &b, test_point("e5"), true, 6, &forced_tried);
    cr_assert_eq(h.quiet[GMK_BLACK][test_point("e5")], before);
}

Test(history, entries_stay_in_range) {
    static gmk_history h;
    gmk_history_clear(&h);
    gmk_board b = board_of("h8a1i8o1");
    gmk_pos up = test_point("d4"), down = test_point("c3");
    gmk_history_tried t = {.nattack = 0, .nquiet = 0};
    gmk_history_note_tried(&t, &b, down, false);
    int last = 0;
    for (int i = 0; i < 2000; i++) {
        gmk_history_cut(&h, &b, up, false, 1 + i % 40, &t);
        int v = h.quiet[GMK_BLACK][up];
        cr_assert_leq(v, GMK_HISTORY_RANGE);
        cr_assert_geq(h.quiet[GMK_BLACK][down], -GMK_HISTORY_RANGE);
        if (i < 5) cr_assert_geq(v, last, "a cut lowered the entry at %d", i);
        last = v;
    }
    cr_assert_gt(h.quiet[GMK_BLACK][up], GMK_HISTORY_RANGE / 2);
    cr_assert_lt(h.quiet[GMK_BLACK][down], -GMK_HISTORY_RANGE / 2);
    gmk_history_clear(&h);
    cr_assert_eq(h.quiet[GMK_BLACK][up], 0);
}
