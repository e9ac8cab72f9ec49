/* test_renju.c: the exact renju forbidden-point check against the shared data files.
 *
 * For every case of the two files in tests/data/renju/: each probe verdict must equal
 * gmk_renju_classify (and gmk_renju_forbidden / gmk_rules_check_move must agree with it), and the
 * complete forbidden set must equal exactly the set of points where gmk_renju_forbidden reports a
 * foul, with the same kind. Every mismatch is reported with its case id; a missing or empty data
 * file fails the test. */
#include <criterion/criterion.h>

#include "support.h"

static const char *pt(int x, int y) {
    static char buf[4][8];
    static int next;
    char *out = buf[next++ & 3];
    rc_point_name(x, y, out);
    return out;
}

/* Checks one case; returns the number of mismatches (each also reported by cr_expect). */
static int check_case(const char *file, const renju_case *c) {
    int bad = 0;
    gmk_board b;
    renju_case_board(c, &b);
    if (!gmk_board_check(&b)) {
        cr_expect_fail("%s %s: board fails gmk_board_check after set-up", file, c->id);
        bad++;
    }
    for (int i = 0; i < c->probe_count; i++) {
        const rc_point *pr = &c->probe[i];
        gmk_pos p = gmk_pos_xy(pr->x, pr->y);
        if (c->board[pr->y][pr->x] != '.') {
            cr_expect_fail("%s %s: probe %s is not an empty point", file, c->id, pt(pr->x, pr->y));
            bad++;
            continue;
        }
        gmk_forbid_kind exact = gmk_renju_classify(&b, p);
        if (exact != pr->kind) {
            cr_expect_fail("%s %s: probe %s: expected %s, gmk_renju_classify says %s", file, c->id,
                           pt(pr->x, pr->y), rc_verdict_name(pr->kind), rc_verdict_name(exact));
            bad++;
        }
        gmk_forbid_kind fast = gmk_renju_forbidden(&b, p);
        gmk_forbid_kind want_fast = gmk_forbid_is_foul(pr->kind) ? pr->kind : GMK_FORBID_NONE;
        if (fast != want_fast) {
            cr_expect_fail("%s %s: probe %s: expected %s, gmk_renju_forbidden says %s", file, c->id,
                           pt(pr->x, pr->y), rc_verdict_name(want_fast), rc_verdict_name(fast));
            bad++;
        }
        gmk_forbid_kind why = GMK_FORBID_NONE;
        gmk_move_verdict v = gmk_rules_check_move(&b, p, &why);
        gmk_move_verdict want_v =
            gmk_forbid_is_foul(pr->kind) ? GMK_MOVE_FORBIDDEN : GMK_MOVE_LEGAL;
        if (v != want_v || why != want_fast) {
            cr_expect_fail("%s %s: probe %s: gmk_rules_check_move says %d (%s), expected %d (%s)",
                           file, c->id, pt(pr->x, pr->y), v, rc_verdict_name(why), want_v,
                           rc_verdict_name(want_fast));
            bad++;
        }
    }
    /* expected kind per point, 0 = not forbidden */
    gmk_forbid_kind want[15][15] = {{GMK_FORBID_NONE}};
    for (int i = 0; i < c->forbidden_count; i++) {
        const rc_point *fp = &c->forbidden[i];
        if (c->board[fp->y][fp->x] != '.') {
            cr_expect_fail("%s %s: forbidden point %s is not empty", file, c->id, pt(fp->x, fp->y));
            bad++;
        }
        if (want[fp->y][fp->x] != GMK_FORBID_NONE) {
            cr_expect_fail("%s %s: forbidden point %s listed twice", file, c->id, pt(fp->x, fp->y));
            bad++;
        }
        want[fp->y][fp->x] = fp->kind;
    }
    /* the data files agree with themselves: a forbidden probe is in the set, with its kind */
    for (int i = 0; i < c->probe_count; i++) {
        const rc_point *pr = &c->probe[i];
        gmk_forbid_kind in_set = want[pr->y][pr->x];
        if (in_set != (gmk_forbid_is_foul(pr->kind) ? pr->kind : GMK_FORBID_NONE)) {
            cr_expect_fail("%s %s: data: probe %s (%s) disagrees with the forbidden line", file,
                           c->id, pt(pr->x, pr->y), rc_verdict_name(pr->kind));
            bad++;
        }
    }
    for (int y = 0; y < 15; y++)
        for (int x = 0; x < 15; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (c->board[y][x] != '.') {
                if (gmk_renju_forbidden(&b, p) != GMK_FORBID_NONE) {
                    cr_expect_fail("%s %s: occupied %s reported forbidden", file, c->id, pt(x, y));
                    bad++;
                }
                continue;
            }
            gmk_forbid_kind got = gmk_renju_forbidden(&b, p);
            if (got != want[y][x]) {
                cr_expect_fail("%s %s: point %s: expected %s, gmk_renju_forbidden says %s", file,
                               c->id, pt(x, y), rc_verdict_name(want[y][x]), rc_verdict_name(got));
                bad++;
            }
            gmk_forbid_kind exact = gmk_renju_classify(&b, p);
            gmk_forbid_kind exact_foul = gmk_forbid_is_foul(exact) ? exact : GMK_FORBID_NONE;
            if (exact_foul != want[y][x]) {
                cr_expect_fail("%s %s: point %s: expected %s, gmk_renju_classify says %s", file,
                               c->id, pt(x, y), rc_verdict_name(want[y][x]),
                               rc_verdict_name(exact));
                bad++;
            }
        }
    return bad;
}

