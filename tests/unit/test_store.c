/* test_store.c: the store against real SQLite files in a temporary folder, and against a real
 * PostgreSQL server when GMK_TEST_PG names one (a libpq key=value connection string; tests/run.sh
 * starts a private server with tests/pg/pg.sh and runs this suite a second time with it): create
 * and reopen, moves, undo, results, the scoreboard after reopening, settings, batches and kill -9
 * in the middle of a game on both; the v1 -> v2 migration, damaged, foreign, newer and
 * unwritable files on SQLite; on PostgreSQL a newer or foreign schema, two writers racing for
 * one move, the statement timeout, a lost connection, servers migrating at once, and passwords
 * kept out of every message. Under PostgreSQL each database name is a fresh schema of the
 * server's database (options=-c search_path=...). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "store/reviews.h"
#include "store/rooms.h"
#include "store/store.h"
#include "store/store_internal.h"

static char tmp[256];
static char err[512];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    chmod(path, 0700);
    return remove(path);
}

static void make_tmp(void) {
    snprintf(tmp, sizeof tmp, "/tmp/gmk-store-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
    err[0] = '\0';
}

static void remove_tmp(void) {
    /* chmod on the way down so read-only test folders can be emptied */
    char cmd[300];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx %s", tmp);
    if (system(cmd) != 0) {
    }
    nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(store, .init = make_tmp, .fini = remove_tmp);

/* tmp/name into buf. */
static const char *at(char *buf, const char *name) {
    snprintf(buf, 512, "%s/%s", tmp, name);
    return buf;
}

/* --- the backend under test ------------------------------------------------------------ */

static const char *pg_base(void) {
    const char *v = getenv("GMK_TEST_PG");
    return v && v[0] ? v : NULL;
}

static void sqlite_only(void) {
    if (pg_base()) cr_skip_test("a test of SQLite files");
}

static void pg_only(void) {
    if (!pg_base()) cr_skip_test("GMK_TEST_PG is not set: no PostgreSQL server to test");
}

/* The schema for name in this test: letters and digits of the temporary folder and name. */
static void schema_of(const char *name, char *out, size_t outlen) {
    char raw[300];
    snprintf(raw, sizeof raw, "t_%s_%s", strrchr(tmp, '-') + 1, name);
    size_t o = 0;
    for (const char *c = raw; *c && o + 1 < outlen; c++)
        out[o++] = (*c >= 'A' && *c <= 'Z')                               ? (char)(*c - 'A' + 'a')
                   : (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ? *c
                                                                          : '_';
    out[o] = '\0';
}

/* Runs SQL with psql in the schema of name (created first when create is true). */
static int psql_in(const char *name, bool create, const char *sql_text) {
    char schema[128], file[600], cmd[1600];
    schema_of(name, schema, sizeof schema);
    snprintf(file, sizeof file, "%s/psql-%s.sql", tmp, schema);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    if (create) fprintf(f, "CREATE SCHEMA IF NOT EXISTS %s;\n", schema);
    fprintf(f, "%s\n", sql_text);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "PGOPTIONS='-c search_path=%s' psql -X -q -v ON_ERROR_STOP=1 -d \"$GMK_TEST_PG\" "
             "-f '%s' >'%s.out' 2>&1",
             schema, file, file);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* One value printed by a query in the schema of name, into out. */
static void psql_value(const char *name, const char *query, char *out, size_t outlen) {
    char schema[128], cmd[1600];
    schema_of(name, schema, sizeof schema);
    snprintf(cmd, sizeof cmd,
             "PGOPTIONS='-c search_path=%s' psql -X -A -t -q -d \"$GMK_TEST_PG\" -c \"%s\" 2>&1",
             schema, query);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t n = fread(out, 1, outlen - 1, p);
    out[n] = '\0';
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' ')) out[--n] = '\0';
    pclose(p);
}

/* The database called name in this test: a file under tmp (SQLite), or a connection string to
 * a fresh schema (PostgreSQL). extra is added to the PostgreSQL options (may be ""). */
static const char *db_with(char *buf, const char *name, const char *extra) {
    if (!pg_base()) return at(buf, name);
    char schema[128];
    schema_of(name, schema, sizeof schema);
    cr_assert_eq(psql_in(name, true, "SELECT 1;"), 0, "cannot create schema %s", schema);
    snprintf(buf, 512, "%s options='-c search_path=%s%s'", pg_base(), schema, extra);
    return buf;
}

static const char *db(char *buf, const char *name) {
    return db_with(buf, name, "");
}

static gmk_store *open_ok(const char *path) {
    gmk_store *s = NULL;
    gmk_store_status st = gmk_store_open(path, GMK_STORE_OPEN_DEFAULT, &s, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_OK, "open %s: %s (%s)", path, gmk_store_status_name(st), err);
    cr_assert_not_null(s);
    return s;
}

static int64_t begin(gmk_store *s, gmk_store_mode mode, int level, gmk_color human) {
    gmk_store_new_game g = {.mode = mode,
                            .rule = GMK_RULE_RENJU,
                            .size = 15,
                            .level = level,
                            .black = "Ann",
                            .white = "Bob",
                            .human = human,
                            .started_s = 1700000000};
    int64_t id = 0;
    gmk_store_status st = gmk_store_game_begin(s, &g, &id, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_OK, "begin: %s", err);
    cr_assert_gt(id, 0);
    return id;
}

static void add(gmk_store *s, int64_t id, int ply, int x, int y, int64_t ms) {
    gmk_store_status st = gmk_store_game_add_move(s, id, ply, x, y, ms, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_OK, "move %d: %s", ply, err);
}

static void finish(gmk_store *s, int64_t id, gmk_outcome o, gmk_reason r) {
    gmk_store_status st = gmk_store_game_finish(s, id, o, r, 1700000600, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_OK, "finish: %s", err);
}

/* The whole file, for checking that a refused file is left untouched. */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void sql(const char *path, const char *text) {
    sqlite3 *db = NULL;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db, text, NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s", msg ? msg : "");
    sqlite3_close(db);
}

static bool exists(const char *path) {
    return access(path, F_OK) == 0;
}

/* Opening path must fail with want, leave the file byte for byte as it was and create no
 * journal next to it. */
static void refused(const char *path, gmk_store_status want) {
    size_t before_len, after_len;
    char *before = slurp(path, &before_len);
    gmk_store *s = (gmk_store *)1;
    gmk_store_status st = gmk_store_open(path, GMK_STORE_OPEN_DEFAULT, &s, err, sizeof err);
    cr_assert_eq(st, want, "got %s (%s)", gmk_store_status_name(st), err);
    cr_assert_null(s);
    cr_assert(strstr(err, path) != NULL, "the message names the file: %s", err);
    cr_assert(strchr(err, '\n') == NULL);
    char *after = slurp(path, &after_len);
    cr_assert_eq(before_len, after_len);
    cr_assert(memcmp(before, after, before_len) == 0, "the file was changed");
    char wal[600];
    snprintf(wal, sizeof wal, "%s-wal", path);
    cr_assert_not(exists(wal));
    free(before);
    free(after);
}

Test(store, create_and_reopen) {
    sqlite_only();
    char path[512];
    at(path, "a/b/c/gomoku.db"); /* the folders do not exist yet */
    gmk_store *s = open_ok(path);
    cr_assert_eq(gmk_store_schema_version(s), GMK_STORE_SCHEMA_VERSION);
    cr_assert_str_eq(gmk_store_path(s), path);
    gmk_store_close(s);
    struct stat sb;
    char dir[512];
    cr_assert_eq(stat(at(dir, "a/b/c"), &sb), 0);
    cr_assert_eq(sb.st_mode & 0777, 0700);
    size_t len;
    char *head = slurp(path, &len);
    cr_assert_geq(len, 100);
    cr_assert_eq(memcmp(head, "SQLite format 3", 16), 0);
    cr_assert_eq(head[18], 2, "WAL mode (file format version 2)");
    free(head);
    s = open_ok(path);
    cr_assert_eq(gmk_store_schema_version(s), GMK_STORE_SCHEMA_VERSION);
    gmk_store_record *r = malloc(sizeof *r);
    cr_assert_eq(gmk_store_game_find_unfinished(s, r, err, sizeof err), GMK_STORE_NOT_FOUND);
    free(r);
    gmk_store_close(s);
    gmk_store_close(NULL);
}

Test(store, default_path) {
    sqlite_only();
    char buf[512], want[600];
    setenv("XDG_DATA_HOME", tmp, 1);
    cr_assert_eq(gmk_store_default_path(buf, sizeof buf, err, sizeof err), GMK_STORE_OK);
    snprintf(want, sizeof want, "%s/gomoku/gomoku.db", tmp);
    cr_assert_str_eq(buf, want);
    gmk_store *s = open_ok(NULL); /* creates tmp/gomoku/ */
    cr_assert_str_eq(gmk_store_path(s), want);
    gmk_store_close(s);
    cr_assert(exists(want));

    setenv("XDG_DATA_HOME", "relative/dir", 1); /* ignored, as the XDG spec says */
    setenv("HOME", tmp, 1);
    cr_assert_eq(gmk_store_default_path(buf, sizeof buf, err, sizeof err), GMK_STORE_OK);
    snprintf(want, sizeof want, "%s/.local/share/gomoku/gomoku.db", tmp);
    cr_assert_str_eq(buf, want);
    unsetenv("XDG_DATA_HOME");
    cr_assert_eq(gmk_store_default_path(buf, sizeof buf, err, sizeof err), GMK_STORE_OK);
    cr_assert_str_eq(buf, want);
    char small[8];
    cr_assert_eq(gmk_store_default_path(small, sizeof small, err, sizeof err), GMK_STORE_CANT_OPEN);
}

