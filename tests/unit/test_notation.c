/* test_notation.c: renju points, Gomocup x,y, move strings and diagrams, both ways; and bad
 * input for every parser: each must fail cleanly, leave its output untouched, and name the
 * offending position in a one-line message. */
#include <criterion/criterion.h>

#include "support.h"

/* ---- good input ---------------------------------------------------------------------------- */

static gmk_pos point(const char *text, int size) {
    gmk_pos p = GMK_POS_NONE;
    char err[160] = "";
    cr_assert(gmk_notation_parse_point(text, size, &p, err, sizeof err),
              "'%s' on %dx%d rejected: %s", text, size, size, err);
    return p;
}

Test(notation_point, corners_and_centre) {
    cr_expect_eq(point("a1", 15), gmk_pos_xy(0, 14), "a1 is the bottom-left corner");
    cr_expect_eq(point("h8", 15), gmk_pos_xy(7, 7), "h8 is the centre");
    cr_expect_eq(point("o15", 15), gmk_pos_xy(14, 0), "o15 is the top-right corner");
    cr_expect_eq(point("a15", 15), gmk_pos_xy(0, 0));
    cr_expect_eq(point("o1", 15), gmk_pos_xy(14, 14));
    cr_expect_eq(point("i9", 15), gmk_pos_xy(8, 6), "the letter i is a column");
    cr_expect_eq(point("a1", 5), gmk_pos_xy(0, 4));
    cr_expect_eq(point("e5", 5), gmk_pos_xy(4, 0));
    cr_expect_eq(point("c3", 5), gmk_pos_xy(2, 2));
    cr_expect_eq(point("v22", 22), gmk_pos_xy(21, 0));
    cr_expect_eq(point("a10", 22), gmk_pos_xy(0, 12));
    cr_expect_eq(point("k11", 20), gmk_pos_xy(10, 9));
    cr_expect_eq(point("t20", 20), gmk_pos_xy(19, 0));
}

Test(notation_point, every_point_of_every_size_round_trips) {
    for (int size = GMK_MIN_SIZE; size <= GMK_MAX_SIZE; size++)
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                gmk_pos p = gmk_pos_xy(x, y);
                char name[4];
                gmk_notation_point(p, size, name);
                cr_assert_eq(name[0], 'a' + x);
                cr_assert_eq(atoi(name + 1), size - y, "%s on %d", name, size);
                cr_assert_eq(strlen(name), size - y >= 10 ? 3u : 2u);
                cr_assert_eq(point(name, size), p, "%s on %d", name, size);
                char g[8];
                gmk_notation_gomocup(p, g);
                gmk_pos q = GMK_POS_NONE;
                char err[160];
                cr_assert(gmk_notation_parse_gomocup(g, size, &q, err, sizeof err), "%s: %s", g,
                          err);
                cr_assert_eq(q, p, "gomocup %s on %d", g, size);
            }
    char name[4];
    gmk_notation_point(GMK_POS_NONE, 15, name);
    cr_expect_str_eq(name, "--");
    gmk_notation_point(gmk_pos_xy(15, 0), 15, name);
    cr_expect_str_eq(name, "--", "off-board points print as --");
}

Test(notation_gomocup, basics) {
    gmk_pos p = GMK_POS_NONE;
    char err[160];
    cr_expect(gmk_notation_parse_gomocup("7,7", 15, &p, err, sizeof err));
    cr_expect_eq(p, gmk_pos_xy(7, 7));
    cr_expect(gmk_notation_parse_gomocup("0,0", 15, &p, err, sizeof err));
    cr_expect_eq(p, gmk_pos_xy(0, 0), "0,0 is the top-left corner");
    cr_expect_eq(p, point("a15", 15));
    cr_expect(gmk_notation_parse_gomocup("0,14", 15, &p, err, sizeof err));
    cr_expect_eq(p, point("a1", 15));
    cr_expect(gmk_notation_parse_gomocup("19,19", 20, &p, err, sizeof err));
    cr_expect_eq(p, gmk_pos_xy(19, 19));
    cr_expect(gmk_notation_parse_gomocup("21,0", 22, &p, err, sizeof err));
    cr_expect_eq(p, gmk_pos_xy(21, 0));
    char out[8];
    gmk_notation_gomocup(gmk_pos_xy(12, 3), out);
    cr_expect_str_eq(out, "12,3");
}

