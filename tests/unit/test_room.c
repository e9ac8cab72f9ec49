/* test_room.c: online rooms (game/room.h) against a real SQLite file in a temporary folder:
 * a whole game by two seats with spectators, refusals that change nothing, two moves for one
 * turn, draw offers, undo by consent, the disconnection claim, flag fall at the exact
 * millisecond, the event log (continuity, resume after N, older events read from the store),
 * a restart in the middle of a clocked game, a save refused by the compare-and-set (the move
 * and its event go together), rematch with colours swapped, closing idle rooms, 1,500 random
 * actions after which the log, the store and a reload agree; and the
 * names, codes and clocks rooms take as text. Time is given, never slept. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/room.h"
#include "support.h"

static char tmp[256], dbpath[300];
static char err[512];
static gmk_store *store;

static const char CREATOR[] = "creator-token-0123456789abcdef";
static const char FRIEND[] = "friend-token-0123456789abcdef";
static const char STRANGER[] = "stranger-token-0123456789abcdef";
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
    snprintf(tmp, sizeof tmp, "/tmp/gmk-room-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
    snprintf(dbpath, sizeof dbpath, "%s/rooms.db", tmp);
    open_store();
}

static void teardown(void) {
    gmk_store_close(store);
    nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(room, .init = setup, .fini = teardown);

static const char *code_of(int n) {
    static char code[GMK_ROOM_CODE_LEN + 1];
    uint8_t rnd[GMK_ROOM_CODE_RANDOM] = {1, 2, 3, 4, 5, 6, 7, (uint8_t)n};
    gmk_room_code_make(rnd, code);
    return code;
}

/* A room by Ann (creator, black unless said) that Bob has joined at T0. */
static gmk_room *room_with(int minutes, int inc, gmk_room_black black) {
    gmk_room_config cfg = {.rule = GMK_RULE_FREESTYLE,
                           .size = 15,
                           .black = black,
                           .clock_minutes = minutes,
                           .increment_s = inc};
    gmk_room *r = NULL;
    gmk_room_status st = gmk_room_create(store, &cfg, code_of(0), TOK(CREATOR), "Ann", T0 - 5000,
                                         &r, err, sizeof err);
    cr_assert_eq(st, GMK_ROOM_OK, "create: %s (%s)", gmk_room_status_name(st), err);
    int seat = -1;
    cr_assert_eq(gmk_room_join(r, TOK(FRIEND), "Bob", T0, &seat), GMK_ROOM_OK);
    cr_assert_eq(seat, 1);
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

/* Every event of the room, through the paging interface, cap at a time. */
static int all_events(gmk_room *r, int64_t after, gmk_room_event *out, int max, int cap) {
    int total = 0, n;
    do {
        cr_assert_eq(gmk_room_events_since(r, after, out + total, cap, &n), GMK_ROOM_OK);
        if (n > 0) after = out[total + n - 1].seq;
        total += n;
        cr_assert_leq(total, max);
    } while (n == cap);
    return total;
}

static int stored_events(int64_t room_id) {
    static gmk_room_event ev[2048];
    int n = 0;
    cr_assert_eq(gmk_store_room_events(store, room_id, 0, ev, 2048, &n, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    return n;
}

Test(room, whole_game_with_spectators) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    gmk_room_state s = state(r, T0);
    cr_assert_eq(s.phase, GMK_ROOM_PLAYING);
    cr_assert_eq(s.seat[0].color, GMK_BLACK);
    cr_assert_eq(s.seat[1].color, GMK_WHITE);
    cr_assert_str_eq(s.seat[1].name, "Bob");
    gmk_room_spectator_join(r, T0 + 1);
    gmk_room_spectator_join(r, T0 + 2);
    gmk_room_spectator_join(r, T0 + 3);
    gmk_room_spectator_leave(r, T0 + 4);
    cr_assert_eq(state(r, T0).spectators, 2);
    /* an online game is never offered to the terminal game for resuming */
    play_ok(r, CREATOR, 7, 7, T0 + 10);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_find_unfinished(store, &rec, err, sizeof err), GMK_STORE_NOT_FOUND);
    for (int i = 0; i < 4; i++) {
        play_ok(r, FRIEND, 3 + i, 10, T0 + 20 + 20 * i);
        play_ok(r, CREATOR, 8 + i, 7, T0 + 30 + 20 * i);
    }
    s = state(r, T0 + 200);
    cr_assert_eq(s.phase, GMK_ROOM_OVER);
    cr_assert_eq(s.outcome, GMK_BLACK_WINS);
    cr_assert_eq(s.reason, GMK_REASON_FIVE);
    cr_assert_eq(s.spectators, 2);
    cr_assert_eq(s.ply, 9);
    /* the last event says so, with the deciding move */
    gmk_room_event last;
    int n;
    cr_assert_eq(gmk_room_events_since(r, s.last_seq - 1, &last, 1, &n), GMK_ROOM_OK);
    cr_assert_eq(n, 1);
    cr_assert_eq(last.kind, GMK_ROOM_EV_OVER);
    cr_assert_eq(last.outcome, GMK_BLACK_WINS);
    cr_assert_eq(last.x, 11);
    /* the game list and the scoreboards */
    cr_assert_eq(gmk_store_game_load(store, s.game_id, &rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(rec.game.mode, GMK_STORE_MODE_ONLINE);
    cr_assert_str_eq(rec.game.black, "Ann");
    cr_assert_str_eq(rec.game.white, "Bob");
    cr_assert_eq(rec.game.move_count, 9);
    cr_assert_eq(rec.game.outcome, GMK_BLACK_WINS);
    gmk_store_score sc[GMK_STORE_SCORE_MAX];
    cr_assert_eq(gmk_store_scoreboard(store, sc, GMK_STORE_SCORE_MAX, &n, err, sizeof err),
                 GMK_STORE_OK);
    cr_assert_eq(n, 1);
    cr_assert_eq(sc[0].mode, GMK_STORE_MODE_ONLINE);
    cr_assert_eq(sc[0].black_wins, 1);
    gmk_store_player_score ps[8];
    cr_assert_eq(gmk_store_player_scores(store, GMK_STORE_MODE_ONLINE, ps, 8, &n, err, sizeof err),
                 GMK_STORE_OK);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(ps[0].name, "Ann");
    cr_assert_eq(ps[0].wins, 1);
    cr_assert_str_eq(ps[1].name, "Bob");
    cr_assert_eq(ps[1].losses, 1);
    /* the whole log is in the store too */
    cr_assert_eq(stored_events(1), (int)s.last_seq);
    gmk_room_free(r);
}

Test(room, refusals_change_nothing) {
    gmk_room *r = room_with(5, 3, GMK_ROOM_BLACK_FRIEND);
    cr_assert_eq(state(r, T0).seat[1].color, GMK_BLACK);
    play_ok(r, FRIEND, 7, 7, T0 + 100);
    gmk_room_state before = state(r, T0 + 200);
    int stored = stored_events(1);
    /* out of turn: 409 */
    cr_assert_eq(gmk_room_play(r, TOK(FRIEND), 8, 8, -1, T0 + 200, NULL), GMK_ROOM_NOT_YOUR_TURN);
    /* no seat: 403, for every action */
    cr_assert_eq(gmk_room_play(r, TOK(STRANGER), 8, 8, -1, T0 + 200, NULL), GMK_ROOM_NO_SEAT);
    cr_assert_eq(gmk_room_resign(r, TOK(STRANGER), T0 + 200), GMK_ROOM_NO_SEAT);
    cr_assert_eq(gmk_room_offer_draw(r, TOK(STRANGER), T0 + 200), GMK_ROOM_NO_SEAT);
    cr_assert_eq(gmk_room_ask_undo(r, TOK(STRANGER), T0 + 200), GMK_ROOM_NO_SEAT);
    cr_assert_eq(gmk_room_claim(r, TOK(STRANGER), T0 + 200), GMK_ROOM_NO_SEAT);
    cr_assert_eq(gmk_room_play(r, "short", 5, 8, 8, -1, T0 + 200, NULL), GMK_ROOM_NO_SEAT);
    /* a taken point, a point off the board, a third player */
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 7, 7, -1, T0 + 200, NULL), GMK_ROOM_ILLEGAL);
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 15, 0, -1, T0 + 200, NULL), GMK_ROOM_BAD_REQUEST);
    cr_assert_eq(gmk_room_join(r, TOK(STRANGER), "Eve", T0 + 200, NULL), GMK_ROOM_FULL);
    /* a time no clock gives */
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 8, 8, -1, -1, NULL), GMK_ROOM_BAD_REQUEST);
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 8, 8, -1, INT64_MAX, NULL), GMK_ROOM_BAD_REQUEST);
    cr_assert(!gmk_room_tick(r, INT64_MAX));
    cr_assert(!gmk_room_idle(r, INT64_MIN));
    /* nothing pending to answer */
    cr_assert_eq(gmk_room_answer_draw(r, TOK(CREATOR), true, T0 + 200), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_answer_undo(r, TOK(CREATOR), true, T0 + 200), GMK_ROOM_NOT_NOW);
    gmk_room_state after = state(r, T0 + 200);
    cr_assert_eq(after.last_seq, before.last_seq);
    cr_assert_eq(after.ply, 1);
    cr_assert_eq(after.white_ms, before.white_ms);
    cr_assert_eq(after.black_ms, before.black_ms);
    cr_assert(after.seat[0].taken && after.seat[1].taken);
    cr_assert_eq(stored_events(1), stored);
    gmk_room_free(r);
}

