/* test_engine.c: the engine facade: the hard time limit holds, a stop answers at once, fixed
 * depth and node limits are deterministic, multi-PV gives distinct moves, and mate scores
 * read back as distances. */
#include <criterion/criterion.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/timeman.h"
#include "game/level.h"
#include "support.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void board_from(const char *moves, gmk_rule rule, gmk_board *b) {
    gmk_move_list list;
    char err[160];
    cr_assert(gmk_notation_parse_moves(moves, 15, &list, err, sizeof err), "%s", err);
    cr_assert(gmk_move_list_to_board(&list, rule, b));
}

static const char *middle_game = "h8i9g9i7i8g8j7h10";

/* The reply never comes after the hard limit (turn_ms minus the overhead margin); the margin
 * allowed here is generous because the machine may be busy. */
Test(engine, hard_time_limit) {
    gmk_engine *e = gmk_engine_new(16u << 20);
    gmk_board b;
    board_from("h8i9j8h10i7", GMK_RULE_RENJU, &b);
    const int64_t limits_ms[] = {50, 200, 500};
    for (int i = 0; i < 3; i++) {
        gmk_limits l = {0};
        l.turn_ms = limits_ms[i];
        gmk_engine_set_position(e, &b);
        double t0 = now_ms();
        gmk_search_result r;
        gmk_engine_search(e, &l, NULL, &r);
        double took = now_ms() - t0;
        cr_assert_neq(r.best, GMK_POS_NONE);
        cr_expect_leq(took, (double)limits_ms[i] + 100.0, "limit %lld ms: took %.0f ms",
                      (long long)limits_ms[i], took);
    }
    /* game time left: a small remainder must still be respected */
    gmk_limits l = {0};
    l.time_left_ms = 1000;
    gmk_engine_set_position(e, &b);
    double t0 = now_ms();
    gmk_engine_search(e, &l, NULL, NULL);
    cr_expect_leq(now_ms() - t0, 300.0, "1 s left in the game: took %.0f ms", now_ms() - t0);
    gmk_engine_free(e);
}

Test(engine, stop_answers_at_once) {
    gmk_engine *e = gmk_engine_new(16u << 20);
    gmk_board b;
    board_from("h8i9j8h10i7", GMK_RULE_RENJU, &b);
    gmk_engine_set_position(e, &b);
    gmk_limits l = {0}; /* no limit at all: only stop ends it */
    cr_assert(gmk_engine_start(e, &l, NULL));
    cr_assert(gmk_engine_is_thinking(e));
    cr_assert_not(gmk_engine_start(e, &l, NULL), "a second search must be refused");
    struct timespec pause = {0, 100 * 1000000};
    nanosleep(&pause, NULL);
    double t0 = now_ms();
    gmk_engine_stop(e);
    gmk_search_result r;
    gmk_engine_wait(e, &r);
    cr_expect_leq(now_ms() - t0, 100.0, "stop took %.0f ms", now_ms() - t0);
    cr_assert_eq(gmk_rules_check_move(&b, r.best, NULL), GMK_MOVE_LEGAL);
    gmk_engine_free(e);
}

Test(engine, deterministic_at_fixed_depth) {
    gmk_board b;
    board_from(middle_game, GMK_RULE_FREESTYLE, &b);
    gmk_search_result r[2];
    for (int i = 0; i < 2; i++) {
        gmk_engine *e = gmk_engine_new(16u << 20);
        gmk_engine_set_position(e, &b);
        gmk_limits l = {0};
        l.depth = 5;
        gmk_engine_search(e, &l, NULL, &r[i]);
        gmk_engine_free(e);
    }
    cr_assert_eq(r[0].best, r[1].best);
    cr_assert_eq(r[0].nodes, r[1].nodes);
    cr_assert_eq(r[0].score, r[1].score);
    cr_assert_gt(r[0].nodes, 100);
}

Test(engine, nbest_gives_distinct_moves) {
    gmk_engine *e = gmk_engine_new(16u << 20);
    gmk_board b;
    board_from("h8i9", GMK_RULE_FREESTYLE, &b);
    gmk_engine_set_position(e, &b);
    gmk_limits l = {0};
    l.depth = 3;
    l.nbest = 4;
    gmk_search_result r;
    gmk_engine_search(e, &l, NULL, &r);
    cr_assert_eq(r.nlines, 4);
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) cr_assert_neq(r.lines[i].move, r.lines[j].move);
    cr_assert_eq(r.best, r.lines[0].move);
    gmk_engine_free(e);
}