static void moves(const char *text, int size, gmk_move_list *out) {
    char err[160] = "";
    cr_assert(gmk_notation_parse_moves(text, size, out, err, sizeof err), "'%s' rejected: %s", text,
              err);
}

Test(notation_moves, with_and_without_separators) {
    static gmk_move_list a, b;
    static const char *const forms[] = {"h8i9j10",     "h8 i9 j10",     "h8,i9,j10",
                                        "h8, i9, j10", " h8  i9\tj10 ", "h8i9j10\n",
                                        "h8i9j10\r\n", ",h8,,i9 ,j10,", "H8I9J10"};
    moves(forms[0], 15, &a);
    cr_assert_eq(a.count, 3);
    cr_expect_eq(a.size, 15);
    cr_expect_eq(a.pos[0], gmk_pos_xy(7, 7));
    cr_expect_eq(a.pos[1], gmk_pos_xy(8, 6));
    cr_expect_eq(a.pos[2], gmk_pos_xy(9, 5));
    cr_expect_eq(a.color[0], GMK_BLACK);
    cr_expect_eq(a.color[1], GMK_WHITE);
    cr_expect_eq(a.color[2], GMK_BLACK);
    for (size_t i = 1; i < sizeof forms / sizeof forms[0]; i++) {
        moves(forms[i], 15, &b);
        cr_expect_eq(b.count, 3, "'%s'", forms[i]);
        cr_expect(memcmp(a.pos, b.pos, 3 * sizeof a.pos[0]) == 0, "'%s'", forms[i]);
        cr_expect(memcmp(a.color, b.color, 3) == 0, "'%s'", forms[i]);
    }
    /* two-digit rows are read greedily: h10 then i1 */
    moves("h10i1", 15, &b);
    cr_assert_eq(b.count, 2);
    cr_expect_eq(b.pos[0], point("h10", 15));
    cr_expect_eq(b.pos[1], point("i1", 15));
    /* rows above 15 on big boards */
    moves("a22v1k11", 22, &b);
    cr_assert_eq(b.count, 3);
    cr_expect_eq(b.pos[0], gmk_pos_xy(0, 0));
    cr_expect_eq(b.pos[1], gmk_pos_xy(21, 21));
    /* an empty string is the empty position */
    moves("", 15, &b);
    cr_expect_eq(b.count, 0);
    cr_expect_eq(b.size, 15);
}

Test(notation_moves, board_round_trip) {
    static gmk_move_list list;
    static gmk_board b;
    test_rng rng = {7};
    for (int size = GMK_MIN_SIZE; size <= GMK_MAX_SIZE; size++) {
        gmk_board_init(&b, size, GMK_RULE_FREESTYLE);
        int n = size * size / 2;
        while (b.move_count < n) {
            gmk_pos p = gmk_pos_xy(rng_below(&rng, size), rng_below(&rng, size));
            if (gmk_board_empty_at(&b, p)) gmk_board_make(&b, p);
        }
        char text[4 * GMK_MAX_MOVES + 1];
        int len = gmk_notation_moves(&b, text, sizeof text);
        cr_assert_gt(len, 0);
        cr_assert_eq((size_t)len, strlen(text));
        moves(text, size, &list);
        cr_assert_eq(list.count, n);
        cr_assert(memcmp(list.pos, b.moves, (size_t)n * sizeof b.moves[0]) == 0);
        static gmk_board rebuilt;
        cr_assert(gmk_move_list_to_board(&list, GMK_RULE_RENJU, &rebuilt));
        cr_expect_eq(rebuilt.hash, b.hash);
        cr_expect_eq(rebuilt.rule, GMK_RULE_RENJU);
        cr_expect_eq(rebuilt.side, b.side);
        cr_expect(gmk_board_check(&rebuilt));
    }
    /* the writer reports when the buffer is too small */
    char small[5];
    cr_expect_eq(gmk_notation_moves(&b, small, sizeof small), -1);
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    cr_expect_eq(gmk_notation_moves(&b, small, sizeof small), 0);
    cr_expect_str_eq(small, "");
}

