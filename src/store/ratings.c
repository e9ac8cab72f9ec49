/* ratings.c: players' ratings and their history in the store (see ratings.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store/ratings.h"
#include "store/store_internal.h"

#define RATING_COLUMNS                                                                             \
    "r.account_id, a.name, r.rule, r.tc, r.rating, r.deviation, r.volatility, r.games, r.wins, "   \
    "r.losses, r.draws, r.updated_at"

static void read_rating(store_q *q, gmk_store_rating *r) {
    memset(r, 0, sizeof *r);
    r->account = q_col64(q, 0);
    const char *name = q_coltext(q, 1);
    snprintf(r->name, sizeof r->name, "%s", name ? name : "");
    r->rule = q_colint(q, 2);
    r->tc = q_colint(q, 3);
    r->rating = q_coldouble(q, 4);
    r->deviation = q_coldouble(q, 5);
    r->volatility = q_coldouble(q, 6);
    r->games = q_colint(q, 7);
    r->wins = q_colint(q, 8);
    r->losses = q_colint(q, 9);
    r->draws = q_colint(q, 10);
    r->updated_s = q_col64(q, 11);
}

static bool value_ok(double v, double lo, double hi) {
    return isfinite(v) && v >= lo && v <= hi;
}

gmk_store_status gmk_store_rating_get(gmk_store *s, int64_t account, int rule, int tc,
                                      gmk_store_rating *out, char *err, size_t errlen) {
    const char *what = "cannot read the rating";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT " RATING_COLUMNS " FROM ratings r JOIN accounts a ON "
                            "a.id = r.account_id WHERE r.account_id = ?1 AND r.rule = ?2 AND "
                            "r.tc = ?3",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, account);
    if (rc == DB_OK) rc = q_int64(q, 2, rule);
    if (rc == DB_OK) rc = q_int64(q, 3, tc);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) read_rating(q, out);
    store_stmt_release(s, q);
    if (rc == DB_DONE) return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no rating yet");
    if (rc != DB_ROW) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_rating_put(gmk_store *s, const gmk_store_rating *r, int64_t game_id,
                                      char *err, size_t errlen) {
    const char *what = "cannot save the rating";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!r || r->account <= 0 || game_id <= 0 || r->rule < 0 || r->rule >= GMK_RULE_COUNT ||
        r->tc < 0 || r->tc > 15 || !value_ok(r->rating, -10000, 10000) ||
        !value_ok(r->deviation, 0, 1000) || !value_ok(r->volatility, 0, 10) || r->games < 0 ||
        r->wins < 0 || r->losses < 0 || r->draws < 0)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = store_stmt(
        s,
        "INSERT INTO ratings (account_id, rule, tc, rating, deviation, volatility, games, wins, "
        "losses, draws, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
        "ON CONFLICT (account_id, rule, tc) DO UPDATE SET rating = excluded.rating, "
        "deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, "
        "wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, "
        "updated_at = excluded.updated_at",
        &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, r->account);
    if (rc == DB_OK) rc = q_int64(q, 2, r->rule);
    if (rc == DB_OK) rc = q_int64(q, 3, r->tc);
    if (rc == DB_OK) rc = q_double(q, 4, r->rating);
    if (rc == DB_OK) rc = q_double(q, 5, r->deviation);
    if (rc == DB_OK) rc = q_double(q, 6, r->volatility);
    if (rc == DB_OK) rc = q_int64(q, 7, r->games);
    if (rc == DB_OK) rc = q_int64(q, 8, r->wins);
    if (rc == DB_OK) rc = q_int64(q, 9, r->losses);
    if (rc == DB_OK) rc = q_int64(q, 10, r->draws);
    if (rc == DB_OK) rc = q_int64(q, 11, r->updated_s);
    if (rc == DB_OK) rc = q_step(q);
    store_stmt_release(s, q);
    if (rc == DB_DONE) {
        q = store_stmt(s,
                       "INSERT INTO rating_history (account_id, rule, tc, game_id, at, rating, "
                       "deviation) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                       &rc);
        if (rc == DB_OK) rc = q_int64(q, 1, r->account);
        if (rc == DB_OK) rc = q_int64(q, 2, r->rule);
        if (rc == DB_OK) rc = q_int64(q, 3, r->tc);
        if (rc == DB_OK) rc = q_int64(q, 4, game_id);
        if (rc == DB_OK) rc = q_int64(q, 5, r->updated_s);
        if (rc == DB_OK) rc = q_double(q, 6, r->rating);
        if (rc == DB_OK) rc = q_double(q, 7, r->deviation);
        if (rc == DB_OK) rc = q_step(q);
        store_stmt_release(s, q);
    }
    if (rc == DB_CONSTRAINT) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_INVALID,
                          "%s: game %lld was already rated, or no such account", what,
                          (long long)game_id);
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

/* Runs a rating query whose parameters are bound by the caller's values (up to 3 int64 and one
 * double); fills out. */
