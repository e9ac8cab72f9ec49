/* test_rules.c: win conditions of every rule (tests/data/rules/win_lines.txt, each line laid
 * along all four directions of a 15x15 board, both ways round), results of whole games by
 * gmk_rules_result, move legality, and rule names. */
#include <criterion/criterion.h>
#include <string.h>

#include "support.h"

/* ---- win_lines.txt ------------------------------------------------------------------------- */

typedef struct {
    int lineno;
    gmk_rule rule;
    gmk_color mover;
    char cells[16];
    char expect[16]; /* win | none | forbidden */
} win_case;

/* Parses the file; returns the number of cases, or -1 with a message. */
static int load_win_lines(win_case *out, int cap, char *err, size_t errlen) {
    char path[1024];
    data_path("rules/win_lines.txt", path, sizeof path);
    char *text = read_text_file(path);
    if (!text) {
        snprintf(err, errlen, "cannot read %.900s", path);
        return -1;
    }
    int n = 0, lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char rule[32], mover[8], cells[64], expect[32], extra[8];
        int got = sscanf(line, "%31s %7s %63s %31s %7s", rule, mover, cells, expect, extra);
        if (got <= 0) continue; /* blank or comment */
        if (got != 4) {
            snprintf(err, errlen, "line %d: expected 4 fields, got %d", lineno, got);
            n = -1;
            break;
        }
        if (n == cap) {
            snprintf(err, errlen, "too many cases");
            n = -1;
            break;
        }
        win_case *c = &out[n];
        c->lineno = lineno;
        if (!gmk_rule_parse(rule, &c->rule) || strlen(cells) != 15 ||
            (strcmp(mover, "X") && strcmp(mover, "O")) ||
            (strcmp(expect, "win") && strcmp(expect, "none") && strcmp(expect, "forbidden"))) {
            snprintf(err, errlen, "line %d: bad case", lineno);
            n = -1;
            break;
        }
        c->mover = mover[0] == 'X' ? GMK_BLACK : GMK_WHITE;
        memcpy(c->cells, cells, 16);
        strcpy(c->expect, expect);
        if (strspn(cells, ".XO*") != 15 || !strchr(cells, '*') ||
            strchr(cells, '*') != strrchr(cells, '*')) {
            snprintf(err, errlen, "line %d: bad cells", lineno);
            n = -1;
            break;
        }
        n++;
    }
    free(text);
    return n;
}

/* The i-th cell (0..14) of the line laid along placement `how` on a 15x15 board: 0 row, 1
 * column, 2 diagonal, 3 anti-diagonal; 4..7 the same, reversed. */
static gmk_pos placed(int how, int i) {
    if (how >= 4) i = 14 - i;
    switch (how & 3) {
    case 0: return gmk_pos_xy(i, 6);       /* row 9 */
    case 1: return gmk_pos_xy(9, i);       /* column j */
    case 2: return gmk_pos_xy(i, i);       /* a15..o1 */
    default: return gmk_pos_xy(i, 14 - i); /* a1..o15 */
    }
}

static const char *const placement_names[] = {
    "row",          "column",          "diagonal",          "anti-diagonal",
    "row reversed", "column reversed", "diagonal reversed", "anti-diagonal reversed"};

