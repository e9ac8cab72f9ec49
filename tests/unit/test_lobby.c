/* test_lobby.c: the lobby's seeks in the store (store/lobby.h) and its pairing window
 * (game/lobby.h) against a real SQLite file: a seek is taken once, quick pairing takes the
 * longest-waiting entry that fits (time control, rated, not oneself, ratings within a window
 * that widens with the wait), the per-client limit, a poster's seeks removed when it leaves,
 * expiry, and taken seeks kept a minute for the other servers. Time is given, never slept. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>

#include "game/lobby.h"
#include "store/lobby.h"

static char tmp[256], dbpath[300];
static char err[512];
static gmk_store *store;
static const int64_t T0 = 1800000000000LL;

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void setup(void) {
    snprintf(tmp, sizeof tmp, "/tmp/gmk-lobby-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
    snprintf(dbpath, sizeof dbpath, "%s/lobby.db", tmp);
    cr_assert_eq(gmk_store_open(dbpath, GMK_STORE_OPEN_DEFAULT, &store, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
}

static void teardown(void) {
    gmk_store_close(store);
    nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(lobby, .init = setup, .fini = teardown);

/* A seek by poster p (a byte of its tag) from client c, rating r, posted at t. */
static gmk_store_seek seek(int kind, int p, int c, int r, int clock_min, int64_t t) {
    gmk_store_seek k;
    memset(&k, 0, sizeof k);
    k.kind = kind;
    k.poster[0] = (uint8_t)p;
    k.client[0] = 4;
    k.client[1] = (uint8_t)c;
    snprintf(k.name, sizeof k.name, "p%d", p);
    k.rating = r;
    k.rule = GMK_RULE_FREESTYLE;
    k.size = 15;
    k.clock_ms = clock_min * 60000LL;
    k.increment_ms = 3000;
    snprintf(k.code, sizeof k.code, "CODE%d%d", p, (int)(t % 1000));
    k.created_ms = t;
    k.expires_ms = t + GMK_LOBBY_SEEK_MS;
    return k;
}

static int64_t add(gmk_store_seek k) {
    cr_assert_eq(gmk_store_seek_add(store, &k, GMK_LOBBY_MAX_OPEN, err, sizeof err), GMK_STORE_OK,
                 "%s", err);
    cr_assert_gt(k.id, 0);
    return k.id;
}

Test(lobby, window_widens_with_the_wait) {
    cr_expect_eq(gmk_lobby_window(0), GMK_LOBBY_WINDOW);
    cr_expect_eq(gmk_lobby_window(30000), GMK_LOBBY_WINDOW + 300);
    cr_expect_eq(gmk_lobby_window(-5), GMK_LOBBY_WINDOW);
    cr_expect(gmk_lobby_fits(1500, 1650, 0));
    cr_expect(!gmk_lobby_fits(1500, 1651, 0));
    cr_expect(gmk_lobby_fits(1500, 1651, 100));
    cr_expect(gmk_lobby_fits(2000, 1500, 35000));
}

