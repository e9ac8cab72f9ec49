/* test_record.c: game records (src/core/record.c): PSQ as Piskvork writes it, SGF with GM[4],
 * move strings; round trips over random games, and the readers' refusals with their messages. */
#include <criterion/criterion.h>

#include "core/record.h"
#include "support.h"

static gmk_pos P(int x, int y) {
    return gmk_pos_xy(x, y);
}

/* ---- PSQ ----------------------------------------------------------------------------------- */

/* The example of RULES.md 5.4: Piskvork's own output on 20x20, coordinates 1-based. */
static const char *const piskvork_psq = "Piskvorky 20x20, 11:11, 0\n"
                                        "10,10,0\n"
                                        "11,11,2304\n"
                                        "11,10,1518\n"
                                        "pbrain-first.zip\n"
                                        "pbrain-second.zip\n"
                                        "-1\n";

Test(psq, reads_piskvork_output) {
    gmk_record r;
    char err[200];
    cr_assert(gmk_record_read_psq(piskvork_psq, GMK_RULE_FREESTYLE, &r, err, sizeof err), "%s",
              err);
    cr_assert_eq(r.size, 20);
    cr_assert_eq(r.count, 3);
    cr_assert_eq(r.moves[0], P(9, 9));
    cr_assert_eq(r.moves[1], P(10, 10));
    cr_assert_eq(r.moves[2], P(10, 9));
    cr_assert_eq(r.time_ms[1], 2304);
    cr_assert_str_eq(r.black, "pbrain-first.zip");
    cr_assert_str_eq(r.white, "pbrain-second.zip");
    cr_assert_eq(r.psq_code, -1);
    cr_assert_not(r.rule_known);
}

Test(psq, reads_crlf_and_flag_one_swaps_names) {
    const char *text = "Piskvorky 15x15, 1:1, 1\r\n8,8,5\r\n9,9,7\r\nwhite-first\r\nblack\r\n0\r\n";
    gmk_record r;
    char err[200];
    cr_assert(gmk_record_read_psq(text, GMK_RULE_RENJU, &r, err, sizeof err), "%s", err);
    cr_assert_eq(r.count, 2);
    cr_assert_eq(r.rule, GMK_RULE_RENJU);
    cr_assert_str_eq(r.black, "black");
    cr_assert_str_eq(r.white, "white-first");
}

Test(psq, accepts_moves_only_and_moves_without_time) {
    gmk_record r;
    char err[200];
    cr_assert(gmk_record_read_psq("Piskvorky 15x15, 0:0, 0\n8,8\n", GMK_RULE_FREESTYLE, &r, err,
                                  sizeof err),
              "%s", err);
    cr_assert_eq(r.count, 1);
    cr_assert_eq(r.time_ms[0], -1);
    cr_assert_eq(r.black[0], '\0');
}

static void psq_fails(const char *text, const char *needle) {
    gmk_record r;
    r.count = 12345;
    char err[200] = "";
    cr_assert_not(gmk_record_read_psq(text, GMK_RULE_FREESTYLE, &r, err, sizeof err),
                  "accepted: %s", text);
    cr_assert(strstr(err, needle), "message '%s' lacks '%s'", err, needle);
    cr_assert_eq(r.count, 12345, "partial result left behind");
}

Test(psq, refuses_bad_files) {
    psq_fails("", "empty");
    psq_fails("Piskvork 15x15, 0:0, 0\n", "line 1");
    psq_fails("Piskvorky 15x14, 0:0, 0\n", "rectangular");
    psq_fails("Piskvorky 30x30, 0:0, 0\n", "not supported");
    psq_fails("Piskvorky 15x15, 0:0, 2\n", "0 or 1");
    psq_fails("Piskvorky 15x15, 0:0, 0\n0,5,0\n", "line 2: 0,5 is off");
    psq_fails("Piskvorky 15x15, 0:0, 0\n16,5,0\n", "off the 15x15");
    psq_fails("Piskvorky 15x15, 0:0, 0\n3,5,0\n4,4,1\n3,5,9\n",
              "line 4: 3,5 was already played (move 1)");
    psq_fails("Piskvorky 15x15, 0:0, 0\n3,5,-4\n", "negative");
    psq_fails("Piskvorky 15x15, 0:0, 0\n3,5,0\nonly-one-name\n0\n", "names");
    psq_fails("Piskvorky 15x15, 0:0, 0\n3,5,0\na\nb\n0\nextra\n", "after the result code");
    psq_fails("Piskvorky 15x15, 0:0, 0\n3,5,0\na\nb\n4,4,0\n", "line 3");
}

/* ---- SGF ----------------------------------------------------------------------------------- */