/* Runs one case in one placement; returns false (after reporting) on a mismatch. */
static bool run_win_case(const win_case *c, int how) {
    static gmk_board b;
    gmk_board_init(&b, 15, c->rule);
    gmk_pos star = GMK_POS_NONE;
    for (int i = 0; i < 15; i++) {
        gmk_pos p = placed(how, i);
        if (c->cells[i] == 'X') gmk_board_put(&b, p, GMK_BLACK);
        if (c->cells[i] == 'O') gmk_board_put(&b, p, GMK_WHITE);
        if (c->cells[i] == '*') star = p;
    }
    b.side = c->mover;
    const char *where = placement_names[how];
    gmk_forbid_kind kind = GMK_FORBID_NONE;
    gmk_move_verdict v = gmk_rules_check_move(&b, star, &kind);
    bool want_foul = strcmp(c->expect, "forbidden") == 0;
    bool ok = true;
    if (want_foul ? v != GMK_MOVE_FORBIDDEN || !gmk_forbid_is_foul(kind) : v != GMK_MOVE_LEGAL) {
        cr_expect_fail("win_lines.txt line %d (%s): gmk_rules_check_move says %d, kind %d",
                       c->lineno, where, v, kind);
        ok = false;
    }
    gmk_board_make(&b, star);
    gmk_result r;
    gmk_rules_result_after_last(&b, &r);
    gmk_outcome mover_wins = c->mover == GMK_BLACK ? GMK_BLACK_WINS : GMK_WHITE_WINS;
    if (strcmp(c->expect, "win") == 0) {
        if (r.outcome != mover_wins || r.reason != GMK_REASON_FIVE || r.point != star) {
            cr_expect_fail("win_lines.txt line %d (%s): expected a win, got outcome %d reason %d",
                           c->lineno, where, r.outcome, r.reason);
            return false;
        }
        /* the winning line is the whole run of the mover's stones through the move */
        char own = c->mover == GMK_BLACK ? 'X' : 'O';
        int lo = (int)(strchr(c->cells, '*') - c->cells), hi = lo;
        while (lo > 0 && c->cells[lo - 1] == own) lo--;
        while (hi < 14 && c->cells[hi + 1] == own) hi++;
        bool line_ok = r.line_len == hi - lo + 1;
        bool has_star = false;
        for (int i = 0; line_ok && i < r.line_len; i++) {
            bool found = false;
            for (int j = lo; j <= hi; j++)
                if (r.line[i] == placed(how, j)) found = true;
            line_ok = found && b.stone[r.line[i]] == c->mover;
            if (r.line[i] == star) has_star = true;
        }
        if (!line_ok || !has_star) {
            cr_expect_fail("win_lines.txt line %d (%s): winning line of %d stones is wrong "
                           "(expected %d)",
                           c->lineno, where, r.line_len, hi - lo + 1);
            return false;
        }
    } else if (want_foul) {
        if (r.outcome != GMK_WHITE_WINS || r.reason != GMK_REASON_FORBIDDEN || r.point != star ||
            !gmk_forbid_is_foul(r.forbid)) {
            cr_expect_fail("win_lines.txt line %d (%s): expected a black foul, got outcome %d "
                           "reason %d",
                           c->lineno, where, r.outcome, r.reason);
            return false;
        }
    } else if (r.outcome != GMK_ONGOING) {
        cr_expect_fail("win_lines.txt line %d (%s): expected no result, got outcome %d reason %d",
                       c->lineno, where, r.outcome, r.reason);
        return false;
    }
    /* the whole-game replay agrees with the last-move judgement */
    gmk_result whole;
    gmk_rules_result(&b, &whole, NULL);
    if (whole.outcome != r.outcome || whole.reason != r.reason) {
        /* a replay judges the set-up stones too; only the cases without stray fives apply */
        bool stray = false;
        gmk_result mid;
        static gmk_board before;
        memcpy(&before, &b, sizeof b);
        gmk_board_undo(&before);
        gmk_rules_result(&before, &mid, NULL);
        stray = mid.outcome != GMK_ONGOING;
        if (!stray) {
            cr_expect_fail("win_lines.txt line %d (%s): gmk_rules_result says %d/%d, the last "
                           "move says %d/%d",
                           c->lineno, where, whole.outcome, whole.reason, r.outcome, r.reason);
            return false;
        }
    }
    return ok;
}