Test(lobby, a_seek_is_taken_once) {
    int64_t id = add(seek(GMK_SEEK_OPEN, 1, 1, 1500, 5, T0));
    gmk_store_seek got;
    cr_assert_eq(gmk_store_seek_take(store, id, &got, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_expect_eq(got.state, 1);
    cr_expect_str_eq(got.code, "CODE10");
    cr_expect_eq(gmk_store_seek_take(store, id, &got, err, sizeof err), GMK_STORE_NOT_FOUND);
    uint8_t poster[GMK_STORE_TAG_LEN] = {1};
    cr_expect_eq(gmk_store_seek_cancel(store, id, poster, err, sizeof err), GMK_STORE_NOT_FOUND,
                 "a taken seek cannot be cancelled");
    int n = 0;
    gmk_store_seek open[4];
    cr_assert_eq(gmk_store_seeks_open(store, open, 4, &n, err, sizeof err), GMK_STORE_OK);
    cr_expect_eq(n, 0);
    /* kept a minute for the other servers, then gone */
    cr_assert_eq(gmk_store_seek_get(store, id, &got, err, sizeof err), GMK_STORE_OK);
    int64_t ids[4];
    cr_assert_eq(gmk_store_seeks_remove(store, NULL, T0 + 59000, ids, 4, &n, err, sizeof err),
                 GMK_STORE_OK);
    cr_assert_eq(gmk_store_seek_get(store, id, &got, err, sizeof err), GMK_STORE_OK);
    cr_assert_eq(gmk_store_seeks_remove(store, NULL, T0 + 61000, ids, 4, &n, err, sizeof err),
                 GMK_STORE_OK);
    cr_expect_eq(n, 0, "a taken seek's removal is no news");
    cr_expect_eq(gmk_store_seek_get(store, id, &got, err, sizeof err), GMK_STORE_NOT_FOUND);
}

Test(lobby, quick_pairing_takes_the_longest_waiting_that_fits) {
    int64_t far = add(seek(GMK_SEEK_QUICK, 1, 1, 2000, 5, T0));       /* too strong at first */
    int64_t other_tc = add(seek(GMK_SEEK_QUICK, 2, 2, 1500, 10, T0)); /* another clock */
    int64_t open = add(seek(GMK_SEEK_OPEN, 3, 3, 1500, 5, T0));       /* listed: not paired */
    int64_t near = add(seek(GMK_SEEK_QUICK, 4, 4, 1600, 5, T0 + 1000));
    int64_t near2 = add(seek(GMK_SEEK_QUICK, 5, 5, 1550, 5, T0 + 2000));
    gmk_store_seek want = seek(GMK_SEEK_QUICK, 9, 9, 1500, 5, T0 + 3000), got;
    bool found = false;
    cr_assert_eq(gmk_store_seek_match(store, &want, T0 + 3000, GMK_LOBBY_WINDOW,
                                      GMK_LOBBY_WINDOW_PER_MS, &got, &found, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert(found);
    cr_expect_eq(got.id, near, "the longest waiting that fits, not the closest");
    cr_expect_eq(got.state, 1);
    /* the 2000 one has waited 40 s by then: 150 + 400 covers 500 */
    cr_assert_eq(gmk_store_seek_match(store, &want, T0 + 40000, GMK_LOBBY_WINDOW,
                                      GMK_LOBBY_WINDOW_PER_MS, &got, &found, err, sizeof err),
                 GMK_STORE_OK);
    cr_expect(found && got.id == far, "the window widened");
    cr_assert_eq(gmk_store_seek_match(store, &want, T0 + 40000, GMK_LOBBY_WINDOW,
                                      GMK_LOBBY_WINDOW_PER_MS, &got, &found, err, sizeof err),
                 GMK_STORE_OK);
    cr_expect(found && got.id == near2);
    cr_assert_eq(gmk_store_seek_match(store, &want, T0 + 40000, GMK_LOBBY_WINDOW,
                                      GMK_LOBBY_WINDOW_PER_MS, &got, &found, err, sizeof err),
                 GMK_STORE_OK);
    cr_expect(!found, "the 10-minute entry and the listed seek are not for a 5-minute ask");
    /* nobody is paired with itself */
    gmk_store_seek self = seek(GMK_SEEK_QUICK, 2, 2, 1500, 10, T0 + 5000);
    cr_assert_eq(gmk_store_seek_match(store, &self, T0 + 5000, GMK_LOBBY_WINDOW,
                                      GMK_LOBBY_WINDOW_PER_MS, &got, &found, err, sizeof err),
                 GMK_STORE_OK);
    cr_expect(!found);
    (void)other_tc, (void)open;
}

Test(lobby, per_client_limit_leaving_and_expiry) {
    for (int i = 0; i < GMK_LOBBY_MAX_OPEN; i++) add(seek(GMK_SEEK_OPEN, 1, 7, 1500, 5, T0 + i));
    gmk_store_seek k =
        seek(GMK_SEEK_QUICK, 2, 7, 1500, 5, T0 + 10); /* another poster, same client */
    cr_expect_eq(gmk_store_seek_add(store, &k, GMK_LOBBY_MAX_OPEN, err, sizeof err),
                 GMK_STORE_BUSY);
    int64_t other = add(seek(GMK_SEEK_OPEN, 3, 8, 1500, 5, T0 + 20));
    uint8_t poster[GMK_STORE_TAG_LEN] = {1};
    int64_t ids[8];
    int n = 0;
    cr_assert_eq(gmk_store_seeks_remove(store, poster, T0 + 30, ids, 8, &n, err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_expect_eq(n, GMK_LOBBY_MAX_OPEN, "the poster has left: its seeks go");
    add(k); /* room again for the client */
    cr_assert_eq(gmk_store_seeks_remove(store, NULL, T0 + 10 + GMK_LOBBY_SEEK_MS, ids, 8, &n, err,
                                        sizeof err),
                 GMK_STORE_OK);
    cr_expect_eq(n, 0, "not past its time yet");
    cr_assert_eq(gmk_store_seeks_remove(store, NULL, T0 + 21 + GMK_LOBBY_SEEK_MS, ids, 8, &n, err,
                                        sizeof err),
                 GMK_STORE_OK);
    cr_expect_eq(n, 2);
    cr_expect(ids[0] == other || ids[1] == other);
}
