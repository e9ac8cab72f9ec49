/* test_room_opening.c: the swap and swap2 openings of an online room (game/room.h,
 * room_opening.c) against a real SQLite file: both flows to the first normal move, the
 * wrong seat, the wrong step and a stranger refused with nothing changed, the clocks of the
 * seats through a change of colours, a restart at every step of the opening, the game record
 * and the seats' scores by the chosen colours (a guest's claimed seat too), a rematch in which the
 * other seat proposes, and a room of schema version 8 opened under 9. Time is given, never slept.
 */
#include <criterion/criterion.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "game/account.h"
#include "game/room.h"
#include "store/accounts.h"

static char tmp[256], dbpath[300];
static char err[512];
static gmk_store *store;

static const char ANN[] = "creator-token-0123456789abcdef";
static const char BOB[] = "friend-token-0123456789abcdef";
static const char EVE[] = "stranger-token-0123456789abcdef";
#define TOK(t) (t), (sizeof(t) - 1)

static const int64_t T0 = 1800000000000LL; /* Unix ms */

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void open_store(void) {
    gmk_store_status st = gmk_store_open(dbpath, GMK_STORE_OPEN_DEFAULT, &store, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_OK, "open: %s", err);
}

static void setup(void) {
    snprintf(tmp, sizeof tmp, "/tmp/gmk-opening-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
    snprintf(dbpath, sizeof dbpath, "%s/rooms.db", tmp);
    open_store();
}

static void teardown(void) {
    gmk_store_close(store);
    nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(room_opening, .init = setup, .fini = teardown);

static const char CODE[] = "ABCDEFGHJKLM";

/* A room of Ann's under opening o (Ann would play black: she proposes) that Bob has joined
 * at T0. */
static gmk_room *room_with(gmk_opening o, int minutes, int inc) {
    gmk_room_config cfg = {.rule = GMK_RULE_FREESTYLE,
                           .size = 15,
                           .black = GMK_ROOM_BLACK_ME,
                           .clock_minutes = minutes,
                           .increment_s = inc,
                           .opening = o};
    gmk_room *r = NULL;
    gmk_room_status st =
        gmk_room_create(store, &cfg, CODE, TOK(ANN), "Ann", T0 - 5000, &r, err, sizeof err);
    cr_assert_eq(st, GMK_ROOM_OK, "create: %s (%s)", gmk_room_status_name(st), err);
    cr_assert_eq(gmk_room_join(r, TOK(BOB), "Bob", T0, NULL), GMK_ROOM_OK);
    return r;
}

static gmk_room_state state(gmk_room *r, int64_t now) {
    gmk_room_state s;
    gmk_room_get_state(r, now, &s);
    return s;
}

static void play_ok(gmk_room *r, const char *tok, int x, int y, int64_t now) {
    gmk_room_status st = gmk_room_play(r, tok, strlen(tok), x, y, -1, now, NULL);
    cr_assert_eq(st, GMK_ROOM_OK, "move (%d, %d): %s", x, y, gmk_room_status_name(st));
}

static void choose_ok(gmk_room *r, const char *tok, gmk_swap_choice c, int64_t now) {
    gmk_room_status st = gmk_room_choose(r, tok, strlen(tok), c, now);
    cr_assert_eq(st, GMK_ROOM_OK, "choose %s: %s", gmk_swap_choice_name(c),
                 gmk_room_status_name(st));
}

/* Closes the store, opens it again and loads the room at now, as a restarted server does. */
static gmk_room *restart(gmk_room *r, int64_t now) {
    gmk_room_free(r);
    gmk_store_close(store);
    open_store();
    gmk_room *again = NULL;
    gmk_room_status st = gmk_room_load(store, CODE, now, &again, err, sizeof err);
    cr_assert_eq(st, GMK_ROOM_OK, "load: %s (%s)", gmk_room_status_name(st), err);
    return again;
}

/* The last event of the room. */
static gmk_room_event last_event(gmk_room *r) {
    static gmk_room_event ev[256];
    int n = 0;
    cr_assert_eq(gmk_room_events_since(r, 0, ev, 256, &n), GMK_ROOM_OK);
    cr_assert_gt(n, 0);
    return ev[n - 1];
}

Test(room_opening, a_free_room_has_no_opening_steps) {
    gmk_room *r = room_with(GMK_OPENING_FREE, 0, 0);
    gmk_room_state s = state(r, T0);
    cr_assert_eq(s.opening, GMK_OPENING_FREE);
    cr_assert_eq(s.swap_actor, -1);
    cr_assert_eq(s.swap_phase, GMK_SWAP_NONE);
    cr_assert_eq(gmk_room_choose(r, TOK(BOB), GMK_SWAP_TAKE_BLACK, T0 + 1), GMK_ROOM_NOT_NOW);
    cr_assert_str_eq(gmk_room_opening_why(r, 1, true),
                     "there is no colour to choose in this game now");
    play_ok(r, ANN, 7, 7, T0 + 2);
    gmk_room_free(r);
}

Test(room_opening, swap_proposer_places_three_then_the_other_takes_black) {
    gmk_room *r = room_with(GMK_OPENING_SWAP, 0, 0);
    gmk_room_state s = state(r, T0);
    cr_assert_eq(s.opening, GMK_OPENING_SWAP);
    cr_assert_eq(s.swap_phase, GMK_SWAP_PLACE3);
    cr_assert_eq(s.swap_first, 0);
    cr_assert_eq(s.swap_actor, 0);
    /* Ann places black, white, black; Bob may not place or choose meanwhile */
    play_ok(r, ANN, 7, 7, T0 + 1000);
    cr_assert_eq(gmk_room_play(r, TOK(BOB), 8, 8, -1, T0 + 1500, NULL), GMK_ROOM_NOT_YOUR_TURN);
    cr_assert_str_eq(gmk_room_opening_why(r, 1, false),
                     "the other player is placing the opening stones");
    cr_assert_eq(gmk_room_choose(r, TOK(BOB), GMK_SWAP_TAKE_BLACK, T0 + 1500), GMK_ROOM_NOT_NOW);
    play_ok(r, ANN, 8, 7, T0 + 2000);
    cr_assert_eq(state(r, T0 + 2000).swap_phase, GMK_SWAP_PLACE3);
    play_ok(r, ANN, 7, 9, T0 + 3000);
    s = state(r, T0 + 3000);
    cr_assert_eq(s.swap_phase, GMK_SWAP_CHOOSE);
    cr_assert_eq(s.swap_actor, 1);
    cr_assert_eq(s.ply, 3);
    int64_t seq = s.last_seq;
    /* the stones' events carry the stones' colours */
    gmk_room_event e = last_event(r);
    cr_assert_eq(e.kind, GMK_ROOM_EV_MOVED);
    cr_assert_eq(e.color, GMK_BLACK);
    /* refused, changing nothing: Ann's choice or move, Bob's stone, place two under swap, a
     * stranger */
    cr_assert_eq(gmk_room_choose(r, TOK(ANN), GMK_SWAP_TAKE_WHITE, T0 + 4000),
                 GMK_ROOM_NOT_YOUR_TURN);
    cr_assert_str_eq(gmk_room_opening_why(r, 0, true),
                     "the other player is choosing the colours now");
    cr_assert_eq(gmk_room_play(r, TOK(ANN), 9, 9, -1, T0 + 4000, NULL), GMK_ROOM_NOT_YOUR_TURN);
    cr_assert_eq(gmk_room_play(r, TOK(BOB), 9, 9, -1, T0 + 4000, NULL), GMK_ROOM_NOT_NOW);
    cr_assert_str_eq(gmk_room_opening_why(r, 1, false), "choose your colour first: black or white");
    cr_assert_eq(gmk_room_choose(r, TOK(BOB), GMK_SWAP_PLACE_TWO, T0 + 4000), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_choose(r, TOK(EVE), GMK_SWAP_TAKE_BLACK, T0 + 4000), GMK_ROOM_NO_SEAT);
    cr_assert_eq(gmk_room_ask_undo(r, TOK(BOB), T0 + 4000), GMK_ROOM_NOT_NOW);
    cr_assert_eq(state(r, T0 + 4000).last_seq, seq);
    /* Bob takes black: Ann plays white, and white is to move */
    choose_ok(r, BOB, GMK_SWAP_TAKE_BLACK, T0 + 5000);
    s = state(r, T0 + 5000);
    cr_assert_eq(s.swap_phase, GMK_SWAP_NONE);
    cr_assert_eq(s.swap_actor, -1);
    cr_assert_eq(s.seat[1].color, GMK_BLACK);
    cr_assert_eq(s.seat[0].color, GMK_WHITE);
    cr_assert_eq(s.to_move, GMK_WHITE);
    e = last_event(r);
    cr_assert_eq(e.kind, GMK_ROOM_EV_CHOSEN);
    cr_assert_eq(e.seat, 1);
    cr_assert_eq(e.count, GMK_SWAP_TAKE_BLACK);
    cr_assert_eq(e.color, GMK_WHITE); /* seat 0's colour now */
    cr_assert_eq(gmk_room_choose(r, TOK(BOB), GMK_SWAP_TAKE_WHITE, T0 + 5500), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_play(r, TOK(BOB), 9, 9, -1, T0 + 6000, NULL), GMK_ROOM_NOT_YOUR_TURN);
    play_ok(r, ANN, 9, 9, T0 + 6000); /* the first normal move */
    /* undo by consent takes back that move, never an opening stone */
    cr_assert_eq(gmk_room_ask_undo(r, TOK(ANN), T0 + 6100), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_answer_undo(r, TOK(BOB), true, T0 + 6200), GMK_ROOM_OK);
    cr_assert_eq(state(r, T0 + 6200).ply, 3);
    cr_assert_eq(gmk_room_ask_undo(r, TOK(ANN), T0 + 6300), GMK_ROOM_NOT_NOW);
    /* the record names the players by their chosen colours */
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(store, s.game_id, &rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_str_eq(rec.game.black, "Bob");
    cr_assert_str_eq(rec.game.white, "Ann");
    gmk_room_free(r);
}

Test(room_opening, swap_the_other_takes_white_and_plays_at_once) {
    gmk_room *r = room_with(GMK_OPENING_SWAP, 0, 0);
    play_ok(r, ANN, 7, 7, T0 + 1000);
    play_ok(r, ANN, 8, 7, T0 + 2000);
    play_ok(r, ANN, 7, 9, T0 + 3000);
    choose_ok(r, BOB, GMK_SWAP_TAKE_WHITE, T0 + 4000);
    gmk_room_state s = state(r, T0 + 4000);
    cr_assert_eq(s.seat[0].color, GMK_BLACK);
    cr_assert_eq(s.seat[1].color, GMK_WHITE);
    cr_assert_eq(gmk_room_play(r, TOK(ANN), 9, 9, -1, T0 + 5000, NULL), GMK_ROOM_NOT_YOUR_TURN);
    play_ok(r, BOB, 9, 9, T0 + 5000);
    play_ok(r, ANN, 10, 10, T0 + 6000);
    gmk_room_free(r);
}

/* Swap2 with Bob placing two more and Ann choosing white at five stones; a restart at every
 * step on the way. */
Test(room_opening, swap2_place_two_more_then_the_proposer_chooses_across_restarts) {
    gmk_room *r = room_with(GMK_OPENING_SWAP2, 0, 0);
    r = restart(r, T0 + 500); /* at the start: the game has no stone and no record yet */
    gmk_room_state s = state(r, T0 + 500);
    cr_assert_eq(s.swap_phase, GMK_SWAP_PLACE3);
    cr_assert_eq(s.swap_actor, 0);
    play_ok(r, ANN, 7, 7, T0 + 1000);
    r = restart(r, T0 + 1500);
    cr_assert_eq(state(r, T0 + 1500).swap_phase, GMK_SWAP_PLACE3);
    cr_assert_eq(gmk_room_play(r, TOK(BOB), 8, 7, -1, T0 + 1600, NULL), GMK_ROOM_NOT_YOUR_TURN);
    play_ok(r, ANN, 8, 7, T0 + 2000);
    play_ok(r, ANN, 7, 9, T0 + 3000);
    r = restart(r, T0 + 3500);
    s = state(r, T0 + 3500);
    cr_assert_eq(s.swap_phase, GMK_SWAP_CHOOSE);
    cr_assert_eq(s.swap_actor, 1);
    cr_assert_eq(gmk_room_choose(r, TOK(ANN), GMK_SWAP_PLACE_TWO, T0 + 3600),
                 GMK_ROOM_NOT_YOUR_TURN);
    choose_ok(r, BOB, GMK_SWAP_PLACE_TWO, T0 + 4000);
    gmk_room_event e = last_event(r);
    cr_assert_eq(e.kind, GMK_ROOM_EV_CHOSEN);
    cr_assert_eq(e.count, GMK_SWAP_PLACE_TWO);
    s = state(r, T0 + 4000);
    cr_assert_eq(s.swap_phase, GMK_SWAP_PLACE2);
    cr_assert_eq(s.swap_actor, 1);
    cr_assert_eq(s.seat[0].color, GMK_BLACK); /* provisional colours unchanged */
    cr_assert_eq(gmk_room_play(r, TOK(ANN), 9, 9, -1, T0 + 4100, NULL), GMK_ROOM_NOT_YOUR_TURN);
    cr_assert_eq(gmk_room_choose(r, TOK(BOB), GMK_SWAP_TAKE_BLACK, T0 + 4100), GMK_ROOM_NOT_NOW);
    cr_assert_str_eq(gmk_room_opening_why(r, 1, true), "place the opening stones first");
    play_ok(r, BOB, 9, 9, T0 + 5000); /* white */
    r = restart(r, T0 + 5500);
    s = state(r, T0 + 5500);
    cr_assert_eq(s.swap_phase, GMK_SWAP_PLACE2);
    cr_assert_eq(s.swap_actor, 1);
    play_ok(r, BOB, 6, 6, T0 + 6000); /* black */
    s = state(r, T0 + 6000);
    cr_assert_eq(s.swap_phase, GMK_SWAP_CHOOSE5);
    cr_assert_eq(s.swap_actor, 0);
    r = restart(r, T0 + 6500);
    s = state(r, T0 + 6500);
    cr_assert_eq(s.swap_phase, GMK_SWAP_CHOOSE5);
    cr_assert_eq(s.ply, 5);
    cr_assert_eq(gmk_room_choose(r, TOK(ANN), GMK_SWAP_PLACE_TWO, T0 + 6600), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_choose(r, TOK(BOB), GMK_SWAP_TAKE_BLACK, T0 + 6600),
                 GMK_ROOM_NOT_YOUR_TURN);
    cr_assert_str_eq(gmk_room_opening_why(r, 0, false), "choose your colour first: black or white");
    choose_ok(r, ANN, GMK_SWAP_TAKE_WHITE, T0 + 7000);
    r = restart(r, T0 + 7500);
    s = state(r, T0 + 7500);
    cr_assert_eq(s.swap_phase, GMK_SWAP_NONE);
    cr_assert_eq(s.seat[0].color, GMK_WHITE);
    cr_assert_eq(s.seat[1].color, GMK_BLACK);
    cr_assert_eq(s.to_move, GMK_WHITE);
    /* after the restart undo still stops at the settled stones */
    cr_assert_eq(gmk_room_ask_undo(r, TOK(ANN), T0 + 7600), GMK_ROOM_NOT_NOW);
    play_ok(r, ANN, 10, 10, T0 + 8000); /* white's sixth stone: the first normal move */
    cr_assert_eq(state(r, T0 + 8000).ply, 6);
    /* the log: each step an event, numbered without a gap across the restarts */
    static gmk_room_event ev[64];
    int n = 0;
    cr_assert_eq(gmk_room_events_since(r, 0, ev, 64, &n), GMK_ROOM_OK);
    int moved = 0, chosen = 0;
    for (int i = 0; i < n; i++) {
        cr_assert_eq(ev[i].seq, i + 1);
        moved += ev[i].kind == GMK_ROOM_EV_MOVED;
        chosen += ev[i].kind == GMK_ROOM_EV_CHOSEN;
    }
    cr_assert_eq(moved, 6);
    cr_assert_eq(chosen, 2);
    gmk_room_free(r);
}

Test(room_opening, each_seat_keeps_its_clock_through_the_choice) {
    gmk_room *r = room_with(GMK_OPENING_SWAP, 5, 2);
    /* Ann (provisionally black) spends 1 + 2 + 3 s placing, +2 s a stone */
    play_ok(r, ANN, 7, 7, T0 + 1000);
    play_ok(r, ANN, 8, 7, T0 + 3000);
    play_ok(r, ANN, 7, 9, T0 + 6000);
    gmk_room_state s = state(r, T0 + 6000);
    int64_t ann = 300000 - 6000 + 3 * 2000, bob = 300000;
    cr_assert_eq(s.black_ms, ann);
    cr_assert_eq(s.white_ms, bob);
    cr_assert_eq(s.to_move, GMK_WHITE); /* Bob's clock runs while he chooses */
    cr_assert_eq(s.deadline_ms, T0 + 6000 + bob);
    cr_assert_eq(state(r, T0 + 16000).white_ms, bob - 10000);
    /* Bob takes black after 10 s: he keeps his time (now black's clock), Ann hers */
    choose_ok(r, BOB, GMK_SWAP_TAKE_BLACK, T0 + 16000);
    bob += -10000 + 2000;
    s = state(r, T0 + 16000);
    cr_assert_eq(s.black_ms, bob);
    cr_assert_eq(s.white_ms, ann);
    cr_assert_eq(s.deadline_ms, T0 + 16000 + ann); /* Ann, white, to move */
    gmk_room_free(r);
}

Test(room_opening, a_flag_falls_during_the_opening) {
    gmk_room *r = room_with(GMK_OPENING_SWAP2, 1, 0);
    play_ok(r, ANN, 7, 7, T0 + 1000);
    play_ok(r, ANN, 8, 7, T0 + 2000);
    play_ok(r, ANN, 7, 9, T0 + 3000);
    /* Bob (provisionally white) never chooses */
    cr_assert(!gmk_room_tick(r, T0 + 3000 + 60000 - 1));
    cr_assert(gmk_room_tick(r, T0 + 3000 + 60000));
    gmk_room_state s = state(r, T0 + 63000);
    cr_assert_eq(s.phase, GMK_ROOM_OVER);
    cr_assert_eq(s.outcome, GMK_BLACK_WINS);
    cr_assert_eq(s.reason, GMK_REASON_TIME);
    cr_assert_eq(s.swap_actor, -1);
    cr_assert_eq(gmk_room_choose(r, TOK(BOB), GMK_SWAP_TAKE_BLACK, T0 + 64000), GMK_ROOM_NOT_NOW);
    gmk_room_free(r);
}

/* Ann places three, Bob takes black and wins by five on row 7 (Ann, white, plays on the edge). */
static void bob_takes_black_and_wins(gmk_room *r) {
    play_ok(r, ANN, 7, 7, T0 + 1000);
    play_ok(r, ANN, 0, 14, T0 + 2000);
    play_ok(r, ANN, 8, 7, T0 + 3000);
    choose_ok(r, BOB, GMK_SWAP_TAKE_BLACK, T0 + 4000);
    play_ok(r, ANN, 0, 0, T0 + 5000);
    play_ok(r, BOB, 9, 7, T0 + 6000);
    play_ok(r, ANN, 0, 1, T0 + 7000);
    play_ok(r, BOB, 10, 7, T0 + 8000);
    play_ok(r, ANN, 0, 2, T0 + 9000);
    play_ok(r, BOB, 11, 7, T0 + 10000);
    cr_assert_eq(state(r, T0 + 10000).outcome, GMK_BLACK_WINS);
}

Test(room_opening, scores_and_rematch_follow_the_chosen_colours) {
    gmk_room *r = room_with(GMK_OPENING_SWAP, 0, 0);
    bob_takes_black_and_wins(r);
    gmk_room_state s = state(r, T0 + 10000);
    cr_assert_eq(s.phase, GMK_ROOM_OVER);
    cr_assert_eq(s.outcome, GMK_BLACK_WINS);
    gmk_store_player_score sc[4];
    int n = 0;
    cr_assert_eq(gmk_store_seat_scores(store, sc, 4, &n, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(sc[0].name, "Bob");
    cr_assert_eq(sc[0].wins, 1);
    cr_assert_str_eq(sc[1].name, "Ann");
    cr_assert_eq(sc[1].losses, 1);
    /* the rematch: Bob proposes this time, provisionally black */
    cr_assert_eq(gmk_room_rematch(r, TOK(ANN), T0 + 11000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_rematch(r, TOK(BOB), T0 + 12000), GMK_ROOM_OK);
    s = state(r, T0 + 12000);
    cr_assert_eq(s.phase, GMK_ROOM_PLAYING);
    cr_assert_eq(s.swap_phase, GMK_SWAP_PLACE3);
    cr_assert_eq(s.swap_first, 1);
    cr_assert_eq(s.swap_actor, 1);
    cr_assert_eq(s.seat[1].color, GMK_BLACK);
    cr_assert_eq(gmk_room_play(r, TOK(ANN), 7, 7, -1, T0 + 13000, NULL), GMK_ROOM_NOT_YOUR_TURN);
    play_ok(r, BOB, 7, 7, T0 + 13000);
    gmk_room_free(r);
}

Test(room_opening, a_guest_who_signs_up_claims_the_game_with_the_chosen_colour) {
    gmk_room *r = room_with(GMK_OPENING_SWAP, 0, 0);
    bob_takes_black_and_wins(r);
    gmk_room_free(r);
    char key[GMK_ACCOUNT_KEY_MAX];
    cr_assert(gmk_account_name_key("Bob", key, err, sizeof err), "%s", err);
    int64_t bob = 0;
    cr_assert_eq(gmk_store_account_create(store, "Bob", key, "$argon2id$fake", 1700000000, &bob,
                                          err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    uint8_t hash[32];
    crypto_hash_sha256(hash, (const unsigned char *)BOB, sizeof BOB - 1);
    int linked = 0;
    cr_assert_eq(gmk_store_account_claim_seat(store, bob, CODE, hash, &linked, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_eq(linked, 1);
    gmk_store_score sc[4];
    int n = 0;
    gmk_store_whose who = {.account = bob};
    cr_assert_eq(gmk_store_scoreboard_of(store, &who, sc, 4, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 1);
    cr_assert_eq(sc[0].wins, 1, "Bob took black and won (provisionally he was white)");
    cr_assert_eq(sc[0].losses, 0);
}

Test(room_opening, a_damaged_opening_is_not_loaded) {
    gmk_room *r = room_with(GMK_OPENING_SWAP, 0, 0);
    play_ok(r, ANN, 7, 7, T0 + 1000);
    gmk_room_free(r);
    gmk_store_close(store);
    open_store();
    gmk_store_room row;
    cr_assert_eq(gmk_store_room_find(store, CODE, &row, err, sizeof err), GMK_STORE_OK);
    row.swap_phase = GMK_SWAP_CHOOSE5; /* five stones' choice with one stone on the board */
    cr_assert_eq(gmk_store_room_save(store, &row, NULL, 0, err, sizeof err), GMK_STORE_OK, "%s",
                 err);
    row.swap_phase = 9;
    cr_assert_eq(gmk_store_room_save(store, &row, NULL, 0, err, sizeof err), GMK_STORE_INVALID);
    gmk_room *again = NULL;
    cr_assert_eq(gmk_room_load(store, CODE, T0 + 2000, &again, err, sizeof err), GMK_ROOM_STORE);
    cr_assert_null(again);
}

Test(room_opening, a_bad_opening_in_the_config_is_refused) {
    gmk_room_config cfg = {.rule = GMK_RULE_FREESTYLE, .size = 15, .opening = GMK_OPENING_COUNT};
    gmk_room *r = NULL;
    cr_assert_eq(gmk_room_create(store, &cfg, CODE, TOK(ANN), "Ann", T0, &r, err, sizeof err),
                 GMK_ROOM_BAD_REQUEST);
    cr_assert_str_eq(err, "the opening is free, swap or swap2");
}

Test(room_opening, a_room_of_schema_8_opens_as_a_free_room) {
    gmk_room *r = room_with(GMK_OPENING_FREE, 0, 0);
    play_ok(r, ANN, 7, 7, T0 + 1000);
    gmk_room_free(r);
    gmk_store_close(store);
    /* the file as version 8 left it: without the opening columns (nor the lobby's chat) */
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db,
                          "ALTER TABLE rooms DROP COLUMN opening;"
                          "ALTER TABLE rooms DROP COLUMN swap_phase;"
                          "ALTER TABLE rooms DROP COLUMN swap_first;"
                          "ALTER TABLE rooms DROP COLUMN swap_settled;"
                          "DROP TABLE lobby_chat;"
                          "PRAGMA user_version = 8;",
                          NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s", msg ? msg : "");
    sqlite3_close(db);
    open_store();
    cr_assert_eq(gmk_store_schema_version(store), GMK_STORE_SCHEMA_VERSION);
    cr_assert_eq(gmk_room_load(store, CODE, T0 + 2000, &r, err, sizeof err), GMK_ROOM_OK, "%s",
                 err);
    gmk_room_state s = state(r, T0 + 2000);
    cr_assert_eq(s.opening, GMK_OPENING_FREE);
    cr_assert_eq(s.swap_actor, -1);
    play_ok(r, BOB, 8, 8, T0 + 3000);
    gmk_room_free(r);
}