Test(rules_win_lines, every_line_every_direction) {
    static win_case cases[256];
    char err[1024];
    int n = load_win_lines(cases, 256, err, sizeof err);
    cr_assert_geq(n, 0, "%s", err);
    cr_assert_geq(n, 10, "win_lines.txt holds only %d cases", n);
    int failed = 0, per_rule[GMK_RULE_COUNT] = {0};
    for (int i = 0; i < n; i++) {
        per_rule[cases[i].rule]++;
        for (int how = 0; how < 8; how++)
            if (!run_win_case(&cases[i], how)) failed++;
    }
    for (gmk_rule r = GMK_RULE_FREESTYLE; r < GMK_RULE_COUNT; r++)
        cr_expect_gt(per_rule[r], 0, "no case for rule %s", gmk_rule_name(r));
    cr_log_info("win_lines.txt: %d cases x 8 placements, %d failures", n, failed);
    cr_expect_eq(failed, 0);
}

/* ---- whole games --------------------------------------------------------------------------- */

/* Plays a move string ("h8 a1 i8 ...", renju notation, 15x15 unless size given) with make. */
static void play(gmk_board *b, const char *moves) {
    const char *s = moves;
    while (*s) {
        while (*s == ' ') s++;
        if (!*s) break;
        int x = s[0] - 'a', row = 0;
        s++;
        while (*s >= '0' && *s <= '9') row = row * 10 + (*s++ - '0');
        gmk_pos p = gmk_pos_xy(x, b->size - row);
        cr_assert(gmk_board_on(b, x, b->size - row) && gmk_board_empty_at(b, p),
                  "bad test move in '%s'", moves);
        gmk_board_make(b, p);
    }
}

static gmk_pos at(int size, const char *name) {
    return gmk_pos_xy(name[0] - 'a', size - atoi(name + 1));
}

Test(rules_result, five_with_its_line) {
    static gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    play(&b, "h8 a1 i8 a2 j8 a3 k8 a4");
    gmk_result r;
    int after = -1;
    gmk_rules_result(&b, &r, &after);
    cr_expect_eq(r.outcome, GMK_ONGOING);
    cr_expect_eq(r.reason, GMK_REASON_NONE);
    cr_expect_eq(r.point, GMK_POS_NONE);
    cr_expect_eq(after, 0);
    play(&b, "l8");
    gmk_rules_result(&b, &r, &after);
    cr_expect_eq(r.outcome, GMK_BLACK_WINS);
    cr_expect_eq(r.reason, GMK_REASON_FIVE);
    cr_expect_eq(r.point, at(15, "l8"));
    cr_assert_eq(r.line_len, 5);
    static const char *const want[] = {"h8", "i8", "j8", "k8", "l8"};
    for (int i = 0; i < 5; i++) {
        bool found = false;
        for (int j = 0; j < 5; j++) found |= r.line[j] == at(15, want[i]);
        cr_expect(found, "%s missing from the winning line", want[i]);
    }
    /* moves after the end are counted, and do not change the result */
    play(&b, "a5 b1");
    gmk_rules_result(&b, &r, &after);
    cr_expect_eq(r.outcome, GMK_BLACK_WINS);
    cr_expect_eq(r.point, at(15, "l8"));
    cr_expect_eq(after, 2);
    gmk_rules_result(&b, &r, NULL); /* NULL is allowed */
    cr_expect_eq(r.outcome, GMK_BLACK_WINS);
}

Test(rules_result, white_five_in_a_column) {
    static gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_STANDARD);
    play(&b, "a1 o15 c3 o14 e5 o13 g7 o12 b1 o11");
    gmk_result r;
    gmk_rules_result(&b, &r, NULL);
    cr_expect_eq(r.outcome, GMK_WHITE_WINS);
    cr_expect_eq(r.reason, GMK_REASON_FIVE);
    cr_expect_eq(r.point, at(15, "o11"));
    cr_expect_eq(r.line_len, 5);
    gmk_rules_result_after_last(&b, &r);
    cr_expect_eq(r.outcome, GMK_WHITE_WINS);
}

