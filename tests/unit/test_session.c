/* test_session.c: the rules of play of a game session (src/game/session.c), against a real
 * store in a temporary folder and the engine at level 1 with tiny limits. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/gmk.h"
#include "game/level.h"
#include "game/session.h"
#include "store/reviews.h"
#include "store/store.h"

static char dir[64];
static char db_path[128];
static gmk_store *store;
static gmk_session *ses;

static const gmk_session_options test_opts = {
    .engine_memory_bytes = 1 << 20,
    .think_cap_ms = 100,
    .cvc_pace_ms = -1,
    .seed = 7,
};

static void open_store(void) {
    char err[256] = "";
    cr_assert_eq(gmk_store_open(db_path, GMK_STORE_OPEN_DEFAULT, &store, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
}

static void setup(void) {
    strcpy(dir, "/tmp/gmk-session-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(db_path, sizeof db_path, "%s/test.db", dir);
    open_store();
    cr_assert_eq(gmk_session_create(store, &test_opts, &ses), GMK_SESSION_OK);
}

static void teardown(void) {
    gmk_session_free(ses);
    ses = NULL;
    gmk_store_close(store);
    store = NULL;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(session, .init = setup, .fini = teardown, .timeout = 60);

static gmk_pos pt(const char *name) {
    gmk_pos p;
    char err[64];
    cr_assert(gmk_notation_parse_point(name, gmk_session_board(ses)->size, &p, err, sizeof err),
              "%s", err);
    return p;
}

static void new_game(gmk_play_mode mode, gmk_color human, gmk_rule rule, int size, int *ev) {
    gmk_game_config cfg = gmk_game_config_default();
    cfg.mode = mode;
    cfg.human = human;
    cfg.rule = rule;
    cfg.size = size;
    cfg.level = 1;
    char err[128] = "";
    cr_assert_eq(gmk_session_new_game(ses, &cfg, ev, err, sizeof err), GMK_SESSION_OK, "%s", err);
}

static void play(const char *name) {
    int ev = 0;
    gmk_play_verdict v = gmk_session_play(ses, pt(name), false, NULL, &ev);
    cr_assert_eq(v, GMK_PLAY_OK, "%s refused (%d)", name, v);
    cr_assert(ev & GMK_EV_MOVED);
}

static void play_all(const char *const *moves) {
    for (int i = 0; moves[i]; i++) play(moves[i]);
}

/* Polls until the computer has moved; fails after 10 s. */
static int wait_computer(void) {
    for (int i = 0; i < 2000; i++) {
        int ev = gmk_session_poll(ses);
        if (ev & GMK_EV_MOVED) return ev;
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    cr_assert_fail("the computer did not move");
    return 0;
}

static gmk_session_state state(void) {
    gmk_session_state st;
    gmk_session_get_state(ses, &st);
    return st;
}

static gmk_store_record *load(int64_t id) {
    static gmk_store_record rec;
    char err[256] = "";
    cr_assert_eq(gmk_store_game_load(store, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    return &rec;
}

static const gmk_store_score *score_line(gmk_store_mode mode, int level) {
    static gmk_store_score lines[GMK_STORE_SCORE_MAX];
    int n = 0;
    char err[256] = "";
    cr_assert_eq(gmk_session_scoreboard(ses, lines, GMK_STORE_SCORE_MAX, &n, err, sizeof err),
                 GMK_SESSION_OK, "%s", err);
    for (int i = 0; i < n; i++)
        if (lines[i].mode == mode && lines[i].level == level) return &lines[i];
    return NULL;
}

static const char *const black_five_row[] = {"h8", "h9", "i8", "i9", "j8",
                                             "j9", "k8", "k9", "l8", NULL};

Test(session, two_humans_play_to_a_five_and_it_is_recorded) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    cr_assert(state().human_to_move);
    cr_assert_eq(state().game_id, 0, "nothing saved before the first move");
    play_all(black_five_row);
    gmk_session_state st = state();
    cr_assert(st.over);
    cr_assert_eq(st.result.outcome, GMK_BLACK_WINS);
    cr_assert_eq(st.result.reason, GMK_REASON_FIVE);
    cr_assert_eq(st.result.line_len, 5);
    cr_assert_eq(st.result.point, pt("l8"));
    cr_assert_not(st.human_to_move);
    cr_assert_not(st.can_undo, "no undo once the game is over");
    cr_assert_eq(gmk_session_play(ses, pt("a1"), false, NULL, NULL), GMK_PLAY_GAME_OVER);
    cr_assert_gt(st.game_id, 0);
    gmk_store_record *rec = load(st.game_id);
    cr_assert_eq(rec->game.move_count, 9);
    cr_assert(rec->game.finished);
    cr_assert_eq(rec->game.outcome, GMK_BLACK_WINS);
    cr_assert_eq(rec->game.reason, GMK_REASON_FIVE);
    cr_assert_eq(rec->game.mode, GMK_STORE_MODE_HVH);
    cr_assert_eq(rec->moves[0].x, 7);
    cr_assert_eq(rec->moves[0].y, 7);
    const gmk_store_score *sc = score_line(GMK_STORE_MODE_HVH, 0);
    cr_assert_not_null(sc);
    cr_assert_eq(sc->games, 1);
    cr_assert_eq(sc->black_wins, 1);
}

Test(session, refuses_bad_moves) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    cr_assert_eq(gmk_session_play(ses, pt("h8"), false, NULL, NULL), GMK_PLAY_OCCUPIED);
    cr_assert_eq(gmk_session_play(ses, GMK_POS_NONE, false, NULL, NULL), GMK_PLAY_OFF_BOARD);
    cr_assert_eq(gmk_session_play(ses, gmk_pos_xy(15, 3), false, NULL, NULL), GMK_PLAY_OFF_BOARD);
    cr_assert_eq(gmk_session_board(ses)->move_count, 1);
}

Test(session, computer_replies_at_level_one) {
    int ev = 0;
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_RULE_FREESTYLE, 15, &ev);
    cr_assert_not(ev & GMK_EV_THINKING, "the human moves first");
    gmk_pos h8 = pt("h8");
    cr_assert_eq(gmk_session_play(ses, h8, false, NULL, &ev), GMK_PLAY_OK);
    cr_assert(ev & GMK_EV_THINKING);
    gmk_session_state st = state();
    cr_assert(st.thinking);
    cr_assert_not(st.human_to_move);
    cr_assert_eq(gmk_session_play(ses, pt("a1"), false, NULL, NULL), GMK_PLAY_NOT_YOUR_TURN);
    wait_computer();
    const gmk_board *b = gmk_session_board(ses);
    cr_assert_eq(b->move_count, 2);
    cr_assert_eq(b->stone[b->moves[1]], GMK_WHITE);
    st = state();
    cr_assert(st.human_to_move);
    cr_assert_not(st.thinking);
    cr_assert_eq(load(st.game_id)->game.move_count, 2);
    cr_assert_eq(load(st.game_id)->game.level, 1);
    cr_assert_eq(load(st.game_id)->game.human, GMK_BLACK);
}

