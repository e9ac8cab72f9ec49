/* test_protocol.c: the Gomocup front end: parsing and formatting of protocol lines
 * (src/gomocup/protocol.c), the brain's time plan and a whole brain session in-process
 * (brain.c), and the match runner's pure parts (openings, Elo, SPRT). */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <unistd.h>

#include "gomocup/brain.h"
#include "gomocup/match.h"
#include "gomocup/protocol.h"
#include "support.h"

static gmk_proto_status parse(const char *line, gmk_proto_command *c) {
    char err[200];
    return gmk_proto_parse(line, c, err, sizeof err);
}

/* ---- commands ------------------------------------------------------------------------------ */

Test(parse, commands_and_arguments) {
    gmk_proto_command c;
    cr_assert_eq(parse("START 15", &c), GMK_PROTO_OK);
    cr_assert_eq(c.kind, GMK_CMD_START);
    cr_assert_eq(c.n, 15);
    cr_assert_eq(parse("turn 7,8\r\n", &c), GMK_PROTO_OK);
    cr_assert_eq(c.kind, GMK_CMD_TURN);
    cr_assert_eq(c.x, 7);
    cr_assert_eq(c.y, 8);
    cr_assert_eq(parse("  TaKeBaCk 10 , 3  ", &c), GMK_PROTO_OK);
    cr_assert_eq(c.kind, GMK_CMD_TAKEBACK);
    cr_assert_eq(c.x, 10);
    cr_assert_eq(c.y, 3);
    cr_assert_eq(parse("RECTSTART 20,15", &c), GMK_PROTO_OK);
    cr_assert_eq(c.kind, GMK_CMD_RECTSTART);
    cr_assert_eq(c.x, 20);
    cr_assert_eq(c.y, 15);
    cr_assert_eq(parse("YXNBEST 5", &c), GMK_PROTO_OK);
    cr_assert_eq(c.kind, GMK_CMD_NBEST);
    cr_assert_eq(c.n, 5);
    cr_assert_eq(parse("INFO Timeout_Turn   5000 ", &c), GMK_PROTO_OK);
    cr_assert_eq(c.kind, GMK_CMD_INFO);
    cr_assert_str_eq(c.key, "timeout_turn");
    cr_assert_str_eq(c.value, "5000");
    cr_assert_eq(parse("INFO folder C:\\some dir\\", &c), GMK_PROTO_OK);
    cr_assert_str_eq(c.value, "C:\\some dir\\");
    cr_assert_eq(parse("INFO evaluate", &c), GMK_PROTO_OK);
    cr_assert_str_eq(c.value, "");
    static const struct {
        const char *line;
        gmk_proto_kind kind;
    } bare[] = {
        {"RESTART", GMK_CMD_RESTART},
        {"BEGIN", GMK_CMD_BEGIN},
        {"BOARD", GMK_CMD_BOARD},
        {"YXBOARD", GMK_CMD_YXBOARD},
        {"SWAP2BOARD", GMK_CMD_SWAP2BOARD},
        {"DONE", GMK_CMD_DONE},
        {"END", GMK_CMD_END},
        {"ABOUT", GMK_CMD_ABOUT},
        {"YXSTOP", GMK_CMD_STOP},
        {"stop", GMK_CMD_STOP},
        {"YXSHOWFORBID", GMK_CMD_SHOWFORBID},
        {"YXHASHCLEAR", GMK_CMD_HASHCLEAR},
        {"YXSHOWINFO", GMK_CMD_SHOWINFO},
    };
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++) {
        cr_assert_eq(parse(bare[i].line, &c), GMK_PROTO_OK, "%s", bare[i].line);
        cr_assert_eq(c.kind, bare[i].kind, "%s", bare[i].line);
    }
    cr_assert_eq(parse("PLAY 0,0", &c), GMK_PROTO_OK);
    cr_assert_eq(c.kind, GMK_CMD_PLAY);
}