static gmk_store_status rating_rows(gmk_store *s, const char *sql, const int64_t *v, int nv,
                                    double d, int d_at, gmk_store_rating *out, int cap, int *count,
                                    char *err, size_t errlen) {
    const char *what = "cannot read the ratings";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no room for them", what);
    *count = 0;
    int rc;
    store_q *q = store_stmt(s, sql, &rc);
    for (int i = 0; rc == DB_OK && i < nv; i++) rc = q_int64(q, i + 1, v[i]);
    if (rc == DB_OK && d_at > 0) rc = q_double(q, d_at, d);
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        read_rating(q, &out[(*count)++]);
        rc = DB_OK;
    }
    store_stmt_release(s, q);
    if (rc != DB_DONE) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_ratings_of(gmk_store *s, int64_t account, gmk_store_rating *out, int cap,
                                      int *count, char *err, size_t errlen) {
    const int64_t v[] = {account, cap};
    return rating_rows(s,
                       "SELECT " RATING_COLUMNS " FROM ratings r JOIN accounts a ON a.id = "
                       "r.account_id WHERE r.account_id = ?1 ORDER BY r.rule, r.tc LIMIT ?2",
                       v, 2, 0, 0, out, cap, count, err, errlen);
}

gmk_store_status gmk_store_leaderboard(gmk_store *s, int rule, int tc, double max_deviation,
                                       gmk_store_rating *out, int cap, int *count, char *err,
                                       size_t errlen) {
    const int64_t v[] = {rule, tc, cap};
    return rating_rows(s,
                       "SELECT " RATING_COLUMNS " FROM ratings r JOIN accounts a ON a.id = "
                       "r.account_id WHERE r.rule = ?1 AND r.tc = ?2 AND r.deviation <= ?4 "
                       "ORDER BY r.rating DESC, a.name_key LIMIT ?3",
                       v, 3, max_deviation, 4, out, cap, count, err, errlen);
}

gmk_store_status gmk_store_rating_history(gmk_store *s, int64_t account, int rule, int tc,
                                          gmk_store_rating_point *out, int cap, int *count,
                                          char *err, size_t errlen) {
    const char *what = "cannot read the rating history";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!count || cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no room for it", what);
    *count = 0;
    int rc;
    /* the last cap points, newest first, then turned around */
    store_q *q = store_stmt(s,
                            "SELECT game_id, at, rating, deviation FROM rating_history WHERE "
                            "account_id = ?1 AND rule = ?2 AND tc = ?3 "
                            "ORDER BY at DESC, game_id DESC LIMIT ?4",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, account);
    if (rc == DB_OK) rc = q_int64(q, 2, rule);
    if (rc == DB_OK) rc = q_int64(q, 3, tc);
    if (rc == DB_OK) rc = q_int64(q, 4, cap);
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        gmk_store_rating_point *p = &out[(*count)++];
        p->game_id = q_col64(q, 0);
        p->at_s = q_col64(q, 1);
        p->rating = q_coldouble(q, 2);
        p->deviation = q_coldouble(q, 3);
        rc = DB_OK;
    }
    store_stmt_release(s, q);
    if (rc != DB_DONE) return store_sql_fail(s, rc, what, err, errlen);
    for (int i = 0, j = *count - 1; i < j; i++, j--) {
        gmk_store_rating_point t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return GMK_STORE_OK;
}
