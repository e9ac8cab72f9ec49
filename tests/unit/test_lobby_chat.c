/* test_lobby_chat.c: the lobby's chat in the store (store/lobby_chat.h) against a real SQLite
 * file, and against a real PostgreSQL server when GMK_TEST_PG names one (tests/run.sh runs
 * this suite a second time with its private server, each test in a fresh schema): lines come
 * back oldest first with what was stored, only the last `keep` are kept (the older ones pruned
 * by each add), they outlive the handle (a restarted server), and bad lines are refused with
 * nothing stored. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "store/lobby_chat.h"

static char tmp[256], dbpath[600];
static char err[512];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void make_tmp(void) {
    snprintf(tmp, sizeof tmp, "/tmp/gmk-lchat-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
}

static void remove_tmp(void) {
    nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(lobby_chat, .init = make_tmp, .fini = remove_tmp);

/* The database called name: a file under tmp, or a fresh schema of the PostgreSQL server
 * (made on the first call for that name). */
static gmk_store *open_db(const char *name, bool fresh) {
    const char *pg = getenv("GMK_TEST_PG");
    if (pg && *pg) {
        char schema[128];
        snprintf(schema, sizeof schema, "lchat_%s_%s", strrchr(tmp, '-') + 1, name);
        for (char *c = schema; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
            else if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
                *c = '_';
        if (fresh) {
            char cmd[900];
            snprintf(cmd, sizeof cmd,
                     "psql -X -q -v ON_ERROR_STOP=1 -d \"$GMK_TEST_PG\" -c 'CREATE SCHEMA %s' "
                     ">/dev/null 2>&1",
                     schema);
            int rc = system(cmd);
            cr_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "cannot create schema %s", schema);
        }
        snprintf(dbpath, sizeof dbpath, "%s options='-c search_path=%s'", pg, schema);
    } else {
        snprintf(dbpath, sizeof dbpath, "%s/%s.db", tmp, name);
    }
    gmk_store *s = NULL;
    gmk_store_status st = gmk_store_open(dbpath, GMK_STORE_OPEN_DEFAULT, &s, err, sizeof err);
    cr_assert_eq(st, GMK_STORE_OK, "open: %s", err);
    return s;
}

/* A line of sender byte p, account a, at time t. */
static gmk_store_lobby_line line(int p, int64_t a, int64_t t, const char *name, const char *text) {
    gmk_store_lobby_line l;
    memset(&l, 0, sizeof l);
    l.sender[0] = (uint8_t)p;
    l.sender[15] = 0xee;
    l.account = a;
    l.at_ms = t;
    snprintf(l.name, sizeof l.name, "%s", name);
    snprintf(l.text, sizeof l.text, "%s", text);
    return l;
}

static gmk_store_lobby_line got[200];

static int recent(gmk_store *s, int cap) {
    int n = -1;
    cr_assert_eq(gmk_store_lobby_chat_recent(s, got, cap, &n, err, sizeof err), GMK_STORE_OK, "%s",
                 err);
    return n;
}

Test(lobby_chat, lines_come_back_oldest_first_as_stored) {
    gmk_store *s = open_db("back", true);
    cr_assert_eq(recent(s, 10), 0, "an empty chat");
    gmk_store_lobby_line a = line(1, 0, 1800000000000LL, "Ann", "hello <b>all</b>");
    gmk_store_lobby_line b = line(2, 7, 1800000000500LL, "Bob", "你好");
    cr_assert_eq(gmk_store_lobby_chat_add(s, &a, 100, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_lobby_chat_add(s, &b, 100, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert(a.id > 0 && b.id > a.id, "ids %lld %lld", (long long)a.id, (long long)b.id);
    cr_assert_eq(recent(s, 10), 2);
    cr_assert_eq(got[0].id, a.id);
    cr_assert_str_eq(got[0].name, "Ann");
    cr_assert_str_eq(got[0].text, "hello <b>all</b>");
    cr_assert_eq(got[0].at_ms, 1800000000000LL);
    cr_assert_eq(got[0].account, 0);
    cr_assert_eq(memcmp(got[0].sender, a.sender, GMK_STORE_TAG_LEN), 0);
    cr_assert_eq(got[1].id, b.id);
    cr_assert_str_eq(got[1].text, "你好");
    cr_assert_eq(got[1].account, 7);
    cr_assert_eq(recent(s, 1), 1, "the last one only");
    cr_assert_eq(got[0].id, b.id);
    gmk_store_close(s);
}

Test(lobby_chat, only_the_last_lines_are_kept_and_outlive_the_handle) {
    gmk_store *s = open_db("keep", true);
    int64_t ids[30];
    for (int i = 0; i < 30; i++) {
        char text[32];
        snprintf(text, sizeof text, "line %d", i);
        gmk_store_lobby_line l = line(i, 0, 1800000000000LL + i, "Ann", text);
        cr_assert_eq(gmk_store_lobby_chat_add(s, &l, 10, err, sizeof err), GMK_STORE_OK, "%s", err);
        ids[i] = l.id;
    }
    cr_assert_eq(recent(s, 200), 10, "the older lines were pruned");
    for (int i = 0; i < 10; i++) {
        cr_assert_eq(got[i].id, ids[20 + i]);
        char text[32];
        snprintf(text, sizeof text, "line %d", 20 + i);
        cr_assert_str_eq(got[i].text, text);
    }
    gmk_store_close(s);
    s = open_db("keep", false); /* a restarted server */
    cr_assert_eq(recent(s, 200), 10);
    cr_assert_str_eq(got[9].text, "line 29");
    gmk_store_lobby_line l = line(1, 0, 1800000001000LL, "Ann", "after");
    cr_assert_eq(gmk_store_lobby_chat_add(s, &l, 10, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert(l.id > ids[29], "ids keep increasing");
    cr_assert_eq(recent(s, 200), 10);
    cr_assert_str_eq(got[0].text, "line 21");
    gmk_store_close(s);
}

Test(lobby_chat, bad_lines_are_refused_and_nothing_is_stored) {
    gmk_store *s = open_db("bad", true);
    gmk_store_lobby_line ok = line(1, 0, 1800000000000LL, "Ann", "fine");
    gmk_store_lobby_line bad[4] = {line(1, 0, 1800000000000LL, "", "no name"),
                                   line(1, 0, 1800000000000LL, "Ann", ""),
                                   line(1, 0, 0, "Ann", "no time"), ok};
    for (int i = 0; i < 3; i++)
        cr_assert_eq(gmk_store_lobby_chat_add(s, &bad[i], 100, err, sizeof err), GMK_STORE_INVALID,
                     "line %d", i);
    cr_assert_eq(gmk_store_lobby_chat_add(s, &bad[3], 0, err, sizeof err), GMK_STORE_INVALID,
                 "keep 0");
    cr_assert_eq(gmk_store_lobby_chat_add(s, NULL, 100, err, sizeof err), GMK_STORE_INVALID);
    int n = 5;
    cr_assert_eq(gmk_store_lobby_chat_recent(s, NULL, 3, &n, err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(n, 0);
    cr_assert_eq(recent(s, 10), 0, "nothing stored");
    gmk_store_close(s);
}