Test(session, level_one_blocks_a_four) {
    /* a stored game, human black, where black has just made a four h8-k8 (g8 blocked) and
     * the computer (white) is to move: resuming it, level 1 must block at l8 */
    gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVC,
                            .rule = GMK_RULE_FREESTYLE,
                            .size = 15,
                            .level = 1,
                            .human = GMK_BLACK};
    int64_t id = 0;
    cr_assert_eq(gmk_store_game_begin(store, &g, &id, NULL, 0), GMK_STORE_OK);
    const char *moves[] = {"h8", "g8", "i8", "a1", "j8", "a3", "k8"};
    for (int i = 0; i < 7; i++) {
        gmk_pos p = pt(moves[i]);
        cr_assert_eq(gmk_store_game_add_move(store, id, i, gmk_pos_x(p), gmk_pos_y(p), 0, NULL, 0),
                     GMK_STORE_OK);
    }
    int ev = 0;
    cr_assert_eq(gmk_session_resume(ses, 0, &ev, NULL, 0), GMK_SESSION_OK);
    cr_assert(ev & GMK_EV_THINKING);
    wait_computer();
    const gmk_board *b = gmk_session_board(ses);
    cr_assert_eq(b->move_count, 8);
    cr_assert_eq(b->moves[7], pt("l8"));
    cr_assert(state().human_to_move);
}

Test(session, human_white_computer_opens) {
    int ev = 0;
    new_game(GMK_PLAY_HVC, GMK_WHITE, GMK_RULE_FREESTYLE, 15, &ev);
    cr_assert(ev & GMK_EV_THINKING);
    wait_computer();
    const gmk_board *b = gmk_session_board(ses);
    cr_assert_eq(b->move_count, 1);
    gmk_session_state st = state();
    cr_assert(st.human_to_move);
    cr_assert_eq(st.to_move, GMK_WHITE);
    cr_assert_not(st.can_undo, "the computer's opening is not the human's to take back");
    cr_assert_not(gmk_session_undo(ses, NULL));
}