static const char diagram15[] = "...............\n"
                                "...............\n"
                                "...............\n"
                                "...............\n"
                                "...............\n"
                                "...............\n"
                                "........O......\n"
                                ".......X.......\n"
                                "......XO.......\n"
                                "...............\n"
                                "...............\n"
                                "...............\n"
                                "...............\n"
                                "...............\n"
                                "X.............O\n";

Test(notation_diagram, reads_stones_and_size) {
    static gmk_move_list l;
    char err[160] = "";
    cr_assert(gmk_notation_parse_diagram(diagram15, 0, &l, err, sizeof err), "%s", err);
    cr_expect_eq(l.size, 15);
    cr_assert_eq(l.count, 6);
    int black = 0, white = 0;
    for (int i = 0; i < l.count; i++) {
        /* alternating from black while both colours last */
        cr_expect_eq(l.color[i], i % 2 ? GMK_WHITE : GMK_BLACK);
        black += l.color[i] == GMK_BLACK;
        white += l.color[i] == GMK_WHITE;
    }
    cr_expect_eq(black, 3);
    cr_expect_eq(white, 3);
    static gmk_board b;
    cr_assert(gmk_move_list_to_board(&l, GMK_RULE_FREESTYLE, &b));
    cr_expect_eq(b.stone[point("h8", 15)], GMK_BLACK);
    cr_expect_eq(b.stone[point("i9", 15)], GMK_WHITE);
    cr_expect_eq(b.stone[point("g7", 15)], GMK_BLACK);
    cr_expect_eq(b.stone[point("h7", 15)], GMK_WHITE);
    cr_expect_eq(b.stone[point("a1", 15)], GMK_BLACK, "last line is row 1");
    cr_expect_eq(b.stone[point("o1", 15)], GMK_WHITE);
    /* size given and matching; CRLF, trailing blanks and blank lines are fine */
    cr_assert(gmk_notation_parse_diagram(diagram15, 15, &l, err, sizeof err), "%s", err);
    cr_assert(gmk_notation_parse_diagram("\n.....\r\n..X..  \n\n.....\n...O.\t\n.....", 5, &l, err,
                                         sizeof err),
              "%s", err);
    cr_expect_eq(l.size, 5);
    cr_expect_eq(l.count, 2);
    /* unequal numbers of stones: the extra ones come last */
    cr_assert(
        gmk_notation_parse_diagram("XXX..\n.....\n.....\n.....\n....O\n", 0, &l, err, sizeof err),
        "%s", err);
    cr_assert_eq(l.count, 4);
    cr_expect_eq(l.color[0], GMK_BLACK);
    cr_expect_eq(l.color[1], GMK_WHITE);
    cr_expect_eq(l.color[2], GMK_BLACK);
    cr_expect_eq(l.color[3], GMK_BLACK);
    /* an empty 22x22 board */
    char big[23 * 22 + 1];
    for (int y = 0; y < 22; y++) {
        memset(big + 23 * y, '.', 22);
        big[23 * y + 22] = '\n';
    }
    big[23 * 22] = '\0';
    cr_assert(gmk_notation_parse_diagram(big, 0, &l, err, sizeof err), "%s", err);
    cr_expect_eq(l.size, 22);
    cr_expect_eq(l.count, 0);
}

/* ---- bad input ----------------------------------------------------------------------------- */

/* Each bad case: the text, the board size, and a fragment the error message must contain (the
 * position, usually). The output must be left exactly as it was. */
typedef struct {
    const char *text;
    int size;
    const char *must_say;
} bad_case;