Test(parse, empty_unknown_and_malformed) {
    gmk_proto_command c;
    char err[200];
    cr_assert_eq(gmk_proto_parse("", &c, err, sizeof err), GMK_PROTO_EMPTY);
    cr_assert_eq(gmk_proto_parse(" \t\r\n", &c, err, sizeof err), GMK_PROTO_EMPTY);
    cr_assert_eq(gmk_proto_parse(NULL, &c, err, sizeof err), GMK_PROTO_EMPTY);
    cr_assert_eq(gmk_proto_parse("hello world", &c, err, sizeof err), GMK_PROTO_UNKNOWN);
    cr_assert(strstr(err, "HELLO"), "%s", err);
    cr_assert_str_eq(c.word, "HELLO");
    cr_assert_eq(gmk_proto_parse("YXBALANCEONE 3", &c, err, sizeof err), GMK_PROTO_UNKNOWN);
    static const char *const bad[] = {
        "START",
        "START x",
        "START 15 20",
        "START -1",
        "TURN",
        "TURN 7",
        "TURN 7,",
        "TURN ,7",
        "TURN a,b",
        "TURN -1,3",
        "TURN 7,7,7",
        "TURN 7;7",
        "PLAY",
        "TAKEBACK 1",
        "RECTSTART 20",
        "YXNBEST",
        "YXNBEST 0",
        "YXNBEST x",
        "INFO",
        "BEGIN now",
        "END 1",
        "ABOUT me",
        "TURN 1234567890,1",
        "TURN 7,7\x01",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        cr_assert_eq(gmk_proto_parse(bad[i], &c, err, sizeof err), GMK_PROTO_MALFORMED, "%s",
                     bad[i]);
        cr_assert_neq(err[0], '\0', "no message for %s", bad[i]);
    }
    char long_key[100];
    memset(long_key, 'k', sizeof long_key);
    memcpy(long_key, "INFO ", 5);
    long_key[sizeof long_key - 1] = '\0';
    cr_assert_eq(gmk_proto_parse(long_key, &c, err, sizeof err), GMK_PROTO_MALFORMED);
}