Test(session, undo_against_the_computer_takes_back_two_and_redo_replays_them) {
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    wait_computer();
    gmk_pos reply1 = gmk_session_board(ses)->moves[1];
    play("i9");
    wait_computer();
    gmk_pos reply2 = gmk_session_board(ses)->moves[3];
    int64_t id = state().game_id;
    cr_assert_eq(load(id)->game.move_count, 4);

    cr_assert(state().can_undo);
    int ev = 0;
    cr_assert(gmk_session_undo(ses, &ev));
    cr_assert(ev & GMK_EV_MOVED);
    cr_assert_not(ev & GMK_EV_THINKING);
    const gmk_board *b = gmk_session_board(ses);
    cr_assert_eq(b->move_count, 2);
    cr_assert_eq(b->moves[1], reply1);
    gmk_session_state st = state();
    cr_assert(st.human_to_move);
    cr_assert(st.can_redo);
    cr_assert_eq(load(id)->game.move_count, 2, "the store follows the undo");

    cr_assert(gmk_session_undo(ses, NULL));
    cr_assert_eq(b->move_count, 0);
    cr_assert_not(gmk_session_undo(ses, NULL));

    cr_assert(gmk_session_redo(ses, &ev));
    cr_assert_eq(b->move_count, 2);
    cr_assert(gmk_session_redo(ses, &ev));
    cr_assert_eq(b->move_count, 4);
    cr_assert_eq(b->moves[3], reply2);
    cr_assert_not(gmk_session_redo(ses, NULL));
    cr_assert(state().human_to_move);
    cr_assert_not(state().thinking);
    gmk_store_record *rec = load(id);
    cr_assert_eq(rec->game.move_count, 4);
    cr_assert_eq(rec->moves[2].x, 8);
    cr_assert_eq(rec->moves[2].y, 6);

    /* a new move forgets the redo */
    cr_assert(gmk_session_undo(ses, NULL));
    play("a1");
    cr_assert_not(state().can_redo);
    wait_computer();
}

Test(session, undo_while_the_computer_thinks) {
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    cr_assert(state().thinking);
    cr_assert(gmk_session_undo(ses, NULL));
    gmk_session_state st = state();
    cr_assert_eq(gmk_session_board(ses)->move_count, 0);
    cr_assert_not(st.thinking);
    cr_assert(st.human_to_move);
    /* the stopped search must not play later */
    nanosleep(&(struct timespec){0, 50000000}, NULL);
    gmk_session_poll(ses);
    cr_assert_eq(gmk_session_board(ses)->move_count, 0);
    /* redo gives the computer its turn again */
    int ev = 0;
    cr_assert(gmk_session_redo(ses, &ev));
    cr_assert(ev & GMK_EV_THINKING);
    wait_computer();
    cr_assert_eq(gmk_session_board(ses)->move_count, 2);
}

Test(session, undo_between_humans_takes_one_move) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    play("h9");
    cr_assert(gmk_session_undo(ses, NULL));
    cr_assert_eq(gmk_session_board(ses)->move_count, 1);
    cr_assert_eq(state().to_move, GMK_WHITE);
    cr_assert_eq(load(state().game_id)->game.move_count, 1);
    cr_assert(gmk_session_redo(ses, NULL));
    cr_assert_eq(gmk_session_board(ses)->move_count, 2);
}

Test(session, resign_against_the_computer_counts_a_loss) {
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    wait_computer();
    int ev = 0;
    cr_assert(gmk_session_resign(ses, &ev));
    cr_assert(ev & GMK_EV_GAME_OVER);
    gmk_session_state st = state();
    cr_assert(st.over);
    cr_assert_eq(st.result.outcome, GMK_WHITE_WINS);
    cr_assert_eq(st.result.reason, GMK_REASON_RESIGN);
    cr_assert_eq(st.resigned, GMK_BLACK);
    cr_assert_not(gmk_session_resign(ses, NULL));
    gmk_store_record *rec = load(st.game_id);
    cr_assert(rec->game.finished);
    cr_assert_eq(rec->game.reason, GMK_REASON_RESIGN);
    const gmk_store_score *sc = score_line(GMK_STORE_MODE_HVC, 1);
    cr_assert_not_null(sc);
    cr_assert_eq(sc->losses, 1);
    cr_assert_eq(sc->wins, 0);
}

Test(session, resign_between_humans_is_the_side_to_move) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    cr_assert(gmk_session_resign(ses, NULL));
    cr_assert_eq(state().result.outcome, GMK_BLACK_WINS);
    cr_assert_eq(state().resigned, GMK_WHITE);
}