Test(room, two_moves_for_one_turn) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    /* both sent having seen 0 moves: the first is played, the second is stale */
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 7, 7, 0, T0 + 1, NULL), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 8, 8, 0, T0 + 1, NULL), GMK_ROOM_NOT_YOUR_TURN);
    /* the opponent's answer must be for ply 1 */
    cr_assert_eq(gmk_room_play(r, TOK(FRIEND), 8, 8, 0, T0 + 2, NULL), GMK_ROOM_NOT_YOUR_TURN);
    cr_assert_eq(gmk_room_play(r, TOK(FRIEND), 8, 8, 1, T0 + 2, NULL), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_play(r, TOK(FRIEND), 9, 9, 1, T0 + 2, NULL), GMK_ROOM_NOT_YOUR_TURN);
    cr_assert_eq(state(r, T0 + 3).ply, 2);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(store, state(r, T0).game_id, &rec, err, sizeof err),
                 GMK_STORE_OK);
    cr_assert_eq(rec.game.move_count, 2);
    gmk_room_free(r);
}

Test(room, draw_offer_declined_then_accepted) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    play_ok(r, CREATOR, 7, 7, T0 + 1);
    cr_assert_eq(gmk_room_offer_draw(r, TOK(CREATOR), T0 + 2), GMK_ROOM_OK);
    cr_assert_eq(state(r, T0).draw_by, GMK_BLACK);
    cr_assert_eq(gmk_room_offer_draw(r, TOK(CREATOR), T0 + 2), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_answer_draw(r, TOK(CREATOR), true, T0 + 3), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_answer_draw(r, TOK(FRIEND), false, T0 + 3), GMK_ROOM_OK);
    gmk_room_state s = state(r, T0 + 4);
    cr_assert_eq(s.draw_by, GMK_EMPTY);
    cr_assert_eq(s.phase, GMK_ROOM_PLAYING);
    cr_assert_eq(gmk_room_offer_draw(r, TOK(FRIEND), T0 + 5), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_answer_draw(r, TOK(CREATOR), true, T0 + 6), GMK_ROOM_OK);
    s = state(r, T0 + 7);
    cr_assert_eq(s.phase, GMK_ROOM_OVER);
    cr_assert_eq(s.outcome, GMK_DRAW);
    cr_assert_eq(s.reason, GMK_REASON_AGREEMENT);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(store, s.game_id, &rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(rec.game.outcome, GMK_DRAW);
    cr_assert_eq(rec.game.reason, GMK_REASON_AGREEMENT);
    gmk_room_free(r);
}

