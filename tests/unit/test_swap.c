/* test_swap.c: the swap and swap2 openings (src/game/swap.c, src/game/session_swap.c) in a
 * game session against a real store in a temporary folder and the engine at level 1. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/gmk.h"
#include "game/session.h"
#include "game/swap.h"
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

static void setup(void) {
    strcpy(dir, "/tmp/gmk-swap-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(db_path, sizeof db_path, "%s/test.db", dir);
    char err[256] = "";
    cr_assert_eq(gmk_store_open(db_path, GMK_STORE_OPEN_DEFAULT, &store, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_session_create(store, &test_opts, &ses), GMK_SESSION_OK);
}

static void teardown(void) {
    gmk_session_free(ses);
    gmk_store_close(store);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(swap, .init = setup, .fini = teardown, .timeout = 60);

static gmk_pos pt(const char *name) {
    gmk_pos p;
    char err[64];
    cr_assert(gmk_notation_parse_point(name, 15, &p, err, sizeof err), "%s", err);
    return p;
}

static void new_game(gmk_play_mode mode, gmk_color human, gmk_opening opening) {
    gmk_game_config cfg = gmk_game_config_default();
    cfg.mode = mode;
    cfg.human = human;
    cfg.level = 1;
    cfg.opening = opening;
    char err[128] = "";
    cr_assert_eq(gmk_session_new_game(ses, &cfg, NULL, err, sizeof err), GMK_SESSION_OK, "%s", err);
}

static gmk_session_state state(void) {
    gmk_session_state st;
    gmk_session_get_state(ses, &st);
    return st;
}

static void play(const char *name) {
    gmk_play_verdict v = gmk_session_play(ses, pt(name), false, NULL, NULL);
    cr_assert_eq(v, GMK_PLAY_OK, "%s refused (%d)", name, v);
}

/* Polls until the computer has nothing more to do; fails after 10 s. */
static void settle_computer(void) {
    for (int i = 0; i < 2000; i++) {
        gmk_session_poll(ses);
        if (!state().thinking) return;
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    cr_assert_fail("the computer did not finish");
}

static gmk_store_record *load(int64_t id) {
    static gmk_store_record rec;
    char err[256] = "";
    cr_assert_eq(gmk_store_game_load(store, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    return &rec;
}

static int moves(void) {
    return gmk_session_board(ses)->move_count;
}

Test(swap, names_phases_and_choices) {
    gmk_opening o;
    cr_assert(gmk_opening_parse("swap2", &o) && o == GMK_OPENING_SWAP2);
    cr_assert(gmk_opening_parse("swap1", &o) && o == GMK_OPENING_SWAP);
    cr_assert_not(gmk_opening_parse("swap3", &o));
    cr_assert_str_eq(gmk_opening_name(GMK_OPENING_FREE), "free");
    cr_assert_eq(gmk_swap_first_phase(GMK_OPENING_FREE), GMK_SWAP_NONE);
    cr_assert_eq(gmk_swap_after_stone(GMK_SWAP_PLACE3, 2), GMK_SWAP_PLACE3);
    cr_assert_eq(gmk_swap_after_stone(GMK_SWAP_PLACE3, 3), GMK_SWAP_CHOOSE);
    cr_assert_eq(gmk_swap_after_stone(GMK_SWAP_PLACE2, 5), GMK_SWAP_CHOOSE5);
    cr_assert(gmk_swap_choice_allowed(GMK_OPENING_SWAP2, GMK_SWAP_CHOOSE, GMK_SWAP_PLACE_TWO));
    cr_assert_not(gmk_swap_choice_allowed(GMK_OPENING_SWAP, GMK_SWAP_CHOOSE, GMK_SWAP_PLACE_TWO));
    cr_assert_not(gmk_swap_choice_allowed(GMK_OPENING_SWAP2, GMK_SWAP_CHOOSE5, GMK_SWAP_PLACE_TWO));
    int scores[] = {120, -40, 60, 40};
    cr_assert_eq(gmk_swap_pick(scores, 4), 1, "the smallest absolute score, the first on ties");
    gmk_pos c[GMK_SWAP_CANDIDATES][3];
    cr_assert_eq(gmk_swap_candidates(15, c), 6);
    cr_assert_eq(c[0][0], pt("h8"), "the openings are around the centre");
    cr_assert_eq(gmk_swap_candidates(5, c), 1, "a 5x5 board gets the compact opening");
}

Test(swap, the_computer_chooses_black_when_black_is_better) {
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_OPENING_SWAP2);
    gmk_session_state st = state();
    cr_assert_eq(st.phase, GMK_SWAP_PLACE3);
    cr_assert(st.human_to_move, "the human places the first three stones");
    cr_assert(st.human_first);
    cr_assert_eq(gmk_session_resign(ses, NULL), false, "no resignation before the colours");
    play("h8"); /* black */
    cr_assert_eq(state().phase, GMK_SWAP_PLACE3);
    cr_assert(state().human_to_move, "still the human's stones");
    play("a1"); /* white, out of play */
    play("i8"); /* black: two together in the centre */
    settle_computer();
    st = state();
    cr_assert_eq(st.phase, GMK_SWAP_NONE);
    cr_assert_eq(moves(), 3, "the computer took black: nothing played");
    cr_assert_eq(st.human, GMK_WHITE, "the human plays white");
    cr_assert(st.human_to_move);
    gmk_store_record *rec = load(st.game_id);
    cr_assert_eq(rec->game.human, GMK_WHITE, "the store knows the human's colour");
    cr_assert_str_eq(rec->game.black, "computer");
    cr_assert_str_eq(rec->game.white, "human");
    cr_assert_not(gmk_session_can_undo(ses), "the opening cannot be undone");
    play("j8");
    settle_computer();
    cr_assert_eq(moves(), 5);
    cr_assert(gmk_session_undo(ses, NULL));
    cr_assert_eq(moves(), 3, "undo back to the settled opening");
    cr_assert_not(gmk_session_undo(ses, NULL), "and not further");
}

Test(swap, the_computer_plays_white_when_white_is_better) {
    new_game(GMK_PLAY_HVC, GMK_BLACK, GMK_OPENING_SWAP);
    play("a1");  /* black, in the corner */
    play("h8");  /* white, the centre */
    play("o15"); /* black, the other corner */
    settle_computer();
    gmk_session_state st = state();
    cr_assert_eq(st.phase, GMK_SWAP_NONE);
    cr_assert_eq(st.human, GMK_BLACK, "the human keeps black");
    cr_assert_eq(moves(), 4, "the computer played white's stone at once");
    const gmk_board *b = gmk_session_board(ses);
    cr_assert_eq(b->stone[b->moves[3]], GMK_WHITE);
    cr_assert(st.human_to_move);
    cr_assert_eq(load(st.game_id)->game.human, GMK_BLACK);
}

Test(swap, the_computer_proposes_and_the_human_places_two_more) {
    new_game(GMK_PLAY_HVC, GMK_WHITE, GMK_OPENING_SWAP2);
    cr_assert_not(state().human_first);
    settle_computer();
    gmk_session_state st = state();
    cr_assert_eq(moves(), 3, "the computer placed three stones");
    cr_assert_eq(st.phase, GMK_SWAP_CHOOSE);
    cr_assert(st.human_chooses);
    cr_assert_not(st.human_to_move);
    /* the proposal is one of the openings */
    gmk_pos c[GMK_SWAP_CANDIDATES][3];
    int n = gmk_swap_candidates(15, c), found = 0;
    const gmk_board *b = gmk_session_board(ses);
    for (int k = 0; k < n; k++)
        found |= c[k][0] == b->moves[0] && c[k][1] == b->moves[1] && c[k][2] == b->moves[2];
    cr_assert(found, "the proposal is one of game/swap.c's openings");
    cr_assert_eq(gmk_session_play(ses, pt("a1"), false, NULL, NULL), GMK_PLAY_CHOOSE);
    cr_assert_not(gmk_session_swap_choose(ses, (gmk_swap_choice)7, NULL));
    cr_assert(gmk_session_swap_choose(ses, GMK_SWAP_PLACE_TWO, NULL));
    st = state();
    cr_assert_eq(st.phase, GMK_SWAP_PLACE2);
    cr_assert(st.human_to_move);
    cr_assert_eq(st.to_move, GMK_WHITE);
    play("a1");
    play("a15");
    settle_computer();
    st = state();
    cr_assert_eq(st.phase, GMK_SWAP_NONE, "the computer chose at five stones");
    cr_assert(st.human_to_move);
    if (moves() == 5)
        cr_assert_eq(st.human, GMK_WHITE, "it took black: the human plays white's sixth stone");
    else
        cr_assert(moves() == 6 && st.human == GMK_BLACK, "it played white's sixth stone");
    cr_assert_not(gmk_session_swap_choose(ses, GMK_SWAP_TAKE_BLACK, NULL), "chosen already");
}

Test(swap, the_human_chooses_white_and_plays_the_fourth_stone) {
    new_game(GMK_PLAY_HVC, GMK_WHITE, GMK_OPENING_SWAP);
    settle_computer();
    cr_assert_eq(state().phase, GMK_SWAP_CHOOSE);
    cr_assert_not(gmk_session_swap_choose(ses, GMK_SWAP_PLACE_TWO, NULL),
                  "swap has no third choice");
    int ev = 0;
    cr_assert(gmk_session_swap_choose(ses, GMK_SWAP_TAKE_WHITE, &ev));
    gmk_session_state st = state();
    cr_assert_eq(st.human, GMK_WHITE);
    cr_assert(st.human_to_move);
    cr_assert_not(ev & GMK_EV_THINKING);
    gmk_store_record *rec = load(st.game_id);
    cr_assert_str_eq(rec->game.black, "computer");
    cr_assert_str_eq(rec->game.white, "human");
}

Test(swap, the_human_takes_black_and_the_computer_plays_white) {
    new_game(GMK_PLAY_HVC, GMK_WHITE, GMK_OPENING_SWAP);
    settle_computer();
    int ev = 0;
    cr_assert(gmk_session_swap_choose(ses, GMK_SWAP_TAKE_BLACK, &ev));
    cr_assert(ev & GMK_EV_THINKING, "the computer, now white, thinks about the fourth stone");
    settle_computer();
    gmk_session_state st = state();
    cr_assert_eq(st.human, GMK_BLACK);
    cr_assert_eq(moves(), 4);
    gmk_store_record *rec = load(st.game_id);
    cr_assert_eq(rec->game.human, GMK_BLACK);
    cr_assert_str_eq(rec->game.black, "human");
    cr_assert_eq(rec->game.move_count, 4);
}

Test(swap, two_humans_and_the_computer_alone) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_OPENING_SWAP2);
    play("h8");
    play("h9");
    play("i9");
    cr_assert(state().human_chooses);
    cr_assert(gmk_session_swap_choose(ses, GMK_SWAP_PLACE_TWO, NULL));
    play("j10");
    play("g7");
    cr_assert_eq(state().phase, GMK_SWAP_CHOOSE5);
    cr_assert(gmk_session_swap_choose(ses, GMK_SWAP_TAKE_WHITE, NULL));
    cr_assert_eq(state().phase, GMK_SWAP_NONE);
    cr_assert(state().human_to_move);
    cr_assert_eq(state().to_move, GMK_WHITE);

    new_game(GMK_PLAY_CVC, GMK_EMPTY, GMK_OPENING_SWAP2);
    for (int i = 0; i < 2000 && moves() < 5; i++) {
        gmk_session_poll(ses);
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    cr_assert_geq(moves(), 5, "the computer proposes, chooses and plays on");
    cr_assert_eq(state().phase, GMK_SWAP_NONE);
}

Test(swap, a_position_cannot_be_set_up_and_the_config_is_checked) {
    new_game(GMK_PLAY_HVH, GMK_EMPTY, GMK_OPENING_SWAP);
    gmk_pos m[1] = {pt("h8")};
    char err[128] = "";
    cr_assert_eq(gmk_session_setup(ses, m, 1, NULL, err, sizeof err), GMK_SESSION_BAD_CONFIG);
    cr_assert_str_eq(err, "a swap opening starts from an empty board");
    gmk_game_config cfg = gmk_game_config_default();
    cfg.opening = (gmk_opening)9;
    cr_assert_not(gmk_game_config_valid(&cfg, err, sizeof err));
    cr_assert_str_eq(err, "unknown opening rule");
}