Test(session, renju_forbidden_point_is_refused_with_its_kind) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_RENJU, 15, NULL);
    /* black h8 i8 and h9 i10... simpler: black g8 h8 and h9 h10 make j8? Use a classic
     * double three at h8: black f8 g8 (row) and h6 h7 (column), white far away. */
    const char *moves[] = {"f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7", NULL};
    play_all(moves);
    gmk_forbid_kind kind = GMK_FORBID_NONE;
    gmk_pos p = pt("h8");
    cr_assert_eq(gmk_session_play(ses, p, false, &kind, NULL), GMK_PLAY_FORBIDDEN);
    cr_assert_eq(kind, GMK_FORBID_DOUBLE_THREE);
    cr_assert_eq(gmk_session_board(ses)->move_count, 8);
    gmk_pos pts[GMK_MAX_MOVES];
    gmk_forbid_kind kinds[GMK_MAX_MOVES];
    int n = gmk_session_forbidden_points(ses, pts, kinds, GMK_MAX_MOVES);
    bool found = false;
    for (int i = 0; i < n; i++)
        if (pts[i] == p) found = kinds[i] == GMK_FORBID_DOUBLE_THREE;
    cr_assert(found);
    /* insisting plays the foul, and black loses by it */
    cr_assert_eq(gmk_session_play(ses, p, true, &kind, NULL), GMK_PLAY_OK);
    gmk_session_state st = state();
    cr_assert(st.over);
    cr_assert_eq(st.result.outcome, GMK_WHITE_WINS);
    cr_assert_eq(st.result.reason, GMK_REASON_FORBIDDEN);
    cr_assert_eq(st.result.forbid, GMK_FORBID_DOUBLE_THREE);
    cr_assert_eq(load(st.game_id)->game.reason, GMK_REASON_FORBIDDEN);
}

Test(session, full_board_is_a_draw) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 5, NULL);
    /* rows from the top: XXOOX / OOXXO / XXOOX / OOXXO / XOXOX: no five anywhere */
    const char *grid[5] = {"XXOOX", "OOXXO", "XXOOX", "OOXXO", "XOXOX"};
    gmk_pos xs[13], os[12];
    int nx = 0, no = 0;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++) {
            if (grid[y][x] == 'X')
                xs[nx++] = gmk_pos_xy(x, y);
            else
                os[no++] = gmk_pos_xy(x, y);
        }
    cr_assert_eq(nx, 13);
    for (int i = 0; i < 25; i++) {
        gmk_pos p = i % 2 == 0 ? xs[i / 2] : os[i / 2];
        cr_assert_eq(gmk_session_play(ses, p, false, NULL, NULL), GMK_PLAY_OK);
        cr_assert(i == 24 || !state().over);
    }
    gmk_session_state st = state();
    cr_assert(st.over);
    cr_assert_eq(st.result.outcome, GMK_DRAW);
    cr_assert_eq(st.result.reason, GMK_REASON_FULL_BOARD);
    cr_assert_eq(score_line(GMK_STORE_MODE_HVH, 0)->draws, 1);
}

/* Renju on 6x6 (tests/unit/test_rules.c's position): after white's f1 black's two empty
 * points are both overlines, so the game is drawn; an online room is such a session too. */
Test(session, renju_black_without_a_legal_point_is_a_draw) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_RENJU, 6, NULL);
    static const char *const moves[] = {"a6", "a5", "b6", "b5", "c6", "c5", "e6", "e5", "f6",
                                        "f5", "d5", "a3", "a4", "b3", "b4", "c3", "c4", "e3",
                                        "e4", "f3", "f4", "a2", "d3", "b2", "c2", "e2", "d2",
                                        "b1", "f2", "c1", "a1", "d1", "e1", "f1", NULL};
    for (int i = 0; moves[i]; i++) {
        cr_assert_not(state().over, "over before %s", moves[i]);
        play(moves[i]);
    }
    gmk_session_state st = state();
    cr_assert(st.over);
    cr_assert_eq(st.result.outcome, GMK_DRAW);
    cr_assert_eq(st.result.reason, GMK_REASON_NO_LEGAL_POINT);
    cr_assert_eq(load(st.game_id)->game.outcome, GMK_DRAW);
    cr_assert_eq(load(st.game_id)->game.reason, GMK_REASON_NO_LEGAL_POINT);
    cr_assert_eq(score_line(GMK_STORE_MODE_HVH, 0)->draws, 1);
}

