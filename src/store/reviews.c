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
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db,
                                "INSERT OR REPLACE INTO reviews (game_id, moves, nodes, made_at, "
                                "data) VALUES (?, ?, ?, ?, ?)",
                                -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 2, moves);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 3, nodes);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 4, (int64_t)time(NULL));
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(q, 5, data, (int)len, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc == SQLITE_CONSTRAINT)
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s: there is no game %lld", what,
                          (long long)id);
    if (rc != SQLITE_DONE) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_review_get(gmk_store *s, int64_t id, int moves, int64_t nodes,
                                      char **data, char *err, size_t errlen) {
    char what[80];
    snprintf(what, sizeof what, "cannot read the review of game %lld", (long long)id);
    *data = NULL;
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(
        s->db, "SELECT data FROM reviews WHERE game_id = ? AND moves = ? AND nodes = ?", -1, &q,
        NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 2, moves);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 3, nodes);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        const unsigned char *text = sqlite3_column_text(q, 0);
        int n = sqlite3_column_bytes(q, 0);
        *data = text && n >= 0 ? malloc((size_t)n + 1) : NULL;
        if (*data) {
            memcpy(*data, text, (size_t)n);
            (*data)[n] = '\0';
            st = GMK_STORE_OK;
        } else {
            st = store_fail(err, errlen, GMK_STORE_IO, "%s: out of memory", what);
        }
    } else if (rc == SQLITE_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "game %lld has no review yet",
                        (long long)id);
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    sqlite3_finalize(q);
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
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db,
                                "SELECT rating, deviation, volatility, streak, best_streak, "
                                "solved, failed, updated_at FROM puzzle_players WHERE player = ?",
                                -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(q, 1, player, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        memset(out, 0, sizeof *out);
        snprintf(out->player, sizeof out->player, "%s", player);
        out->rating = sqlite3_column_double(q, 0);
        out->deviation = sqlite3_column_double(q, 1);
        out->volatility = sqlite3_column_double(q, 2);
        out->streak = sqlite3_column_int(q, 3);
        out->best_streak = sqlite3_column_int(q, 4);
        out->solved = sqlite3_column_int(q, 5);
        out->failed = sqlite3_column_int(q, 6);
        out->updated_s = sqlite3_column_int64(q, 7);
        st = GMK_STORE_OK;
    } else if (rc == SQLITE_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no puzzle rating yet");
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    sqlite3_finalize(q);
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
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db,
                                "INSERT OR REPLACE INTO puzzle_players (player, rating, "
                                "deviation, volatility, streak, best_streak, solved, failed, "
                                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(q, 1, p->player, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(q, 2, p->rating);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(q, 3, p->deviation);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(q, 4, p->volatility);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 5, p->streak);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 6, p->best_streak);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 7, p->solved);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(q, 8, p->failed);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(q, 9, p->updated_s ? p->updated_s : (int64_t)time(NULL));
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}