Test(rules_result, black_foul_in_renju) {
    static gmk_board b;
    const char *game = "f8 a1 g8 a2 h6 a3 h7 a4 h8";
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    play(&b, game);
    gmk_result r;
    gmk_rules_result(&b, &r, NULL);
    cr_expect_eq(r.outcome, GMK_WHITE_WINS);
    cr_expect_eq(r.reason, GMK_REASON_FORBIDDEN);
    cr_expect_eq(r.forbid, GMK_FORBID_DOUBLE_THREE);
    cr_expect_eq(r.point, at(15, "h8"));
    cr_expect_eq(r.line_len, 0);
    gmk_rules_result_after_last(&b, &r);
    cr_expect_eq(r.outcome, GMK_WHITE_WINS);
    cr_expect_eq(r.reason, GMK_REASON_FORBIDDEN);
    cr_expect_eq(r.forbid, GMK_FORBID_DOUBLE_THREE);
    /* the same game is no foul in freestyle */
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    play(&b, game);
    gmk_rules_result(&b, &r, NULL);
    cr_expect_eq(r.outcome, GMK_ONGOING);
    /* the black overline */
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    play(&b, "c8 a1 d8 a3 e8 a5 g8 a7 h8 a9 f8");
    gmk_rules_result(&b, &r, NULL);
    cr_expect_eq(r.outcome, GMK_WHITE_WINS);
    cr_expect_eq(r.reason, GMK_REASON_FORBIDDEN);
    cr_expect_eq(r.forbid, GMK_FORBID_OVERLINE);
    /* five beats the foul: a five that is also a double-three elsewhere wins */
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    play(&b, "d8 a1 e8 a3 f8 a5 g8 a7 h6 a9 h7 a11 i9 a13 j10 o1 h8");
    gmk_rules_result(&b, &r, NULL);
    cr_expect_eq(r.outcome, GMK_BLACK_WINS);
    cr_expect_eq(r.reason, GMK_REASON_FIVE);
}

Test(rules_result, full_board_draw) {
    /* 5x5, 13 black and 12 white, no five anywhere (rows top to bottom) */
    static const char *const grid[5] = {"XXOXO", "OOXOX", "XXOXO", "OOXOX", "XOOXX"};
    gmk_pos blacks[13], whites[12];
    int nb = 0, nw = 0;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++) {
            if (grid[y][x] == 'X')
                blacks[nb++] = gmk_pos_xy(x, y);
            else
                whites[nw++] = gmk_pos_xy(x, y);
        }
    cr_assert_eq(nb, 13);
    cr_assert_eq(nw, 12);
    static const gmk_rule rules[] = {GMK_RULE_FREESTYLE, GMK_RULE_STANDARD, GMK_RULE_CARO};
    for (int i = 0; i < 3; i++) {
        static gmk_board b;
        gmk_board_init(&b, 5, rules[i]);
        for (int k = 0; k < 25; k++) {
            gmk_board_make(&b, k % 2 ? whites[k / 2] : blacks[k / 2]);
            gmk_result mid;
            gmk_rules_result_after_last(&b, &mid);
            if (k < 24) cr_assert_eq(mid.outcome, GMK_ONGOING, "result before the board is full");
        }
        cr_assert(gmk_board_full(&b));
        gmk_result r;
        gmk_rules_result(&b, &r, NULL);
        cr_expect_eq(r.outcome, GMK_DRAW, "rule %s", gmk_rule_name(rules[i]));
        cr_expect_eq(r.reason, GMK_REASON_FULL_BOARD);
        gmk_rules_result_after_last(&b, &r);
        cr_expect_eq(r.outcome, GMK_DRAW);
        cr_expect_eq(r.reason, GMK_REASON_FULL_BOARD);
    }
}

/* Renju on 6x6, black first (tests/protocol/forbidden_only.in's position): after white's
 * last stone f1 the two empty points d6 and d4 both make an overline for black. */
static const char *const forbidden_only_moves =
    "a6 a5 b6 b5 c6 c5 e6 e5 f6 f5 d5 a3 a4 b3 b4 c3 c4 e3 e4 f3 f4 a2 d3 b2 c2 e2 d2 b1 f2 c1 "
    "a1 d1 e1 f1";