Test(session, resume_after_quitting) {
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_RULE_RENJU, 15, NULL);
    play("h8");
    wait_computer();
    play("i9");
    wait_computer();
    int64_t id = state().game_id;
    gmk_board before;
    memcpy(&before, gmk_session_board(ses), sizeof before);
    gmk_session_free(ses);
    cr_assert_eq(gmk_session_create(store, &test_opts, &ses), GMK_SESSION_OK);
    gmk_store_game g;
    char err[256] = "";
    cr_assert_eq(gmk_session_find_unfinished(ses, &g, err, sizeof err), GMK_SESSION_OK, "%s", err);
    cr_assert_eq(g.id, id);
    cr_assert_eq(g.move_count, 4);
    int ev = 0;
    cr_assert_eq(gmk_session_resume(ses, 0, &ev, err, sizeof err), GMK_SESSION_OK, "%s", err);
    const gmk_board *b = gmk_session_board(ses);
    cr_assert_eq(b->move_count, 4);
    cr_assert_eq(memcmp(b->moves, before.moves, sizeof(gmk_pos) * 4), 0);
    gmk_session_state st = state();
    cr_assert_eq(st.mode, GMK_PLAY_HVC);
    cr_assert_eq(st.rule, GMK_RULE_RENJU);
    cr_assert_eq(st.level, 1);
    cr_assert_eq(st.human, GMK_BLACK);
    cr_assert(st.human_to_move);
    cr_assert_eq(st.game_id, id);
    /* it goes on being saved into the same game */
    play(gmk_board_empty_at(b, pt("a15")) ? "a15" : "o1");
    wait_computer();
    cr_assert_eq(load(id)->game.move_count, 6);
}

Test(session, resume_where_the_computer_was_to_move) {
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    gmk_session_free(ses); /* quits while the computer thinks */
    cr_assert_eq(gmk_session_create(store, &test_opts, &ses), GMK_SESSION_OK);
    int ev = 0;
    cr_assert_eq(gmk_session_resume(ses, 0, &ev, NULL, 0), GMK_SESSION_OK);
    cr_assert(ev & GMK_EV_THINKING);
    wait_computer();
    cr_assert_eq(gmk_session_board(ses)->move_count, 2);
}

Test(session, resume_after_kill_9) {
    gmk_session_free(ses);
    ses = NULL;
    gmk_store_close(store);
    store = NULL;
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        gmk_store *st = NULL;
        gmk_session *s = NULL;
        if (gmk_store_open(db_path, 0, &st, NULL, 0) != GMK_STORE_OK) _exit(3);
        if (gmk_session_create(st, &test_opts, &s) != GMK_SESSION_OK) _exit(3);
        gmk_game_config cfg = gmk_game_config_default();
        cfg.mode = GMK_PLAY_HVH;
        gmk_session_new_game(s, &cfg, NULL, NULL, 0);
        const int xy[][2] = {{7, 7}, {8, 8}, {6, 6}, {9, 9}, {5, 5}};
        for (int i = 0; i < 5; i++)
            if (gmk_session_play(s, gmk_pos_xy(xy[i][0], xy[i][1]), false, NULL, NULL)) _exit(4);
        raise(SIGKILL);
        _exit(5);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child status %d", status);
    open_store();
    cr_assert_eq(gmk_session_create(store, &test_opts, &ses), GMK_SESSION_OK);
    gmk_store_game g;
    cr_assert_eq(gmk_session_find_unfinished(ses, &g, NULL, 0), GMK_SESSION_OK);
    cr_assert_eq(g.move_count, 5);
    cr_assert_eq(gmk_session_resume(ses, 0, NULL, NULL, 0), GMK_SESSION_OK);
    const gmk_board *b = gmk_session_board(ses);
    cr_assert_eq(b->move_count, 5);
    cr_assert_eq(b->moves[4], gmk_pos_xy(5, 5));
    cr_assert_eq(state().mode, GMK_PLAY_HVH);
    cr_assert_eq(state().to_move, GMK_WHITE);
}

Test(session, declining_resume_abandons_the_game) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    int64_t id = state().game_id;
    gmk_session_free(ses);
    cr_assert_eq(gmk_session_create(store, &test_opts, &ses), GMK_SESSION_OK);
    cr_assert_eq(gmk_session_discard_unfinished(ses, NULL, 0), GMK_SESSION_OK);
    cr_assert_eq(gmk_session_find_unfinished(ses, NULL, NULL, 0), GMK_SESSION_NOT_FOUND);
    cr_assert(load(id)->game.abandoned);
}