Test(sgf, reads_the_rules_md_example) {
    gmk_record r;
    char err[200];
    size_t used;
    const char *text = "(;GM[4]FF[4]SZ[15]RU[renju];B[hh];W[ih];B[jj])";
    cr_assert(gmk_record_read_sgf(text, GMK_RULE_FREESTYLE, &used, &r, err, sizeof err), "%s", err);
    cr_assert_eq(used, strlen(text));
    cr_assert(r.rule_known);
    cr_assert_eq(r.rule, GMK_RULE_RENJU);
    char moves[64];
    cr_assert_gt(gmk_record_write_moves(&r, moves, sizeof moves), 0);
    cr_assert_str_eq(moves, "h8i8j6");
}

Test(sgf, escapes_round_trip) {
    gmk_record r, back;
    gmk_record_init(&r, 15, GMK_RULE_STANDARD);
    snprintf(r.black, sizeof r.black, "a]b\\c");
    snprintf(r.white, sizeof r.white, "white [2]");
    snprintf(r.note, sizeof r.note, "time: x took 1200 ms]");
    r.outcome = GMK_WHITE_WINS;
    r.reason = GMK_REASON_TIME;
    gmk_record_add(&r, P(7, 7), 10);
    gmk_record_add(&r, P(8, 8), 20);
    char buf[2048], err[200];
    cr_assert_gt(gmk_record_write_sgf(&r, buf, sizeof buf), 0);
    cr_assert(strstr(buf, "GM[4]"));
    cr_assert(strstr(buf, "RE[W+T]"));
    cr_assert(strstr(buf, "PB[a\\]b\\\\c]"), "%s", buf);
    cr_assert(gmk_record_read_sgf(buf, GMK_RULE_FREESTYLE, NULL, &back, err, sizeof err), "%s",
              err);
    cr_assert_str_eq(back.black, r.black);
    cr_assert_str_eq(back.white, r.white);
    cr_assert_str_eq(back.note, r.note);
    cr_assert_eq(back.outcome, GMK_WHITE_WINS);
    cr_assert_eq(back.reason, GMK_REASON_TIME);
    cr_assert_eq(back.rule, GMK_RULE_STANDARD);
    cr_assert_eq(back.count, 2);
}

Test(sgf, follows_the_first_variation_and_reads_setup_stones) {
    gmk_record r;
    char err[200];
    const char *text = "(;GM[4]SZ[15:15]AB[hh][ii]AW[hi]PL[W] ;W[aa] (;B[bb];W[cc]) (;B[dd]))";
    cr_assert(gmk_record_read_sgf(text, GMK_RULE_FREESTYLE, NULL, &r, err, sizeof err), "%s", err);
    cr_assert_eq(r.count, 6);
    gmk_pos want[6] = {P(7, 7), P(7, 8), P(8, 8), P(0, 0), P(1, 1), P(2, 2)};
    for (int i = 0; i < 6; i++) cr_assert_eq(r.moves[i], want[i], "move %d", i + 1);
}

Test(sgf, reads_a_collection_game_by_game) {
    const char *text = "(;GM[4]SZ[9];B[ee])\n(;GM[4]SZ[15];B[hh];W[hi])\n";
    gmk_record r;
    char err[200];
    size_t used;
    cr_assert(gmk_record_read_sgf(text, GMK_RULE_FREESTYLE, &used, &r, err, sizeof err), "%s", err);
    cr_assert_eq(r.size, 9);
    cr_assert_eq(r.count, 1);
    cr_assert(gmk_record_read_sgf(text + used, GMK_RULE_FREESTYLE, &used, &r, err, sizeof err),
              "%s", err);
    cr_assert_eq(r.size, 15);
    cr_assert_eq(r.count, 2);
}

Test(sgf, missing_gm_and_unknown_ru_are_accepted) {
    gmk_record r;
    char err[200];
    cr_assert(gmk_record_read_sgf("(;SZ[15]RU[whatever]C[hi];B[hh])", GMK_RULE_CARO, NULL, &r, err,
                                  sizeof err),
              "%s", err);
    cr_assert_not(r.rule_known);
    cr_assert_eq(r.rule, GMK_RULE_CARO);
}

static void sgf_fails(const char *text, const char *needle) {
    gmk_record r;
    r.count = 4321;
    char err[200] = "";
    cr_assert_not(gmk_record_read_sgf(text, GMK_RULE_FREESTYLE, NULL, &r, err, sizeof err),
                  "accepted: %s", text);
    cr_assert(strstr(err, needle), "message '%s' lacks '%s'", err, needle);
    cr_assert_eq(r.count, 4321, "partial result left behind");
}