static void run_file(const char *name, int min_cases) {
    renju_file f;
    bool ok = renju_file_load(name, &f);
    cr_assert(ok, "%s: %s", name, f.error);
    cr_assert_geq(f.count, min_cases, "%s: only %d cases (expected at least %d)", name, f.count,
                  min_cases);
    int failed = 0, probes = 0, forbidden = 0;
    for (int i = 0; i < f.count; i++) {
        probes += f.cases[i].probe_count;
        forbidden += f.cases[i].forbidden_count;
        if (check_case(name, &f.cases[i]) > 0) failed++;
    }
    cr_log_info("%s: %d cases, %d probes, %d forbidden points; %d cases mismatch", name, f.count,
                probes, forbidden, failed);
    free(f.cases);
    cr_expect_eq(failed, 0, "%s: %d of %d cases mismatch (listed above)", name, failed, f.count);
}

/* Both files hold dozens of cases; a handful would mean a truncated copy. */
Test(renju_data, published) {
    run_file("renju/forbidden_published.txt", 30);
}

Test(renju_data, constructed) {
    run_file("renju/forbidden_constructed.txt", 30);
}

/* The loader itself: a missing file and a file without cases are errors, not empty passes. */
Test(renju_data, missing_file_is_an_error) {
    renju_file f;
    cr_assert_not(renju_file_load("renju/no_such_file.txt", &f));
    cr_assert_eq(f.count, 0);
}

Test(renju_data, parser_rejects_damage) {
    static const char *const bad[] = {
        "case a\nboard\n...............\nend\n", /* short board */
        "case a\nprobe h8 maybe\nend\n",         /* bad verdict */
        "case a\nforbidden h8(5)\nend\n",        /* bad kind */
        "case a\nforbidden z8(33)\nend\n",       /* bad point */
        "case a\nsource x\n",                    /* unterminated */
        "probe h8 legal\n",                      /* outside a case */
        "case a\nwhatever\nend\n",               /* unknown keyword */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        renju_file f;
        cr_expect_not(renju_file_parse(bad[i], &f), "accepted damaged input %zu", i);
        free(f.cases);
    }
    renju_file f;
    cr_assert(renju_file_parse("# only comments\n\n", &f));
    cr_assert_eq(f.count, 0);
    free(f.cases);
}

/* A few hand cases independent of the files (RULES.md 2.4), on an otherwise empty board. */
static gmk_forbid_kind classify_after(const char *black, const char *white, const char *probe) {
    gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    for (int pass = 0; pass < 2; pass++) {
        const char *s = pass ? white : black;
        while (s && *s) {
            size_t n = strcspn(s, " ");
            int x, y;
            cr_assert(test_point15(s, n, &x, &y), "bad test point in '%s'", s);
            gmk_board_put(&b, gmk_pos_xy(x, y), pass ? GMK_WHITE : GMK_BLACK);
            s += n;
            while (*s == ' ') s++;
        }
    }
    int x, y;
    cr_assert(test_point15(probe, strlen(probe), &x, &y));
    gmk_forbid_kind exact = gmk_renju_classify(&b, gmk_pos_xy(x, y));
    gmk_forbid_kind fast = gmk_renju_forbidden(&b, gmk_pos_xy(x, y));
    cr_expect_eq(fast, gmk_forbid_is_foul(exact) ? exact : GMK_FORBID_NONE,
                 "pre-filter disagrees at %s", probe);
    return exact;
}