Test(parse, board_lines) {
    int x, y, f;
    char err[200];
    cr_assert(gmk_proto_parse_stone("7,8,1\r", &x, &y, &f, err, sizeof err), "%s", err);
    cr_assert(x == 7 && y == 8 && f == 1);
    cr_assert(gmk_proto_parse_stone(" 10 , 0 , 3 ", &x, &y, &f, err, sizeof err), "%s", err);
    cr_assert(x == 10 && y == 0 && f == 3);
    static const char *const bad[] = {"7,8", "7,8,0", "7,8,4", "7,8,1,1", "a,b,c", "", "DONE x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_not(gmk_proto_parse_stone(bad[i], &x, &y, &f, err, sizeof err), "%s", bad[i]);
    cr_assert(gmk_proto_parse_point("3,4", &x, &y, err, sizeof err));
    cr_assert(x == 3 && y == 4);
    cr_assert(gmk_proto_parse_point("3,4,2", &x, &y, err, sizeof err));
    cr_assert_not(gmk_proto_parse_point("3", &x, &y, err, sizeof err));
    cr_assert_not(gmk_proto_parse_point("3,4 5,6", &x, &y, err, sizeof err));
}

Test(parse, integers_and_rules) {
    int64_t v;
    cr_assert(gmk_proto_parse_int("2147483647", &v) && v == 2147483647);
    cr_assert(gmk_proto_parse_int(" -250 ", &v) && v == -250);
    cr_assert(gmk_proto_parse_int("+7", &v) && v == 7);
    cr_assert_not(gmk_proto_parse_int("", &v));
    cr_assert_not(gmk_proto_parse_int("12ms", &v));
    cr_assert_not(gmk_proto_parse_int("-", &v));
    cr_assert_not(gmk_proto_parse_int("99999999999999999999999", &v));
    static const struct {
        int64_t n;
        gmk_rule rule;
    } rules[] = {
        {0, GMK_RULE_FREESTYLE}, {1, GMK_RULE_STANDARD},   {2, GMK_RULE_RENJU},
        {3, GMK_RULE_STANDARD},  {4, GMK_RULE_RENJU},      {5, GMK_RULE_RENJU},
        {6, GMK_RULE_RENJU},     {8, GMK_RULE_CARO},       {9, GMK_RULE_CARO},
        {12, GMK_RULE_RENJU},    {16, GMK_RULE_FREESTYLE},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        gmk_rule r;
        cr_assert(gmk_proto_rule_from_mask(rules[i].n, &r));
        cr_assert_eq(r, rules[i].rule, "rule %lld", (long long)rules[i].n);
    }
    gmk_rule r;
    cr_assert_not(gmk_proto_rule_from_mask(-1, &r));
}

/* ---- replies ------------------------------------------------------------------------------- */

Test(format, points_forbid_about_eval) {
    char pt[8];
    gmk_proto_format_point(gmk_pos_xy(0, 14), pt);
    cr_assert_str_eq(pt, "0,14");
    char line[64];
    cr_assert_eq(gmk_proto_format_forbid(NULL, 0, line, sizeof line), 8);
    cr_assert_str_eq(line, "FORBID .");
    gmk_pos pts[2] = {gmk_pos_xy(7, 8), gmk_pos_xy(12, 3)};
    cr_assert_gt(gmk_proto_format_forbid(pts, 2, line, sizeof line), 0);
    cr_assert_str_eq(line, "FORBID 07081203.");
    cr_assert_eq(gmk_proto_format_forbid(pts, 2, line, 12), -1);
    char about[300];
    cr_assert_gt(gmk_proto_format_about(about, sizeof about), 0);
    cr_assert(strncmp(about, "name=\"gomoku\", version=\"", 24) == 0, "%s", about);
    char ev[16];
    gmk_proto_format_eval(35, ev);
    cr_assert_str_eq(ev, "35");
    gmk_proto_format_eval(GMK_SCORE_WIN - 5, ev);
    cr_assert_str_eq(ev, "+W5");
    gmk_proto_format_eval(-(GMK_SCORE_WIN - 4), ev);
    cr_assert_str_eq(ev, "-L4");
}

Test(format, detail_lines) {
    gmk_search_result r;
    memset(&r, 0, sizeof r);
    r.best = gmk_pos_xy(7, 7);
    r.score = -12;
    r.depth = 6;
    r.seldepth = 11;
    r.nodes = 50000;
    r.time_ms = 25;
    r.nlines = 2;
    r.lines[0].move = gmk_pos_xy(7, 7);
    r.lines[0].score = -12;
    r.lines[0].pv_len = 2;
    r.lines[0].pv[0] = gmk_pos_xy(7, 7);
    r.lines[0].pv[1] = gmk_pos_xy(8, 8);
    r.lines[1].move = gmk_pos_xy(6, 6);
    r.lines[1].score = -40;
    r.lines[1].pv_len = 1;
    r.lines[1].pv[0] = gmk_pos_xy(6, 6);
    char line[512];
    cr_assert_gt(gmk_proto_format_detail(&r, -1, line, sizeof line), 0);
    cr_assert_str_eq(line,
                     "MESSAGE depth 6-11 eval -12 nodes 50000 nps 2000000 time 25 pv 7,7 8,8");
    cr_assert_gt(gmk_proto_format_detail(&r, 1, line, sizeof line), 0);
    cr_assert_str_eq(line, "MESSAGE nbest 2 move 6,6 eval -40 depth 6 pv 6,6");
    cr_assert_eq(gmk_proto_format_detail(&r, 2, line, sizeof line), -1);
    cr_assert_eq(gmk_proto_format_detail(&r, -1, line, 20), -1);
}

/* ---- the brain's time plan ----------------------------------------------------------------- */

static gmk_brain_plan plan(int64_t turn, int64_t match, int64_t left) {
    gmk_brain_clock c = {turn, match, left, 0};
    gmk_brain_plan p;
    gmk_brain_plan_time(&c, &p);
    cr_assert_lt(p.stop_ms, p.answer_ms);
    cr_assert_lt(p.answer_ms, p.hard_ms);
    cr_assert_gt(p.limits.overhead_ms, 0);
    return p;
}

Test(brain_time, limits) {
    gmk_brain_plan p = plan(5000, 0, GMK_BRAIN_UNLIMITED);
    cr_assert_eq(p.hard_ms, 5000);
    cr_assert_eq(p.limits.turn_ms, 5000);
    cr_assert_eq(p.limits.time_left_ms, 0);
    p = plan(0, -1, GMK_BRAIN_UNLIMITED); /* 0: as fast as possible */
    cr_assert_eq(p.limits.turn_ms, GMK_BRAIN_FAST_MS);
    p = plan(30000, 180000, 20000); /* the game clock is the tighter limit */
    cr_assert_eq(p.limits.time_left_ms, 20000);
    cr_assert_leq(p.hard_ms, 20000 / 4);
    p = plan(30000, 0, 20000); /* timeout_match 0: no game limit, time_left ignored */
    cr_assert_eq(p.limits.time_left_ms, 0);
    cr_assert_eq(p.hard_ms, 30000);
    p = plan(30000, -1, 20000); /* time_left without timeout_match: trusted */
    cr_assert_eq(p.limits.time_left_ms, 20000);
    p = plan(1000, 100000, -500); /* out of time: move at once */
    cr_assert_eq(p.limits.time_left_ms, 1);
    cr_assert_eq(p.hard_ms, 20);
    for (int64_t t = 1; t < 100000; t = t * 3 + 1) plan(t, -1, GMK_BRAIN_UNLIMITED);
}

/* ---- a whole session in-process ------------------------------------------------------------ */

typedef struct {
    int fd;
    FILE *out;
    int status;
} brain_args;

static void *brain_thread(void *arg) {
    brain_args *a = arg;
    /* free_at_exit: the test process goes on after the session, so a search slow to stop (a
     * sanitizer build on a busy machine) is waited for and freed, not left running */
    gmk_brain_options opt = {.finish_on_eof = true, .free_at_exit = true};
    a->status = gmk_brain_run_with(a->fd, a->out, &opt);
    return NULL;
}

/* Runs the brain on `input` (then end of input, which here lets a search in progress finish)
 * and returns what it wrote. */
static char *session(const char *input) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    FILE *out = tmpfile();
    cr_assert(out);
    brain_args a = {fds[0], out, -1};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, brain_thread, &a), 0);
    cr_assert_eq(write(fds[1], input, strlen(input)), (ssize_t)strlen(input));
    close(fds[1]);
    pthread_join(t, NULL);
    close(fds[0]);
    cr_assert_eq(a.status, 0);
    long n = ftell(out);
    char *text = calloc(1, (size_t)n + 1);
    rewind(out);
    cr_assert_eq(fread(text, 1, (size_t)n, out), (size_t)n);
    fclose(out);
    return text;
}