/* Issue 11 defect 9: a level's choice among near-equal moves is reported first, and the other
 * lines stay: no move twice, and the search's own best line is not lost. */
Test(engine, level_choice_keeps_the_other_lines) {
    gmk_engine *e = gmk_engine_new(16u << 20);
    gmk_board b;
    board_from("h8i9j8", GMK_RULE_FREESTYLE, &b);
    int chose_other = 0;
    for (uint64_t seed = 0; seed < 8; seed++) {
        gmk_limits l;
        cr_assert(gmk_level_limits(1, 0, seed, &l));
        l.nbest = 5;
        gmk_search_result r, plain;
        gmk_engine_set_position(e, &b);
        gmk_engine_search(e, &l, NULL, &r);
        gmk_limits p = l;
        p.choose_margin = 0;
        gmk_engine_clear(e);
        gmk_engine_search(e, &p, NULL, &plain);
        gmk_engine_clear(e);
        cr_assert_eq(r.nlines, 5);
        cr_assert_eq(r.best, r.lines[0].move);
        for (int i = 0; i < r.nlines; i++)
            for (int j = i + 1; j < r.nlines; j++)
                cr_assert_neq(r.lines[i].move, r.lines[j].move, "seed %d: line %d twice", (int)seed,
                              i + 1);
        bool found = false;
        for (int i = 0; i < r.nlines; i++) found |= r.lines[i].move == plain.lines[0].move;
        cr_assert(found, "seed %d: the best line is lost", (int)seed);
        chose_other += r.best != plain.lines[0].move;
    }
    cr_assert_gt(chose_other, 0, "the level never chose another move: the test proves nothing");
    gmk_engine_free(e);
}

Test(engine, win_in_one_is_a_mate_score) {
    gmk_engine *e = gmk_engine_new(16u << 20);
    gmk_board b;
    board_from("h8a1i8o1j8a15k8o15", GMK_RULE_FREESTYLE, &b);
    gmk_engine_set_position(e, &b);
    gmk_limits l = {0};
    l.depth = 3;
    gmk_search_result r;
    gmk_engine_search(e, &l, NULL, &r);
    int plies = 0;
    cr_assert(gmk_score_is_mate(r.score, &plies));
    cr_assert_gt(r.score, 0);
    cr_assert_eq(plies, 1);
    cr_assert(r.best == gmk_pos_xy(6, 7) || r.best == gmk_pos_xy(11, 7));
    gmk_engine_free(e);
}

Test(engine, memory_limit_is_kept) {
    /* a 4 MB engine must not allocate a 64 MB table: resizing to less memory works and a tiny
     * limit still gives a working engine */
    gmk_engine *e = gmk_engine_new(4u << 20);
    cr_assert_not_null(e);
    cr_assert_leq(gmk_engine_memory_bytes(e), 4u << 20);
    cr_assert(gmk_engine_set_memory(e, 2u << 20));
    cr_assert_leq(gmk_engine_memory_bytes(e), 2u << 20);
    cr_assert(gmk_engine_set_memory(e, 350u << 20));
    cr_assert_leq(gmk_engine_memory_bytes(e), 350u << 20);
    cr_assert_geq(gmk_engine_memory_bytes(e), 100u << 20, "a big limit should give a big table");
    cr_assert(gmk_engine_set_memory(e, 2u << 20));
    gmk_board b;
    board_from("h8i9", GMK_RULE_FREESTYLE, &b);
    gmk_engine_set_position(e, &b);
    gmk_limits l = {0};
    l.depth = 4;
    gmk_search_result r;
    gmk_engine_search(e, &l, NULL, &r);
    cr_assert_eq(gmk_rules_check_move(&b, r.best, NULL), GMK_MOVE_LEGAL);
    gmk_engine_free(e);
}

/* Lazy SMP: with two threads the search still answers legally, and the helper's nodes are
 * counted (the main thread's last iteration report has fewer). */
static void note_nodes(const gmk_search_result *r, void *ctx) {
    *(int64_t *)ctx = r->nodes;
}

