/* test_room_chat.c: the chat of a room (game/room.h, room_chat.c) against a real SQLite file in
 * a temporary folder: how a line is cleaned (controls, bidirectional controls, length in
 * characters and bytes, UTF-8), who is sent the players' and the spectators' lines and a muted
 * player's, the mute kept across a reload, lines stored with the room's log (the text read back
 * from the file) and the recent lines a viewer is given after a reload, when most of them are
 * older than the log kept in memory; a room saved by schema version 6 opens under version 7. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/room.h"

static char tmp[256], dbpath[300];
static char err[512];
static gmk_store *store;

static const char ANN[] = "creator-token-0123456789abcdef";
static const char BOB[] = "friend-token-0123456789abcdef";
static const char EVE[] = "stranger-token-0123456789abcdef";
#define TOK(t) (t), (sizeof(t) - 1)

static const int64_t T0 = 1800000000000LL; /* Unix ms */
static const char CODE[] = "ABCDEFGHJKLM";

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void setup(void) {
    snprintf(tmp, sizeof tmp, "/tmp/gmk-chat-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
    snprintf(dbpath, sizeof dbpath, "%s/rooms.db", tmp);
    cr_assert_eq(gmk_store_open(dbpath, GMK_STORE_OPEN_DEFAULT, &store, err, sizeof err),
                 GMK_STORE_OK, "open: %s", err);
}

static void teardown(void) {
    gmk_store_close(store);
    nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(room_chat, .init = setup, .fini = teardown);

static gmk_room *two_players(void) {
    gmk_room_config cfg = {.rule = GMK_RULE_FREESTYLE, .size = 15, .black = GMK_ROOM_BLACK_ME};
    gmk_room *r = NULL;
    cr_assert_eq(gmk_room_create(store, &cfg, CODE, TOK(ANN), "Ann", T0, &r, err, sizeof err),
                 GMK_ROOM_OK, "%s", err);
    cr_assert_eq(gmk_room_join(r, TOK(BOB), "Bob", T0 + 1, NULL), GMK_ROOM_OK);
    return r;
}

/* The last event of the room. */
static gmk_room_event last(gmk_room *r) {
    gmk_room_event e;
    int n = 0;
    cr_assert_eq(gmk_room_events_since(r, gmk_room_last_seq(r) - 1, &e, 1, &n), GMK_ROOM_OK);
    cr_assert_eq(n, 1);
    return e;
}

static void clean_is(const char *in, const char *want) {
    char out[GMK_ROOM_CHAT_MAX];
    bool ok = gmk_room_chat_clean(in, out, err, sizeof err);
    if (!want) {
        cr_expect(!ok, "accepted \"%s\" as \"%s\"", in, out);
        cr_expect_neq(err[0], '\0', "no reason for refusing \"%s\"", in);
    } else {
        cr_expect(ok, "refused \"%s\": %s", in, err);
        cr_expect_str_eq(out, want);
    }
}

Test(room_chat, lines_are_cleaned) {
    clean_is("hello", "hello");
    clean_is("  hi there  ", "hi there");
    clean_is("<b>&amp;</b>", "<b>&amp;</b>"); /* text: the page shows it so */
    clean_is("a\nb\tc\rd", "a b c d");        /* controls: spaces */
    clean_is("a\xc2\x85"
             "b",
             "a b"); /* NEL (C1) */
    clean_is("a\xe2\x80\xa8"
             "b",
             "a b"); /* U+2028 */
    clean_is("abc\xe2\x80\xae"
             "fdp.exe",
             "abcfdp.exe");                                   /* U+202E: removed */
    clean_is("\xe2\x81\xa6x\xe2\x81\xa9y\xe2\x80\x8f", "xy"); /* U+2066, U+2069, U+200F */
    clean_is("\xd8\x9c"
             "a\xef\xbb\xbf",
             "a"); /* U+061C, U+FEFF */
    clean_is("", NULL);
    clean_is("   ", NULL);
    clean_is("\xe2\x80\xae\xe2\x81\xa6", NULL); /* only bidi controls */
    clean_is("\xe2\x80\x8b\xe3\x85\xa4", NULL); /* zero width, Hangul filler */
    clean_is("\xc3\x28", NULL);                 /* not UTF-8 */
    clean_is("\xed\xa0\x80", NULL);             /* a surrogate */
    clean_is("\xc0\xaf", NULL);                 /* overlong */
    char buf[1024];
    memset(buf, 'x', 140);
    buf[140] = '\0';
    clean_is(buf, buf);
    buf[140] = 'x';
    buf[141] = '\0';
    clean_is(buf, NULL);
    buf[0] = '\0'; /* 140 CJK characters: 420 bytes, the most */
    for (int i = 0; i < 140; i++) strcat(buf, "\xe4\xba\x94");
    char want[1024];
    snprintf(want, sizeof want, "%s", buf);
    clean_is(buf, want);
    strcat(buf, "\xe4\xba\x94");
    clean_is(buf, NULL);
    buf[0] = '\0'; /* 106 emoji: 424 bytes, past the bytes though under 140 characters */
    for (int i = 0; i < 106; i++) strcat(buf, "\xf0\x9f\x98\x80");
    clean_is(buf, NULL);
    clean_is(NULL, NULL);
}

Test(room_chat, players_spectators_and_mutes) {
    gmk_room *r = two_players();
    cr_assert_eq(gmk_room_chat(r, TOK(ANN), "good luck", T0 + 10), GMK_ROOM_OK);
    gmk_room_event e = last(r);
    cr_expect_eq(e.kind, GMK_ROOM_EV_CHAT);
    cr_expect_eq(e.seat, 0);
    cr_expect_eq(e.audience, GMK_ROOM_TO_PLAYERS);
    cr_expect_str_eq(e.name, "Ann");
    cr_expect_str_eq(e.text, "good luck");
    cr_expect(gmk_room_event_visible(&e, 0) && gmk_room_event_visible(&e, 1));
    cr_expect(!gmk_room_event_visible(&e, -1));

    int64_t seq = gmk_room_last_seq(r);
    cr_expect_eq(gmk_room_chat(r, TOK(EVE), "hi", T0 + 11), GMK_ROOM_NO_SEAT);
    cr_expect_eq(gmk_room_chat(r, TOK(ANN), "\n", T0 + 11), GMK_ROOM_BAD_REQUEST);
    cr_expect_eq(gmk_room_spectator_chat(r, "\xe2\x80\xae", "hi", T0 + 11), GMK_ROOM_BAD_REQUEST);
    cr_expect_eq(gmk_room_last_seq(r), seq, "a refused line logs nothing");

    cr_assert_eq(gmk_room_spectator_chat(r, "Eve", "black wins", T0 + 12), GMK_ROOM_OK);
    e = last(r);
    cr_expect_eq(e.seat, -1);
    cr_expect_eq(e.audience, GMK_ROOM_TO_SPECTATORS);
    cr_expect(gmk_room_event_visible(&e, -1));
    cr_expect(!gmk_room_event_visible(&e, 0) && !gmk_room_event_visible(&e, 1));

    cr_assert_eq(gmk_room_mute(r, TOK(BOB), true, T0 + 13), GMK_ROOM_OK);
    e = last(r);
    cr_expect_eq(e.kind, GMK_ROOM_EV_MUTE);
    cr_expect_eq(e.audience, GMK_ROOM_TO_SEAT1);
    cr_expect_eq(gmk_room_mute(r, TOK(BOB), true, T0 + 14), GMK_ROOM_NOT_NOW);
    cr_expect_eq(gmk_room_mute(r, TOK(EVE), true, T0 + 14), GMK_ROOM_NO_SEAT);
    cr_assert_eq(gmk_room_chat(r, TOK(ANN), "rude", T0 + 15), GMK_ROOM_OK);
    e = last(r);
    cr_expect_eq(e.audience, GMK_ROOM_TO_SEAT0, "a muted line goes back to its sender only");
    cr_expect(gmk_room_event_visible(&e, 0) && !gmk_room_event_visible(&e, 1));
    cr_assert_eq(gmk_room_chat(r, TOK(BOB), "fine", T0 + 16), GMK_ROOM_OK);
    cr_expect_eq(last(r).audience, GMK_ROOM_TO_PLAYERS, "Bob muted Ann, not himself");

    /* the mute is kept with the room */
    gmk_room_state s;
    gmk_room_get_state(r, T0 + 17, &s);
    cr_expect(s.seat[1].muted && !s.seat[0].muted);
    gmk_room_free(r);
    cr_assert_eq(gmk_room_load(store, CODE, T0 + 18, &r, err, sizeof err), GMK_ROOM_OK, "%s", err);
    gmk_room_get_state(r, T0 + 18, &s);
    cr_expect(s.seat[1].muted && !s.seat[0].muted);
    cr_assert_eq(gmk_room_chat(r, TOK(ANN), "still", T0 + 19), GMK_ROOM_OK);
    cr_expect_eq(last(r).audience, GMK_ROOM_TO_SEAT0);
    cr_assert_eq(gmk_room_mute(r, TOK(BOB), false, T0 + 20), GMK_ROOM_OK);
    cr_assert_eq(gmk_room_chat(r, TOK(ANN), "sorry", T0 + 21), GMK_ROOM_OK);
    cr_expect_eq(last(r).audience, GMK_ROOM_TO_PLAYERS);
    gmk_room_free(r);
}

Test(room_chat, lines_are_stored_and_recent_ones_read_back) {
    gmk_room *r = two_players();
    /* more events than the log keeps in memory, so that the older lines come from the file */
    for (int i = 0; i < 400; i++) {
        char line[32];
        snprintf(line, sizeof line, "line %d", i);
        const char *tok = i % 4 ? BOB : ANN;
        if (i % 2)
            cr_assert_eq(gmk_room_spectator_chat(r, "Eve", line, T0 + 100 + i), GMK_ROOM_OK);
        else
            cr_assert_eq(gmk_room_chat(r, tok, strlen(tok), line, T0 + 100 + i), GMK_ROOM_OK);
    }
    gmk_room_free(r);
    cr_assert_eq(gmk_room_load(store, CODE, T0 + 1000, &r, err, sizeof err), GMK_ROOM_OK);
    static gmk_room_event out[GMK_ROOM_CHAT_RECENT];
    int n = 0;
    cr_assert_eq(gmk_room_chat_recent(r, 0, out, GMK_ROOM_CHAT_RECENT, &n), GMK_ROOM_OK);
    cr_assert_eq(n, GMK_ROOM_CHAT_RECENT);
    for (int k = 0; k < n; k++) { /* the players' lines 300, 302... 398, oldest first */
        char want[32];
        snprintf(want, sizeof want, "line %d", 400 - 2 * (n - k));
        cr_expect_str_eq(out[k].text, want);
        cr_expect_eq(out[k].audience, GMK_ROOM_TO_PLAYERS);
    }
    cr_assert_eq(gmk_room_chat_recent(r, -1, out, 3, &n), GMK_ROOM_OK);
    cr_assert_eq(n, 3);
    cr_expect_str_eq(out[0].text, "line 395");
    cr_expect_str_eq(out[2].text, "line 399");
    cr_expect_eq(out[2].seat, -1);
    cr_expect_str_eq(out[2].name, "Eve");
    /* the same as the stored log, line for line */
    static gmk_room_event ev[512];
    int total = 0;
    cr_assert_eq(gmk_store_room_events(store, 1, 0, ev, 512, &total, err, sizeof err), GMK_STORE_OK,
                 "%s", err);
    int lines = 0;
    for (int i = 0; i < total; i++)
        if (ev[i].kind == GMK_ROOM_EV_CHAT) lines++;
    cr_expect_eq(lines, 400);
    gmk_room_free(r);
}

Test(room_chat, a_room_of_schema_6_opens_and_chats) {
    gmk_room *r = two_players();
    cr_assert_eq(gmk_room_play(r, TOK(ANN), 7, 7, -1, T0 + 5, NULL), GMK_ROOM_OK);
    gmk_room_free(r);
    gmk_store_close(store);
    /* the file as version 6 left it: without the chat columns (nor the later lobby) */
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db,
                          "ALTER TABLE room_events DROP COLUMN audience;"
                          "ALTER TABLE room_events DROP COLUMN text;"
                          "ALTER TABLE rooms DROP COLUMN muted;"
                          "DROP TABLE lobby_seeks;"
                          "ALTER TABLE rooms DROP COLUMN opening;"
                          "ALTER TABLE rooms DROP COLUMN swap_phase;"
                          "ALTER TABLE rooms DROP COLUMN swap_first;"
                          "ALTER TABLE rooms DROP COLUMN swap_settled;"
                          "DROP TABLE lobby_chat;"
                          "PRAGMA user_version = 6;",
                          NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s", msg ? msg : "");
    sqlite3_close(db);
    cr_assert_eq(gmk_store_open(dbpath, GMK_STORE_OPEN_DEFAULT, &store, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_schema_version(store), GMK_STORE_SCHEMA_VERSION);
    cr_assert_eq(gmk_room_load(store, CODE, T0 + 10, &r, err, sizeof err), GMK_ROOM_OK, "%s", err);
    gmk_room_state s;
    gmk_room_get_state(r, T0 + 10, &s);
    cr_expect_eq(s.ply, 1);
    cr_expect(!s.seat[0].muted && !s.seat[1].muted);
    gmk_room_event ev[8];
    int n = 0;
    cr_assert_eq(gmk_room_events_since(r, 0, ev, 8, &n), GMK_ROOM_OK);
    cr_expect_eq(n, 4, "created, joined, started, moved");
    for (int i = 0; i < n; i++) cr_expect_eq(ev[i].audience, GMK_ROOM_TO_ALL);
    cr_assert_eq(gmk_room_chat(r, TOK(BOB), "hello", T0 + 11), GMK_ROOM_OK);
    gmk_room_free(r);
}