Test(brain, blocks_a_four_and_answers_everything) {
    char *out = session("start 15\r\n"
                        "INFO timeout_turn 300\r\n"
                        "INFO max_memory 83886080\r\n"
                        "BOARD\n4,7,1\n5,7,2\n3,3,1\n6,7,2\n10,10,1\n7,7,2\n12,2,1\n8,7,2\nDONE\n"
                        "bogus\n"
                        "TURN 9,7\n"
                        "ABOUT\n");
    cr_assert(strncmp(out, "OK\n9,7\nUNKNOWN ", 15) == 0, "%s", out);
    cr_assert(strstr(out, "\nERROR 9,7 is already taken\nname=\"gomoku\""), "%s", out);
    free(out);
}

Test(brain, end_of_input_lets_the_search_finish) {
    char *out = session("START 15\nINFO timeout_turn 200\nBEGIN\n");
    int x, y;
    cr_assert_eq(sscanf(out, "OK\n%d,%d\n", &x, &y), 2, "%s", out);
    cr_assert(x >= 0 && x < 15 && y >= 0 && y < 15);
    free(out);
}

Test(brain, renju_black_does_not_foul) {
    /* h8 (7,7) is a double-three for black and the only block of white's four */
    char *out = session("START 15\nINFO rule 4\nINFO timeout_turn 300\n"
                        "YXBOARD\n5,7,1\n3,3,2\n6,7,1\n4,4,2\n7,5,1\n5,5,2\n7,6,1\n6,6,2\n2,2,1\n"
                        "12,1,2\nDONE\nYXSHOWFORBID\n"
                        "BOARD\n5,7,1\n3,3,2\n6,7,1\n4,4,2\n7,5,1\n5,5,2\n7,6,1\n6,6,2\n2,2,1\n"
                        "12,1,2\nDONE\n");
    int x, y;
    cr_assert_eq(sscanf(out, "OK\nFORBID 0707.\n%d,%d\n", &x, &y), 2, "%s", out);
    cr_assert(!(x == 7 && y == 7), "black played its forbidden point");
    free(out);
}

/* ---- the match runner's pure parts ---------------------------------------------------------- */

