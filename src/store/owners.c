/* owners.c: which web browser owns a game (see store.h, "web owners"). The store keeps the
 * SHA-256 of the browser's token only; it never sees the token itself. */
#include <stdio.h>
#include <string.h>

#include "store/store_internal.h"

gmk_store_status gmk_store_owner_set(gmk_store *s, int64_t id,
                                     const uint8_t hash[GMK_STORE_OWNER_HASH], char *err,
                                     size_t errlen) {
    char what[64];
    snprintf(what, sizeof what, "cannot set the owner of game %lld", (long long)id);
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (id <= 0 || !hash) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad value", what);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = store_stmt(s,
                            "INSERT INTO web_owners (game_id, token_hash) VALUES (?1, ?2) "
                            "ON CONFLICT (game_id) DO UPDATE SET token_hash = excluded.token_hash",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_blob(q, 2, hash, GMK_STORE_OWNER_HASH);
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

gmk_store_status gmk_store_owner_get(gmk_store *s, int64_t id, uint8_t hash[GMK_STORE_OWNER_HASH],
                                     char *err, size_t errlen) {
    char what[64];
    snprintf(what, sizeof what, "cannot read the owner of game %lld", (long long)id);
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc;
    store_q *q = store_stmt(s, "SELECT token_hash FROM web_owners WHERE game_id = ?1", &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        size_t n = 0;
        const void *p = s->be->column_blob(q, 0, &n);
        if (p && n == GMK_STORE_OWNER_HASH) {
            memcpy(hash, p, GMK_STORE_OWNER_HASH);
            st = GMK_STORE_OK;
        } else {
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: the hash is damaged", what);
        }
    } else if (rc == DB_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "game %lld has no web owner",
                        (long long)id);
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    store_stmt_release(s, q);
    return st;
}