Test(session, a_new_game_abandons_the_unfinished_one) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    int64_t id = state().game_id;
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    cr_assert(load(id)->game.abandoned);
    cr_assert_eq(state().game_id, 0);
    cr_assert_eq(gmk_session_find_unfinished(ses, NULL, NULL, 0), GMK_SESSION_NOT_FOUND);
}

Test(session, a_damaged_record_resumes_up_to_the_bad_move) {
    /* write a game by hand with an occupied point as its third move */
    gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVH, .rule = GMK_RULE_FREESTYLE, .size = 15};
    int64_t id = 0;
    cr_assert_eq(gmk_store_game_begin(store, &g, &id, NULL, 0), GMK_STORE_OK);
    cr_assert_eq(gmk_store_game_add_move(store, id, 0, 7, 7, 0, NULL, 0), GMK_STORE_OK);
    cr_assert_eq(gmk_store_game_add_move(store, id, 1, 8, 8, 0, NULL, 0), GMK_STORE_OK);
    cr_assert_eq(gmk_store_game_add_move(store, id, 2, 7, 7, 0, NULL, 0), GMK_STORE_OK);
    cr_assert_eq(gmk_session_resume(ses, 0, NULL, NULL, 0), GMK_SESSION_OK);
    cr_assert_eq(gmk_session_board(ses)->move_count, 2);
    cr_assert_eq(load(id)->game.move_count, 2);
}

Test(session, computer_against_itself_and_move_now) {
    int ev = 0;
    new_game(GMK_PLAY_CVC, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, &ev);
    cr_assert(ev & GMK_EV_THINKING);
    cr_assert_not(state().human_to_move);
    ev = gmk_session_move_now(ses);
    cr_assert(ev & GMK_EV_MOVED);
    cr_assert(ev & GMK_EV_THINKING, "the other side thinks next");
    cr_assert_eq(gmk_session_board(ses)->move_count, 1);
    for (int i = 0; i < 5; i++) wait_computer();
    const gmk_board *b = gmk_session_board(ses);
    cr_assert_eq(b->move_count, 6);
    for (int i = 0; i < 6; i++) cr_assert_eq(b->stone[b->moves[i]], i % 2 ? GMK_WHITE : GMK_BLACK);
    cr_assert_not(gmk_session_undo(ses, NULL));
    cr_assert_not(gmk_session_resign(ses, NULL));
    cr_assert_eq(gmk_session_play(ses, pt("a1"), false, NULL, NULL), GMK_PLAY_NOT_YOUR_TURN);
}

Test(session, hint_suggests_a_legal_move_and_is_cleared_by_a_move) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    const char *moves[] = {"h8", "a1", "i8", "a2", "j8", "a3", "k8", NULL};
    play_all(moves);
    /* white must block the open four: the hint says where */
    cr_assert(gmk_session_hint(ses, NULL));
    cr_assert(state().hinting);
    int ev = 0;
    for (int i = 0; i < 2000 && !(ev & GMK_EV_HINT); i++) {
        ev = gmk_session_poll(ses);
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    cr_assert(ev & GMK_EV_HINT);
    gmk_pos h = state().hint;
    cr_assert(h == pt("g8") || h == pt("l8"), "hint is not a block");
    play("g8");
    cr_assert_eq(state().hint, GMK_POS_NONE);
}

Test(session, plays_without_a_store) {
    gmk_session_free(ses);
    cr_assert_eq(gmk_session_create(NULL, &test_opts, &ses), GMK_SESSION_OK);
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    play_all(black_five_row);
    gmk_session_state st = state();
    cr_assert(st.over);
    cr_assert_not(st.saving);
    cr_assert_eq(st.game_id, 0);
    gmk_store_score lines[4];
    int n = 0;
    cr_assert_eq(gmk_session_scoreboard(ses, lines, 4, &n, NULL, 0), GMK_SESSION_STORE);
    cr_assert_eq(gmk_session_find_unfinished(ses, NULL, NULL, 0), GMK_SESSION_NOT_FOUND);
}

Test(session, a_failing_store_stops_saving_and_says_so_once) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    /* take the game away under the session: the next move cannot be saved */
    int64_t id = state().game_id;
    cr_assert_eq(gmk_store_game_finish(store, id, GMK_DRAW, GMK_REASON_NONE, 0, NULL, 0),
                 GMK_STORE_OK);
    play("h9");
    char msg[256];
    cr_assert(gmk_session_take_store_message(ses, msg, sizeof msg));
    cr_assert_gt(strlen(msg), 0);
    cr_assert_not(gmk_session_take_store_message(ses, msg, sizeof msg));
    cr_assert_not(state().saving);
    play("i8");
    cr_assert_eq(gmk_session_board(ses)->move_count, 3);
}