Test(store, moves_persist) {
    char path[512];
    db(path, "g.db");
    gmk_store *s = open_ok(path);
    gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVC,
                            .rule = GMK_RULE_STANDARD,
                            .size = 19,
                            .level = 4,
                            .black = "Ann",
                            .white = "engine level 4",
                            .human = GMK_BLACK,
                            .started_s = 1700000000};
    int64_t id;
    cr_assert_eq(gmk_store_game_begin(s, &g, &id, err, sizeof err), GMK_STORE_OK);
    for (int i = 0; i < 10; i++) add(s, id, i, i, 18 - i, 100 * i + 1);
    gmk_store_close(s);

    s = open_ok(path);
    gmk_store_record *r = malloc(sizeof *r);
    cr_assert_eq(gmk_store_game_load(s, id, r, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(r->game.id, id);
    cr_assert_eq(r->game.mode, GMK_STORE_MODE_HVC);
    cr_assert_eq(r->game.rule, GMK_RULE_STANDARD);
    cr_assert_eq(r->game.size, 19);
    cr_assert_eq(r->game.level, 4);
    cr_assert_str_eq(r->game.black, "Ann");
    cr_assert_str_eq(r->game.white, "engine level 4");
    cr_assert_eq(r->game.human, GMK_BLACK);
    cr_assert_eq(r->game.started_s, 1700000000);
    cr_assert_eq(r->game.ended_s, 0);
    cr_assert_not(r->game.finished);
    cr_assert_eq(r->game.outcome, GMK_ONGOING);
    cr_assert_eq(r->game.move_count, 10);
    for (int i = 0; i < 10; i++) {
        cr_assert_eq(r->moves[i].x, i);
        cr_assert_eq(r->moves[i].y, 18 - i);
        cr_assert_eq(r->moves[i].time_ms, 100 * i + 1);
    }
    memset(r, 0, sizeof *r);
    cr_assert_eq(gmk_store_game_find_unfinished(s, r, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(r->game.id, id);
    cr_assert_eq(r->game.move_count, 10);
    cr_assert_eq(r->moves[9].x, 9);
    cr_assert_eq(gmk_store_game_load(s, id + 1, r, err, sizeof err), GMK_STORE_NOT_FOUND);
    free(r);
    gmk_store_close(s);
}

Test(store, bad_moves_refused) {
    char path[512];
    gmk_store *s = open_ok(db(path, "g.db"));
    int64_t id = begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY);
    add(s, id, 0, 7, 7, 0);
    cr_assert_eq(gmk_store_game_add_move(s, id, 0, 8, 8, 0, err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_game_add_move(s, id, 2, 8, 8, 0, err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_game_add_move(s, id, 1, 15, 0, 0, err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_game_add_move(s, id, 1, 0, -1, 0, err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_game_add_move(s, id + 7, 0, 1, 1, 0, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    cr_assert(strstr(err, "no game") != NULL, "%s", err);
    cr_assert_eq(gmk_store_game_add_move(NULL, id, 1, 1, 1, 0, err, sizeof err), GMK_STORE_INVALID);
    gmk_store_record *r = malloc(sizeof *r);
    cr_assert_eq(gmk_store_game_load(s, id, r, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(r->game.move_count, 1);
    free(r);

    gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVC, .rule = GMK_RULE_FREESTYLE, .size = 15};
    int64_t bad;
    cr_assert_eq(gmk_store_game_begin(s, &g, &bad, err, sizeof err), GMK_STORE_INVALID,
                 "human vs computer needs the human's side");
    g.human = GMK_WHITE;
    g.size = 23;
    cr_assert_eq(gmk_store_game_begin(s, &g, &bad, err, sizeof err), GMK_STORE_INVALID);
    g.size = 15;
    g.rule = GMK_RULE_COUNT;
    cr_assert_eq(gmk_store_game_begin(s, &g, &bad, err, sizeof err), GMK_STORE_INVALID);
    g.rule = GMK_RULE_CARO;
    g.mode = GMK_STORE_MODE_COUNT;
    cr_assert_eq(gmk_store_game_begin(s, &g, &bad, err, sizeof err), GMK_STORE_INVALID);
    gmk_store_close(s);
}

Test(store, full_board) {
    char path[512];
    gmk_store *s = open_ok(db(path, "g.db"));
    gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVH, .rule = GMK_RULE_FREESTYLE, .size = 5};
    int64_t id;
    cr_assert_eq(gmk_store_game_begin(s, &g, &id, err, sizeof err), GMK_STORE_OK);
    for (int i = 0; i < 25; i++) add(s, id, i, i % 5, i / 5, 0);
    cr_assert_eq(gmk_store_game_add_move(s, id, 25, 0, 0, 0, err, sizeof err), GMK_STORE_INVALID);
    finish(s, id, GMK_DRAW, GMK_REASON_FULL_BOARD);
    gmk_store_close(s);
}

Test(store, undo_and_redo) {
    char path[512];
    db(path, "g.db");
    gmk_store *s = open_ok(path);
    int64_t id = begin(s, GMK_STORE_MODE_HVC, 2, GMK_WHITE);
    for (int i = 0; i < 6; i++) add(s, id, i, i, i, 0);
    cr_assert_eq(gmk_store_game_undo_moves(s, id, 2, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_game_undo_moves(s, id, 0, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_game_undo_moves(s, id, 5, err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_game_undo_moves(s, id, -1, err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_game_add_move(s, id, 5, 1, 1, 0, err, sizeof err), GMK_STORE_INVALID,
                 "ply 5 is gone; the next is 4");
    add(s, id, 4, 10, 3, 77); /* a different move where the undone one was */
    gmk_store_close(s);

    s = open_ok(path);
    gmk_store_record *r = malloc(sizeof *r);
    cr_assert_eq(gmk_store_game_load(s, id, r, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(r->game.move_count, 5);
    for (int i = 0; i < 4; i++) cr_assert_eq(r->moves[i].x, i);
    cr_assert_eq(r->moves[4].x, 10);
    cr_assert_eq(r->moves[4].y, 3);
    cr_assert_eq(r->moves[4].time_ms, 77);
    cr_assert_eq(gmk_store_game_undo_moves(s, id, 5, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_game_load(s, id, r, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(r->game.move_count, 0);
    free(r);
    gmk_store_close(s);
}

Test(store, finish_and_abandon) {
    char path[512];
    db(path, "g.db");
    gmk_store *s = open_ok(path);
    int64_t a = begin(s, GMK_STORE_MODE_HVC, 1, GMK_BLACK);
    add(s, a, 0, 7, 7, 0);
    int64_t b = begin(s, GMK_STORE_MODE_HVC, 1, GMK_BLACK);
    add(s, b, 0, 3, 3, 0);
    gmk_store_record *r = malloc(sizeof *r);
    cr_assert_eq(gmk_store_game_find_unfinished(s, r, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(r->game.id, b, "the most recent unfinished game");

    cr_assert_eq(gmk_store_game_finish(s, b, GMK_ONGOING, GMK_REASON_NONE, 0, err, sizeof err),
                 GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_game_finish(s, b, GMK_WHITE_WINS, (gmk_reason)42, 0, err, sizeof err),
                 GMK_STORE_INVALID);
    finish(s, b, GMK_WHITE_WINS, GMK_REASON_RESIGN);
    cr_assert_eq(gmk_store_game_finish(s, b, GMK_DRAW, GMK_REASON_NONE, 0, err, sizeof err),
                 GMK_STORE_INVALID, "already over");
    cr_assert_eq(gmk_store_game_add_move(s, b, 1, 4, 4, 0, err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_game_undo_moves(s, b, 1, err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_game_find_unfinished(s, r, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(r->game.id, a);
    cr_assert_eq(gmk_store_game_abandon(s, a, 0, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_game_find_unfinished(s, r, err, sizeof err), GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_game_abandon(s, a, 0, err, sizeof err), GMK_STORE_INVALID);
    gmk_store_close(s);

    s = open_ok(path);
    cr_assert_eq(gmk_store_game_load(s, b, r, err, sizeof err), GMK_STORE_OK);
    cr_assert(r->game.finished);
    cr_assert_not(r->game.abandoned);
    cr_assert_eq(r->game.outcome, GMK_WHITE_WINS);
    cr_assert_eq(r->game.reason, GMK_REASON_RESIGN);
    cr_assert_eq(r->game.ended_s, 1700000600);
    cr_assert_eq(r->game.move_count, 1);
    cr_assert_eq(gmk_store_game_load(s, a, r, err, sizeof err), GMK_STORE_OK);
    cr_assert(r->game.finished);
    cr_assert(r->game.abandoned);
    cr_assert_eq(r->game.outcome, GMK_ONGOING);
    cr_assert_gt(r->game.ended_s, 1700000600, "0 means now");
    free(r);
    gmk_store_close(s);
}

Test(store, list_recent) {
    char path[512];
    gmk_store *s = open_ok(db(path, "g.db"));
    int64_t ids[5];
    for (int i = 0; i < 5; i++) ids[i] = begin(s, GMK_STORE_MODE_CVC, i + 1, GMK_EMPTY);
    add(s, ids[4], 0, 7, 7, 0);
    add(s, ids[4], 1, 8, 8, 0);
    finish(s, ids[1], GMK_BLACK_WINS, GMK_REASON_FIVE);
    gmk_store_game list[8];
    int n = -1;
    cr_assert_eq(gmk_store_game_list(s, list, 3, &n, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(n, 3);
    cr_assert_eq(list[0].id, ids[4]);
    cr_assert_eq(list[0].move_count, 2);
    cr_assert_eq(list[0].level, 5);
    cr_assert_eq(list[2].id, ids[2]);
    cr_assert_eq(gmk_store_game_list(s, list, 8, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 5);
    cr_assert_eq(list[3].id, ids[1]);
    cr_assert(list[3].finished);
    cr_assert_eq(list[3].outcome, GMK_BLACK_WINS);
    cr_assert_eq(list[3].reason, GMK_REASON_FIVE);
    cr_assert_eq(list[4].human, GMK_EMPTY);
    gmk_store_close(s);
}

static const gmk_store_score *find_score(const gmk_store_score *rows, int n, gmk_store_mode m,
                                         int level) {
    for (int i = 0; i < n; i++)
        if (rows[i].mode == m && rows[i].level == level) return &rows[i];
    return NULL;
}

Test(store, scoreboard_after_reopen) {
    char path[512];
    db(path, "g.db");
    gmk_store *s = open_ok(path);
    /* human vs computer, level 1, human black: a win, two losses, a draw */
    finish(s, begin(s, GMK_STORE_MODE_HVC, 1, GMK_BLACK), GMK_BLACK_WINS, GMK_REASON_FIVE);
    finish(s, begin(s, GMK_STORE_MODE_HVC, 1, GMK_BLACK), GMK_WHITE_WINS, GMK_REASON_FIVE);
    finish(s, begin(s, GMK_STORE_MODE_HVC, 1, GMK_BLACK), GMK_WHITE_WINS, GMK_REASON_FORBIDDEN);
    finish(s, begin(s, GMK_STORE_MODE_HVC, 1, GMK_BLACK), GMK_DRAW, GMK_REASON_FULL_BOARD);
    /* level 3, human white: white wins twice (human wins), black once (human loses) */
    finish(s, begin(s, GMK_STORE_MODE_HVC, 3, GMK_WHITE), GMK_WHITE_WINS, GMK_REASON_FIVE);
    finish(s, begin(s, GMK_STORE_MODE_HVC, 3, GMK_WHITE), GMK_WHITE_WINS, GMK_REASON_RESIGN);
    finish(s, begin(s, GMK_STORE_MODE_HVC, 3, GMK_WHITE), GMK_BLACK_WINS, GMK_REASON_FIVE);
    /* two humans (level given as 5: the store keeps 0): black 1, white 2 */
    finish(s, begin(s, GMK_STORE_MODE_HVH, 5, GMK_EMPTY), GMK_BLACK_WINS, GMK_REASON_FIVE);
    finish(s, begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY), GMK_WHITE_WINS, GMK_REASON_FIVE);
    finish(s, begin(s, GMK_STORE_MODE_HVH, 0, GMK_BLACK), GMK_WHITE_WINS, GMK_REASON_RESIGN);
    /* computer vs computer, level 2 */
    finish(s, begin(s, GMK_STORE_MODE_CVC, 2, GMK_EMPTY), GMK_BLACK_WINS, GMK_REASON_FIVE);
    /* not counted: abandoned and unfinished games */
    cr_assert_eq(
        gmk_store_game_abandon(s, begin(s, GMK_STORE_MODE_HVC, 1, GMK_BLACK), 0, err, sizeof err),
        GMK_STORE_OK);
    begin(s, GMK_STORE_MODE_HVC, 1, GMK_BLACK);
    gmk_store_close(s);

    s = open_ok(path);
    gmk_store_score rows[GMK_STORE_SCORE_MAX];
    int n = 0;
    cr_assert_eq(gmk_store_scoreboard(s, rows, GMK_STORE_SCORE_MAX, &n, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_eq(n, 4);
    cr_assert_eq(rows[0].mode, GMK_STORE_MODE_HVC, "ordered by mode, then level");
    cr_assert_eq(rows[0].level, 1);
    cr_assert_eq(rows[1].level, 3);
    const gmk_store_score *r = find_score(rows, n, GMK_STORE_MODE_HVC, 1);
    cr_assert_not_null(r);
    cr_assert_eq(r->games, 4);
    cr_assert_eq(r->wins, 1);
    cr_assert_eq(r->losses, 2);
    cr_assert_eq(r->draws, 1);
    cr_assert_eq(r->black_wins, 1);
    cr_assert_eq(r->white_wins, 2);
    r = find_score(rows, n, GMK_STORE_MODE_HVC, 3);
    cr_assert_not_null(r);
    cr_assert_eq(r->games, 3);
    cr_assert_eq(r->wins, 2);
    cr_assert_eq(r->losses, 1);
    cr_assert_eq(r->draws, 0);
    r = find_score(rows, n, GMK_STORE_MODE_HVH, 0);
    cr_assert_not_null(r);
    cr_assert_eq(r->games, 3);
    cr_assert_eq(r->black_wins, 1);
    cr_assert_eq(r->white_wins, 2);
    cr_assert_eq(r->wins + r->losses, 0);
    r = find_score(rows, n, GMK_STORE_MODE_CVC, 2);
    cr_assert_not_null(r);
    cr_assert_eq(r->games, 1);
    cr_assert_eq(r->black_wins, 1);
    cr_assert_eq(gmk_store_scoreboard(s, rows, 2, &n, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(n, 2);
    gmk_store_close(s);
}

Test(store, settings) {
    char path[512];
    db(path, "g.db");
    gmk_store *s = open_ok(path);
    char v[GMK_STORE_VALUE_MAX];
    cr_assert_eq(gmk_store_setting_get(s, "lang", v, sizeof v, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_setting_set(s, "lang", "zh_CN", err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_setting_set(s, "rule", "renju", err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_setting_set(s, "lang", "en", err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_setting_set(s, "", "x", err, sizeof err), GMK_STORE_INVALID);
    char big[GMK_STORE_VALUE_MAX + 1];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    cr_assert_eq(gmk_store_setting_set(s, "big", big, err, sizeof err), GMK_STORE_INVALID);
    big[GMK_STORE_VALUE_MAX - 1] = '\0';
    cr_assert_eq(gmk_store_setting_set(s, "big", big, err, sizeof err), GMK_STORE_OK);
    gmk_store_close(s);

    s = open_ok(path);
    cr_assert_eq(gmk_store_setting_get(s, "lang", v, sizeof v, err, sizeof err), GMK_STORE_OK);
    cr_assert_str_eq(v, "en");
    cr_assert_eq(gmk_store_setting_get(s, "rule", v, sizeof v, err, sizeof err), GMK_STORE_OK);
    cr_assert_str_eq(v, "renju");
    cr_assert_eq(gmk_store_setting_get(s, "big", v, sizeof v, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(strlen(v), GMK_STORE_VALUE_MAX - 1);
    char small[4];
    cr_assert_eq(gmk_store_setting_get(s, "rule", small, sizeof small, err, sizeof err),
                 GMK_STORE_INVALID);
    gmk_store_close(s);
}

Test(store, long_names_cut_at_a_character) {
    char path[512];
    gmk_store *s = open_ok(db(path, "g.db"));
    char name[200] = "";
    for (int i = 0; i < 30; i++) strcat(name, "五子"); /* 3 bytes each */
    gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVH,
                            .rule = GMK_RULE_FREESTYLE,
                            .size = 15,
                            .black = name,
                            .white = NULL};
    int64_t id;
    cr_assert_eq(gmk_store_game_begin(s, &g, &id, err, sizeof err), GMK_STORE_OK);
    gmk_store_record *r = malloc(sizeof *r);
    cr_assert_eq(gmk_store_game_load(s, id, r, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(strlen(r->game.black), 63);
    cr_assert_eq(strncmp(r->game.black, name, 63), 0);
    cr_assert_str_eq(r->game.white, "");
    free(r);
    gmk_store_close(s);
}

/* Schema version 1 exactly as it was released (src/store/schema.c, step 0 -> 1). */
static const char v1_sql[] =
    "CREATE TABLE games (id INTEGER PRIMARY KEY, mode INTEGER NOT NULL, rule INTEGER NOT NULL,"
    " size INTEGER NOT NULL, level INTEGER NOT NULL DEFAULT 0, black TEXT NOT NULL DEFAULT '',"
    " white TEXT NOT NULL DEFAULT '', human INTEGER NOT NULL DEFAULT 0,"
    " started_at INTEGER NOT NULL, outcome INTEGER, reason INTEGER);"
    "CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " ply INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,"
    " PRIMARY KEY (game_id, ply)) WITHOUT ROWID;"
    "PRAGMA user_version = 1;";

Test(store, migrates_v1_to_v2) {
    sqlite_only();
    char path[512];
    at(path, "old.db");
    sql(path, v1_sql);
    sql(path, "INSERT INTO games VALUES (1, 0, 2, 15, 3, 'Ann', 'engine', 1, 1600000000, 1, 1);"
              "INSERT INTO games VALUES (2, 1, 0, 15, 0, 'Ann', 'Bob', 0, 1600000100, 2, 3);"
              "INSERT INTO games VALUES (3, 0, 0, 15, 3, 'Ann', 'engine', 2, 1600000200, NULL,"
              " NULL);"
              "INSERT INTO moves VALUES (1, 0, 7, 7), (1, 1, 8, 8), (1, 2, 6, 6);"
              "INSERT INTO moves VALUES (2, 0, 0, 0);"
              "INSERT INTO moves VALUES (3, 0, 7, 7), (3, 1, 7, 8);");

    gmk_store *s = open_ok(path);
    cr_assert_eq(gmk_store_schema_version(s), GMK_STORE_SCHEMA_VERSION);
    gmk_store_room room; /* step 4: the room tables exist, empty */
    cr_assert_eq(gmk_store_room_find(s, "ABCDEFGHJKLM", &room, err, sizeof err),
                 GMK_STORE_NOT_FOUND, "%s", err);
    gmk_store_record *r = malloc(sizeof *r);
    cr_assert_eq(gmk_store_game_load(s, 1, r, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(r->game.rule, GMK_RULE_RENJU);
    cr_assert_eq(r->game.level, 3);
    cr_assert_eq(r->game.human, GMK_BLACK);
    cr_assert_eq(r->game.started_s, 1600000000);
    cr_assert(r->game.finished);
    cr_assert_eq(r->game.outcome, GMK_BLACK_WINS);
    cr_assert_eq(r->game.reason, GMK_REASON_FIVE);
    cr_assert_eq(r->game.ended_s, 0, "unknown in version 1");
    cr_assert_eq(r->game.move_count, 3);
    cr_assert_eq(r->moves[2].x, 6);
    cr_assert_eq(r->moves[2].time_ms, 0);
    cr_assert_eq(gmk_store_game_find_unfinished(s, r, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(r->game.id, 3);
    cr_assert_eq(r->game.move_count, 2);
    cr_assert_eq(r->moves[1].y, 8);
    add(s, 3, 2, 9, 9, 1234); /* the resumed game goes on with the new columns */
    finish(s, 3, GMK_WHITE_WINS, GMK_REASON_FIVE);
    cr_assert_eq(gmk_store_setting_set(s, "lang", "en", err, sizeof err), GMK_STORE_OK);
    gmk_store_score rows[GMK_STORE_SCORE_MAX];
    int n;
    cr_assert_eq(gmk_store_scoreboard(s, rows, GMK_STORE_SCORE_MAX, &n, err, sizeof err),
                 GMK_STORE_OK);
    cr_assert_eq(n, 2);
    const gmk_store_score *sc = find_score(rows, n, GMK_STORE_MODE_HVC, 3);
    cr_assert_not_null(sc);
    cr_assert_eq(sc->games, 2);
    cr_assert_eq(sc->wins, 2, "game 1: human black, black won; game 3: human white, white won");
    sc = find_score(rows, n, GMK_STORE_MODE_HVH, 0);
    cr_assert_not_null(sc);
    cr_assert_eq(sc->white_wins, 1);
    gmk_store_close(s);

    s = open_ok(path); /* and again: nothing to migrate any more */
    cr_assert_eq(gmk_store_game_load(s, 3, r, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(r->game.move_count, 3);
    cr_assert_eq(r->moves[2].time_ms, 1234);
    cr_assert_eq(gmk_store_game_load(s, 2, r, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(r->game.reason, GMK_REASON_RESIGN);
    free(r);
    gmk_store_close(s);
}

Test(store, random_bytes_refused) {
    sqlite_only();
    char path[512];
    at(path, "junk.db");
    unsigned char junk[4096];
    srand(7);
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)rand();
    write_file(path, junk, sizeof junk);
    refused(path, GMK_STORE_CORRUPT);
    write_file(path, "hello", 5);
    refused(path, GMK_STORE_CORRUPT);
}

/* A real database with enough games to span many pages. */
static void fill(const char *path, int games) {
    gmk_store *s = open_ok(path);
    for (int i = 0; i < games; i++) {
        int64_t id = begin(s, GMK_STORE_MODE_HVC, 1, GMK_BLACK);
        for (int p = 0; p < 20; p++) add(s, id, p, p % 15, p / 15, p);
        finish(s, id, GMK_BLACK_WINS, GMK_REASON_FIVE);
    }
    gmk_store_close(s); /* checkpoints the WAL into the file */
}

Test(store, truncated_refused) {
    sqlite_only();
    char path[512];
    at(path, "t.db");
    fill(path, 60);
    char wal[600];
    snprintf(wal, sizeof wal, "%s-wal", path);
    cr_assert_not(exists(wal));
    size_t len;
    char *all = slurp(path, &len);
    cr_assert_gt(len, 16384u, "several pages");
    write_file(path, all, len / 2);
    refused(path, GMK_STORE_CORRUPT);
    cr_log_info("cut in half: %s", err);
    write_file(path, all, 60); /* inside the header */
    refused(path, GMK_STORE_CORRUPT);
    free(all);
}

Test(store, damaged_page_refused) {
    sqlite_only();
    char path[512];
    at(path, "d.db");
    fill(path, 60);
    size_t len;
    char *all = slurp(path, &len);
    cr_assert_gt(len, 6 * 4096u);
    srand(11);
    for (size_t i = 4 * 4096; i < 5 * 4096; i++) all[i] = (char)rand();
    write_file(path, all, len);
    refused(path, GMK_STORE_CORRUPT);
    cr_assert(strstr(err, "damaged") != NULL, "%s", err);
    free(all);
}

Test(store, foreign_sqlite_refused) {
    sqlite_only();
    char path[512];
    at(path, "other.db");
    sql(path, "CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT);"
              "INSERT INTO photos VALUES (1, 'cat');");
    refused(path, GMK_STORE_CORRUPT);
    sql(path, "PRAGMA user_version = 2;"); /* the right number does not make it ours */
    refused(path, GMK_STORE_CORRUPT);
}

Test(store, newer_version_refused) {
    sqlite_only();
    char path[512];
    at(path, "new.db");
    fill(path, 1);
    char newer[96];
    snprintf(newer, sizeof newer, "PRAGMA journal_mode = DELETE; PRAGMA user_version = %d;",
             GMK_STORE_SCHEMA_VERSION + 1);
    sql(path, newer);
    refused(path, GMK_STORE_TOO_NEW);
    cr_assert(strstr(err, "newer") != NULL, "%s", err);
}

Test(store, path_under_a_file) {
    sqlite_only();
    char file[512], path[600];
    at(file, "plain");
    write_file(file, "x", 1);
    snprintf(path, sizeof path, "%s/sub/gomoku.db", file);
    gmk_store *s = (gmk_store *)1;
    cr_assert_eq(gmk_store_open(path, 0, &s, err, sizeof err), GMK_STORE_CANT_OPEN, "%s", err);
    cr_assert_null(s);
    cr_assert(strstr(err, "plain") != NULL, "%s", err);
    at(path, "");
    cr_assert_eq(gmk_store_open(tmp, 0, &s, err, sizeof err), GMK_STORE_CANT_OPEN,
                 "a folder is not a database");
    cr_assert_eq(gmk_store_open("", 0, &s, err, sizeof err), GMK_STORE_INVALID);
}

/* Runs the unwritable checks as an unprivileged user: root may write anywhere. Returns the
 * exit status of the child: 0 when every check held, else the number of the failed one. */
static int unwritable_checks(const char *ro_dir, const char *ro_file, const char *rw_in_ro_dir) {
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(90);
        char path[600], e[512];
        gmk_store *s = NULL;
        snprintf(path, sizeof path, "%s/new.db", ro_dir);
        gmk_store_status st = gmk_store_open(path, 0, &s, e, sizeof e);
        fprintf(stderr, "new file in a read-only folder: %s\n", e);
        if (st != GMK_STORE_CANT_OPEN || s || !strstr(e, "new.db") || exists(path)) _exit(1);
        snprintf(path, sizeof path, "%s/sub/new.db", ro_dir);
        st = gmk_store_open(path, 0, &s, e, sizeof e);
        fprintf(stderr, "new folder in a read-only folder: %s\n", e);
        if (st != GMK_STORE_CANT_OPEN || s) _exit(2);
        st = gmk_store_open(ro_file, 0, &s, e, sizeof e);
        fprintf(stderr, "read-only file: %s\n", e);
        if (st != GMK_STORE_READ_ONLY || s || !strstr(e, ro_file)) _exit(3);
        st = gmk_store_open(rw_in_ro_dir, 0, &s, e, sizeof e);
        fprintf(stderr, "file in a read-only folder: %s\n", e);
        if (st != GMK_STORE_READ_ONLY || s) _exit(4);
        /* read-only opening still reads it */
        st = gmk_store_open(ro_file, GMK_STORE_OPEN_READONLY, &s, e, sizeof e);
        fprintf(stderr, "read-only opening: %s\n", st ? e : "ok");
        if (st != GMK_STORE_OK) _exit(5);
        gmk_store_score rows[GMK_STORE_SCORE_MAX];
        int n = 0;
        st = gmk_store_scoreboard(s, rows, GMK_STORE_SCORE_MAX, &n, e, sizeof e);
        if (st != GMK_STORE_OK || n != 1 || rows[0].games != 1) _exit(6);
        if (gmk_store_setting_set(s, "lang", "en", e, sizeof e) != GMK_STORE_READ_ONLY) _exit(7);
        gmk_store_close(s);
        _exit(0);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

Test(store, unwritable_location) {
    sqlite_only();
    char ro_dir[512], ro_file[512], rw_dir[512], rw_in_ro[512];
    chmod(tmp, 0755);
    at(ro_dir, "ro");
    at(rw_dir, "rw");
    cr_assert_eq(mkdir(ro_dir, 0755), 0);
    cr_assert_eq(mkdir(rw_dir, 0777), 0);
    at(ro_file, "rw/readonly.db");
    fill(ro_file, 1);
    at(rw_in_ro, "ro/game.db");
    fill(rw_in_ro, 1);
    chmod(ro_file, 0444);
    chmod(rw_in_ro, 0666);
    chmod(ro_dir, 0555);
    size_t len1, len2;
    char *before1 = slurp(ro_file, &len1), *before2 = slurp(rw_in_ro, &len2);
    cr_assert_eq(unwritable_checks(ro_dir, ro_file, rw_in_ro), 0);
    size_t l1, l2;
    char *after1 = slurp(ro_file, &l1), *after2 = slurp(rw_in_ro, &l2);
    cr_assert(l1 == len1 && memcmp(before1, after1, l1) == 0);
    cr_assert(l2 == len2 && memcmp(before2, after2, l2) == 0);
    free(before1), free(before2), free(after1), free(after2);
}

Test(store, existing_only) {
    sqlite_only();
    char path[512];
    at(path, "missing.db");
    gmk_store *s = (gmk_store *)1;
    cr_assert_eq(gmk_store_open(path, GMK_STORE_OPEN_EXISTING, &s, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    cr_assert_null(s);
    cr_assert_not(exists(path));
    write_file(path, "", 0);
    cr_assert_eq(gmk_store_open(path, GMK_STORE_OPEN_EXISTING, &s, err, sizeof err),
                 GMK_STORE_NOT_FOUND, "an empty file holds no games");
    size_t len;
    free(slurp(path, &len));
    cr_assert_eq(len, 0, "and stays empty");
    at(path, "old.db");
    sql(path, v1_sql);
    s = NULL;
    cr_assert_eq(gmk_store_open(path, GMK_STORE_OPEN_EXISTING, &s, err, sizeof err), GMK_STORE_OK,
                 "%s", err);
    cr_assert_eq(gmk_store_schema_version(s), GMK_STORE_SCHEMA_VERSION, "upgraded");
    gmk_store_close(s);
}

/* The disk fills up in the middle of a game: the failing move gets a status and a message,
 * and every move saved before it is still there. Runs in a child with a file size limit. */
Test(store, disk_full_mid_game) {
    sqlite_only();
    char path[512];
    at(path, "full.db");
    gmk_store_close(open_ok(path));
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        char e[512];
        gmk_store *c = NULL;
        if (gmk_store_open(path, 0, &c, e, sizeof e) != GMK_STORE_OK) _exit(200);
        gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVH, .rule = GMK_RULE_RENJU, .size = 15};
        int64_t id;
        if (gmk_store_game_begin(c, &g, &id, e, sizeof e) != GMK_STORE_OK) _exit(201);
        struct rlimit lim = {.rlim_cur = 64 * 1024, .rlim_max = RLIM_INFINITY};
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0) _exit(202);
        for (int ply = 0; ply < 150; ply++) {
            e[0] = '\0';
            gmk_store_status st =
                gmk_store_game_add_move(c, id, ply, ply % 15, ply / 15, 0, e, sizeof e);
            if (st == GMK_STORE_OK) continue;
            fprintf(stderr, "disk full: %s: %s\n", gmk_store_status_name(st), e);
            if (st != GMK_STORE_IO || !strstr(e, "move")) _exit(203);
            gmk_store_close(c);
            _exit(ply); /* the number of moves saved */
        }
        _exit(204); /* the limit never hit */
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "no crash");
    int saved = WEXITSTATUS(status);
    cr_assert(saved > 0 && saved < 150, "child status %d", saved);
    gmk_store *s = open_ok(path);
    gmk_store_record *r = malloc(sizeof *r);
    cr_assert_eq(gmk_store_game_find_unfinished(s, r, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(r->game.move_count, saved);
    for (int i = 0; i < saved; i++) cr_assert_eq(r->moves[i].x, i % 15);
    add(s, r->game.id, saved, saved % 15, saved / 15, 0); /* room again: the game goes on */
    free(r);
    gmk_store_close(s);
}

Test(store, readonly_open) {
    sqlite_only();
    char path[512];
    at(path, "missing.db");
    gmk_store *s = (gmk_store *)1;
    cr_assert_eq(gmk_store_open(path, GMK_STORE_OPEN_READONLY, &s, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    cr_assert_null(s);
    cr_assert_not(exists(path), "read-only opening creates nothing");
    at(path, "old.db");
    sql(path, v1_sql);
    cr_assert_eq(gmk_store_open(path, GMK_STORE_OPEN_READONLY, &s, err, sizeof err),
                 GMK_STORE_READ_ONLY, "a version 1 file needs upgrading first");
    cr_assert_eq(gmk_store_open(path, 42, &s, err, sizeof err), GMK_STORE_INVALID);
}

/* kill -9 during a game: a child plays moves, telling the parent each ply once committed;
 * the parent kills it mid-game and reopens the file. */
static int ply_x(int ply) {
    return (ply * 7) % 15;
}
static int ply_y(int ply) {
    return (ply * 7) / 15 % 15;
}

Test(store, kill_9_mid_game) {
    char path[512], wal[600];
    db(path, "live.db");
    snprintf(wal, sizeof wal, "%s-wal", path);
    gmk_store *s = open_ok(path);
    int64_t done = begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY); /* an older, finished game */
    add(s, done, 0, 7, 7, 0);
    finish(s, done, GMK_BLACK_WINS, GMK_REASON_RESIGN);
    gmk_store_close(s);

    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        char e[512];
        gmk_store *c = NULL;
        if (gmk_store_open(path, 0, &c, e, sizeof e) != GMK_STORE_OK) _exit(2);
        gmk_store_new_game g = {.mode = GMK_STORE_MODE_HVC,
                                .rule = GMK_RULE_FREESTYLE,
                                .size = 15,
                                .level = 2,
                                .human = GMK_WHITE};
        int64_t id;
        if (gmk_store_game_begin(c, &g, &id, e, sizeof e) != GMK_STORE_OK) _exit(3);
        for (int ply = 0; ply < 200; ply++) {
            if (gmk_store_game_add_move(c, id, ply, ply_x(ply), ply_y(ply), ply, e, sizeof e) !=
                GMK_STORE_OK)
                _exit(4);
            if (write(fds[1], &ply, sizeof ply) != sizeof ply) _exit(5);
        }
        for (;;) pause(); /* never finishes the game */
    }
    close(fds[1]);
    int ply = -1, last = -1;
    while (last < 40 && read(fds[0], &ply, sizeof ply) == sizeof ply) last = ply;
    cr_assert_geq(last, 40, "the child stopped early");
    cr_assert_eq(kill(pid, SIGKILL), 0);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    while (read(fds[0], &ply, sizeof ply) == sizeof ply) last = ply; /* acknowledged ones */
    close(fds[0]);
    if (!pg_base()) cr_assert(exists(wal), "killed before checkpointing: the moves are in the WAL");

    s = open_ok(path);
    gmk_store_record *r = malloc(sizeof *r);
    cr_assert_eq(gmk_store_game_find_unfinished(s, r, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_neq(r->game.id, done);
    cr_assert_eq(r->game.mode, GMK_STORE_MODE_HVC);
    cr_assert_eq(r->game.human, GMK_WHITE);
    cr_assert_not(r->game.finished);
    /* every acknowledged move, and at most one more (committed, not yet acknowledged) */
    cr_assert_geq(r->game.move_count, last + 1);
    cr_assert_leq(r->game.move_count, last + 2);
    for (int i = 0; i < r->game.move_count; i++) {
        cr_assert_eq(r->moves[i].x, ply_x(i), "move %d", i);
        cr_assert_eq(r->moves[i].y, ply_y(i), "move %d", i);
        cr_assert_eq(r->moves[i].time_ms, i);
    }
    /* and the game goes on */
    int next = r->game.move_count;
    add(s, r->game.id, next, ply_x(next), ply_y(next), 5);
    finish(s, r->game.id, GMK_WHITE_WINS, GMK_REASON_FIVE);
    gmk_store_score rows[GMK_STORE_SCORE_MAX];
    int n;
    cr_assert_eq(gmk_store_scoreboard(s, rows, GMK_STORE_SCORE_MAX, &n, err, sizeof err),
                 GMK_STORE_OK);
    const gmk_store_score *sc = find_score(rows, n, GMK_STORE_MODE_HVC, 2);
    cr_assert_not_null(sc);
    cr_assert_eq(sc->wins, 1);
    free(r);
    gmk_store_close(s);
}

Test(store, status_names) {
    cr_assert_str_eq(gmk_store_status_name(GMK_STORE_OK), "ok");
    cr_assert_str_eq(gmk_store_status_name(GMK_STORE_CORRUPT), "corrupt");
    cr_assert_str_eq(gmk_store_mode_name(GMK_STORE_MODE_HVH), "human-human");
}

/* gomoku stats, run as a program ($GMK_BIN, set by tests/run.sh): exit status, and stdout and
 * stderr into out (stderr after stdout). */
static int run_stats(const char *args, char *out, size_t outlen) {
    const char *bin = getenv("GMK_BIN");
    if (!bin) cr_skip_test("GMK_BIN is not set (tests/run.sh sets it)");
    char cmd[2048], outf[600];
    snprintf(outf, sizeof outf, "%s/stats.out", tmp);
    snprintf(cmd, sizeof cmd, "'%s' stats %s >'%s' 2>&1", bin, args, outf);
    int status = system(cmd);
    cr_assert(WIFEXITED(status));
    FILE *f = fopen(outf, "r");
    cr_assert_not_null(f);
    size_t n = fread(out, 1, outlen - 1, f);
    out[n] = '\0';
    fclose(f);
    return WEXITSTATUS(status);
}

Test(store, stats_command) {
    char path[512], args[600], out[8192];
    db(path, "s.db");
    if (pg_base()) { /* the connection string from the environment, as a server would take it */
        setenv("GOMOKU_DB", path, 1);
        args[0] = '\0';
    } else {
        snprintf(args, sizeof args, "--db '%s'", path);
    }
    cr_assert_eq(run_stats(args, out, sizeof out), 0, "%s", out);
    cr_assert(strstr(out, "no games recorded yet") != NULL, "%s", out);
    if (pg_base()) {
        char tables[64];
        psql_value("s.db", "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()",
                   tables, sizeof tables);
        cr_assert_str_eq(tables, "0", "stats creates nothing");
    } else {
        cr_assert_not(exists(path), "stats creates nothing");
    }

    gmk_store *s = open_ok(path);
    finish(s, begin(s, GMK_STORE_MODE_HVC, 3, GMK_BLACK), GMK_BLACK_WINS, GMK_REASON_FIVE);
    finish(s, begin(s, GMK_STORE_MODE_HVC, 3, GMK_WHITE), GMK_BLACK_WINS, GMK_REASON_FIVE);
    finish(s, begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY), GMK_WHITE_WINS, GMK_REASON_RESIGN);
    finish(s, begin(s, GMK_STORE_MODE_ONLINE, 0, GMK_EMPTY), GMK_DRAW, GMK_REASON_AGREEMENT);
    int64_t live = begin(s, GMK_STORE_MODE_CVC, 4, GMK_EMPTY);
    add(s, live, 0, 7, 7, 0);
    gmk_store_close(s);
    cr_assert_eq(run_stats(args, out, sizeof out), 0, "%s", out);
    cr_assert(strstr(out, "human vs computer") != NULL, "%s", out);
    cr_assert(strstr(out, "      3      2      1       1      0\n") != NULL, "%s", out);
    cr_assert(strstr(out, "two humans") != NULL, "%s", out);
    cr_assert(strstr(out, "1           0           1      0\n") != NULL, "%s", out);
    cr_assert(strstr(out, "white wins (resignation)") != NULL, "%s", out);
    cr_assert(strstr(out, "online\n") != NULL, "%s", out);
    cr_assert(strstr(out, "1           0           0      1\n") != NULL, "%s", out);
    cr_assert(strstr(out, "draw (agreement)") != NULL, "%s", out);
    cr_assert(strstr(out, "unfinished") != NULL, "%s", out);
    cr_assert(strstr(out, "computer vs computer") == NULL, "no finished game: %s", out);

    if (pg_base()) {
        unsetenv("GOMOKU_DB");
        return;
    }
    at(path, "junk.db");
    write_file(path,
               "this is not a database, just some text......................................"
               "...........................",
               100);
    snprintf(args, sizeof args, "--db '%s'", path);
    int rc = run_stats(args, out, sizeof out);
    cr_assert(rc == 1 || rc == 2, "status %d: %s", rc, out);
    cr_assert(strncmp(out, "gomoku stats: ", 14) == 0, "%s", out);
    cr_assert(strchr(out, '\n') == out + strlen(out) - 1, "one line: %s", out);
    cr_assert_eq(run_stats("--nope", out, sizeof out), 2);
}

Test(store, a_batch_commits_all_or_nothing) {
    char path[512];
    gmk_store *s = open_ok(db(path, "batch.db"));
    cr_assert_eq(gmk_store_batch_end(s, true, err, sizeof err), GMK_STORE_INVALID, "none open");
    /* rolled back: nothing of it stays */
    cr_assert_eq(gmk_store_batch_begin(s, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_batch_begin(s, err, sizeof err), GMK_STORE_INVALID, "one at a time");
    int64_t id = begin(s, GMK_STORE_MODE_ONLINE, 0, GMK_EMPTY);
    add(s, id, 0, 7, 7, 10);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(s, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(rec.game.move_count, 1, "reads see the batch");
    cr_assert_eq(gmk_store_batch_end(s, false, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_game_load(s, id, &rec, err, sizeof err), GMK_STORE_NOT_FOUND);
    /* a failing step spoils the batch: later writes fail, and the commit saves nothing */
    cr_assert_eq(gmk_store_batch_begin(s, err, sizeof err), GMK_STORE_OK, "%s", err);
    int64_t spoilt = begin(s, GMK_STORE_MODE_ONLINE, 0, GMK_EMPTY);
    add(s, spoilt, 0, 7, 7, 10);
    cr_assert_eq(gmk_store_game_add_move(s, spoilt, 5, 8, 8, 0, err, sizeof err),
                 GMK_STORE_INVALID);
    cr_assert_neq(gmk_store_game_add_move(s, spoilt, 1, 8, 8, 0, err, sizeof err), GMK_STORE_OK);
    cr_assert(strstr(err, "an earlier write of the batch failed"), "%s", err);
    cr_assert_neq(gmk_store_batch_end(s, true, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_game_load(s, spoilt, &rec, err, sizeof err), GMK_STORE_NOT_FOUND);
    /* committed: all of it */
    cr_assert_eq(gmk_store_batch_begin(s, err, sizeof err), GMK_STORE_OK, "%s", err);
    id = begin(s, GMK_STORE_MODE_ONLINE, 0, GMK_EMPTY);
    add(s, id, 0, 7, 7, 10);
    add(s, id, 1, 8, 8, 10);
    cr_assert_eq(gmk_store_batch_end(s, true, err, sizeof err), GMK_STORE_OK, "%s", err);
    gmk_store_close(s);
    s = open_ok(path);
    cr_assert_eq(gmk_store_game_load(s, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(rec.game.move_count, 2);
    cr_assert_eq(rec.game.mode, GMK_STORE_MODE_ONLINE);
    /* closing with a batch open saves nothing of it */
    cr_assert_eq(gmk_store_batch_begin(s, err, sizeof err), GMK_STORE_OK, "%s", err);
    add(s, id, 2, 9, 9, 10);
    gmk_store_close(s);
    s = open_ok(path);
    cr_assert_eq(gmk_store_game_load(s, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(rec.game.move_count, 2);
    gmk_store_close(s);
}

/* The statement cache: statements past its 16 places are prepared once and finalized on
 * release, and cached ones are reset (statements.c); both go on giving answers. */
Test(store, statement_cache_past_its_size) {
    char path[300];
    gmk_store *s = open_ok(db(path, "cache.db"));
    static char sql[STORE_STMT_CACHE + 8][32];
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < STORE_STMT_CACHE + 8; i++) {
            snprintf(sql[i], sizeof sql[i], "SELECT %d", i);
            int rc;
            store_q *q = store_stmt(s, sql[i], &rc);
            cr_assert_not_null(q, "statement %d: rc %d", i, rc);
            cr_assert_eq(q_step(q), DB_ROW);
            cr_assert_eq(q_colint(q, 0), i);
            store_stmt_release(s, q);
        }
    gmk_store_close(s); /* a statement left unfinalized would leak (LeakSanitizer in CI) */
}

/* --- PostgreSQL ------------------------------------------------------------------------- */

static int64_t count_of(const char *name, const char *query) {
    char v[64];
    psql_value(name, query, v, sizeof v);
    return strtoll(v, NULL, 10);
}

Test(store, pg_newer_schema_refused_untouched) {
    pg_only();
    char path[512];
    gmk_store *s = open_ok(db(path, "new"));
    finish(s, begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY), GMK_BLACK_WINS, GMK_REASON_FIVE);
    gmk_store_close(s);
    char sql_text[128];
    snprintf(sql_text, sizeof sql_text, "UPDATE gomoku_schema SET version = %d;",
             GMK_STORE_SCHEMA_VERSION + 1);
    cr_assert_eq(psql_in("new", false, sql_text), 0);
    s = (gmk_store *)1;
    cr_assert_eq(gmk_store_open(path, 0, &s, err, sizeof err), GMK_STORE_TOO_NEW, "%s", err);
    cr_assert_null(s);
    cr_assert(strstr(err, "newer") != NULL, "%s", err);
    cr_assert_eq(count_of("new", "SELECT max(version) FROM gomoku_schema"),
                 GMK_STORE_SCHEMA_VERSION + 1, "left as it was");
    cr_assert_eq(count_of("new", "SELECT count(*) FROM games"), 1);
}

Test(store, pg_foreign_tables_refused) {
    pg_only();
    char path[512];
    db(path, "foreign");
    cr_assert_eq(psql_in("foreign", false, "CREATE TABLE games (photo TEXT);"), 0);
    gmk_store *s = (gmk_store *)1;
    cr_assert_eq(gmk_store_open(path, 0, &s, err, sizeof err), GMK_STORE_CORRUPT, "%s", err);
    cr_assert_null(s);
    cr_assert_eq(
        count_of("foreign", "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"),
        1, "nothing created beside it");
}

Test(store, pg_existing_and_readonly) {
    pg_only();
    char path[512];
    db(path, "ro");
    gmk_store *s = (gmk_store *)1;
    cr_assert_eq(gmk_store_open(path, GMK_STORE_OPEN_EXISTING, &s, err, sizeof err),
                 GMK_STORE_NOT_FOUND, "%s", err);
    cr_assert_eq(gmk_store_open(path, GMK_STORE_OPEN_READONLY, &s, err, sizeof err),
                 GMK_STORE_NOT_FOUND, "%s", err);
    cr_assert_eq(
        count_of("ro", "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"), 0,
        "opening to read creates nothing");
    s = open_ok(path);
    int64_t id = begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY);
    gmk_store_close(s);
    cr_assert_eq(gmk_store_open(path, GMK_STORE_OPEN_READONLY, &s, err, sizeof err), GMK_STORE_OK,
                 "%s", err);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(s, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_game_add_move(s, id, 0, 7, 7, 0, err, sizeof err), GMK_STORE_READ_ONLY);
    gmk_store_close(s);
}

/* The password of a connection string appears in no message and not in gmk_store_path. */
Test(store, pg_password_never_shown) {
    pg_only();
    char path[512], with[700];
    db(path, "secret");
    snprintf(with, sizeof with, "%s password=Sesame123", path);
    gmk_store *s = open_ok(with); /* trust authentication: the password is not needed */
    cr_assert_null(strstr(gmk_store_path(s), "Sesame123"), "%s", gmk_store_path(s));
    cr_assert(strstr(gmk_store_path(s), "postgresql://") != NULL, "%s", gmk_store_path(s));
    gmk_store_close(s);
    const char *bad[] = {
        "postgresql://ann:Sesame123@127.0.0.1:1/gomoku?connect_timeout=2",
        "host=127.0.0.1 port=1 user=ann password=Sesame123 dbname=x connect_timeout=2",
        "host=127.0.0.1 password=Sesame123 nonsense",
        "postgres://ann:Sesame123@[::1/x",
        "dbname=x password='Sesame123 unknown_option=1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        s = (gmk_store *)1;
        gmk_store_status st = gmk_store_open(bad[i], 0, &s, err, sizeof err);
        cr_assert_neq(st, GMK_STORE_OK, "%s", bad[i]);
        cr_assert_null(s);
        cr_assert(err[0], "a message for %s", bad[i]);
        cr_assert_null(strstr(err, "Sesame123"), "%s", err);
    }
    /* the command line tools show the same message */
    char out[8192], outf[600], cmd[1200];
    snprintf(outf, sizeof outf, "%s/stats.out", tmp);
    const char *bin = getenv("GMK_BIN");
    if (!bin) return;
    snprintf(cmd, sizeof cmd, "'%s' stats --db '%s' >'%s' 2>&1", bin, bad[0], outf);
    cr_assert_neq(system(cmd), 0);
    FILE *f = fopen(outf, "r");
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    cr_assert(strstr(out, "127.0.0.1") != NULL, "%s", out);
    cr_assert_null(strstr(out, "Sesame123"), "%s", out);
}

/* Two processes, each with its own connection, play the same ply of one game at the same
 * moment, many times over: exactly one of them is stored each time (the row lock of the game
 * orders them; the second sees the first's move and is refused). */
Test(store, pg_two_writers_one_move) {
    pg_only();
    char path[512];
    gmk_store *s = open_ok(db(path, "race"));
    int64_t id = begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY);
    enum { ROUNDS = 20 };
    int go[2][2], done[2][2];
    pid_t kid[2];
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(pipe(go[k]), 0);
        cr_assert_eq(pipe(done[k]), 0);
        kid[k] = fork();
        cr_assert_geq(kid[k], 0);
        if (kid[k] == 0) {
            char e[512];
            gmk_store *c = NULL;
            if (gmk_store_open(path, 0, &c, e, sizeof e) != GMK_STORE_OK) _exit(2);
            int ply;
            while (read(go[k][0], &ply, sizeof ply) == sizeof ply && ply >= 0) {
                int st = gmk_store_game_add_move(c, id, ply, (ply * 3 + k) % 15,
                                                 (ply * 3 + k) / 15 % 15, k, e, sizeof e);
                if (write(done[k][1], &st, sizeof st) != sizeof st) _exit(3);
            }
            gmk_store_close(c);
            _exit(0);
        }
    }
    for (int ply = 0; ply < ROUNDS; ply++) {
        for (int k = 0; k < 2; k++) cr_assert_eq(write(go[k][1], &ply, sizeof ply), sizeof ply);
        int st[2];
        for (int k = 0; k < 2; k++)
            cr_assert_eq(read(done[k][0], &st[k], sizeof st[k]), sizeof st[k]);
        cr_assert((st[0] == GMK_STORE_OK) != (st[1] == GMK_STORE_OK),
                  "ply %d: exactly one stored (%s, %s)", ply, gmk_store_status_name(st[0]),
                  gmk_store_status_name(st[1]));
        for (int k = 0; k < 2; k++)
            if (st[k] != GMK_STORE_OK) cr_assert_eq(st[k], GMK_STORE_INVALID);
    }
    for (int k = 0; k < 2; k++) {
        int stop = -1; /* the other child holds this pipe open too: no end of file */
        cr_assert_eq(write(go[k][1], &stop, sizeof stop), sizeof stop);
        int status;
        cr_assert_eq(waitpid(kid[k], &status, 0), kid[k]);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(s, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(rec.game.move_count, ROUNDS);
    gmk_store_close(s);
}

/* A statement that waits too long (here on a lock another connection holds) is cut by the
 * statement timeout: the call fails with GMK_STORE_BUSY in about the timeout, stores nothing,
 * and the handle works once the lock is gone. */
Test(store, pg_statement_timeout) {
    pg_only();
    char path[512], quick[512];
    gmk_store *a = open_ok(db(path, "slow"));
    int64_t id = begin(a, GMK_STORE_MODE_HVH, 0, GMK_EMPTY);
    gmk_store *b = open_ok(db_with(quick, "slow", " -c statement_timeout=300"));
    cr_assert_eq(gmk_store_batch_begin(a, err, sizeof err), GMK_STORE_OK, "%s", err);
    add(a, id, 0, 7, 7, 0); /* holds the game's row lock until the batch ends */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gmk_store_status st = gmk_store_game_add_move(b, id, 1, 8, 8, 0, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    cr_assert_eq(st, GMK_STORE_BUSY, "%s: %s", gmk_store_status_name(st), err);
    cr_assert(ms >= 250 && ms < 3000, "cut after %.0f ms", ms);
    cr_assert(strstr(err, "timeout") != NULL, "%s", err);
    cr_assert_eq(gmk_store_batch_end(a, true, err, sizeof err), GMK_STORE_OK, "%s", err);
    add(b, id, 1, 8, 8, 0);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(a, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(rec.game.move_count, 2);
    gmk_store_close(a);
    gmk_store_close(b);
}

/* The server ends the connection (as on a restart): the call in flight fails with
 * GMK_STORE_UNAVAILABLE and stores nothing; a batch open across the loss saves nothing; the
 * next call connects again by itself. */
Test(store, pg_connection_lost_and_made_again) {
    pg_only();
    char path[512], app[700];
    snprintf(app, sizeof app, "%s application_name=gmk_lost_test", db(path, "lost"));
    gmk_store *s = open_ok(app);
    int64_t id = begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY);
    add(s, id, 0, 7, 7, 0);
    const char *kill_it = "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
                          "WHERE application_name = 'gmk_lost_test';";
    cr_assert_eq(psql_in("lost", false, kill_it), 0);
    gmk_store_status st = gmk_store_game_add_move(s, id, 1, 8, 8, 0, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_UNAVAILABLE, "%s: %s", gmk_store_status_name(st), err);
    add(s, id, 1, 8, 8, 0); /* connected again */
    cr_assert_eq(gmk_store_batch_begin(s, err, sizeof err), GMK_STORE_OK, "%s", err);
    add(s, id, 2, 9, 9, 0);
    cr_assert_eq(psql_in("lost", false, kill_it), 0);
    cr_assert_neq(gmk_store_game_add_move(s, id, 3, 10, 10, 0, err, sizeof err), GMK_STORE_OK);
    st = gmk_store_batch_end(s, true, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_UNAVAILABLE, "%s: %s", gmk_store_status_name(st), err);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(s, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(rec.game.move_count, 2, "the batch saved nothing");
    gmk_store_close(s);
}

/* Several processes open a new database at the same moment: the advisory lock lets one
 * create the schema; every open succeeds and the version is recorded once. */
Test(store, pg_servers_migrate_once) {
    pg_only();
    char path[512];
    db(path, "together");
    enum { KIDS = 4 };
    pid_t kid[KIDS];
    for (int k = 0; k < KIDS; k++) {
        kid[k] = fork();
        cr_assert_geq(kid[k], 0);
        if (kid[k] == 0) {
            char e[512];
            gmk_store *c = NULL;
            gmk_store_status st = gmk_store_open(path, 0, &c, e, sizeof e);
            if (st != GMK_STORE_OK) fprintf(stderr, "open: %s\n", e);
            gmk_store_close(c);
            _exit(st == GMK_STORE_OK ? 0 : 1);
        }
    }
    for (int k = 0; k < KIDS; k++) {
        int status;
        cr_assert_eq(waitpid(kid[k], &status, 0), kid[k]);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "opener %d failed", k);
    }
    cr_assert_eq(count_of("together", "SELECT count(*) FROM gomoku_schema"), 1);
    cr_assert_eq(count_of("together", "SELECT max(version) FROM gomoku_schema"),
                 GMK_STORE_SCHEMA_VERSION);
}

/* A name selects its backend: connection strings PostgreSQL, anything else a file. */
Test(store, names_select_the_backend) {
    cr_assert(gmk_store_names_server("postgresql://ann@db.example/gomoku"));
    cr_assert(gmk_store_names_server("postgres:///gomoku?host=/run/postgresql"));
    cr_assert(gmk_store_names_server("host=/run/postgresql dbname=gomoku"));
    cr_assert(gmk_store_names_server("dbname = gomoku"));
    cr_assert_not(gmk_store_names_server("/var/lib/gomoku/gomoku.db"));
    cr_assert_not(gmk_store_names_server("games.db"));
    cr_assert_not(gmk_store_names_server("colour=blue.db"), "not a libpq keyword");
    cr_assert_not(gmk_store_names_server("postgresql.db"));
}

/* Schema 5's tables (store/reviews.h) on both backends: a review kept, replaced and read back;
 * a puzzle player's rating with its doubles exact. */
Test(store, reviews_and_puzzle_players) {
    char path[512];
    gmk_store *s = open_ok(db(path, "rev"));
    int64_t id = begin(s, GMK_STORE_MODE_HVC, 3, GMK_BLACK);
    char *data = NULL;
    cr_assert_eq(gmk_store_review_get(s, id, 10, 60000, &data, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_review_put(s, id, 10, 60000, "{\"a\": 1}", err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_eq(
        gmk_store_review_put(s, id, 10, 60000, "{\"a\": 2, \"ü\": \"五\"}", err, sizeof err),
        GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_review_put(s, id + 99, 10, 60000, "{}", err, sizeof err),
                 GMK_STORE_NOT_FOUND, "no such game");
    gmk_store_close(s);
    s = open_ok(path);
    cr_assert_eq(gmk_store_review_get(s, id, 10, 60000, &data, err, sizeof err), GMK_STORE_OK, "%s",
                 err);
    cr_assert_str_eq(data, "{\"a\": 2, \"ü\": \"五\"}");
    free(data);
    gmk_store_puzzle_player p = {.player = "local",
                                 .rating = 1623.4567890123,
                                 .deviation = 87.25,
                                 .volatility = 0.0600001,
                                 .streak = 3,
                                 .best_streak = 7,
                                 .solved = 12,
                                 .failed = 4,
                                 .updated_s = 1700000000};
    cr_assert_eq(gmk_store_puzzle_player_put(s, &p, err, sizeof err), GMK_STORE_OK, "%s", err);
    p.streak = 4;
    cr_assert_eq(gmk_store_puzzle_player_put(s, &p, err, sizeof err), GMK_STORE_OK, "%s", err);
    gmk_store_puzzle_player q;
    cr_assert_eq(gmk_store_puzzle_player_get(s, "local", &q, err, sizeof err), GMK_STORE_OK, "%s",
                 err);
    cr_assert(q.rating == p.rating && q.deviation == p.deviation && q.volatility == p.volatility);
    cr_assert_eq(q.streak, 4);
    cr_assert_eq(q.best_streak, 7);
    cr_assert_eq(q.updated_s, 1700000000);
    cr_assert_eq(gmk_store_puzzle_player_get(s, "nobody", &q, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    gmk_store_close(s);
}

/* The per-player scoreboard of online games on both backends (each game once from each side). */
Test(store, player_scores) {
    char path[512];
    gmk_store *s = open_ok(db(path, "players"));
    finish(s, begin(s, GMK_STORE_MODE_ONLINE, 0, GMK_EMPTY), GMK_BLACK_WINS, GMK_REASON_FIVE);
    finish(s, begin(s, GMK_STORE_MODE_ONLINE, 0, GMK_EMPTY), GMK_BLACK_WINS, GMK_REASON_FIVE);
    finish(s, begin(s, GMK_STORE_MODE_ONLINE, 0, GMK_EMPTY), GMK_DRAW, GMK_REASON_AGREEMENT);
    finish(s, begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY), GMK_WHITE_WINS, GMK_REASON_FIVE);
    gmk_store_player_score p[8];
    int n = 0;
    cr_assert_eq(gmk_store_player_scores(s, GMK_STORE_MODE_ONLINE, p, 8, &n, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(p[0].name, "Ann"); /* black in each: two wins */
    cr_assert_eq(p[0].games, 3);
    cr_assert_eq(p[0].wins, 2);
    cr_assert_eq(p[0].draws, 1);
    cr_assert_str_eq(p[1].name, "Bob");
    cr_assert_eq(p[1].losses, 2);
    cr_assert_eq(gmk_store_seat_scores(s, p, 8, &n, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(n, 0, "no room: no seat scores");
    gmk_store_close(s);
}

/* Group commit on PostgreSQL: with deferred syncing, a write is visible to another connection
 * as soon as it returns, and gmk_store_sync (on its own connection) succeeds and can be called
 * from another thread while the handle writes. */
static void *sync_twice(void *arg) {
    char e[256];
    for (int i = 0; i < 20; i++)
        if (gmk_store_sync(arg, e, sizeof e) != GMK_STORE_OK) return (void *)1;
    return NULL;
}

Test(store, pg_group_commit) {
    pg_only();
    char path[512];
    gmk_store *s = open_ok(db(path, "group"));
    cr_assert_eq(gmk_store_defer_sync(s, err, sizeof err), GMK_STORE_OK, "%s", err);
    int64_t id = begin(s, GMK_STORE_MODE_HVH, 0, GMK_EMPTY);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, sync_twice, s), 0);
    for (int ply = 0; ply < 20; ply++) add(s, id, ply, ply % 15, ply / 15, 0);
    void *bad = NULL;
    pthread_join(t, &bad);
    cr_assert_null(bad, "every sync succeeded");
    cr_assert_eq(gmk_store_sync(s, err, sizeof err), GMK_STORE_OK, "%s", err);
    gmk_store *other = open_ok(path);
    static gmk_store_record rec;
    cr_assert_eq(gmk_store_game_load(other, id, &rec, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(rec.game.move_count, 20);
    gmk_store_close(other);
    gmk_store_close(s);
}