Test(rules_result, renju_black_without_a_legal_point_draws) {
    static gmk_board b;
    gmk_board_init(&b, 6, GMK_RULE_RENJU);
    /* every move but the last leaves the game on (black still has e1 or f1, say) */
    char moves[256];
    snprintf(moves, sizeof moves, "%s", forbidden_only_moves);
    for (char *tok = strtok(moves, " "); tok; tok = strtok(NULL, " ")) {
        play(&b, tok);
        gmk_result mid;
        gmk_rules_result_after_last(&b, &mid);
        if (b.move_count < 34) {
            cr_assert_eq(mid.outcome, GMK_ONGOING, "over after %d moves", b.move_count);
            cr_assert(gmk_rules_has_legal_move(&b));
        }
    }
    cr_assert_eq(b.move_count, 34);
    cr_assert_not(gmk_board_full(&b));
    cr_assert_not(gmk_rules_has_legal_move(&b));
    gmk_result r;
    gmk_rules_result_after_last(&b, &r);
    cr_expect_eq(r.outcome, GMK_DRAW);
    cr_expect_eq(r.reason, GMK_REASON_NO_LEGAL_POINT);
    int after = -1;
    gmk_rules_result(&b, &r, &after);
    cr_expect_eq(r.outcome, GMK_DRAW);
    cr_expect_eq(r.reason, GMK_REASON_NO_LEGAL_POINT);
    cr_expect_eq(after, 0);
    /* the same stones in freestyle: d6 is black's six, a win there, so the game is on */
    gmk_board_init(&b, 6, GMK_RULE_FREESTYLE);
    play(&b, forbidden_only_moves);
    cr_assert(gmk_rules_has_legal_move(&b));
    gmk_rules_result(&b, &r, NULL);
    cr_expect_eq(r.outcome, GMK_ONGOING);
}

Test(rules_fallback, a_legal_point_by_shape_then_centre) {
    static gmk_board b;
    /* an empty board: the centre */
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    cr_expect_eq(gmk_rules_fallback_move(&b), gmk_pos_xy(7, 7));
    /* white to move against black's open three h8-j8: a block at an end, g8 or k8 */
    play(&b, "h8 a1 i8 a2 j8");
    gmk_pos p = gmk_rules_fallback_move(&b);
    cr_expect(p == gmk_pos_xy(6, 7) || p == gmk_pos_xy(10, 7), "fallback %d,%d", gmk_pos_x(p),
              gmk_pos_y(p));
    /* renju black to move, h8 a double-three: a legal point (renju's shape scores give a
     * forbidden point nothing, so the 6x6 case below is the one the legality check decides) */
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    play(&b, "h7 a1 h9 o1 g8 a15 i8 o15");
    cr_assert_eq(gmk_rules_check_move(&b, gmk_pos_xy(7, 7), NULL), GMK_MOVE_FORBIDDEN);
    p = gmk_rules_fallback_move(&b);
    cr_assert_neq(p, GMK_POS_NONE);
    cr_expect_eq(gmk_rules_check_move(&b, p, NULL), GMK_MOVE_LEGAL);
    /* the same stones under freestyle: h8, the point of most shape (white's stones in the
     * corners make none) */
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    play(&b, "h7 a1 h9 o1 g8 a15 i8 o15");
    cr_expect_eq(gmk_rules_fallback_move(&b), gmk_pos_xy(7, 7));
    /* the 6x6 renju position with every empty point forbidden to black: none */
    gmk_board_init(&b, 6, GMK_RULE_RENJU);
    play(&b, forbidden_only_moves);
    cr_expect_eq(gmk_rules_fallback_move(&b), GMK_POS_NONE);
}

