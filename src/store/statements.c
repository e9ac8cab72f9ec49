/* statements.c: the handle's cache of prepared statements (see store_internal.h). Parsing
 * SQL took about half the CPU time of saving a move under load (a profile of `gomoku serve`
 * with 100 clients moving at once), so the statements on the paths run for every move are
 * prepared once per handle and reused. */
#include <string.h>

#include "store/store_internal.h"

sqlite3_stmt *store_stmt(gmk_store *s, const char *sql, int *rc) {
    int free_slot = -1;
    for (int i = 0; i < STORE_STMT_CACHE; i++) {
        if (!s->cache[i].sql) {
            if (free_slot < 0) free_slot = i;
            continue;
        }
        if (strcmp(s->cache[i].sql, sql) == 0) {
            *rc = SQLITE_OK;
            return s->cache[i].stmt;
        }
    }
    sqlite3_stmt *q = NULL;
    *rc = sqlite3_prepare_v3(s->db, sql, -1, free_slot >= 0 ? SQLITE_PREPARE_PERSISTENT : 0, &q,
                             NULL);
    if (*rc != SQLITE_OK) {
        sqlite3_finalize(q);
        return NULL;
    }
    if (free_slot < 0) return q; /* cache full: a one-off statement, finalized on release */
    s->cache[free_slot].sql = sql;
    s->cache[free_slot].stmt = q;
    return q;
}

void store_stmt_release(gmk_store *s, sqlite3_stmt *q) {
    if (!q) return;
    for (int i = 0; i < STORE_STMT_CACHE; i++)
        if (s->cache[i].stmt == q) {
            sqlite3_reset(q);
            sqlite3_clear_bindings(q);
            return;
        }
    sqlite3_finalize(q);
}

void store_stmt_clear(gmk_store *s) {
    for (int i = 0; i < STORE_STMT_CACHE; i++) {
        sqlite3_finalize(s->cache[i].stmt);
        s->cache[i].sql = NULL;
        s->cache[i].stmt = NULL;
    }
}

int store_stmt_exec(gmk_store *s, const char *sql) {
    int rc;
    sqlite3_stmt *q = store_stmt(s, sql, &rc);
    if (!q) return rc;
    rc = sqlite3_step(q);
    store_stmt_release(s, q);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}
