/* test_smoke.c: the core library links and a board starts empty. */
#include <criterion/criterion.h>

#include "core/gmk.h"

Test(smoke, empty_board) {
    gmk_board b;
    cr_assert_eq(gmk_board_init(&b, 15, GMK_RULE_FREESTYLE), GMK_OK);
    cr_assert_eq(b.move_count, 0);
    cr_assert_eq(gmk_board_side(&b), GMK_BLACK);
    cr_assert(gmk_board_check(&b));
}