Test(rules_result, win_on_the_last_cell_is_a_win) {
    /* the 5x5 grid above with its last row a black five */
    static gmk_board b;
    gmk_board_init(&b, 5, GMK_RULE_FREESTYLE);
    static const char *const grid[5] = {"XXOXO", "OOXOX", "XXOXO", "OOXOX", "XXXXX"};
    gmk_pos blacks[15], whites[10];
    int nb = 0, nw = 0;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++) {
            if (grid[y][x] == 'X')
                blacks[nb++] = gmk_pos_xy(x, y);
            else
                whites[nw++] = gmk_pos_xy(x, y);
        }
    for (int i = 0; i < nw; i++) gmk_board_put(&b, whites[i], GMK_WHITE);
    for (int i = 0; i < nb; i++) gmk_board_put(&b, blacks[i], GMK_BLACK);
    cr_assert(gmk_board_full(&b));
    gmk_result r;
    gmk_rules_result_after_last(&b, &r);
    cr_expect_eq(r.outcome, GMK_BLACK_WINS);
    cr_expect_eq(r.reason, GMK_REASON_FIVE);
}

Test(rules_result, empty_board) {
    static gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    gmk_result r;
    int after = -1;
    gmk_rules_result(&b, &r, &after);
    cr_expect_eq(r.outcome, GMK_ONGOING);
    cr_expect_eq(after, 0);
    gmk_rules_result_after_last(&b, &r);
    cr_expect_eq(r.outcome, GMK_ONGOING);
    cr_expect_eq(r.point, GMK_POS_NONE);
}

/* ---- legality ------------------------------------------------------------------------------ */

Test(rules_check_move, off_board_and_occupied) {
    static gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    play(&b, "h8");
    gmk_forbid_kind k = GMK_FORBID_DOUBLE_FOUR;
    cr_expect_eq(gmk_rules_check_move(&b, at(15, "h8"), &k), GMK_MOVE_OCCUPIED);
    cr_expect_eq(k, GMK_FORBID_NONE);
    cr_expect_eq(gmk_rules_check_move(&b, GMK_POS_NONE, NULL), GMK_MOVE_OFF_BOARD);
    cr_expect_eq(gmk_rules_check_move(&b, gmk_pos_xy(15, 0), NULL), GMK_MOVE_OFF_BOARD);
    cr_expect_eq(gmk_rules_check_move(&b, gmk_pos_xy(-1, 3), NULL), GMK_MOVE_OFF_BOARD);
    cr_expect_eq(gmk_rules_check_move(&b, GMK_CELLS, NULL), GMK_MOVE_OFF_BOARD);
    cr_expect_eq(gmk_rules_check_move(&b, GMK_CELLS + 1000, NULL), GMK_MOVE_OFF_BOARD);
    cr_expect_eq(gmk_rules_check_move(&b, -77, NULL), GMK_MOVE_OFF_BOARD);
    cr_expect_eq(gmk_rules_check_move(&b, at(15, "a1"), NULL), GMK_MOVE_LEGAL);
    /* a smaller board's edge */
    gmk_board_init(&b, 7, GMK_RULE_FREESTYLE);
    cr_expect_eq(gmk_rules_check_move(&b, gmk_pos_xy(6, 6), NULL), GMK_MOVE_LEGAL);
    cr_expect_eq(gmk_rules_check_move(&b, gmk_pos_xy(7, 6), NULL), GMK_MOVE_OFF_BOARD);
    cr_expect_eq(gmk_rules_check_move(&b, gmk_pos_xy(6, 7), NULL), GMK_MOVE_OFF_BOARD);
}

Test(rules_check_move, fouls_only_for_black_in_renju) {
    static gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    play(&b, "f8 a1 g8 a2 h6 a3 h7 a4");
    gmk_forbid_kind k;
    cr_expect_eq(gmk_rules_check_move(&b, at(15, "h8"), &k), GMK_MOVE_FORBIDDEN);
    cr_expect_eq(k, GMK_FORBID_DOUBLE_THREE);
    cr_expect_eq(gmk_rules_check_move(&b, at(15, "h8"), NULL), GMK_MOVE_FORBIDDEN);
    play(&b, "o15");
    cr_expect_eq(gmk_rules_check_move(&b, at(15, "h8"), &k), GMK_MOVE_LEGAL, "white may play it");
    cr_expect_eq(k, GMK_FORBID_NONE);
}

