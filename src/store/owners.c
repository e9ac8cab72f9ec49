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
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(
        s->db, "INSERT OR REPLACE INTO web_owners (game_id, token_hash) VALUES (?, ?)", -1, &q,
        NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_bind_blob(q, 2, hash, GMK_STORE_OWNER_HASH, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc == SQLITE_CONSTRAINT)
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s: there is no game %lld", what,
                          (long long)id);
    if (rc != SQLITE_DONE) return store_sql_fail(s, rc, what, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_owner_get(gmk_store *s, int64_t id, uint8_t hash[GMK_STORE_OWNER_HASH],
                                     char *err, size_t errlen) {
    char what[64];
    snprintf(what, sizeof what, "cannot read the owner of game %lld", (long long)id);
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db, "SELECT token_hash FROM web_owners WHERE game_id = ?", -1,
                                &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(q, 1, id);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        if (sqlite3_column_bytes(q, 0) == GMK_STORE_OWNER_HASH) {
            memcpy(hash, sqlite3_column_blob(q, 0), GMK_STORE_OWNER_HASH);
            st = GMK_STORE_OK;
        } else {
            st = store_fail(err, errlen, GMK_STORE_CORRUPT, "%s: the hash is damaged", what);
        }
    } else if (rc == SQLITE_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "game %lld has no web owner",
                        (long long)id);
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    sqlite3_finalize(q);
    return st;
}