Test(renju_hand, basic_shapes) {
    /* open 3x3 */
    cr_expect_eq(classify_after("f8 g8 h6 h7", "", "h8"), GMK_FORBID_DOUBLE_THREE);
    /* 4x4 across two lines */
    cr_expect_eq(classify_after("e8 f8 g8 h5 h6 h7", "d8 h4", "h8"), GMK_FORBID_DOUBLE_FOUR);
    /* same-line double fours: X.XXX.X and XX.XX.XX */
    cr_expect_eq(classify_after("d8 f8 g8 j8", "", "h8"), GMK_FORBID_DOUBLE_FOUR);
    cr_expect_eq(classify_after("e8 g8 h8 k8", "", "i8"), GMK_FORBID_DOUBLE_FOUR);
    cr_expect_eq(classify_after("e8 f8 h8 k8 l8", "", "i8"), GMK_FORBID_DOUBLE_FOUR);
    /* a straight four is one four */
    cr_expect_eq(classify_after("e8 f8 g8", "", "h8"), GMK_FORBID_NONE);
    /* overline, and five beats it */
    cr_expect_eq(classify_after("d8 e8 f8 h8 i8", "", "g8"), GMK_FORBID_OVERLINE);
    cr_expect_eq(classify_after("e8 f8 g8 h8", "", "i8"), GMK_FORBID_FIVE);
    cr_expect_eq(classify_after("e8 f8 g8 h8 i4 i5 i6 i7 i9", "", "i8"), GMK_FORBID_FIVE);
    /* 4x3 is legal */
    cr_expect_eq(classify_after("e8 f8 g8 h6 h7", "d8", "h8"), GMK_FORBID_NONE);
    /* a three boxed in by white is no three */
    cr_expect_eq(classify_after("f8 g8 h6 h7", "e8 j8", "h8"), GMK_FORBID_NONE);
    /* white is never restricted */
    gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    int xs[] = {5, 6, 7, 7}, ys[] = {7, 7, 9, 8};
    for (int i = 0; i < 4; i++) gmk_board_put(&b, gmk_pos_xy(xs[i], ys[i]), GMK_WHITE);
    b.side = GMK_WHITE;
    cr_expect_eq(gmk_rules_check_move(&b, gmk_pos_xy(7, 7), NULL), GMK_MOVE_LEGAL);
}

/* The checks work only on renju boards; on any other rule nothing is forbidden. */
Test(renju_hand, other_rules_have_no_fouls) {
    for (gmk_rule r = GMK_RULE_FREESTYLE; r < GMK_RULE_COUNT; r++) {
        if (r == GMK_RULE_RENJU) continue;
        gmk_board b;
        gmk_board_init(&b, 15, r);
        int xs[] = {5, 6, 7, 7}, ys[] = {7, 7, 9, 8};
        for (int i = 0; i < 4; i++) gmk_board_put(&b, gmk_pos_xy(xs[i], ys[i]), GMK_BLACK);
        b.side = GMK_BLACK;
        cr_expect_eq(gmk_renju_forbidden(&b, gmk_pos_xy(7, 7)), GMK_FORBID_NONE);
        cr_expect_eq(gmk_rules_check_move(&b, gmk_pos_xy(7, 7), NULL), GMK_MOVE_LEGAL);
        /* the exact check ignores the rule */
        cr_expect_eq(gmk_renju_classify(&b, gmk_pos_xy(7, 7)), GMK_FORBID_DOUBLE_THREE);
    }
}

Test(renju_hand, names) {
    cr_expect_str_eq(gmk_forbid_name(GMK_FORBID_DOUBLE_THREE), "double-three");
    cr_expect_str_eq(gmk_forbid_name(GMK_FORBID_DOUBLE_FOUR), "double-four");
    cr_expect_str_eq(gmk_forbid_name(GMK_FORBID_OVERLINE), "overline");
    cr_expect_str_eq(gmk_forbid_name(GMK_FORBID_NONE), "");
    cr_expect_str_eq(gmk_forbid_name(GMK_FORBID_FIVE), "");
}