Test(sgf, refuses_bad_records) {
    sgf_fails("", "starts with '('");
    sgf_fails("(;GM[1]SZ[19];B[dd])", "GM[1] is not a gomoku record");
    sgf_fails("(;GM[4]SZ[20:15])", "rectangular");
    sgf_fails("(;GM[4]SZ[30])", "not supported");
    sgf_fails("(;GM[4]SZ[x])", "bad board size");
    sgf_fails("(;GM[4];B[])", "passes");
    sgf_fails("(;GM[4]SZ[15];B[hh];W[pa])", "'pa' is off the 15x15 board");
    sgf_fails("(;GM[4]SZ[19];B[hh];W[tt])", "passes");
    sgf_fails("(;GM[4];B[hh];B[ii])", "move 2 is black, but white is to move");
    sgf_fails("(;GM[4];W[hh])", "move 1 is white");
    sgf_fails("(;GM[4];B[hh];W[hh])", "already played");
    sgf_fails("(;GM[4];B[h])", "not a point");
    sgf_fails("(;GM[4];B[hh][ii])", "one value");
    sgf_fails("(;GM[4]AB[aa][bb][cc]AW[dd])", "cannot be replayed");
    sgf_fails("(;GM[4]AB[aa]PL[B])", "PL[B] does not fit");
    sgf_fails("(;GM[4];B[aa]AB[bb])", "root node");
    sgf_fails("(;GM[4]B[aa]AB[bb])", "setup stones after moves");
    sgf_fails("(;GM[4];AE[aa])", "AE");
    sgf_fails("(;GM[4]C[unclosed", "not closed");
    sgf_fails("(;GM[4];B[aa]", "expected ')'");
    sgf_fails("(;gm[4])", "upper-case");
    sgf_fails("(GM[4])", "starts with ';'");
    sgf_fails("(;GM[4];B[aa];SZ[15])", "root node");
}

/* ---- move strings, detection, boards --------------------------------------------------------- */

Test(moves, round_trip_and_errors) {
    gmk_record r;
    char err[200], out[64];
    cr_assert(gmk_record_read_moves("h8 i9,j10", 15, GMK_RULE_RENJU, &r, err, sizeof err), "%s",
              err);
    cr_assert_eq(r.count, 3);
    cr_assert_gt(gmk_record_write_moves(&r, out, sizeof out), 0);
    cr_assert_str_eq(out, "h8i9j10");
    cr_assert_eq(gmk_record_write_moves(&r, out, 4), -1);
    cr_assert_not(gmk_record_read_moves("h8h8", 15, GMK_RULE_RENJU, &r, err, sizeof err));
    cr_assert(strstr(err, "twice"), "%s", err);
}

Test(record, detects_formats) {
    cr_assert_eq(gmk_record_detect("  Piskvorky 15x15, 0:0, 0\n"), GMK_RECORD_PSQ);
    cr_assert_eq(gmk_record_detect("\n(;GM[4])"), GMK_RECORD_SGF);
    cr_assert_eq(gmk_record_detect("h8i9"), GMK_RECORD_MOVES);
    cr_assert_eq(gmk_record_detect("12,3"), GMK_RECORD_UNKNOWN);
    cr_assert_eq(gmk_record_detect(NULL), GMK_RECORD_UNKNOWN);
}

Test(record, to_board_refuses_taken_points) {
    gmk_record r;
    gmk_board b;
    char err[200];
    gmk_record_init(&r, 15, GMK_RULE_FREESTYLE);
    gmk_record_add(&r, P(7, 7), -1);
    gmk_record_add(&r, P(7, 7), -1);
    cr_assert_not(gmk_record_to_board(&r, &b, err, sizeof err));
    cr_assert(strstr(err, "move 2 (h8) is on a taken point"), "%s", err);
}

Test(record, writers_report_a_short_buffer) {
    gmk_record r;
    gmk_record_init(&r, 15, GMK_RULE_FREESTYLE);
    for (int i = 0; i < 10; i++) gmk_record_add(&r, P(i, 3), 100);
    char buf[40];
    cr_assert_eq(gmk_record_write_psq(&r, buf, sizeof buf), -1);
    cr_assert_eq(gmk_record_write_sgf(&r, buf, sizeof buf), -1);
    cr_assert_str_eq(buf, "");
}

