/* test_records_cli.c: what gomoku export and gomoku import rely on in core/record.h: every
 * record they write reads back with the same moves, size, players, times and (SGF) rule and
 * result, on every board size and from corner to corner; the coordinate conventions of each
 * format on fixed examples; and the format detection of what import may be given.
 * (The commands themselves are tested from the outside by tests/cli/records.sh.) */
#include <criterion/criterion.h>

#include "core/record.h"
#include "support.h"

#define BUF_BYTES (64 * 1024)

/* A random game of n distinct points on a size x size board, with random times. */
static void random_record(test_rng *rng, int size, gmk_rule rule, int n, gmk_record *r) {
    gmk_record_init(r, size, rule);
    bool used[GMK_CELLS] = {false};
    while (r->count < n) {
        gmk_pos p = gmk_pos_xy(rng_below(rng, size), rng_below(rng, size));
        if (used[p]) continue;
        used[p] = true;
        cr_assert(gmk_record_add(r, p, rng_below(rng, 100000)));
    }
}

static void expect_same_moves(const gmk_record *a, const gmk_record *b, const char *what) {
    cr_assert_eq(a->size, b->size, "%s: size %d became %d", what, a->size, b->size);
    cr_assert_eq(a->count, b->count, "%s: %d moves became %d", what, a->count, b->count);
    for (int i = 0; i < a->count; i++)
        cr_assert_eq(a->moves[i], b->moves[i], "%s: move %d differs", what, i + 1);
}

Test(records_round_trip, psq_every_size_with_times_and_players) {
    test_rng rng = {0x5eed0001};
    char *buf = malloc(BUF_BYTES), err[300];
    gmk_record *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    cr_assert(buf && a && b);
    for (int size = GMK_MIN_SIZE; size <= GMK_MAX_SIZE; size++) {
        for (int n = 0; n <= size * size; n += size * size / 3 + 1) {
            random_record(&rng, size, GMK_RULE_FREESTYLE, n, a);
            snprintf(a->black, sizeof a->black, "black player %d", size);
            snprintf(a->white, sizeof a->white, "pbrain-white.zip");
            int len = gmk_record_write_psq(a, buf, BUF_BYTES);
            cr_assert(len > 0);
            cr_assert(gmk_record_detect(buf) == GMK_RECORD_PSQ);
            cr_assert(gmk_record_read_psq(buf, GMK_RULE_RENJU, b, err, sizeof err), "%s\n%s", err,
                      buf);
            expect_same_moves(a, b, "psq");
            for (int i = 0; i < a->count; i++) cr_assert_eq(a->time_ms[i], b->time_ms[i]);
            cr_expect_str_eq(b->black, a->black);
            cr_expect_str_eq(b->white, a->white);
            cr_expect(!b->rule_known && b->rule == GMK_RULE_RENJU, "PSQ never says the rule");
        }
    }
    free(a), free(b), free(buf);
}

Test(records_round_trip, sgf_every_size_rule_result_and_awkward_names) {
    test_rng rng = {0x5eed0002};
    char *buf = malloc(BUF_BYTES), err[300];
    gmk_record *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    cr_assert(buf && a && b);
    static const char *names[] = {"Ann [the] \\ best", "]", "\\", "李四", "x y", ""};
    for (int size = GMK_MIN_SIZE; size <= GMK_MAX_SIZE; size++) {
        gmk_rule rule = (gmk_rule)(size % GMK_RULE_COUNT);
        random_record(&rng, size, rule, rng_below(&rng, size * size + 1), a);
        snprintf(a->black, sizeof a->black, "%s", names[size % 6]);
        snprintf(a->white, sizeof a->white, "%s", names[(size + 1) % 6]);
        a->outcome = (gmk_outcome)(size % 4);
        a->reason = a->outcome == GMK_ONGOING
                        ? GMK_REASON_NONE
                        : (gmk_reason)(size % 2 ? GMK_REASON_RESIGN : GMK_REASON_TIME);
        int len = gmk_record_write_sgf(a, buf, BUF_BYTES);
        cr_assert(len > 0);
        cr_assert(strstr(buf, "GM[4]") != NULL);
        cr_assert(gmk_record_detect(buf) == GMK_RECORD_SGF);
        size_t used = 0;
        cr_assert(gmk_record_read_sgf(buf, GMK_RULE_FREESTYLE, &used, b, err, sizeof err), "%s\n%s",
                  err, buf);
        cr_expect_eq(used, (size_t)len - 1, "only the newline is left after the game");
        expect_same_moves(a, b, "sgf");
        cr_expect(b->rule_known && b->rule == rule, "RU[] keeps the rule");
        cr_expect_str_eq(b->black, a->black);
        cr_expect_str_eq(b->white, a->white);
        cr_expect_eq(b->outcome, a->outcome);
        if (a->outcome == GMK_BLACK_WINS || a->outcome == GMK_WHITE_WINS)
            cr_expect_eq(b->reason, a->reason);
    }
    free(a), free(b), free(buf);
}

