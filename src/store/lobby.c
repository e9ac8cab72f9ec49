/* lobby.c: the lobby's seeks in the store (see lobby.h). */
#include "store/lobby.h"

#include <stdio.h>
#include <string.h>

#include "store/store_internal.h"

#define TAKEN_KEEP_MS 60000 /* a taken seek is kept this long for the other servers */

#define SEEK_COLUMNS                                                                               \
    "id, kind, state, poster, client, name, account_id, rating, rule, size, clock_ms, "            \
    "increment_ms, rated, color, code, token_sha256, created_ms, expires_ms"

static const void *s_blob(store_q *q, int i, size_t *len) {
    *len = 0;
    return q->s->be->column_blob(q, i, len);
}

static const char *seek_invalid(const gmk_store_seek *k) {
    if (k->kind != GMK_SEEK_OPEN && k->kind != GMK_SEEK_QUICK) return "bad kind";
    if ((unsigned)k->rule >= GMK_RULE_COUNT || k->size < GMK_MIN_SIZE || k->size > GMK_MAX_SIZE)
        return "bad rule or size";
    if (k->clock_ms < 0 || k->increment_ms < 0 || k->clock_ms > 24LL * 3600000) return "bad clock";
    if (k->color < 0 || k->color > 2 || k->rating < 0 || k->rating > 10000) return "bad seek";
    size_t n = strnlen(k->code, GMK_STORE_ROOM_CODE_MAX);
    if (n == 0 || n >= GMK_STORE_ROOM_CODE_MAX) return "bad room code";
    if (strnlen(k->name, GMK_STORE_NAME_MAX) >= GMK_STORE_NAME_MAX || !k->name[0])
        return "bad name";
    if (k->created_ms <= 0 || k->expires_ms < k->created_ms) return "bad time";
    return NULL;
}

/* Tells the other servers that seek id changed (at commit; PostgreSQL only); a DB_ code. */
static int notify(gmk_store *s, int64_t id) {
    if (!s->be->notify_room) return DB_OK;
    char payload[24];
    snprintf(payload, sizeof payload, "~L%lld", (long long)id);
    int rc;
    store_q *q = store_stmt(s, s->be->notify_room, &rc);
    if (rc == DB_OK) rc = q_text(q, 1, payload, strlen(payload));
    if (rc == DB_OK) rc = q_step(q);
    store_stmt_release(s, q);
    return rc == DB_ROW || rc == DB_DONE ? DB_OK : rc;
}

static void read_seek(store_q *q, gmk_store_seek *k) {
    memset(k, 0, sizeof *k);
    size_t len = 0;
    k->id = q_col64(q, 0);
    k->kind = q_colint(q, 1);
    k->state = q_colint(q, 2);
    const void *b = s_blob(q, 3, &len);
    if (b && len == GMK_STORE_TAG_LEN) memcpy(k->poster, b, len);
    b = s_blob(q, 4, &len);
    if (b && len == GMK_STORE_CLIENT_LEN) memcpy(k->client, b, len);
    const char *t = q_coltext(q, 5);
    snprintf(k->name, sizeof k->name, "%s", t ? t : "");
    k->account = q_col64(q, 6);
    k->rating = q_colint(q, 7);
    k->rule = (gmk_rule)q_colint(q, 8);
    k->size = q_colint(q, 9);
    k->clock_ms = q_col64(q, 10);
    k->increment_ms = q_col64(q, 11);
    k->rated = q_colint(q, 12) != 0;
    k->color = q_colint(q, 13);
    t = q_coltext(q, 14);
    snprintf(k->code, sizeof k->code, "%s", t ? t : "");
    b = s_blob(q, 15, &len);
    if (b && len == GMK_STORE_HASH_LEN) memcpy(k->token_sha256, b, len);
    k->created_ms = q_col64(q, 16);
    k->expires_ms = q_col64(q, 17);
}