/* Random legal games through PSQ and SGF and back: the same moves, times and names. */
Test(record, random_games_round_trip) {
    test_rng rng = {20240601};
    static char buf[1 << 16];
    for (int game = 0; game < 200; game++) {
        int size = 5 + rng_below(&rng, GMK_MAX_SIZE - 4);
        gmk_rule rule = (gmk_rule)rng_below(&rng, GMK_RULE_COUNT);
        gmk_record r, back;
        gmk_record_init(&r, size, rule);
        snprintf(r.black, sizeof r.black, "black %d", game);
        snprintf(r.white, sizeof r.white, "white %d", game);
        bool taken[GMK_CELLS] = {false};
        int n = rng_below(&rng, size * size + 1);
        for (int i = 0; i < n; i++) {
            gmk_pos p;
            do p = P(rng_below(&rng, size), rng_below(&rng, size));
            while (taken[p]);
            taken[p] = true;
            gmk_record_add(&r, p, rng_below(&rng, 100000));
        }
        char err[200];
        cr_assert_gt(gmk_record_write_psq(&r, buf, sizeof buf), 0);
        cr_assert(gmk_record_read_psq(buf, rule, &back, err, sizeof err), "game %d: %s", game, err);
        cr_assert_eq(back.count, r.count);
        cr_assert_eq(back.size, r.size);
        cr_assert_str_eq(back.black, r.black);
        for (int i = 0; i < r.count; i++) {
            cr_assert_eq(back.moves[i], r.moves[i]);
            cr_assert_eq(back.time_ms[i], r.time_ms[i]);
        }
        cr_assert_gt(gmk_record_write_sgf(&r, buf, sizeof buf), 0);
        cr_assert(gmk_record_read_sgf(buf, GMK_RULE_FREESTYLE, NULL, &back, err, sizeof err),
                  "game %d: %s", game, err);
        cr_assert_eq(back.rule, rule);
        cr_assert_eq(back.count, r.count);
        cr_assert_str_eq(back.white, r.white);
        for (int i = 0; i < r.count; i++) cr_assert_eq(back.moves[i], r.moves[i]);
        gmk_board b;
        cr_assert(gmk_record_to_board(&back, &b, err, sizeof err), "%s", err);
        cr_assert_eq(b.move_count, r.count);
    }
}

/* Issue 11, defect 13: names that look like moves survive SGF -> PSQ -> SGF, and add no
 * moves. */
Test(psq, names_that_look_like_moves_round_trip) {
    const char *sgf = "(;GM[4]SZ[15]PB[1,1]PW[2,2]RE[0];B[hh];W[ii])";
    gmk_record r, back, again;
    size_t used;
    char err[200], psq[4096], sgf2[4096];
    cr_assert(gmk_record_read_sgf(sgf, GMK_RULE_FREESTYLE, &used, &r, err, sizeof err), "%s", err);
    cr_assert_gt(gmk_record_write_psq(&r, psq, sizeof psq), 0);
    cr_assert(gmk_record_read_psq(psq, GMK_RULE_FREESTYLE, &back, err, sizeof err), "%s", err);
    cr_assert_eq(back.count, 2, "%s", psq);
    cr_assert_str_eq(back.black, "1,1");
    cr_assert_str_eq(back.white, "2,2");
    cr_assert_gt(gmk_record_write_sgf(&back, sgf2, sizeof sgf2), 0);
    cr_assert(gmk_record_read_sgf(sgf2, GMK_RULE_FREESTYLE, &used, &again, err, sizeof err));
    cr_assert_eq(again.count, 2);
    cr_assert_str_eq(again.black, "1,1");
    /* a name starting with the escape character keeps it */
    snprintf(r.black, sizeof r.black, "=x");
    cr_assert_gt(gmk_record_write_psq(&r, psq, sizeof psq), 0);
    cr_assert(gmk_record_read_psq(psq, GMK_RULE_FREESTYLE, &back, err, sizeof err), "%s", err);
    cr_assert_str_eq(back.black, "=x");
}

/* Found by fuzz_records: error messages that quote the record are one printable line, and a
 * name whose control characters end it writes the same PSQ again after a round trip. */
Test(record, errors_are_printable_and_psq_names_are_stable) {
    gmk_record r, back;
    char err[300], a[4096], b[4096];
    cr_assert_not(
        gmk_record_read_sgf("(;GM[4]\x1dZ[15])", GMK_RULE_FREESTYLE, NULL, &r, err, sizeof err));
    for (const char *s = err; *s; s++)
        cr_assert((unsigned char)*s >= 0x20 && *s != 0x7f, "%s", err);
    gmk_record_init(&r, 15, GMK_RULE_FREESTYLE);
    gmk_record_add(&r, gmk_pos_xy(7, 7), 0);
    snprintf(r.black, sizeof r.black, "Ann\b");
    snprintf(r.white, sizeof r.white, "Bob");
    cr_assert_gt(gmk_record_write_psq(&r, a, sizeof a), 0);
    cr_assert(gmk_record_read_psq(a, GMK_RULE_FREESTYLE, &back, err, sizeof err), "%s", err);
    cr_assert_gt(gmk_record_write_psq(&back, b, sizeof b), 0);
    cr_assert_str_eq(a, b);
    cr_assert_str_eq(back.black, "Ann");
}