Test(engine, two_threads_search) {
    gmk_engine *e = gmk_engine_new(16u << 20);
    gmk_board b;
    board_from(middle_game, GMK_RULE_FREESTYLE, &b);
    gmk_limits l = {0};
    l.depth = 6;
    l.threads = 2;
    int64_t main_nodes = 0;
    gmk_listener listener = {note_nodes, NULL, &main_nodes};
    gmk_search_result two;
    gmk_engine_set_position(e, &b);
    gmk_engine_search(e, &l, &listener, &two);
    cr_assert_eq(gmk_rules_check_move(&b, two.best, NULL), GMK_MOVE_LEGAL);
    cr_assert_eq(two.depth, 6);
    cr_assert_gt(two.nodes, main_nodes, "the helper's nodes are not counted");
    /* no timed two-thread search here: the suite runs two tests at once, and two more busy
     * threads made engine/hard_time_limit overrun on a loaded machine */
    gmk_engine_free(e);
}

/* Time: a new iteration starts while half its predicted time fits in the target; a search
 * stops at the hard limit or at twice the soft target, whichever comes first. */
Test(engine, timeman_predicts_the_next_iteration) {
    gmk_limits l = {0};
    l.time_left_ms = 60000;
    l.overhead_ms = 10;
    gmk_time_budget t = gmk_timeman_budget(&l, 20);
    cr_assert_gt(t.soft_ms, 0);
    cr_assert_leq(t.soft_ms, t.hard_ms);
    int64_t h = t.hard_ms - t.hard_ms / 20;
    cr_assert_eq(gmk_timeman_stop_ms(&t), t.soft_ms * 2 < h ? t.soft_ms * 2 : h);
    gmk_limits fixed = {0};
    fixed.turn_ms = 1000;
    fixed.overhead_ms = 100;
    gmk_time_budget f = gmk_timeman_budget(&fixed, 20);
    cr_assert_eq(gmk_timeman_stop_ms(&f), 855);
    int64_t target = t.soft_ms;
    /* last iteration 100 ms, the one before 50: next ~200 ms, half of it 100 */
    cr_assert(gmk_timeman_next_fits(&t, 100, target - 101, 100, 50));
    cr_assert_not(gmk_timeman_next_fits(&t, 100, target - 99, 100, 50));
    /* growth clamped to 5x: 10 ms after 1 ms predicts 50 ms, not 100 */
    cr_assert(gmk_timeman_next_fits(&t, 100, target - 26, 10, 1));
    cr_assert_not(gmk_timeman_next_fits(&t, 100, target, 1, 1));
    gmk_limits none = {0};
    gmk_time_budget u = gmk_timeman_budget(&none, 0);
    cr_assert_eq(gmk_timeman_stop_ms(&u), 0);
    cr_assert(gmk_timeman_next_fits(&u, 100, 1000000, 1000, 1));
}

/* Lazy SMP: a helper's result is reported only when it completed a deeper iteration, the
 * search gives one line without a choice among near-equals, and the main thread has not
 * proved a win. */
Test(engine, a_deeper_helper_result_is_preferred) {
    gmk_limits l = {0};
    gmk_search_result m = {0}, h = {0};
    m.best = gmk_pos_xy(7, 7);
    m.depth = 9;
    m.score = 120;
    m.nlines = 1;
    h.best = gmk_pos_xy(8, 8);
    h.depth = 10;
    h.score = 80;
    h.nlines = 1;
    cr_assert(gmk_engine_prefer_helper(&m, &h, &l));
    h.depth = 9;
    cr_assert_not(gmk_engine_prefer_helper(&m, &h, &l), "not deeper");
    h.depth = 10;
    h.best = GMK_POS_NONE;
    cr_assert_not(gmk_engine_prefer_helper(&m, &h, &l), "no move");
    h.best = gmk_pos_xy(8, 8);
    m.score = GMK_SCORE_WIN - 5;
    cr_assert_not(gmk_engine_prefer_helper(&m, &h, &l), "the main thread proved a win");
    m.score = -(GMK_SCORE_WIN - 5);
    cr_assert(gmk_engine_prefer_helper(&m, &h, &l), "a proved loss does not hold the main result");
    l.nbest = 3;
    cr_assert_not(gmk_engine_prefer_helper(&m, &h, &l), "multi-PV");
    l.nbest = 0;
    l.choose_margin = 20;
    cr_assert_not(gmk_engine_prefer_helper(&m, &h, &l), "a level choosing among near-equals");
}
