/* test_coach.c: the coach's sentences (game/coach.h) for fixed positions, in English and
 * Chinese: fours and open threes with their stones, a forced win by fours, no forced win, a
 * renju double three with both threes, a point that is not forbidden, why the last move lost
 * with the defence that would have stopped it, a five, and a board left unchanged. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "core/gmk.h"
#include "game/coach.h"

static char buf[8192];

static gmk_board board(const char *moves, gmk_rule rule) {
    gmk_move_list list;
    char err[128];
    cr_assert(gmk_notation_parse_moves(moves, 15, &list, err, sizeof err), "%s", err);
    gmk_board b;
    cr_assert(gmk_move_list_to_board(&list, rule, &b));
    return b;
}

static gmk_pos pt(const char *name) {
    gmk_pos p;
    char err[64];
    cr_assert(gmk_notation_parse_point(name, 15, &p, err, sizeof err));
    return p;
}

/* The text has exactly this line. */
static void has_line(const char *line) {
    char want[600];
    snprintf(want, sizeof want, "%s\n", line);
    const char *at = strstr(buf, want);
    cr_assert(at && (at == buf || at[-1] == '\n'), "missing line \"%s\" in:\n%s", line, buf);
}

Test(coach, a_four_and_no_forced_win) {
    gmk_board b = board("h8h7h9i9h10i10h11", GMK_RULE_FREESTYLE);
    cr_assert_eq(gmk_coach_position(&b, false, buf, sizeof buf), 2);
    has_line("Black has a four (h8 h9 h10 h11): five at h12.");
    has_line("White, to move, has no forced win by fours or threes.");
    gmk_coach_position(&b, true, buf, sizeof buf);
    has_line("黑方有冲四（h8 h9 h10 h11）：h12 成五。");
    has_line("轮到白方，没有连续冲四或活三的必胜。");
}

Test(coach, an_open_three_and_a_forced_win) {
    gmk_board b = board("h8a1h9a2h10a3", GMK_RULE_FREESTYLE);
    gmk_coach_position(&b, false, buf, sizeof buf);
    has_line("Black has an open three (h8 h9 h10): h7 or h11 makes an open four.");
    has_line("Black wins by fours (VCF): h11.");
    cr_assert_null(strstr(buf, "White has"), "white's a1 a2 a3 is no three: %s", buf);
    gmk_coach_position(&b, true, buf, sizeof buf);
    has_line("黑方有活三（h8 h9 h10）：下 h7 或 h11 成活四。");
    has_line("黑方有连续冲四胜（VCF）：h11。");
}

Test(coach, an_open_four) {
    gmk_board b = board("h8a1h9a2h10a3h11", GMK_RULE_FREESTYLE);
    gmk_coach_position(&b, false, buf, sizeof buf);
    has_line("Black has an open four (h8 h9 h10 h11): five at h7 or h12, and both cannot be "
             "stopped.");
}

Test(coach, a_renju_double_three) {
    gmk_board b = board("i8a1j8a2h9a3h10a5", GMK_RULE_RENJU);
    cr_assert_eq(gmk_coach_forbidden(&b, pt("h8"), false, buf, sizeof buf), 3);
    has_line("h8 is forbidden for black: a double three, two open threes at once.");
    has_line("With i8 j8: an open three.");
    has_line("With h9 h10: an open three.");
    gmk_coach_forbidden(&b, pt("h8"), true, buf, sizeof buf);
    has_line("h8 是黑棋禁手：三三，一子同时成两个活三。");
    has_line("与 h9 h10：成活三。");
    gmk_coach_forbidden(&b, pt("o15"), false, buf, sizeof buf);
    has_line("o15 is not forbidden for black.");
    gmk_board f = board("i8a1j8a2h9a3h10a5", GMK_RULE_FREESTYLE);
    gmk_coach_forbidden(&f, pt("h8"), false, buf, sizeof buf);
    has_line("h8 is not forbidden: only black has forbidden points, in renju.");
}

Test(coach, why_the_last_move_lost, .timeout = 30) {
    gmk_board b = board("h8h7h9i9h10i10h11i8", GMK_RULE_FREESTYLE);
    gmk_board copy = b;
    cr_assert_eq(gmk_coach_last_move(&b, false, buf, sizeof buf), 3);
    has_line("After White's i8:");
    has_line("Black wins by fours (VCF): h12.");
    has_line("White at h12 instead would have stopped it.");
    cr_assert_eq(memcmp(&b, &copy, sizeof b), 0, "the board is left as it was");
    gmk_coach_last_move(&b, true, buf, sizeof buf);
    has_line("白方下 i8 之后：");
    has_line("白方若下在 h12 就能防住。");
    /* leaving an open three: the block at one end would have held */
    gmk_board t = board("h8i9h9i10h10a1", GMK_RULE_FREESTYLE);
    gmk_coach_last_move(&t, false, buf, sizeof buf);
    has_line("After White's a1:");
    cr_assert(strstr(buf, "instead would have stopped it."), "%s", buf);
}

Test(coach, a_five_and_a_quiet_move) {
    gmk_board b = board("h8a1h9a2h10a3h11a4h12", GMK_RULE_FREESTYLE);
    gmk_coach_last_move(&b, false, buf, sizeof buf);
    has_line("Black's h12 made five: h8 h9 h10 h11 h12.");
    gmk_board q = board("h8i9", GMK_RULE_FREESTYLE);
    gmk_coach_last_move(&q, false, buf, sizeof buf);
    has_line("White's i9 did not lose by force: Black has no forced win by fours or threes.");
    gmk_board e;
    gmk_board_init(&e, 15, GMK_RULE_FREESTYLE);
    gmk_coach_last_move(&e, true, buf, sizeof buf);
    has_line("还没有落子。");
}

Test(coach, a_small_buffer_is_cut_at_a_line) {
    gmk_board b = board("h8h7h9i9h10i10h11", GMK_RULE_FREESTYLE);
    char small[60];
    int n = gmk_coach_position(&b, false, small, sizeof small);
    cr_assert_eq(n, 1, "one line fits");
    cr_assert_eq(small[strlen(small) - 1], '\n');
}