gmk_store_status gmk_store_seek_add(gmk_store *s, gmk_store_seek *k, int max_open, char *err,
                                    size_t errlen) {
    const char *what = "cannot post the seek";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    const char *why = k ? seek_invalid(k) : "no seek";
    if (why) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: %s", what, why);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q =
        store_stmt(s, "SELECT count(*) FROM lobby_seeks WHERE client = ?1 AND state = 0", &rc);
    if (rc == DB_OK) rc = q_blob(q, 1, k->client, GMK_STORE_CLIENT_LEN);
    int64_t open = 0;
    if (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        open = q_col64(q, 0);
        rc = DB_OK;
    }
    store_stmt_release(s, q);
    if (rc == DB_OK && open >= max_open) {
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_BUSY, "%s: %d open already", what, max_open);
    }
    q = store_stmt(s,
                   "INSERT INTO lobby_seeks (kind, state, poster, client, name, account_id, "
                   "rating, rule, size, clock_ms, increment_ms, rated, color, code, token_sha256, "
                   "created_ms, expires_ms) VALUES (?1, 0, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                   "?11, ?12, ?13, ?14, ?15, ?16) RETURNING id",
                   &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, k->kind);
    if (rc == DB_OK) rc = q_blob(q, 2, k->poster, GMK_STORE_TAG_LEN);
    if (rc == DB_OK) rc = q_blob(q, 3, k->client, GMK_STORE_CLIENT_LEN);
    if (rc == DB_OK) rc = q_text(q, 4, k->name, strlen(k->name));
    const int64_t v[] = {k->account,  k->rating,       k->rule,  k->size,
                         k->clock_ms, k->increment_ms, k->rated, k->color};
    for (int i = 0; i < 8 && rc == DB_OK; i++) rc = q_int64(q, 5 + i, v[i]);
    if (rc == DB_OK) rc = q_text(q, 13, k->code, strlen(k->code));
    if (rc == DB_OK) rc = q_blob(q, 14, k->token_sha256, GMK_STORE_HASH_LEN);
    if (rc == DB_OK) rc = q_int64(q, 15, k->created_ms);
    if (rc == DB_OK) rc = q_int64(q, 16, k->expires_ms);
    if (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        k->id = q_col64(q, 0);
        rc = q_step(q);
    }
    store_stmt_release(s, q);
    if (rc == DB_DONE) rc = notify(s, k->id);
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    k->state = 0;
    return GMK_STORE_OK;
}

/* Reads the rows of q into out (up to cap); a DB_ code. */
static int read_rows(store_q *q, int rc, gmk_store_seek *out, int cap, int *count) {
    *count = 0;
    while (rc == DB_OK && *count < cap && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        read_seek(q, &out[(*count)++]);
    }
    return rc == DB_DONE ? DB_OK : rc;
}

