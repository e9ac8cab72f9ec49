/* reviews.c: reviews of games and puzzle players in the store (reviews.h). */
#include "store/reviews.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_internal.h"

gmk_store_status gmk_store_review_put(gmk_store *s, int64_t id, int moves, int64_t nodes,
                                      const char *data, char *err, size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot save the review of game %lld", (long long)id);
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    size_t len = data ? strlen(data) : 0;
    if (id <= 0 || moves < 0 || moves > GMK_MAX_MOVES || nodes <= 0 || !data ||
        len > GMK_STORE_REVIEW_MAX)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = store_stmt(s,
                            "INSERT INTO reviews (game_id, moves, nodes, made_at, data) "
                            "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, moves, nodes) "
                            "DO UPDATE SET made_at = excluded.made_at, data = excluded.data",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_int64(q, 2, moves);
    if (rc == DB_OK) rc = q_int64(q, 3, nodes);
    if (rc == DB_OK) rc = q_int64(q, 4, (int64_t)time(NULL));
    if (rc == DB_OK) rc = q_text(q, 5, data, len);
    if (rc == DB_OK) rc = q_step(q);
    store_stmt_release(s, q);
    if (rc == DB_CONSTRAINT) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s: there is no game %lld", what,
                          (long long)id);
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_review_get(gmk_store *s, int64_t id, int moves, int64_t nodes,
                                      char **data, char *err, size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot read the review of game %lld", (long long)id);
    *data = NULL;
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc;
    store_q *q = store_stmt(
        s, "SELECT data FROM reviews WHERE game_id = ?1 AND moves = ?2 AND nodes = ?3", &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_int64(q, 2, moves);
    if (rc == DB_OK) rc = q_int64(q, 3, nodes);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        const char *text = q_coltext(q, 0);
        size_t n = text ? strlen(text) : 0;
        *data = text ? malloc(n + 1) : NULL;
        if (*data) {
            memcpy(*data, text, n);
            (*data)[n] = '\0';
            st = GMK_STORE_OK;
        } else {
            st = store_fail(err, errlen, GMK_STORE_IO, "%s: out of memory", what);
        }
    } else if (rc == DB_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "game %lld has no review yet",
                        (long long)id);
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    store_stmt_release(s, q);
    return st;
}

static bool player_key_ok(const char *p) {
    size_t n = p ? strlen(p) : 0;
    return n > 0 && n < GMK_STORE_PLAYER_MAX;
}

gmk_store_status gmk_store_puzzle_player_get(gmk_store *s, const char *player,
                                             gmk_store_puzzle_player *out, char *err,
                                             size_t errlen) {
    const char *what = "cannot read the puzzle rating";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!player_key_ok(player))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad player", what);
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT rating, deviation, volatility, streak, best_streak, "
                            "solved, failed, updated_at FROM puzzle_players WHERE player = ?1",
                            &rc);
    if (rc == DB_OK) rc = q_text(q, 1, player, strlen(player));
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        memset(out, 0, sizeof *out);
        snprintf(out->player, sizeof out->player, "%s", player);
        out->rating = q_coldouble(q, 0);
        out->deviation = q_coldouble(q, 1);
        out->volatility = q_coldouble(q, 2);
        out->streak = q_colint(q, 3);
        out->best_streak = q_colint(q, 4);
        out->solved = q_colint(q, 5);
        out->failed = q_colint(q, 6);
        out->updated_s = q_col64(q, 7);
        st = GMK_STORE_OK;
    } else if (rc == DB_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no puzzle rating yet");
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    store_stmt_release(s, q);
    return st;
}

gmk_store_status gmk_store_puzzle_player_put(gmk_store *s, const gmk_store_puzzle_player *p,
                                             char *err, size_t errlen) {
    const char *what = "cannot save the puzzle rating";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!p || !player_key_ok(p->player) || !isfinite(p->rating) || !(p->deviation > 0) ||
        !isfinite(p->deviation) || !(p->volatility > 0) || !isfinite(p->volatility) ||
        p->streak < 0 || p->best_streak < 0 || p->solved < 0 || p->failed < 0)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q =
        store_stmt(s,
                   "INSERT INTO puzzle_players (player, rating, deviation, volatility, "
                   "streak, best_streak, solved, failed, updated_at) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (player) "
                   "DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
                   "volatility = excluded.volatility, streak = excluded.streak, "
                   "best_streak = excluded.best_streak, solved = excluded.solved, "
                   "failed = excluded.failed, updated_at = excluded.updated_at",
                   &rc);
    if (rc == DB_OK) rc = q_text(q, 1, p->player, strlen(p->player));
    if (rc == DB_OK) rc = q_double(q, 2, p->rating);
    if (rc == DB_OK) rc = q_double(q, 3, p->deviation);
    if (rc == DB_OK) rc = q_double(q, 4, p->volatility);
    if (rc == DB_OK) rc = q_int64(q, 5, p->streak);
    if (rc == DB_OK) rc = q_int64(q, 6, p->best_streak);
    if (rc == DB_OK) rc = q_int64(q, 7, p->solved);
    if (rc == DB_OK) rc = q_int64(q, 8, p->failed);
    if (rc == DB_OK) rc = q_int64(q, 9, p->updated_s ? p->updated_s : (int64_t)time(NULL));
    if (rc == DB_OK) rc = q_step(q);
    store_stmt_release(s, q);
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}