Test(session, config_is_checked) {
    gmk_game_config cfg = gmk_game_config_default();
    char err[128];
    cfg.size = 4;
    cr_assert_eq(gmk_session_new_game(ses, &cfg, NULL, err, sizeof err), GMK_SESSION_BAD_CONFIG);
    cfg = gmk_game_config_default();
    cfg.level = 99;
    cr_assert_eq(gmk_session_new_game(ses, &cfg, NULL, err, sizeof err), GMK_SESSION_BAD_CONFIG);
    cfg = gmk_game_config_default();
    cfg.human = GMK_EMPTY;
    cr_assert_eq(gmk_session_new_game(ses, &cfg, NULL, err, sizeof err), GMK_SESSION_BAD_CONFIG);
    gmk_play_mode m;
    cr_assert(gmk_play_mode_parse("hvh", &m) && m == GMK_PLAY_HVH);
    cr_assert(gmk_play_mode_parse("computer-computer", &m) && m == GMK_PLAY_CVC);
    cr_assert_not(gmk_play_mode_parse("chess", &m));
}

Test(session, settings_round_trip) {
    cr_assert(gmk_session_setting_set(ses, "lang", "zh"));
    char v[32];
    cr_assert(gmk_session_setting_get(ses, "lang", v, sizeof v));
    cr_assert_str_eq(v, "zh");
    cr_assert_not(gmk_session_setting_get(ses, "nothing", v, sizeof v));
}

/* --- what online rooms use (game/room.h) ----------------------------------------------- */

static void new_online_game(void) {
    gmk_game_config cfg = gmk_game_config_default();
    cfg.mode = GMK_PLAY_HVH;
    cfg.online = true;
    cfg.black = "Ann";
    cfg.white = "Bob";
    char err[128] = "";
    cr_assert_eq(gmk_session_new_game(ses, &cfg, NULL, err, sizeof err), GMK_SESSION_OK, "%s", err);
}

Test(session, an_online_game_is_recorded_as_online_and_never_offered_for_resuming) {
    new_online_game();
    play("h8");
    gmk_store_record *rec = load(state().game_id);
    cr_assert_eq(rec->game.mode, GMK_STORE_MODE_ONLINE);
    cr_assert_str_eq(rec->game.black, "Ann");
    cr_assert_eq(gmk_session_find_unfinished(ses, NULL, NULL, 0), GMK_SESSION_NOT_FOUND);
    gmk_game_config cfg = gmk_game_config_default(); /* online is for two humans only */
    cfg.online = true;
    cr_assert_not(gmk_game_config_valid(&cfg, NULL, 0));
}

Test(session, a_game_ends_off_the_board) {
    new_online_game();
    play("h8");
    /* a draw is by agreement, a win is not */
    cr_assert_not(gmk_session_end(ses, GMK_DRAW, GMK_REASON_TIME, NULL));
    cr_assert_not(gmk_session_end(ses, GMK_BLACK_WINS, GMK_REASON_AGREEMENT, NULL));
    cr_assert_not(gmk_session_end(ses, GMK_BLACK_WINS, GMK_REASON_FIVE, NULL));
    cr_assert_not(state().over);
    int ev = 0;
    cr_assert(gmk_session_end(ses, GMK_BLACK_WINS, GMK_REASON_TIME, &ev));
    cr_assert(ev & GMK_EV_GAME_OVER);
    cr_assert(state().over);
    cr_assert_not(gmk_session_end(ses, GMK_WHITE_WINS, GMK_REASON_TIME, NULL));
    gmk_store_record *rec = load(state().game_id);
    cr_assert_eq(rec->game.outcome, GMK_BLACK_WINS);
    cr_assert_eq(rec->game.reason, GMK_REASON_TIME);
    /* the loser resigns, whoever is to move (black is, white resigns) */
    new_online_game();
    play("h8");
    play("h9");
    cr_assert(gmk_session_end(ses, GMK_BLACK_WINS, GMK_REASON_RESIGN, NULL));
    cr_assert_eq(state().resigned, GMK_WHITE);
}