gmk_store_status gmk_store_seek_get(gmk_store *s, int64_t id, gmk_store_seek *out, char *err,
                                    size_t errlen) {
    const char *what = "cannot read the seek";
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc, n = 0;
    store_q *q = store_stmt(s, "SELECT " SEEK_COLUMNS " FROM lobby_seeks WHERE id = ?1", &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    rc = read_rows(q, rc, out, 1, &n);
    store_stmt_release(s, q);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return n ? GMK_STORE_OK
             : store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no seek %lld", (long long)id);
}

gmk_store_status gmk_store_seeks_open(gmk_store *s, gmk_store_seek *out, int cap, int *count,
                                      char *err, size_t errlen) {
    const char *what = "cannot read the seeks";
    *count = 0;
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc;
    store_q *q = store_stmt(
        s, "SELECT " SEEK_COLUMNS " FROM lobby_seeks WHERE state = 0 ORDER BY id LIMIT ?1", &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, cap);
    rc = read_rows(q, rc, out, cap, count);
    store_stmt_release(s, q);
    return rc == DB_OK ? GMK_STORE_OK : store_sql_fail(s, rc, what, err, errlen);
}

/* Takes seek id (open) inside the caller's transaction: *out, *taken; a DB_ code. */
static int take(gmk_store *s, int64_t id, gmk_store_seek *out, bool *taken) {
    int rc, n = 0;
    store_q *q = store_stmt(
        s, "UPDATE lobby_seeks SET state = 1 WHERE id = ?1 AND state = 0 RETURNING " SEEK_COLUMNS,
        &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    rc = read_rows(q, rc, out, 1, &n);
    store_stmt_release(s, q);
    *taken = n == 1;
    if (rc == DB_OK && *taken) rc = notify(s, id);
    return rc;
}

gmk_store_status gmk_store_seek_take(gmk_store *s, int64_t id, gmk_store_seek *out, char *err,
                                     size_t errlen) {
    const char *what = "cannot take the seek";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc = store_begin(s);
    bool taken = false;
    if (rc == DB_OK) rc = take(s, id, out, &taken);
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return taken ? GMK_STORE_OK
                 : store_fail(err, errlen, GMK_STORE_NOT_FOUND, "the seek is gone or taken");
}

gmk_store_status gmk_store_seek_match(gmk_store *s, const gmk_store_seek *want, int64_t now_ms,
                                      int window_base, int window_per_ms, gmk_store_seek *out,
                                      bool *found, char *err, size_t errlen) {
    const char *what = "cannot look for an opponent";
    *found = false;
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (window_per_ms <= 0)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad window", what);
    int rc = store_begin(s);
    /* a few tries: another server may take the one found first */
    for (int attempt = 0; attempt < 4 && rc == DB_OK && !*found; attempt++) {
        int64_t id = 0;
        store_q *q = store_stmt(
            s,
            "SELECT id FROM lobby_seeks WHERE state = 0 AND kind = 1 AND rule = ?1 AND size = ?2 "
            "AND clock_ms = ?3 AND increment_ms = ?4 AND rated = ?5 AND poster <> ?6 AND "
            "abs(rating - ?7) <= ?8 + (?9 - created_ms) / ?10 ORDER BY created_ms, id LIMIT 1",
            &rc);
        const int64_t v[] = {want->rule, want->size, want->clock_ms, want->increment_ms,
                             want->rated};
        for (int i = 0; i < 5 && rc == DB_OK; i++) rc = q_int64(q, 1 + i, v[i]);
        if (rc == DB_OK) rc = q_blob(q, 6, want->poster, GMK_STORE_TAG_LEN);
        const int64_t w[] = {want->rating, window_base, now_ms, window_per_ms};
        for (int i = 0; i < 4 && rc == DB_OK; i++) rc = q_int64(q, 7 + i, w[i]);
        if (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
            id = q_col64(q, 0);
            rc = DB_OK;
        } else if (rc == DB_DONE) {
            rc = DB_OK;
        }
        store_stmt_release(s, q);
        if (rc != DB_OK || id == 0) break;
        rc = take(s, id, out, found);
    }
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) {
        *found = false;
        return store_sql_fail(s, rc, what, err, errlen);
    }
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_seek_cancel(gmk_store *s, int64_t id,
                                       const uint8_t poster[GMK_STORE_TAG_LEN], char *err,
                                       size_t errlen) {
    const char *what = "cannot cancel the seek";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc = store_begin(s);
    store_q *q = NULL;
    if (rc == DB_OK)
        q = store_stmt(s, "DELETE FROM lobby_seeks WHERE id = ?1 AND poster = ?2 AND state = 0",
                       &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_blob(q, 2, poster, GMK_STORE_TAG_LEN);
    if (rc == DB_OK) rc = q_step(q);
    bool gone = rc == DB_DONE && s->be->changes(q) == 1;
    store_stmt_release(s, q);
    if (rc == DB_DONE) rc = gone ? notify(s, id) : DB_OK;
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    return gone ? GMK_STORE_OK : store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no such seek");
}

gmk_store_status gmk_store_seeks_remove(gmk_store *s, const uint8_t *poster, int64_t now_ms,
                                        int64_t *ids, int cap, int *count, char *err,
                                        size_t errlen) {
    const char *what = "cannot remove seeks";
    *count = 0;
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc = store_begin(s);
    store_q *q = NULL;
    if (rc == DB_OK)
        q = store_stmt(s,
                       poster ? "DELETE FROM lobby_seeks WHERE state = 0 AND poster = ?1 "
                                "RETURNING id"
                              : "DELETE FROM lobby_seeks WHERE (state = 0 AND expires_ms < ?1) "
                                "OR (state = 1 AND created_ms < ?2) RETURNING id, state",
                       &rc);
    if (rc == DB_OK && poster) rc = q_blob(q, 1, poster, GMK_STORE_TAG_LEN);
    if (rc == DB_OK && !poster) rc = q_int64(q, 1, now_ms);
    if (rc == DB_OK && !poster) rc = q_int64(q, 2, now_ms - TAKEN_KEEP_MS);
    int more = 0;
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        if (!poster && q_colint(q, 1) != 0) continue; /* a taken one: its news went already */
        if (*count < cap)
            ids[(*count)++] = q_col64(q, 0);
        else
            more++;
    }
    store_stmt_release(s, q);
    if (rc == DB_DONE) rc = DB_OK;
    for (int i = 0; i < *count && rc == DB_OK; i++) rc = notify(s, ids[i]);
    if (rc == DB_OK && more) rc = notify(s, 0); /* too many: "read every seek again" */
    if (rc == DB_OK) rc = store_commit(s);
    if (rc != DB_OK) {
        *count = 0;
        return store_sql_fail(s, rc, what, err, errlen);
    }
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_rooms_playing(gmk_store *s, gmk_store_live_game *out, int cap,
                                         int *count, char *err, size_t errlen) {
    const char *what = "cannot list the games in play";
    *count = 0;
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc;
    store_q *q =
        store_stmt(s,
                   "SELECT r.code, r.rule, r.size, r.clock_ms, r.increment_ms, r.created_ms, "
                   "(SELECT name FROM room_seats WHERE room_id = r.id AND color = 1), "
                   "(SELECT name FROM room_seats WHERE room_id = r.id AND color = 2) "
                   "FROM rooms r WHERE r.phase = 1 ORDER BY r.touched_ms DESC, r.id DESC LIMIT ?1",
                   &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, cap);
    while (rc == DB_OK && *count < cap && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        gmk_store_live_game *g = &out[(*count)++];
        memset(g, 0, sizeof *g);
        const char *t = q_coltext(q, 0);
        snprintf(g->code, sizeof g->code, "%s", t ? t : "");
        g->rule = (gmk_rule)q_colint(q, 1);
        g->size = q_colint(q, 2);
        g->clock_ms = q_col64(q, 3);
        g->increment_ms = q_col64(q, 4);
        g->started_ms = q_col64(q, 5);
        t = q_coltext(q, 6);
        snprintf(g->black, sizeof g->black, "%s", t ? t : "");
        t = q_coltext(q, 7);
        snprintf(g->white, sizeof g->white, "%s", t ? t : "");
    }
    store_stmt_release(s, q);
    if (rc == DB_DONE) rc = DB_OK;
    return rc == DB_OK ? GMK_STORE_OK : store_sql_fail(s, rc, what, err, errlen);
}