Test(match, openings) {
    gmk_move_list l;
    char err[200];
    cr_assert(gmk_match_parse_opening("0,0, 1,0, 1,3\n", 15, &l, err, sizeof err), "%s", err);
    cr_assert_eq(l.count, 3);
    cr_assert_eq(l.pos[0], gmk_pos_xy(7, 7));
    cr_assert_eq(l.pos[1], gmk_pos_xy(8, 7));
    cr_assert_eq(l.pos[2], gmk_pos_xy(8, 10));
    cr_assert_eq(l.color[1], GMK_WHITE);
    cr_assert(gmk_match_parse_opening("-7,-7,7,7", 15, &l, err, sizeof err), "%s", err);
    cr_assert_eq(l.pos[0], gmk_pos_xy(0, 0));
    cr_assert(gmk_match_parse_opening("", 15, &l, err, sizeof err));
    cr_assert_eq(l.count, 0);
    cr_assert_not(gmk_match_parse_opening("0,0, 8,0", 15, &l, err, sizeof err));
    cr_assert(strstr(err, "off the 15x15 board"), "%s", err);
    cr_assert_not(gmk_match_parse_opening("0,0, 0,0", 15, &l, err, sizeof err));
    cr_assert(strstr(err, "twice"), "%s", err);
    cr_assert_not(gmk_match_parse_opening("0,0, 1", 15, &l, err, sizeof err));
    cr_assert_not(gmk_match_parse_opening("0;0", 15, &l, err, sizeof err));
}

/* Every opening of the shared files fits a 15x15 board. */
Test(match, shared_opening_files) {
    static const char *const files[] = {"piskvork_15x15_offset.txt", "balanced_renju15_offset.txt"};
    for (size_t f = 0; f < 2; f++) {
        char path[1024];
        snprintf(path, sizeof path, "tests/protocol/openings/%s", files[f]);
        char *text = read_text_file(path);
        cr_assert(text, "cannot read %s (run from the repository root)", path);
        int n = 0;
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            if (line[0] == '#') continue;
            gmk_move_list l;
            char err[200];
            cr_assert(gmk_match_parse_opening(line, 15, &l, err, sizeof err), "%s: %s", path, err);
            cr_assert_gt(l.count, 0);
            n++;
        }
        cr_assert_gt(n, 10);
        free(text);
    }
}

Test(match, elo_and_sprt) {
    double elo, margin;
    gmk_match_elo(10, 10, 0, &elo, &margin);
    cr_assert_float_eq(elo, 0, 1e-9);
    cr_assert_gt(margin, 0);
    gmk_match_elo(3, 1, 0, &elo, &margin);
    cr_assert_float_eq(elo, 190.85, 0.01);
    gmk_match_elo(4, 0, 0, &elo, &margin);
    cr_assert_eq(elo, 9999);
    gmk_match_elo(0, 0, 0, &elo, &margin);
    cr_assert_eq(elo, 0);
    gmk_match_elo(600, 400, 0, &elo, &margin); /* 60%: +70.4, margin about 22 */
    cr_assert_float_eq(elo, 70.44, 0.01);
    cr_assert(margin > 20 && margin < 25, "%f", margin);
    double lo, hi;
    gmk_match_sprt_bounds(0.05, 0.05, &lo, &hi);
    cr_assert_float_eq(lo, -2.944, 0.001);
    cr_assert_float_eq(hi, 2.944, 0.001);
    cr_assert_gt(gmk_match_llr(700, 300, 0, 0, 20), hi);  /* clearly stronger: H1 */
    cr_assert_lt(gmk_match_llr(300, 700, 0, 0, 20), lo);  /* clearly weaker: H0 */
    cr_assert_lt(fabs(gmk_match_llr(5, 5, 0, 0, 20)), 1); /* too few games */
    cr_assert_gt(gmk_match_llr(30, 0, 0, 0, 20), 0);      /* no division by zero */
    cr_assert_eq(gmk_match_llr(0, 0, 0, 0, 20), 0);
}

/* Found by fuzz_protocol and fuzz_brain: replies that quote the manager's text are one
 * printable line (a control character or a tab in it is shown as '?'). */
Test(protocol, quoted_text_in_errors_is_printable) {
    char err[200];
    int x, y, f;
    cr_assert_not(gmk_proto_parse_point("P\x04", &x, &y, err, sizeof err));
    cr_assert_str_eq(err, "expected a point x,y, got 'P?'");
    cr_assert_not(gmk_proto_parse_stone("\x1b[2J", &x, &y, &f, err, sizeof err));
    cr_assert(strchr(err, 0x1b) == NULL, "%s", err);
    char *out = session("INFO max_node 1\t2\nEND\n");
    cr_assert_str_eq(out, "ERROR INFO max_node needs a number, got '1?2'\n", "%s", out);
    free(out);
}