Test(rules_five_at, reports_the_line) {
    static gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_CARO);
    play(&b, "a1 b2 a2 b3 a3 b4 a4 b5 a5");
    gmk_pos line[GMK_MAX_SIZE];
    int n = 0;
    cr_expect(gmk_rules_five_at(&b, at(15, "a3"), GMK_BLACK, line, &n));
    cr_expect_eq(n, 5);
    cr_expect_not(gmk_rules_five_at(&b, at(15, "a3"), GMK_WHITE, NULL, NULL));
    cr_expect_not(gmk_rules_five_at(&b, at(15, "b3"), GMK_WHITE, NULL, NULL));
    cr_expect(gmk_rules_five_at(&b, at(15, "a5"), GMK_BLACK, NULL, NULL));
}

/* ---- names --------------------------------------------------------------------------------- */

Test(rules_names, parse_names_and_numbers) {
    static const struct {
        const char *text;
        gmk_rule rule;
    } good[] = {
        {"freestyle", GMK_RULE_FREESTYLE},
        {"standard", GMK_RULE_STANDARD},
        {"renju", GMK_RULE_RENJU},
        {"caro", GMK_RULE_CARO},
        {"0", GMK_RULE_FREESTYLE},
        {"1", GMK_RULE_STANDARD},
        {"2", GMK_RULE_RENJU},
        {"4", GMK_RULE_RENJU},
        {"8", GMK_RULE_CARO},
        {"9", GMK_RULE_CARO},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        gmk_rule r = GMK_RULE_COUNT;
        cr_expect(gmk_rule_parse(good[i].text, &r), "'%s' rejected", good[i].text);
        cr_expect_eq(r, good[i].rule, "'%s' parsed as %d", good[i].text, r);
    }
    static const char *const bad[] = {"",      "free",   "freestyle ", " renju", "renju2", "3",
                                      "5",     "6",      "7",          "10",     "-1",     "04",
                                      "caro9", "gomoku", "exact",      "1.0",    "+1",     "99"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gmk_rule r = GMK_RULE_COUNT;
        cr_expect_not(gmk_rule_parse(bad[i], &r), "'%s' accepted", bad[i]);
        cr_expect_eq(r, GMK_RULE_COUNT, "'%s' changed the output", bad[i]);
    }
    gmk_rule r = GMK_RULE_COUNT;
    cr_expect_not(gmk_rule_parse(NULL, &r));
}

Test(rules_names, names_round_trip) {
    for (gmk_rule r = GMK_RULE_FREESTYLE; r < GMK_RULE_COUNT; r++) {
        gmk_rule back;
        cr_expect(gmk_rule_parse(gmk_rule_name(r), &back));
        cr_expect_eq(back, r);
        char num[8];
        snprintf(num, sizeof num, "%d", gmk_rule_gomocup_number(r));
        cr_expect(gmk_rule_parse(num, &back));
        cr_expect_eq(back, r);
    }
    cr_expect_eq(gmk_rule_gomocup_number(GMK_RULE_FREESTYLE), 0);
    cr_expect_eq(gmk_rule_gomocup_number(GMK_RULE_STANDARD), 1);
    cr_expect_eq(gmk_rule_gomocup_number(GMK_RULE_RENJU), 4);
    cr_expect_eq(gmk_rule_gomocup_number(GMK_RULE_CARO), 9);
    cr_expect_str_eq(gmk_rule_name((gmk_rule)42), "?");
    cr_expect_str_eq(gmk_outcome_name(GMK_BLACK_WINS), "black wins");
    cr_expect_str_eq(gmk_outcome_name(GMK_WHITE_WINS), "white wins");
    cr_expect_str_eq(gmk_outcome_name(GMK_DRAW), "draw");
    cr_expect_str_eq(gmk_reason_name(GMK_REASON_FIVE), "five in a row");
    cr_expect_str_eq(gmk_reason_name(GMK_REASON_FULL_BOARD), "full board");
}