Test(session, open_game_by_id_resumes_or_shows_it_finished) {
    new_online_game();
    play_all(black_five_row);
    int64_t won = state().game_id;
    new_online_game();
    play("h8");
    play("a1");
    int64_t on = state().game_id;
    gmk_session_free(ses);
    gmk_session_options opt = {.no_engine = true};
    cr_assert_eq(gmk_session_create(store, &opt, &ses), GMK_SESSION_OK);
    char err[256] = "";
    cr_assert_eq(gmk_session_open(ses, on, 0, NULL, err, sizeof err), GMK_SESSION_OK, "%s", err);
    cr_assert_eq(gmk_session_board(ses)->move_count, 2);
    cr_assert_not(state().over);
    play("h9");
    cr_assert_eq(load(on)->game.move_count, 3);
    cr_assert_not(gmk_session_hint(ses, NULL), "no engine: no hint");
    cr_assert_eq(gmk_session_open(ses, won, 0, NULL, err, sizeof err), GMK_SESSION_OK, "%s", err);
    gmk_session_state st = state();
    cr_assert(st.over);
    cr_assert_eq(st.result.outcome, GMK_BLACK_WINS);
    cr_assert_eq(st.result.line_len, 5, "the winning line is shown");
    cr_assert_eq(load(on)->game.move_count, 3, "the unfinished one was left as it was");
    cr_assert_eq(gmk_session_open(ses, 999, 0, NULL, err, sizeof err), GMK_SESSION_NOT_FOUND);
}

Test(session, take_back_after_the_end_against_the_computer_withdraws_the_result) {
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_RULE_FREESTYLE, 15, NULL);
    const char *pre[] = {"h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"};
    gmk_pos moves[8];
    for (int i = 0; i < 8; i++) moves[i] = pt(pre[i]);
    char err[256] = "";
    cr_assert_eq(gmk_session_setup(ses, moves, 8, NULL, err, sizeof err), GMK_SESSION_OK, "%s",
                 err);
    play("l8");
    gmk_session_state st = state();
    cr_assert(st.over);
    cr_assert_eq(st.result.outcome, GMK_BLACK_WINS);
    int64_t id = st.game_id;
    cr_assert(load(id)->game.finished);
    cr_assert_not_null(score_line(GMK_STORE_MODE_HVC, 1), "the win is counted");
    cr_assert_eq(gmk_store_review_put(store, id, 9, 1000, "{}", err, sizeof err), GMK_STORE_OK,
                 "%s", err);
    cr_assert(st.can_undo, "a finished game against the computer can be taken back");

    int ev = 0;
    cr_assert(gmk_session_undo(ses, &ev));
    cr_assert(ev & GMK_EV_MOVED);
    st = state();
    cr_assert_not(st.over, "the game is on again");
    cr_assert_eq(st.result.outcome, GMK_ONGOING);
    cr_assert(st.human_to_move);
    cr_assert_eq(gmk_session_board(ses)->move_count, 8, "only the winning move is taken back");
    gmk_store_record *rec = load(id);
    cr_assert_not(rec->game.finished, "the store's game is unfinished again");
    cr_assert_eq(rec->game.move_count, 8);
    const gmk_store_score *line = score_line(GMK_STORE_MODE_HVC, 1);
    cr_assert(line == NULL || line->games == 0,
              "the scoreboard no longer counts the taken-back game");
    char *data = NULL;
    cr_assert_eq(gmk_store_review_get(store, id, 9, 1000, &data, err, sizeof err),
                 GMK_STORE_NOT_FOUND, "a kept review of the old ending is dropped");
    free(data);

    /* and it can end again, recorded as before */
    play("l8");
    cr_assert(state().over);
    rec = load(id);
    cr_assert(rec->game.finished);
    cr_assert_eq(rec->game.move_count, 9);
    cr_assert_eq(rec->game.outcome, GMK_BLACK_WINS);
}

Test(session, take_back_after_the_end_after_a_resignation_and_not_between_humans) {
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_RULE_FREESTYLE, 15, NULL);
    play("h8");
    wait_computer();
    cr_assert(gmk_session_resign(ses, NULL));
    cr_assert(state().can_undo);
    cr_assert(gmk_session_undo(ses, NULL));
    cr_assert_not(state().over);
    cr_assert_eq(state().resigned, GMK_EMPTY);
    cr_assert_eq(gmk_session_board(ses)->move_count, 0);
    cr_assert_not(load(state().game_id)->game.finished);

    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_RULE_FREESTYLE, 15, NULL);
    play_all(black_five_row);
    cr_assert(state().over);
    cr_assert_not(state().can_undo, "between humans a finished game stays finished");
    cr_assert_not(gmk_session_undo(ses, NULL));
}