Test(records_round_trip, moves_every_size) {
    test_rng rng = {0x5eed0003};
    char *buf = malloc(BUF_BYTES), err[300];
    gmk_record *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    cr_assert(buf && a && b);
    for (int size = GMK_MIN_SIZE; size <= GMK_MAX_SIZE; size++) {
        random_record(&rng, size, GMK_RULE_STANDARD, size * size, a);
        int len = gmk_record_write_moves(a, buf, BUF_BYTES);
        cr_assert(len > 0);
        cr_assert(gmk_record_detect(buf) == GMK_RECORD_MOVES);
        cr_assert(gmk_record_read_moves(buf, size, GMK_RULE_STANDARD, b, err, sizeof err), "%s",
                  err);
        expect_same_moves(a, b, "moves");
    }
    free(a), free(b), free(buf);
}

/* The corners of each format, on fixed examples (RULES.md section 5). */
Test(records_conventions, corners) {
    gmk_record r;
    char buf[4096], err[300];
    gmk_record_init(&r, 15, GMK_RULE_RENJU);
    gmk_record_add(&r, gmk_pos_xy(7, 7), 0);   /* centre: h8, PSQ 8,8, SGF hh */
    gmk_record_add(&r, gmk_pos_xy(0, 0), 5);   /* top-left: a15, PSQ 1,1, SGF aa */
    gmk_record_add(&r, gmk_pos_xy(14, 14), 7); /* bottom-right: o1, PSQ 15,15, SGF oo */
    gmk_record_add(&r, gmk_pos_xy(0, 14), -1); /* bottom-left: a1, PSQ 1,15, SGF ao */
    cr_assert(gmk_record_write_psq(&r, buf, sizeof buf) > 0);
    cr_expect_str_eq(buf, "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,1,5\n15,15,7\n1,15,0\n0\n");
    cr_assert(gmk_record_write_sgf(&r, buf, sizeof buf) > 0);
    cr_expect(strstr(buf, "SZ[15]RU[renju]") != NULL, "%s", buf);
    cr_expect(strstr(buf, ";B[hh];W[aa];B[oo];W[ao])\n") != NULL, "%s", buf);
    cr_assert(gmk_record_write_moves(&r, buf, sizeof buf) > 0);
    cr_expect_str_eq(buf, "h8a15o1a1");
    cr_assert(gmk_record_read_moves("h8 a15,o1 a1\n", 15, GMK_RULE_RENJU, &r, err, sizeof err));
    cr_expect_eq(r.count, 4);
    cr_expect_eq(r.moves[3], gmk_pos_xy(0, 14));
}

Test(records_detect, what_import_may_be_given) {
    cr_expect_eq(gmk_record_detect("Piskvorky 15x15, 11:11, 0\n"), GMK_RECORD_PSQ);
    cr_expect_eq(gmk_record_detect("\r\n  (;GM[4])"), GMK_RECORD_SGF);
    cr_expect_eq(gmk_record_detect("h8i9"), GMK_RECORD_MOVES);
    cr_expect_eq(gmk_record_detect(""), GMK_RECORD_UNKNOWN);
    cr_expect_eq(gmk_record_detect("   \n"), GMK_RECORD_UNKNOWN);
    cr_expect_eq(gmk_record_detect("\x89PNG"), GMK_RECORD_UNKNOWN);
    cr_expect_eq(gmk_record_detect("7,7\n"), GMK_RECORD_UNKNOWN);
}

/* A player's name holding a line break (possible in SGF) must not break the PSQ written from
 * it: the file has to read back with the same moves. */
Test(records_round_trip, psq_name_with_line_break) {
    gmk_record a, b;
    char buf[4096], err[300];
    gmk_record_init(&a, 15, GMK_RULE_FREESTYLE);
    gmk_record_add(&a, gmk_pos_xy(7, 7), 0);
    gmk_record_add(&a, gmk_pos_xy(8, 8), 0);
    cr_assert(gmk_record_read_sgf("(;GM[4]PB[two\nlines]PW[w\r\nx];B[hh];W[ii])",
                                  GMK_RULE_FREESTYLE, NULL, &a, err, sizeof err),
              "%s", err);
    cr_assert(gmk_record_write_psq(&a, buf, sizeof buf) > 0);
    cr_assert(gmk_record_read_psq(buf, GMK_RULE_FREESTYLE, &b, err, sizeof err), "%s\n%s", err,
              buf);
    expect_same_moves(&a, &b, "psq with a two-line name");
}