static void expect_one_line(const char *what, const char *text, const char *err) {
    cr_expect_gt(strlen(err), 0u, "%s '%s': no error message", what, text);
    for (const char *s = err; *s; s++)
        cr_expect((unsigned char)*s >= 0x20 && *s != 0x7F,
                  "%s '%s': control character 0x%02x in the error message", what, text,
                  (unsigned char)*s);
}

Test(notation_bad, point) {
    static const bad_case cases[] = {
        {"", 15, "empty"},
        {"h", 15, "character 2"}, /* no row */
        {"8", 15, "character 1"}, /* no column */
        {"8h", 15, "character 1"},
        {"p8", 15, "character 1"}, /* column off a 15x15 board */
        {"f1", 5, "character 1"},  /* column off a 5x5 board */
        {"w1", 22, "character 1"},
        {"h16", 15, "character 1"}, /* row off the board */
        {"a6", 5, "character 1"},
        {"a23", 22, "character 1"},
        {"h0", 15, "character 2"},  /* row 0 */
        {"h08", 15, "character 2"}, /* leading zero */
        {"h8x", 15, "character 3"}, /* trailing junk */
        {"h8 ", 15, "character 3"},
        {"h8\n", 15, "character 3"},
        {"h10,", 15, "character 4"},
        {" h8", 15, "character 1"},
        {"h-1", 15, "character 2"},
        {"h99999999999999999999", 15, "character 1"}, /* huge */
        {"h2147483648", 15, "character 1"},
        {"#8", 15, "character 1"},
        {"\xc3\xa9"
         "8",
         15, "character 1"},         /* a UTF-8 letter */
        {"h8i9", 15, "character 3"}, /* two points */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gmk_pos p = 12345;
        char err[160] = "";
        cr_expect_not(gmk_notation_parse_point(cases[i].text, cases[i].size, &p, err, sizeof err),
                      "point '%s' accepted", cases[i].text);
        cr_expect_eq(p, 12345, "point '%s' changed the output", cases[i].text);
        cr_expect(strstr(err, cases[i].must_say) != NULL, "point '%s': message '%s' lacks '%s'",
                  cases[i].text, err, cases[i].must_say);
        expect_one_line("point", cases[i].text, err);
    }
    gmk_pos p = 12345;
    char err[160] = "";
    cr_expect_not(gmk_notation_parse_point(NULL, 15, &p, err, sizeof err));
    cr_expect_eq(p, 12345);
    /* bad board sizes are refused, not turned into points outside the array */
    static const int sizes[] = {0, 4, 23, 26, 99, -3};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cr_expect_not(gmk_notation_parse_point("a1", sizes[i], &p, err, sizeof err),
                      "size %d accepted", sizes[i]);
        cr_expect_eq(p, 12345);
    }
    /* a tiny or missing error buffer is fine */
    char tiny[4];
    cr_expect_not(gmk_notation_parse_point("zz", 15, &p, tiny, sizeof tiny));
    cr_expect_eq(strlen(tiny), 3u);
    cr_expect_not(gmk_notation_parse_point("zz", 15, &p, NULL, 0));
}

