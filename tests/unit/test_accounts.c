/* test_accounts.c: accounts (game/account.h, store/accounts.h) against a real SQLite file, and
 * against a real PostgreSQL server when GMK_TEST_PG names one (tests/run.sh runs this suite a
 * second time with its private server, each test in a fresh schema): user names and their
 * keys (case, Unicode normalisation, control and bidi characters), password hashes at the
 * shipped cost, accounts unique by key, sessions (expiry, another account's session never
 * ended), a guest's games claimed, the games and scoreboard of an account, and deleting an
 * account (its games stay under the neutral name). */
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>
#include <sqlite3.h>

#include "game/account.h"
#include "game/rating.h"
#include "game/room.h"
#include "store/accounts.h"
#include "store/ratings.h"
#include "store/schema.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "web/web_internal.h"

static char tmp[256];
static char err[512];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void make_tmp(void) {
    snprintf(tmp, sizeof tmp, "/tmp/gmk-acc-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
}

static void remove_tmp(void) {
    nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(accounts, .init = make_tmp, .fini = remove_tmp);

/* A fresh database: a file under tmp, or a fresh schema of the PostgreSQL server. */
static gmk_store *open_db(const char *name) {
    char path[600];
    const char *pg = getenv("GMK_TEST_PG");
    if (pg && *pg) {
        char schema[128];
        snprintf(schema, sizeof schema, "acc_%s_%s", strrchr(tmp, '-') + 1, name);
        for (char *c = schema; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
            else if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
                *c = '_';
        char cmd[900];
        snprintf(cmd, sizeof cmd,
                 "psql -X -q -v ON_ERROR_STOP=1 -d \"$GMK_TEST_PG\" -c 'CREATE SCHEMA %s' "
                 ">/dev/null 2>&1",
                 schema);
        int rc = system(cmd);
        cr_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "cannot create schema %s", schema);
        snprintf(path, sizeof path, "%s options='-c search_path=%s'", pg, schema);
    } else {
        snprintf(path, sizeof path, "%s/%s.db", tmp, name);
    }
    gmk_store *s = NULL;
    gmk_store_status st = gmk_store_open(path, GMK_STORE_OPEN_DEFAULT, &s, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_OK, "open: %s", err);
    return s;
}

static int64_t new_account(gmk_store *s, const char *name) {
    char key[GMK_ACCOUNT_KEY_MAX];
    cr_assert(gmk_account_name_key(name, key, err, sizeof err), "%s: %s", name, err);
    int64_t id = 0;
    gmk_store_status st =
        gmk_store_account_create(s, name, key, "$argon2id$fake", 1700000000, &id, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_OK, "create %s: %s", name, err);
    cr_assert_gt(id, 0);
    return id;
}

static int64_t finished_game(gmk_store *s, gmk_store_mode mode, const char *black,
                             const char *white, gmk_outcome outcome) {
    gmk_store_new_game g = {.mode = mode,
                            .rule = GMK_RULE_FREESTYLE,
                            .size = 15,
                            .level = mode == GMK_STORE_MODE_HVC ? 3 : 0,
                            .black = black,
                            .white = white,
                            .human = GMK_BLACK,
                            .started_s = 1700000000};
    int64_t id = 0;
    cr_assert_eq(gmk_store_game_begin(s, &g, &id, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_game_add_move(s, id, 0, 7, 7, 0, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(
        gmk_store_game_finish(s, id, outcome, GMK_REASON_RESIGN, 1700000100, err, sizeof err),
        GMK_STORE_OK, "%s", err);
    return id;
}

Test(accounts, names_and_keys) {
    char a[GMK_ACCOUNT_KEY_MAX], b[GMK_ACCOUNT_KEY_MAX];
    cr_assert(gmk_account_name_key("Ann", a, err, sizeof err));
    cr_assert(gmk_account_name_key("aNN", b, err, sizeof err));
    cr_assert_str_eq(a, b);
    /* fullwidth letters are the same name under NFKC */
    cr_assert(gmk_account_name_key("\xEF\xBC\xA1nn", b, err, sizeof err)); /* U+FF21 "Ａnn" */
    cr_assert_str_eq(a, b);
    /* é precomposed and e + combining acute: one name */
    cr_assert(gmk_account_name_key("Ren\xC3\xA9", a, err, sizeof err));
    cr_assert(gmk_account_name_key("RENE\xCC\x81", b, err, sizeof err));
    cr_assert_str_eq(a, b);
    /* German sharp s folds to ss */
    cr_assert(gmk_account_name_key("Stra\xC3\x9F"
                                   "e",
                                   a, err, sizeof err));
    cr_assert(gmk_account_name_key("STRASSE", b, err, sizeof err));
    cr_assert_str_eq(a, b);
    /* refused: bidi override, control, only spaces, too long, spaces at the ends, reserved */
    cr_assert_not(gmk_account_name_key("ab\xE2\x80\xAE"
                                       "cd",
                                       a, err, sizeof err));
    cr_assert(strstr(err, "control") != NULL, "%s", err);
    cr_assert_not(gmk_account_name_key("a\nb", a, err, sizeof err));
    cr_assert_not(gmk_account_name_key("   ", a, err, sizeof err));
    cr_assert_not(gmk_account_name_key("abcdefghijklmnopqrstuvwxy", a, err, sizeof err));
    cr_assert_not(gmk_account_name_key(" Ann", a, err, sizeof err));
    cr_assert_not(gmk_account_name_key("Deleted Player", a, err, sizeof err));
    cr_assert_not(gmk_account_name_key("\xFF\xFE", a, err, sizeof err));
    /* HTML is only text: allowed, kept as given */
    cr_assert(gmk_account_name_key("<b>x</b>", a, err, sizeof err));
}

Test(accounts, passwords_at_the_shipped_cost) {
    cr_assert_not(gmk_account_password_valid("short", err, sizeof err));
    cr_assert(gmk_account_password_valid("long enough", err, sizeof err));
    char big[GMK_ACCOUNT_PASSWORD_MAX + 2];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    cr_assert_not(gmk_account_password_valid(big, err, sizeof err));
    char h1[GMK_ACCOUNT_PWHASH_MAX], h2[GMK_ACCOUNT_PWHASH_MAX];
    gmk_pwhash_cost c = gmk_account_pwhash_default();
    cr_assert(gmk_account_password_hash("correct horse", c, h1));
    cr_assert(gmk_account_password_hash("correct horse", c, h2));
    cr_assert(strncmp(h1, "$argon2id$", 10) == 0, "%s", h1);
    cr_assert(strstr(h1, "m=19456,t=2,p=1") != NULL, "the shipped cost: %s", h1);
    cr_assert_str_neq(h1, h2, "a random salt each time");
    cr_assert(strstr(h1, "correct") == NULL);
    cr_assert(gmk_account_password_verify(h1, "correct horse"));
    cr_assert_not(gmk_account_password_verify(h1, "correct horsE"));
    cr_assert_not(gmk_account_password_verify("garbage", "correct horse"));
}

Test(accounts, unique_by_key) {
    gmk_store *s = open_db("unique");
    int64_t ann = new_account(s, "Ann");
    char key[GMK_ACCOUNT_KEY_MAX];
    const char *twins[] = {"ANN", "\xEF\xBD\x81nn" /* ａnn */, "aNn"};
    for (size_t i = 0; i < 3; i++) {
        cr_assert(gmk_account_name_key(twins[i], key, err, sizeof err));
        int64_t id = 0;
        gmk_store_status st =
            gmk_store_account_create(s, twins[i], key, "h", 1700000000, &id, err, sizeof err);
        cr_assert_eq(st, GMK_STORE_INVALID, "%s was taken as a new name", twins[i]);
        cr_assert(strstr(err, "taken") != NULL, "%s", err);
    }
    gmk_store_account a;
    char hash[GMK_STORE_PWHASH_MAX];
    cr_assert(gmk_account_name_key("ANN", key, err, sizeof err));
    cr_assert_eq(gmk_store_account_find(s, key, &a, hash, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(a.id, ann);
    cr_assert_str_eq(a.name, "Ann");
    cr_assert_str_eq(hash, "$argon2id$fake");
    cr_assert_eq(gmk_store_account_find(s, "nobody", &a, NULL, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    gmk_store_close(s);
}

Test(accounts, sessions) {
    gmk_store *s = open_db("sessions");
    int64_t ann = new_account(s, "Ann"), bob = new_account(s, "Bob");
    uint8_t h1[32] = {1}, h2[32] = {2}, h3[32] = {3}, h4[32] = {4};
    int64_t s1, s2, s3, s4;
    const int64_t now = 1800000000;
    cr_assert_eq(
        gmk_store_session_create(s, ann, h1, now, now + 100, "Firefox", &s1, err, sizeof err),
        GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_session_create(s, ann, h2, now, now + 100, NULL, &s2, err, sizeof err),
                 GMK_STORE_OK);
    cr_assert_eq(gmk_store_session_create(s, bob, h3, now, now + 100, NULL, &s3, err, sizeof err),
                 GMK_STORE_OK);
    gmk_store_account a;
    gmk_store_session se;
    cr_assert_eq(gmk_store_session_find(s, h1, now + 99, &a, &se, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(a.id, ann);
    cr_assert_eq(se.id, s1);
    cr_assert_str_eq(se.agent, "Firefox");
    /* past its end it is not found, and the next session created deletes it */
    cr_assert_eq(gmk_store_session_find(s, h1, now + 100, &a, &se, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_session_touch(s, s1, now + 50, now + 1000, err, sizeof err),
                 GMK_STORE_OK);
    cr_assert_eq(gmk_store_session_find(s, h1, now + 500, &a, &se, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(se.seen_s, now + 50);
    gmk_store_session list[8];
    int n = 0;
    cr_assert_eq(gmk_store_session_list(s, ann, now, list, 8, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 2);
    /* Ann cannot end Bob's session by its id */
    cr_assert_eq(gmk_store_session_end(s, ann, s3, 0, NULL, err, sizeof err), GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_session_find(s, h3, now, &a, &se, err, sizeof err), GMK_STORE_OK);
    /* everywhere but here */
    cr_assert_eq(gmk_store_session_create(s, ann, h4, now, now + 100, NULL, &s4, err, sizeof err),
                 GMK_STORE_OK);
    int ended = 0;
    cr_assert_eq(gmk_store_session_end(s, ann, 0, s4, &ended, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(ended, 2);
    cr_assert_eq(gmk_store_session_find(s, h1, now, &a, &se, err, sizeof err), GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_session_find(s, h2, now, &a, &se, err, sizeof err), GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_session_find(s, h4, now, &a, &se, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_session_find(s, h3, now, &a, &se, err, sizeof err), GMK_STORE_OK);
    /* a new password ends every other session */
    cr_assert_eq(gmk_store_account_set_password(s, bob, "new", 0, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_session_find(s, h3, now, &a, &se, err, sizeof err), GMK_STORE_NOT_FOUND);
    gmk_store_close(s);
}

Test(accounts, games_follow_the_account_and_deleting_keeps_them) {
    gmk_store *s = open_db("games");
    int64_t ann = new_account(s, "Ann"), bob = new_account(s, "Bob");
    /* a guest's browser played two games against the computer, then Ann signs up in it */
    uint8_t owner[GMK_STORE_OWNER_HASH] = {7};
    int64_t g1 = finished_game(s, GMK_STORE_MODE_HVC, "Ann", "computer", GMK_BLACK_WINS);
    int64_t g2 = finished_game(s, GMK_STORE_MODE_HVC, "Ann", "computer", GMK_WHITE_WINS);
    int64_t other = finished_game(s, GMK_STORE_MODE_HVC, "x", "computer", GMK_BLACK_WINS);
    cr_assert_eq(gmk_store_owner_set(s, g1, owner, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_owner_set(s, g2, owner, err, sizeof err), GMK_STORE_OK);
    int claimed = 0;
    cr_assert_eq(gmk_store_account_claim(s, ann, owner, &claimed, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(claimed, 2);
    cr_assert_eq(gmk_store_account_claim(s, ann, owner, &claimed, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(claimed, 0, "claiming again adds nothing");
    /* an online game, Ann black against Bob white, Bob wins */
    int64_t g3 = finished_game(s, GMK_STORE_MODE_ONLINE, "Ann", "Bob", GMK_WHITE_WINS);
    cr_assert_eq(gmk_store_account_link_game(s, ann, g3, GMK_BLACK, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_account_link_game(s, bob, g3, GMK_WHITE, err, sizeof err), GMK_STORE_OK);
    gmk_store_game games[8];
    int n = 0;
    gmk_store_whose who = {.account = ann};
    cr_assert_eq(gmk_store_game_list_of(s, &who, games, 8, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 3);
    cr_assert_eq(games[0].id, g3);
    for (int i = 0; i < n; i++) cr_assert_neq(games[i].id, other);
    gmk_store_score sc[8];
    cr_assert_eq(gmk_store_scoreboard_of(s, &who, sc, 8, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 2);
    cr_assert_eq(sc[0].mode, GMK_STORE_MODE_HVC);
    cr_assert_eq(sc[0].games, 2);
    cr_assert_eq(sc[0].wins, 1);
    cr_assert_eq(sc[0].losses, 1);
    cr_assert_eq(sc[1].mode, GMK_STORE_MODE_ONLINE);
    cr_assert_eq(sc[1].losses, 1);
    cr_assert_eq(sc[1].wins, 0);
    who.account = bob;
    cr_assert_eq(gmk_store_scoreboard_of(s, &who, sc, 8, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 1);
    cr_assert_eq(sc[0].wins, 1);
    /* the guest's view: the browser's games */
    gmk_store_whose guest = {.owner = owner};
    cr_assert_eq(gmk_store_game_list_of(s, &guest, games, 8, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 2);
    /* Ann deletes her account: her games stay, her online name becomes neutral */
    cr_assert_eq(gmk_store_account_delete(s, ann, GMK_ACCOUNT_NEUTRAL_NAME, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    gmk_store_record *rec = malloc(sizeof *rec);
    cr_assert_eq(gmk_store_game_load(s, g3, rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_str_eq(rec->game.black, GMK_ACCOUNT_NEUTRAL_NAME);
    cr_assert_str_eq(rec->game.white, "Bob");
    cr_assert_eq(gmk_store_game_load(s, g1, rec, err, sizeof err), GMK_STORE_OK);
    free(rec);
    gmk_store_account a;
    cr_assert_eq(gmk_store_account_get(s, ann, &a, NULL, err, sizeof err), GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_account_delete(s, ann, "x", err, sizeof err), GMK_STORE_NOT_FOUND);
    who.account = bob;
    cr_assert_eq(gmk_store_game_list_of(s, &who, games, 8, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 1, "Bob keeps his game");
    /* the name is free again */
    new_account(s, "ann");
    gmk_store_close(s);
}

/* The sign-up and log-in limit's back-off (web/limits.c): shut out for 1, 2, 4 ... minutes
 * each time the client comes back over the limit, never reset by another client, forgotten
 * after an hour without a strike. Times are given, so nothing sleeps. */
Test(accounts, limit_backoff_doubles) {
    cr_assert(sodium_init() >= 0);
    web_limits *l = limits_new(3, 0);
    cr_assert_not_null(l);
    web_client a, b;
    cr_assert(web_client_parse("203.0.113.5", &a));
    cr_assert(web_client_parse("203.0.113.6", &b));
    int64_t t = 1000000, retry = 0;
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < 3; i++)
            cr_assert_eq(limits_take_backoff(l, &a, t, &retry), LIMIT_OK, "round %d try %d", round,
                         i);
        cr_assert_eq(limits_take_backoff(l, &a, t, &retry), LIMIT_OVER);
        int64_t want = 60000LL << round;
        cr_assert_eq(retry, want, "round %d: shut out %lld ms", round, (long long)retry);
        cr_assert_eq(limits_take_backoff(l, &a, t + want - 1, &retry), LIMIT_OVER);
        cr_assert_eq(retry, 1);
        cr_assert_eq(limits_take_backoff(l, &b, t + 1, &retry), LIMIT_OK, "another client");
        t += want;
    }
    /* an hour without a strike: back to a minute */
    t += 3600 * 1000;
    for (int i = 0; i < 3; i++) cr_assert_eq(limits_take_backoff(l, &a, t, &retry), LIMIT_OK);
    cr_assert_eq(limits_take_backoff(l, &a, t, &retry), LIMIT_OVER);
    cr_assert_eq(retry, 60000);
    limits_free(l);
}

/* A version 5 file (made with the SQL of steps 0..4) opens at version 6 and on (the rooms' chat
 * of step 7 too): its rooms' seats are
 * guests' (account 0), its rooms casual, and the new tables are there and empty. */
Test(accounts, migrates_v5_to_v6) {
    if (getenv("GMK_TEST_PG") && *getenv("GMK_TEST_PG")) cr_skip_test("a test of SQLite files");
    char path[600];
    snprintf(path, sizeof path, "%s/v5.db", tmp);
    sqlite3 *db = NULL;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    for (int v = 0; v < 5; v++)
        cr_assert_eq(sqlite3_exec(db, store_migrations[v], NULL, NULL, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db,
                              "INSERT INTO rooms (code, rule, size, created_ms, touched_ms) "
                              "VALUES ('ABC', 0, 15, 1, 1);"
                              "INSERT INTO room_seats VALUES (1, 0, x'00', 'Ann', 1);"
                              "PRAGMA user_version = 5;",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    gmk_store *s = NULL;
    cr_assert_eq(gmk_store_open(path, GMK_STORE_OPEN_DEFAULT, &s, err, sizeof err), GMK_STORE_OK,
                 "%s", err);
    cr_assert_eq(gmk_store_schema_version(s), GMK_STORE_SCHEMA_VERSION);
    gmk_store_close(s);
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *q = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db,
                                    "SELECT (SELECT account_id FROM room_seats), (SELECT rated "
                                    "FROM rooms), (SELECT count(*) FROM accounts)",
                                    -1, &q, NULL),
                 SQLITE_OK);
    cr_assert_eq(sqlite3_step(q), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int(q, 0), 0);
    cr_assert_eq(sqlite3_column_int(q, 1), 0);
    cr_assert_eq(sqlite3_column_int(q, 2), 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
}

/* A rated room (game/room.c with game/rating.c): the call that ends the game commits the result,
 * the room's events and both ratings together; when the ratings cannot be written, none of it
 * is (the last move answers GMK_ROOM_STORE and the stored game is still on). */
static gmk_room *rated_room(gmk_store *s, const char *code, int minutes, int64_t a, int64_t b,
                            const uint8_t *ta, const uint8_t *tb, int64_t now) {
    gmk_room_config cfg = {.rule = GMK_RULE_FREESTYLE,
                           .size = 15,
                           .black = GMK_ROOM_BLACK_ME,
                           .clock_minutes = minutes,
                           .increment_s = 0,
                           .rated = true,
                           .account = a};
    gmk_room *r = NULL;
    cr_assert_eq(gmk_room_create(s, &cfg, code, ta, 16, "A", now, &r, err, sizeof err), GMK_ROOM_OK,
                 "%s", err);
    cr_assert_eq(gmk_room_join(r, tb, 16, "B", now, NULL), GMK_ROOM_BAD_REQUEST, "a guest");
    uint8_t other[16];
    memset(other, 0xC3, sizeof other);
    cr_assert_eq(gmk_room_join_as(r, other, 16, "A2", a, now, NULL), GMK_ROOM_BAD_REQUEST,
                 "the creator's own account");
    cr_assert_eq(gmk_room_join_as(r, tb, 16, "B", b, now, NULL), GMK_ROOM_OK);
    return r;
}

/* Black (a) plays h8..l8 on row 7, white (b) row 0; returns the last call's status. */
static gmk_room_status play_five(gmk_room *r, const uint8_t *ta, const uint8_t *tb, int64_t now) {
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(gmk_room_play(r, ta, 16, 7 + i, 7, -1, now, NULL), GMK_ROOM_OK);
        cr_assert_eq(gmk_room_play(r, tb, 16, i, 0, -1, now, NULL), GMK_ROOM_OK);
    }
    return gmk_room_play(r, ta, 16, 11, 7, -1, now, NULL);
}

Test(accounts, rated_game_commits_result_and_ratings_together) {
    gmk_store *s = open_db("rated");
    int64_t a = new_account(s, "Ann"), b = new_account(s, "Bob");
    uint8_t ta[17], tb[17];
    memset(ta, 0xA1, sizeof ta);
    memset(tb, 0xB2, sizeof tb);
    const int64_t now = 1800000000000;
    gmk_room *r = rated_room(s, "ABCDEFGHJKLM", 5, a, b, ta, tb, now);
    cr_assert_eq(play_five(r, ta, tb, now), GMK_ROOM_OK);
    gmk_store_rating ra, rb;
    cr_assert_eq(gmk_store_rating_get(s, a, GMK_RULE_FREESTYLE, GMK_TC_BLITZ, &ra, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_rating_get(s, b, GMK_RULE_FREESTYLE, GMK_TC_BLITZ, &rb, err, sizeof err),
                 GMK_STORE_OK);
    cr_assert_gt(ra.rating, 1500);
    cr_assert_lt(rb.rating, 1500);
    cr_assert_eq(ra.wins, 1);
    cr_assert_eq(rb.losses, 1);
    cr_assert(gmk_rating_provisional(ra.deviation));
    gmk_room_free(r);

    /* the ratings cannot be written: the winning move is not stored either */
    r = rated_room(s, "BCDEFGHJKLMN", 30, a, b, ta, tb, now);
    cr_assert_eq(s->be->exec(s, "DROP TABLE rating_history"), DB_OK);
    cr_assert_eq(play_five(r, ta, tb, now), GMK_ROOM_STORE);
    gmk_room_state rs;
    gmk_room_get_state(r, now, &rs);
    int64_t game = rs.game_id;
    gmk_room_free(r);
    cr_assert_gt(game, 0);
    gmk_store_record *rec = malloc(sizeof *rec);
    cr_assert_eq(gmk_store_game_load(s, game, rec, err, sizeof err), GMK_STORE_OK);
    cr_assert_not(rec->game.finished, "the result was stored without the ratings");
    cr_assert_eq(rec->game.move_count, 8);
    free(rec);
    cr_assert_eq(
        gmk_store_rating_get(s, a, GMK_RULE_FREESTYLE, GMK_TC_CLASSICAL, &ra, err, sizeof err),
        GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_room_load(s, "BCDEFGHJKLMN", now, &r, err, sizeof err), GMK_ROOM_OK);
    gmk_room_get_state(r, now, &rs);
    cr_assert_eq(rs.phase, GMK_ROOM_PLAYING, "the room is as stored: still playing");
    cr_assert(rs.rated);
    cr_assert_eq(rs.seat[1].account, b);
    gmk_room_free(r);
    gmk_store_close(s);
}

Test(accounts, time_control_classes) {
    cr_assert_eq(gmk_rating_tc_of(0, 0), GMK_TC_UNTIMED);
    cr_assert_eq(gmk_rating_tc_of(60000, 0), GMK_TC_BULLET);
    cr_assert_eq(gmk_rating_tc_of(120000, 1000), GMK_TC_BULLET); /* 120 + 40 = 160 s */
    cr_assert_eq(gmk_rating_tc_of(180000, 0), GMK_TC_BLITZ);
    cr_assert_eq(gmk_rating_tc_of(300000, 3000), GMK_TC_BLITZ);       /* 420 s */
    cr_assert_eq(gmk_rating_tc_of(600000, 5000), GMK_TC_RAPID);       /* 800 s */
    cr_assert_eq(gmk_rating_tc_of(1200000, 10000), GMK_TC_CLASSICAL); /* 1600 s */
    cr_assert_eq(gmk_rating_tc_of(1800000, 0), GMK_TC_CLASSICAL);
    gmk_tc tc;
    cr_assert(gmk_rating_tc_parse("rapid", &tc));
    cr_assert_eq(tc, GMK_TC_RAPID);
    cr_assert_not(gmk_rating_tc_parse("Rapid", &tc));
    cr_assert_not(gmk_rating_provisional(GMK_RATING_PROVISIONAL_RD));
    cr_assert(gmk_rating_provisional(GMK_RATING_PROVISIONAL_RD + 0.1));
}

/* A guest's seat claimed by an account: the room's finished game follows it with the colour
 * the seat played; another token, another room or a seat another account holds is refused. */
Test(accounts, claim_a_guests_seat) {
    gmk_store *s = open_db("claimseat");
    int64_t a = new_account(s, "Ann"), b = new_account(s, "Bob");
    uint8_t ta[16], tb[16];
    memset(ta, 0x11, sizeof ta);
    memset(tb, 0x22, sizeof tb);
    const int64_t now = 1800000000000;
    gmk_room_config cfg = {.rule = GMK_RULE_FREESTYLE, .size = 15, .black = GMK_ROOM_BLACK_FRIEND};
    gmk_room *r = NULL;
    cr_assert_eq(
        gmk_room_create(s, &cfg, "CDEFGHJKLMNP", ta, 16, "guest", now, &r, err, sizeof err),
        GMK_ROOM_OK, "%s", err);
    cr_assert_eq(gmk_room_join(r, tb, 16, "friend", now, NULL), GMK_ROOM_OK);
    cr_assert_eq(play_five(r, tb, ta, now), GMK_ROOM_OK); /* the friend is black and wins */
    gmk_room_free(r);
    uint8_t ha[32], hb[32], hx[32] = {0};
    crypto_hash_sha256(ha, ta, 16);
    crypto_hash_sha256(hb, tb, 16);
    int linked = -1;
    cr_assert_eq(gmk_store_account_claim_seat(s, a, "CDEFGHJKLMNP", hx, &linked, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_account_claim_seat(s, a, "ZZZZZZZZZZZZ", ha, &linked, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_account_claim_seat(s, a, "CDEFGHJKLMNP", ha, &linked, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_eq(linked, 1);
    cr_assert_eq(gmk_store_account_claim_seat(s, b, "CDEFGHJKLMNP", ha, &linked, err, sizeof err),
                 GMK_STORE_NOT_FOUND, "Ann holds it now");
    gmk_store_score sc[4];
    int n = 0;
    gmk_store_whose who = {.account = a};
    cr_assert_eq(gmk_store_scoreboard_of(s, &who, sc, 4, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 1);
    cr_assert_eq(sc[0].losses, 1, "seat 0 played white and lost");
    cr_assert_eq(gmk_room_load(s, "CDEFGHJKLMNP", now, &r, err, sizeof err), GMK_ROOM_OK);
    gmk_room_state rs;
    gmk_room_get_state(r, now, &rs);
    cr_assert_eq(rs.seat[0].account, a);
    cr_assert_eq(rs.seat[1].account, 0);
    gmk_room_free(r);
    gmk_store_close(s);
}