Test(room, undo_by_consent_declined_then_accepted) {
    gmk_room *r = room_with(10, 5, GMK_ROOM_BLACK_ME);
    cr_assert_eq(gmk_room_ask_undo(r, TOK(CREATOR), T0 + 1), GMK_ROOM_NOT_NOW); /* no move */
    play_ok(r, CREATOR, 7, 7, T0 + 1000);
    play_ok(r, FRIEND, 8, 8, T0 + 3000);
    cr_assert_eq(gmk_room_ask_undo(r, TOK(FRIEND), T0 + 4000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_ask_undo(r, TOK(CREATOR), T0 + 4000), GMK_ROOM_NOT_NOW); /* pending */
    cr_assert_eq(gmk_room_answer_undo(r, TOK(FRIEND), true, T0 + 4500), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_answer_undo(r, TOK(CREATOR), false, T0 + 5000), GMK_ROOM_OK);
    cr_assert_eq(state(r, T0 + 5000).ply, 2);
    cr_assert_eq(gmk_room_ask_undo(r, TOK(FRIEND), T0 + 6000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_answer_undo(r, TOK(CREATOR), true, T0 + 7000), GMK_ROOM_OK);
    gmk_room_state s = state(r, T0 + 7000);
    cr_assert_eq(s.ply, 1, "one move back, as two people at one board");
    cr_assert_eq(s.to_move, GMK_WHITE);
    cr_assert_eq(s.undo_by, GMK_EMPTY);
    /* black's 4 s this turn (3000..7000) are charged to black; white's clock runs again */
    cr_assert_eq(s.black_ms, 600000 - 1000 + 5000 - 4000);
    cr_assert_eq(s.white_ms, 600000 - 2000 + 5000);
    cr_assert_eq(s.deadline_ms, T0 + 7000 + s.white_ms);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(store, s.game_id, &rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(rec.game.move_count, 1);
    play_ok(r, FRIEND, 9, 9, T0 + 8000);
    gmk_room_free(r);
}

Test(room, disconnection_claim) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    cr_assert_eq(gmk_room_connect(r, TOK(CREATOR), T0), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_connect(r, TOK(FRIEND), T0), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_connect(r, TOK(FRIEND), T0), GMK_ROOM_OK); /* a second tab */
    /* Bob closes both tabs on black's turn: not claimable while it is not his turn */
    const int64_t t = T0 + 1000;
    cr_assert_eq(gmk_room_disconnect(r, TOK(FRIEND), t), GMK_ROOM_OK);
    cr_assert(state(r, t).seat[1].connected);
    cr_assert_eq(gmk_room_disconnect(r, TOK(FRIEND), t), GMK_ROOM_OK);
    cr_assert(!state(r, t).seat[1].connected);
    cr_assert_eq(state(r, t).seat[1].since_ms, t);
    cr_assert_eq(gmk_room_claim(r, TOK(CREATOR), t + 120000), GMK_ROOM_NOT_NOW);
    /* Ann moves at t + 120 s: Bob's turn; 60 s of it count, not the time before */
    const int64_t m = t + 120000;
    play_ok(r, CREATOR, 7, 7, m);
    cr_assert_eq(state(r, m).claim_ms, m + GMK_ROOM_CLAIM_MS);
    cr_assert_eq(gmk_room_claim(r, TOK(CREATOR), m + 59999), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_claim(r, TOK(FRIEND), m + 60000), GMK_ROOM_NOT_NOW); /* his own turn */
    cr_assert_eq(state(r, m + 60000).phase, GMK_ROOM_PLAYING);
    cr_assert_eq(gmk_room_claim(r, TOK(CREATOR), m + 60000), GMK_ROOM_OK);
    gmk_room_state s = state(r, m + 60001);
    cr_assert_eq(s.phase, GMK_ROOM_OVER);
    cr_assert_eq(s.outcome, GMK_BLACK_WINS);
    cr_assert_eq(s.reason, GMK_REASON_ABANDON);
    gmk_room_free(r);
}

Test(room, reconnecting_stops_the_claim) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    play_ok(r, CREATOR, 7, 7, T0 + 10);
    /* Bob never connected since T0 (his seat was taken then) */
    cr_assert_eq(gmk_room_connect(r, TOK(FRIEND), T0 + 50000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_claim(r, TOK(CREATOR), T0 + 70000), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_disconnect(r, TOK(FRIEND), T0 + 80000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_claim(r, TOK(CREATOR), T0 + 139999), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_claim(r, TOK(CREATOR), T0 + 140000), GMK_ROOM_OK);
    gmk_room_free(r);
}

Test(room, streams_on_other_servers_count_for_the_claim) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    play_ok(r, CREATOR, 7, 7, T0 + 10); /* Bob's turn; his stream is on another server */
    gmk_store_presence there[2] = {{0, 0}, {1, 0}};
    gmk_room_set_elsewhere(r, there);
    cr_assert(state(r, T0 + 100000).seat[1].connected);
    cr_assert_eq(state(r, T0 + 100000).claim_ms, 0);
    cr_assert_eq(gmk_room_claim(r, TOK(CREATOR), T0 + 100000), GMK_ROOM_NOT_NOW);
    /* a tab of his here opens and closes: he stays connected there, nothing is logged */
    int64_t seq = gmk_room_last_seq(r);
    cr_assert_eq(gmk_room_connect(r, TOK(FRIEND), T0 + 100000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_disconnect(r, TOK(FRIEND), T0 + 101000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_last_seq(r), seq);
    cr_assert(state(r, T0 + 101000).seat[1].connected);
    /* that server died; its lease ended at T0 + 150 s: 60 s from then */
    there[1] = (gmk_store_presence){0, T0 + 150000};
    gmk_room_set_elsewhere(r, there);
    cr_assert(!state(r, T0 + 151000).seat[1].connected);
    cr_assert_eq(state(r, T0 + 151000).claim_ms, T0 + 210000);
    cr_assert_eq(gmk_room_claim(r, TOK(CREATOR), T0 + 209999), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_claim(r, TOK(CREATOR), T0 + 210000), GMK_ROOM_OK);
    gmk_room_free(r);
}

/* Two copies of one room, as two servers on one database keep it: b catches up with a's saves
 * by reading only the new events, and ends in the state a fresh load gives. */
Test(room, catching_up_with_another_servers_moves) {
    gmk_room *a = room_with(5, 3, GMK_ROOM_BLACK_ME);
    play_ok(a, CREATOR, 7, 7, T0 + 1000);
    gmk_room *b = NULL;
    cr_assert_eq(gmk_room_load(store, code_of(0), T0 + 1500, &b, err, sizeof err), GMK_ROOM_OK);
    play_ok(a, FRIEND, 8, 8, T0 + 3000);
    play_ok(a, CREATOR, 9, 9, T0 + 6000);
    bool changed = false;
    cr_assert_eq(gmk_room_catch_up(b, store, gmk_room_last_seq(a), &changed), GMK_ROOM_OK);
    cr_assert(changed);
    gmk_room *fresh = NULL;
    cr_assert_eq(gmk_room_load(store, code_of(0), T0 + 6500, &fresh, err, sizeof err), GMK_ROOM_OK);
    const gmk_room *rooms[] = {a, b, fresh};
    for (int i = 1; i < 3; i++) {
        gmk_room_state x = state((gmk_room *)rooms[0], T0 + 7000);
        gmk_room_state y = state((gmk_room *)rooms[i], T0 + 7000);
        cr_assert_eq(y.ply, 3);
        cr_assert_eq(y.last_seq, x.last_seq);
        cr_assert_eq(y.black_ms, x.black_ms);
        cr_assert_eq(y.white_ms, x.white_ms);
        cr_assert_eq(y.deadline_ms, x.deadline_ms);
        cr_assert_eq(y.to_move, GMK_WHITE);
        const gmk_board *bx = gmk_session_board(gmk_room_session(rooms[0]));
        const gmk_board *by = gmk_session_board(gmk_room_session(rooms[i]));
        cr_assert_arr_eq(by->moves, bx->moves, 3 * sizeof bx->moves[0]);
    }
    gmk_room_event ea[16], eb[16];
    int na = all_events(a, 0, ea, 16, 16), nb = all_events(b, 0, eb, 16, 16);
    cr_assert_eq(nb, na);
    cr_assert_arr_eq(eb, ea, (size_t)na * sizeof ea[0], "the same log");
    cr_assert_eq(gmk_room_catch_up(b, store, gmk_room_last_seq(a), &changed), GMK_ROOM_OK);
    cr_assert(!changed, "nothing new: nothing read");
    /* b is in step with the store: its own move saves (the compare-and-set holds) */
    play_ok(b, FRIEND, 10, 10, T0 + 8000);
    cr_assert_eq(gmk_room_catch_up(a, store, gmk_room_last_seq(b), &changed), GMK_ROOM_OK);
    cr_assert_eq(state(a, T0 + 8000).ply, 4);
    /* an end of the game is not a move: read whole, with the same result */
    cr_assert_eq(gmk_room_resign(a, TOK(CREATOR), T0 + 9000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_catch_up(b, store, gmk_room_last_seq(a), &changed), GMK_ROOM_OK);
    cr_assert(changed);
    gmk_room_state over = state(b, T0 + 9500);
    cr_assert_eq(over.phase, GMK_ROOM_OVER);
    cr_assert_eq(over.outcome, GMK_WHITE_WINS);
    gmk_room_free(fresh);
    gmk_room_free(b);
    gmk_room_free(a);
}

Test(room, flag_falls_at_the_exact_millisecond) {
    gmk_room *r = room_with(5, 3, GMK_ROOM_BLACK_ME);
    cr_assert_eq(gmk_room_next_deadline(r), T0 + 300000);
    play_ok(r, CREATOR, 7, 7, T0 + 1000); /* black: 300 - 1 + 3 s */
    cr_assert_eq(state(r, T0 + 1000).black_ms, 302000);
    cr_assert_eq(gmk_room_next_deadline(r), T0 + 1000 + 300000);
    const int64_t d = T0 + 301000;
    cr_assert(!gmk_room_tick(r, d - 1));
    cr_assert_eq(state(r, d - 1).white_ms, 1);
    cr_assert_eq(state(r, d - 1).phase, GMK_ROOM_PLAYING);
    cr_assert(gmk_room_tick(r, d));
    gmk_room_state s = state(r, d);
    cr_assert_eq(s.phase, GMK_ROOM_OVER);
    cr_assert_eq(s.outcome, GMK_BLACK_WINS);
    cr_assert_eq(s.reason, GMK_REASON_TIME);
    cr_assert_eq(s.white_ms, 0);
    cr_assert_eq(gmk_room_next_deadline(r), 0);
    cr_assert(!gmk_room_tick(r, d + 1));
    gmk_room_free(r);
}

Test(room, a_move_at_the_deadline_is_too_late) {
    gmk_room *r = room_with(5, 0, GMK_ROOM_BLACK_ME);
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 7, 7, 0, T0 + 300000, NULL), GMK_ROOM_NOT_NOW);
    gmk_room_state s = state(r, T0 + 300000);
    cr_assert_eq(s.reason, GMK_REASON_TIME);
    cr_assert_eq(s.outcome, GMK_WHITE_WINS);
    cr_assert_eq(s.ply, 0);
    gmk_room_free(r);
}

Test(room, event_log_in_order_and_resumable) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    play_ok(r, CREATOR, 7, 7, T0 + 1);
    gmk_room_spectator_join(r, T0 + 2);
    play_ok(r, FRIEND, 8, 8, T0 + 3);
    static gmk_room_event ev[2048];
    int n = all_events(r, 0, ev, 2048, 3);
    cr_assert_eq(n, (int)gmk_room_last_seq(r));
    for (int i = 0; i < n; i++) cr_assert_eq(ev[i].seq, i + 1, "no gap, no duplicate");
    cr_assert_eq(ev[0].kind, GMK_ROOM_EV_CREATED);
    cr_assert_eq(ev[1].kind, GMK_ROOM_EV_JOINED);
    cr_assert_eq(ev[2].kind, GMK_ROOM_EV_STARTED);
    cr_assert_eq(ev[3].kind, GMK_ROOM_EV_MOVED);
    cr_assert_eq(ev[n - 1].kind, GMK_ROOM_EV_MOVED);
    cr_assert_eq(ev[n - 1].x, 8);
    /* resume after N: exactly the rest */
    int rest = 0;
    cr_assert_eq(gmk_room_events_since(r, 3, ev, 2048, &rest), GMK_ROOM_OK);
    cr_assert_eq(rest, n - 3);
    cr_assert_eq(ev[0].seq, 4);
    cr_assert_eq(gmk_room_events_since(r, n, ev, 2048, &rest), GMK_ROOM_OK);
    cr_assert_eq(rest, 0);
    cr_assert_eq(gmk_room_events_since(r, n + 1, ev, 2048, &rest), GMK_ROOM_BAD_REQUEST);
    cr_assert_eq(gmk_room_events_since(r, -1, ev, 2048, &rest), GMK_ROOM_BAD_REQUEST);
    /* watching logs and stores nothing (anyone may watch) */
    int64_t seq = gmk_room_last_seq(r);
    int stored = stored_events(1);
    for (int i = 0; i < 50; i++) gmk_room_spectator_join(r, T0 + 5);
    for (int i = 0; i < 49; i++) gmk_room_spectator_leave(r, T0 + 6);
    cr_assert_eq(gmk_room_last_seq(r), seq);
    cr_assert_eq(stored_events(1), stored);
    cr_assert_eq(state(r, T0 + 6).spectators, 2); /* with the one from before */
    /* many more events than memory keeps: the older ones come from the store, seamlessly */
    for (int i = 0; i < 300; i++) {
        cr_assert_eq(gmk_room_offer_draw(r, TOK(CREATOR), T0 + 10 + i), GMK_ROOM_OK);
        cr_assert_eq(gmk_room_answer_draw(r, TOK(FRIEND), false, T0 + 10 + i), GMK_ROOM_OK);
    }
    n = all_events(r, 0, ev, 2048, 100);
    cr_assert_eq(n, (int)gmk_room_last_seq(r));
    for (int i = 0; i < n; i++) cr_assert_eq(ev[i].seq, i + 1);
    cr_assert_eq(ev[n - 1].kind, GMK_ROOM_EV_DRAW_DECLINED);
    cr_assert_eq(stored_events(1), n);
    gmk_room_free(r);
}

Test(room, restart_continues_with_the_clocks) {
    gmk_room *r = room_with(10, 5, GMK_ROOM_BLACK_FRIEND);
    play_ok(r, FRIEND, 7, 7, T0 + 2000);
    play_ok(r, CREATOR, 8, 8, T0 + 5000);
    cr_assert_eq(gmk_room_offer_draw(r, TOK(CREATOR), T0 + 5500), GMK_ROOM_OK);
    gmk_room_state before = state(r, T0 + 6000);
    int64_t seq = before.last_seq;
    gmk_room_free(r);
    gmk_store_close(store);
    open_store();
    /* ten seconds later, the code typed in lower case with a dash */
    char typed[32];
    snprintf(typed, sizeof typed, "%.6s-%s", code_of(0), code_of(0) + 6);
    for (char *c = typed; *c; c++)
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    gmk_room_status st = gmk_room_load(store, typed, T0 + 16000, &r, err, sizeof err);
    cr_assert_eq(st, GMK_ROOM_OK, "load: %s (%s)", gmk_room_status_name(st), err);
    gmk_room_state s = state(r, T0 + 16000);
    cr_assert_eq(s.phase, GMK_ROOM_PLAYING);
    cr_assert_eq(s.ply, 2);
    cr_assert_eq(s.to_move, GMK_BLACK);
    cr_assert_eq(s.draw_by, GMK_WHITE);
    cr_assert_eq(s.seat[1].color, GMK_BLACK);
    cr_assert_str_eq(s.seat[0].name, "Ann");
    cr_assert(!s.seat[0].connected && !s.seat[1].connected);
    /* black's clock ran through the restart; white's stayed */
    cr_assert_eq(s.black_ms, before.black_ms - 10000);
    cr_assert_eq(s.white_ms, before.white_ms);
    /* the log goes on from where it was, with no gap; the load itself logged nothing */
    cr_assert_eq(s.last_seq, seq);
    static gmk_room_event ev[64];
    int n = all_events(r, 0, ev, 64, 64);
    for (int i = 0; i < n; i++) cr_assert_eq(ev[i].seq, i + 1);
    /* the seats still answer to their tokens, and the game goes on */
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 9, 9, 2, T0 + 17000, NULL), GMK_ROOM_NOT_YOUR_TURN);
    cr_assert_eq(gmk_room_play(r, TOK(FRIEND), 9, 9, 2, T0 + 17000, NULL), GMK_ROOM_OK);
    s = state(r, T0 + 17000);
    cr_assert_eq(s.ply, 3);
    cr_assert_eq(s.draw_by, GMK_EMPTY);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(store, s.game_id, &rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(rec.game.move_count, 3);
    gmk_room_free(r);
}

Test(room, a_game_over_in_the_store_is_over_after_the_load) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    for (int i = 0; i < 4; i++) {
        play_ok(r, CREATOR, 7 + i, 7, T0 + 10 + 20 * i);
        play_ok(r, FRIEND, 3 + i, 10, T0 + 20 + 20 * i);
    }
    int64_t game = state(r, T0).game_id;
    gmk_room_free(r); /* then the five and the result reach the file without the room */
    cr_assert_eq(gmk_store_game_add_move(store, game, 8, 11, 7, 5, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(
        gmk_store_game_finish(store, game, GMK_BLACK_WINS, GMK_REASON_FIVE, 0, err, sizeof err),
        GMK_STORE_OK);
    cr_assert_eq(gmk_room_load(store, code_of(0), T0 + 1000, &r, err, sizeof err), GMK_ROOM_OK,
                 "%s", err);
    gmk_room_state s = state(r, T0 + 1000);
    cr_assert_eq(s.phase, GMK_ROOM_OVER);
    cr_assert_eq(s.outcome, GMK_BLACK_WINS);
    cr_assert_eq(s.ply, 9);
    gmk_room_event last;
    int n;
    cr_assert_eq(gmk_room_events_since(r, s.last_seq - 1, &last, 1, &n), GMK_ROOM_OK);
    cr_assert_eq(last.kind, GMK_ROOM_EV_OVER);
    /* and the room still offers the rematch */
    cr_assert_eq(gmk_room_rematch(r, TOK(FRIEND), T0 + 2000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_rematch(r, TOK(CREATOR), T0 + 2000), GMK_ROOM_OK);
    cr_assert_eq(state(r, T0 + 2000).seat[0].color, GMK_WHITE);
    gmk_room_free(r);
}

Test(room, a_move_and_its_event_are_saved_together_or_not_at_all) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    play_ok(r, CREATOR, 7, 7, T0 + 10);
    int64_t game = state(r, T0).game_id;
    /* another writer moves the room on behind this one's back */
    sqlite3 *db = NULL;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "UPDATE rooms SET last_seq = last_seq + 100", NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    int stored = stored_events(1);
    /* neither the move nor its event reaches the file, and the call says so */
    cr_assert_eq(gmk_room_play(r, TOK(FRIEND), 8, 8, -1, T0 + 20, NULL), GMK_ROOM_STORE);
    cr_assert(gmk_room_failed(r));
    char msg[512];
    cr_assert(gmk_room_take_store_message(r, msg, sizeof msg));
    cr_assert(strstr(msg, "changed elsewhere") != NULL, "%s", msg);
    cr_assert_not(gmk_room_take_store_message(r, msg, sizeof msg), "said once");
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(store, game, &rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(rec.game.move_count, 1);
    cr_assert_eq(stored_events(1), stored);
    /* every later change is refused too: nothing is ever answered OK that is not stored */
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 9, 9, -1, T0 + 30, NULL), GMK_ROOM_STORE);
    cr_assert_eq(gmk_room_resign(r, TOK(CREATOR), T0 + 30), GMK_ROOM_STORE);
    cr_assert_eq(gmk_room_offer_draw(r, TOK(FRIEND), T0 + 30), GMK_ROOM_STORE);
    cr_assert_eq(gmk_room_play(r, TOK(STRANGER), 9, 9, -1, T0 + 30, NULL), GMK_ROOM_NO_SEAT);
    cr_assert_eq(gmk_store_game_load(store, game, &rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(rec.game.move_count, 1, "the game stays in step with the log");
    gmk_room_free(r);
}

Test(room, rematch_swaps_colours) {
    gmk_room *r = room_with(5, 3, GMK_ROOM_BLACK_ME);
    cr_assert_eq(gmk_room_rematch(r, TOK(CREATOR), T0 + 1), GMK_ROOM_NOT_NOW); /* game on */
    play_ok(r, CREATOR, 7, 7, T0 + 1000);
    cr_assert_eq(gmk_room_resign(r, TOK(FRIEND), T0 + 2000), GMK_ROOM_OK);
    gmk_room_state s = state(r, T0 + 2000);
    cr_assert_eq(s.outcome, GMK_BLACK_WINS);
    cr_assert_eq(s.reason, GMK_REASON_RESIGN);
    int64_t first_game = s.game_id;
    cr_assert_eq(gmk_room_rematch(r, TOK(STRANGER), T0 + 3000), GMK_ROOM_NO_SEAT);
    cr_assert_eq(gmk_room_rematch(r, TOK(FRIEND), T0 + 3000), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_rematch(r, TOK(FRIEND), T0 + 3000), GMK_ROOM_NOT_NOW);
    cr_assert_eq(state(r, T0 + 3000).rematch_by, GMK_WHITE);
    cr_assert_eq(gmk_room_rematch(r, TOK(CREATOR), T0 + 4000), GMK_ROOM_OK);
    s = state(r, T0 + 4000);
    cr_assert_eq(s.phase, GMK_ROOM_PLAYING);
    cr_assert_eq(s.game_no, 2);
    cr_assert_eq(s.seat[0].color, GMK_WHITE);
    cr_assert_eq(s.seat[1].color, GMK_BLACK);
    cr_assert_eq(s.ply, 0);
    cr_assert_eq(s.black_ms, 300000);
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 7, 7, 0, T0 + 5000, NULL), GMK_ROOM_NOT_YOUR_TURN);
    play_ok(r, FRIEND, 7, 7, T0 + 5000);
    s = state(r, T0 + 5000);
    cr_assert_neq(s.game_id, first_game);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(store, s.game_id, &rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_str_eq(rec.game.black, "Bob");
    cr_assert_str_eq(rec.game.white, "Ann");
    gmk_room_free(r);
}

Test(room, idle_rooms_are_closed_and_their_games_stay) {
    gmk_room *r = room_with(0, 0, GMK_ROOM_BLACK_ME);
    play_ok(r, CREATOR, 7, 7, T0 + 10);
    int64_t game = state(r, T0).game_id;
    cr_assert(!gmk_room_idle(r, T0 + 10 + GMK_ROOM_IDLE_MS - 1));
    cr_assert(gmk_room_idle(r, T0 + 10 + GMK_ROOM_IDLE_MS));
    gmk_room_free(r);
    int closed = -1;
    cr_assert_eq(
        gmk_room_close_idle(store, T0 + 10 + GMK_ROOM_IDLE_MS - 1, &closed, err, sizeof err),
        GMK_ROOM_OK);
    cr_assert_eq(closed, 0);
    cr_assert_eq(gmk_room_load(store, code_of(0), T0, &r, err, sizeof err), GMK_ROOM_OK);
    gmk_room_free(r);
    /* loading logged events, which touched the room at T0: a day after that */
    cr_assert_eq(gmk_room_close_idle(store, T0 + GMK_ROOM_IDLE_MS + 10, &closed, err, sizeof err),
                 GMK_ROOM_OK);
    cr_assert_eq(closed, 1);
    cr_assert_eq(gmk_room_load(store, code_of(0), T0, &r, err, sizeof err), GMK_ROOM_NOT_FOUND);
    cr_assert_eq(stored_events(1), 0);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(store, game, &rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(rec.game.move_count, 1);
    cr_assert(rec.game.abandoned);
}

/* The seats' tokens are stored as their SHA-256 (libsodium's crypto_hash_sha256 since it
 * replaced a hand-written one): databases written before must still match. The token is the
 * two-block message of FIPS 180-2 appendix B.2, whose digest the standard gives. */
Test(room, seat_token_digest_is_sha256) {
    static const char msg[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    static const uint8_t want[32] = {0x24, 0x8d, 0x6a, 0x61, 0xd2, 0x06, 0x38, 0xb8,
                                     0xe5, 0xc0, 0x26, 0x93, 0x0c, 0x3e, 0x60, 0x39,
                                     0xa3, 0x3c, 0xe4, 0x59, 0x64, 0xff, 0x21, 0x67,
                                     0xf6, 0xec, 0xed, 0xd4, 0x19, 0xdb, 0x06, 0xc1};
    gmk_room_config cfg = {.rule = GMK_RULE_FREESTYLE, .size = 15};
    gmk_room *r = NULL;
    cr_assert_eq(gmk_room_create(store, &cfg, code_of(9), TOK(msg), "Ann", T0, &r, err, sizeof err),
                 GMK_ROOM_OK, "%s", err);
    gmk_room_free(r);
    static gmk_store_room row;
    cr_assert_eq(gmk_store_room_find(store, code_of(9), &row, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(memcmp(row.seat[0].token_sha256, want, sizeof want), 0);
    cr_assert_eq(gmk_room_load(store, code_of(9), T0, &r, err, sizeof err), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_seat_of(r, TOK(msg)), 0, "the token still opens its seat");
    cr_assert_eq(gmk_room_seat_of(r, TOK(CREATOR)), -1);
    gmk_room_free(r);
}

Test(room, creating_refuses_bad_input) {
    gmk_room_config cfg = {.rule = GMK_RULE_RENJU, .size = 15, .black = GMK_ROOM_BLACK_RANDOM};
    gmk_room *r = NULL;
    cr_assert_eq(
        gmk_room_create(store, &cfg, code_of(1), "short", 5, "Ann", T0, &r, err, sizeof err),
        GMK_ROOM_BAD_REQUEST);
    cr_assert_eq(gmk_room_create(store, &cfg, "ABC", TOK(CREATOR), "Ann", T0, &r, err, sizeof err),
                 GMK_ROOM_BAD_REQUEST);
    cr_assert_eq(
        gmk_room_create(store, &cfg, code_of(1), TOK(CREATOR), "\x1b[2J", T0, &r, err, sizeof err),
        GMK_ROOM_BAD_REQUEST);
    cfg.clock_minutes = 181;
    cr_assert_eq(
        gmk_room_create(store, &cfg, code_of(1), TOK(CREATOR), "Ann", T0, &r, err, sizeof err),
        GMK_ROOM_BAD_REQUEST);
    cr_assert_null(r);
    cfg.clock_minutes = 0;
    cfg.random_bit = false; /* random: the creator plays white */
    cr_assert_eq(
        gmk_room_create(store, &cfg, code_of(1), TOK(CREATOR), "Ann", T0, &r, err, sizeof err),
        GMK_ROOM_OK);
    cr_assert_eq(state(r, T0).seat[0].color, GMK_WHITE);
    cr_assert_eq(state(r, T0).phase, GMK_ROOM_WAITING);
    cr_assert_eq(gmk_room_play(r, TOK(CREATOR), 7, 7, -1, T0, NULL), GMK_ROOM_NOT_NOW);
    cr_assert_eq(gmk_room_join(r, TOK(FRIEND), "", T0, NULL), GMK_ROOM_BAD_REQUEST);
    cr_assert_eq(gmk_room_join(r, TOK(CREATOR), "Ann", T0, NULL), GMK_ROOM_OK); /* its seat */
    cr_assert(!state(r, T0).seat[1].taken);
    gmk_room_free(r);
    /* the same code again is refused by the store */
    cr_assert_eq(
        gmk_room_create(store, &cfg, code_of(1), TOK(FRIEND), "Bob", T0, &r, err, sizeof err),
        GMK_ROOM_STORE);
}

/* Random actions by the two players, a stranger and spectators at random times; after them
 * the log has no gap, the store's log equals the memory's, and a reload shows the same room. */
Test(room, random_actions_keep_log_store_and_reload_in_step) {
    gmk_room *r = room_with(2, 1, GMK_ROOM_BLACK_ME);
    test_rng rng = {.state = 12345};
    const char *toks[3] = {CREATOR, FRIEND, STRANGER};
    int64_t now = T0;
    int played = 0;
    for (int i = 0; i < 1500; i++) {
        now += rng_below(&rng, 1500);
        const char *tok = toks[rng_below(&rng, 3)];
        size_t len = strlen(tok);
        switch (rng_below(&rng, 24)) {
        case 0: gmk_room_resign(r, tok, len, now); break;
        case 1: gmk_room_offer_draw(r, tok, len, now); break;
        case 2: gmk_room_answer_draw(r, tok, len, rng_below(&rng, 2), now); break;
        case 3: gmk_room_ask_undo(r, tok, len, now); break;
        case 4: gmk_room_answer_undo(r, tok, len, rng_below(&rng, 2), now); break;
        case 5: gmk_room_claim(r, tok, len, now); break;
        case 6: gmk_room_rematch(r, tok, len, now); break;
        case 7: gmk_room_connect(r, tok, len, now); break;
        case 8: gmk_room_disconnect(r, tok, len, now); break;
        case 9: gmk_room_spectator_join(r, now); break;
        case 10: gmk_room_tick(r, now); break;
        default:
            if (gmk_room_play(r, tok, len, rng_below(&rng, 15), rng_below(&rng, 15), -1, now,
                              NULL) == GMK_ROOM_OK)
                played++;
        }
        gmk_room_state s = state(r, now);
        cr_assert(s.black_ms >= 0 && s.white_ms >= 0);
        if (s.phase == GMK_ROOM_PLAYING && s.deadline_ms <= now) { /* the server's timer */
            cr_assert(gmk_room_tick(r, now));
            cr_assert_eq(state(r, now).reason, GMK_REASON_TIME);
        }
    }
    cr_assert_geq(played, 40, "%d moves", played);
    cr_assert_geq(state(r, now).game_no, 5, "several games: %d", state(r, now).game_no);
    static gmk_room_event mem[4096], disk[4096];
    int n = all_events(r, 0, mem, 4096, 4096);
    cr_assert_eq(n, (int)gmk_room_last_seq(r));
    int m = 0;
    cr_assert_eq(gmk_store_room_events(store, 1, 0, disk, 4096, &m, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(m, n);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(mem[i].seq, i + 1);
        cr_assert_eq(memcmp(&mem[i], &disk[i], sizeof mem[i]), 0, "event %d differs", i + 1);
    }
    gmk_room_state before = state(r, now);
    gmk_room_free(r);
    cr_assert_eq(gmk_room_load(store, code_of(0), now, &r, err, sizeof err), GMK_ROOM_OK, "%s",
                 err);
    gmk_room_state after = state(r, now);
    cr_assert_eq(after.phase, before.phase);
    cr_assert_eq(after.ply, before.ply);
    cr_assert_eq(after.black_ms, before.black_ms);
    cr_assert_eq(after.white_ms, before.white_ms);
    cr_assert_eq(after.outcome, before.outcome);
    cr_assert_eq(after.game_no, before.game_no);
    cr_assert_eq(after.draw_by, before.draw_by);
    cr_assert_eq(after.undo_by, before.undo_by);
    cr_assert_eq(after.rematch_by, before.rematch_by);
    cr_assert_eq(after.seat[0].color, before.seat[0].color);
    const gmk_board *a = gmk_session_board(gmk_room_session(r));
    cr_assert_eq(a->move_count, before.ply);
    gmk_room_free(r);
}

Test(room_text, names) {
    cr_assert(gmk_room_name_valid("Ann", NULL, 0));
    cr_assert(gmk_room_name_valid("王小明", NULL, 0));
    cr_assert(gmk_room_name_valid("abcdefghijklmnopqrstuvwx", NULL, 0)); /* 24 */
    cr_assert(!gmk_room_name_valid("abcdefghijklmnopqrstuvwxy", NULL, 0));
    cr_assert(!gmk_room_name_valid("", NULL, 0));
    cr_assert(!gmk_room_name_valid("   ", NULL, 0));
    cr_assert(!gmk_room_name_valid("a\nb", NULL, 0));
    /* no visible character: zero-width space, Hangul filler, Braille blank, and mixed */
    cr_assert(!gmk_room_name_valid("\xe2\x80\x8b", NULL, 0));
    cr_assert(!gmk_room_name_valid("\xe3\x85\xa4", NULL, 0));
    cr_assert(!gmk_room_name_valid("\xe2\xa0\x80", NULL, 0));
    cr_assert(!gmk_room_name_valid(" \xe2\x80\x8b\xef\xbe\xa0\xe3\x80\x80", NULL, 0));
    cr_assert(!gmk_room_name_valid("\xef\xb8\x8f\xf3\xa0\x80\x81", NULL, 0)); /* VS16, a tag */
    cr_assert(gmk_room_name_valid("A\xe2\x80\x8b", NULL, 0), "one visible character is enough");
    cr_assert(!gmk_room_name_valid("a\x7f", NULL, 0));
    cr_assert(!gmk_room_name_valid("a\xc2\x85", NULL, 0)); /* C1 control */
    cr_assert(!gmk_room_name_valid("\xe2\x80\xae"
                                   "abc",
                                   NULL, 0));                     /* right-to-left override */
    cr_assert(!gmk_room_name_valid("\xc0\xaf", NULL, 0));         /* overlong '/' */
    cr_assert(!gmk_room_name_valid("\xed\xa0\x80", NULL, 0));     /* a surrogate */
    cr_assert(!gmk_room_name_valid("\xf4\x90\x80\x80", NULL, 0)); /* past U+10FFFF */
    cr_assert(!gmk_room_name_valid("ab\xe4\xb8", NULL, 0));       /* cut short */
    cr_assert(!gmk_room_name_valid("<script>alert(1)</script>xx", NULL, 0)); /* 27 chars */
    /* 21 four-byte characters: few enough characters, too many bytes */
    char big[128] = "";
    for (int i = 0; i < 21; i++) strcat(big, "\xf0\x9f\x98\x80");
    cr_assert(!gmk_room_name_valid(big, NULL, 0));
}

Test(room_text, codes) {
    char a[GMK_ROOM_CODE_LEN + 1], b[GMK_ROOM_CODE_LEN + 1], n[GMK_ROOM_CODE_LEN + 1];
    uint8_t r1[8] = {0}, r2[8] = {0, 0, 0, 0, 0, 0, 0, 1};
    gmk_room_code_make(r1, a);
    gmk_room_code_make(r2, b);
    cr_assert_eq(strlen(a), GMK_ROOM_CODE_LEN);
    cr_assert_str_neq(a, b);
    for (int i = 0; i < GMK_ROOM_CODE_LEN; i++) cr_assert_null(strchr("01IO", b[i]));
    cr_assert(gmk_room_code_normalize(b, n));
    cr_assert_str_eq(n, b);
    cr_assert(!gmk_room_code_normalize("ABCDEFGHJKL0", n)); /* 0 is not in the alphabet */
    cr_assert(!gmk_room_code_normalize("ABCDEFGHJKLMN", n));
    cr_assert(!gmk_room_code_normalize("ABC", n));
    cr_assert(gmk_room_code_normalize("abcd efgh-jklm", n));
    cr_assert_str_eq(n, "ABCDEFGHJKLM");
}

Test(room_text, clocks) {
    int m, s;
    for (int i = 0; gmk_room_clock_presets[i]; i++)
        cr_assert(gmk_room_clock_parse(gmk_room_clock_presets[i], &m, &s));
    cr_assert(gmk_room_clock_parse("10+5", &m, &s));
    cr_assert(m == 10 && s == 5);
    cr_assert(gmk_room_clock_parse("none", &m, &s));
    cr_assert(m == 0 && s == 0);
    cr_assert(!gmk_room_clock_parse("0+5", &m, &s));
    cr_assert(!gmk_room_clock_parse("181+0", &m, &s));
    cr_assert(!gmk_room_clock_parse("5+61", &m, &s));
    cr_assert(!gmk_room_clock_parse("5+", &m, &s));
    cr_assert(!gmk_room_clock_parse("99999999999+1", &m, &s));
    cr_assert(!gmk_room_clock_parse("5+3x", &m, &s));
}