Test(notation_bad, gomocup) {
    static const bad_case cases[] = {
        {"", 15, "character 1"},
        {",", 15, "character 1"},
        {"7", 15, "character 2"},
        {"7,", 15, "character 3"},
        {",7", 15, "character 1"},
        {"7;7", 15, "character 2"},
        {"7,7,", 15, "character 4"},
        {"7,7x", 15, "character 4"},
        {"7, 7", 15, "character 3"},
        {" 7,7", 15, "character 1"},
        {"-1,7", 15, "character 1"},
        {"7,-1", 15, "character 3"},
        {"15,7", 15, "15,7"}, /* off the board */
        {"7,15", 15, "7,15"},
        {"20,0", 20, "20,0"},
        {"a,b", 15, "character 1"},
        {"99999999999999999999,1", 15, "character"}, /* huge */
        {"1,99999999999999999999", 15, "character"},
        {"7,7\n", 15, "character 4"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gmk_pos p = 12345;
        char err[160] = "";
        cr_expect_not(gmk_notation_parse_gomocup(cases[i].text, cases[i].size, &p, err, sizeof err),
                      "gomocup '%s' accepted", cases[i].text);
        cr_expect_eq(p, 12345, "gomocup '%s' changed the output", cases[i].text);
        cr_expect(strstr(err, cases[i].must_say) != NULL, "gomocup '%s': message '%s' lacks '%s'",
                  cases[i].text, err, cases[i].must_say);
        expect_one_line("gomocup", cases[i].text, err);
    }
    gmk_pos p = 12345;
    char err[160];
    cr_expect_not(gmk_notation_parse_gomocup(NULL, 15, &p, err, sizeof err));
    static const int sizes[] = {0, 4, 23, 1000, -3};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        cr_expect_not(gmk_notation_parse_gomocup("1,1", sizes[i], &p, err, sizeof err),
                      "size %d accepted", sizes[i]);
    cr_expect_eq(p, 12345);
}

Test(notation_bad, moves) {
    static const bad_case cases[] = {
        {"h8h8", 15, "character 3"}, /* repeated point */
        {"h8 i9 h8", 15, "character 7"},
        {"h8 i9 H8", 15, "character 7"},
        {"h8x", 15, "character 3"}, /* junk */
        {"h8 x", 15, "character 4"},
        {"h8;i9", 15, "character 3"},
        {"h8.i9", 15, "character 3"},
        {"h8 p1", 15, "character 4"}, /* column off the board */
        {"a1f1", 5, "character 3"},
        {"h8i16", 15, "character 3"}, /* row off the board */
        {"h8i0", 15, "character 4"},  /* row 0 */
        {"h8i09", 15, "character 4"}, /* leading zero */
        {"h8 i", 15, "character 5"},  /* letter without a row */
        {"h8 9", 15, "character 4"},
        {"h8i9\nj10", 15, "character 6"}, /* text after the end of the line */
        {"h8i9 -", 15, "character 6"},
        {"h8i999999999999999", 15, "character 3"}, /* huge */
        {"h8\xc3\xa9", 15, "character 3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        static gmk_move_list l, before;
        memset(&l, 0xA5, sizeof l);
        memcpy(&before, &l, sizeof l);
        char err[160] = "";
        cr_expect_not(gmk_notation_parse_moves(cases[i].text, cases[i].size, &l, err, sizeof err),
                      "moves '%s' accepted", cases[i].text);
        cr_expect(memcmp(&l, &before, sizeof l) == 0, "moves '%s' left a partial result",
                  cases[i].text);
        cr_expect(strstr(err, cases[i].must_say) != NULL, "moves '%s': message '%s' lacks '%s'",
                  cases[i].text, err, cases[i].must_say);
        expect_one_line("moves", cases[i].text, err);
    }
    static gmk_move_list l;
    char err[160];
    cr_expect_not(gmk_notation_parse_moves(NULL, 15, &l, err, sizeof err));
    cr_expect_not(gmk_notation_parse_moves("h8", 4, &l, err, sizeof err));
    cr_expect_not(gmk_notation_parse_moves("h8", 23, &l, err, sizeof err));
    cr_expect_not(gmk_notation_parse_moves("h8", 0, &l, err, sizeof err));
}

/* A repeated point late in a long game is reported with the right move numbers. */
Test(notation_bad, repeat_after_many_moves) {
    char text[4 * GMK_MAX_MOVES + 8];
    size_t len = 0;
    int count = 0;
    for (int y = 0; y < 22 && count < 300; y++)
        for (int x = 0; x < 22 && count < 300; x++) {
            char name[4];
            gmk_notation_point(gmk_pos_xy(x, y), 22, name);
            len += (size_t)sprintf(text + len, "%s ", name);
            count++;
        }
    size_t at = len;
    len += (size_t)sprintf(text + len, "a22"); /* move 301 repeats move 1 */
    static gmk_move_list l;
    char err[160] = "";
    cr_assert_not(gmk_notation_parse_moves(text, 22, &l, err, sizeof err));
    char want[64];
    snprintf(want, sizeof want, "character %zu", at + 1);
    cr_expect(strstr(err, want) != NULL, "message '%s' lacks '%s'", err, want);
    cr_expect(strstr(err, "moves 1 and 301") != NULL, "message '%s'", err);
    /* and a repeat of move 300 */
    gmk_notation_point(gmk_pos_xy((300 - 1) % 22, (300 - 1) / 22), 22, text + at);
    err[0] = '\0';
    cr_assert_not(gmk_notation_parse_moves(text, 22, &l, err, sizeof err));
    cr_expect(strstr(err, "moves 300 and 301") != NULL, "message '%s'", err);
}

Test(notation_bad, diagram) {
    static const bad_case cases[] = {
        {"", 0, "empty"},
        {"\n\n  \n", 0, "empty"},
        {".....\n.....\n.....\n.....\n", 0, "square"},             /* 4 rows of 5 */
        {"......\n......\n......\n......\n......\n", 0, "square"}, /* 5 rows of 6 */
        {".....\n.....\n....\n.....\n.....\n", 0, "line 3"},       /* ragged */
        {".....\n.....\n.....\n.....\n......\n", 0, "line 5"},
        {".....\n.....\n..x..\n.....\n.....\n", 0, "line 3, column 3"}, /* bad characters */
        {".....\n.....\n.....\n.#...\n.....\n", 0, "line 4, column 2"},
        {".....\n.....\n. ...\n.....\n.....\n", 0, "line 3, column 2"},
        {"....\xe2\x97\x8f\n.....\n.....\n.....\n.....\n", 0, "line 1, column 5"},
        {"X....\n.....\n.....\n.....\n..\r..\n", 0, "line 5, column 3"},
        {"\n\n.....\n..o..\n.....\n.....\n.....\n", 0, "line 4, column 3"}, /* real line */
        {"....\n....\n....\n....\n", 0, "too small"},
        {".....\n.....\n.....\n.....\n.....\n", 15, "15"}, /* wrong size */
        {".....\n.....\n.....\n.....\n.....\n", 6, "6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        static gmk_move_list l, before;
        memset(&l, 0x5A, sizeof l);
        memcpy(&before, &l, sizeof l);
        char err[160] = "";
        cr_expect_not(gmk_notation_parse_diagram(cases[i].text, cases[i].size, &l, err, sizeof err),
                      "diagram %zu accepted", i);
        cr_expect(memcmp(&l, &before, sizeof l) == 0, "diagram %zu left a partial result", i);
        cr_expect(strstr(err, cases[i].must_say) != NULL, "diagram %zu: message '%s' lacks '%s'", i,
                  err, cases[i].must_say);
        expect_one_line("diagram", "", err);
    }
    /* too many rows, too long rows */
    static char big[64 * 64];
    size_t n = 0;
    for (int y = 0; y < 23; y++) {
        memset(big + n, '.', 23);
        n += 23;
        big[n++] = '\n';
    }
    big[n] = '\0';
    static gmk_move_list l;
    char err[160] = "";
    cr_expect_not(gmk_notation_parse_diagram(big, 0, &l, err, sizeof err));
    cr_expect(strstr(err, "line 1") != NULL, "message '%s'", err);
    n = 0;
    for (int y = 0; y < 23; y++) {
        memset(big + n, '.', 22);
        n += 22;
        big[n++] = '\n';
    }
    big[n] = '\0';
    err[0] = '\0';
    cr_expect_not(gmk_notation_parse_diagram(big, 0, &l, err, sizeof err));
    cr_expect(strstr(err, "line 23") != NULL, "message '%s'", err);
    cr_expect_not(gmk_notation_parse_diagram(NULL, 0, &l, err, sizeof err));
}
