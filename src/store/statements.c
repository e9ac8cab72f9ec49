/* statements.c: the handle's cache of prepared statements (see store_internal.h). Parsing
 * SQL took about half the CPU time of saving a move under load (a profile of `gomoku serve`
 * with 100 clients moving at once, SQLite), so every statement is prepared once per handle and
 * reused. The cache is the same for both backends; what "prepared" means is the backend's. */
#include <string.h>

#include "store/store_internal.h"

store_q *store_stmt(gmk_store *s, const char *sql, int *rc) {
    int free_slot = -1;
    for (int i = 0; i < STORE_STMT_CACHE; i++) {
        if (!s->cache[i].sql) {
            if (free_slot < 0) free_slot = i;
            continue;
        }
        if (s->cache[i].sql == sql || strcmp(s->cache[i].sql, sql) == 0) {
            *rc = DB_OK;
            return s->cache[i].stmt;
        }
    }
    store_q *q = s->be->prepare(s, sql, rc);
    if (!q) return NULL;
    if (free_slot < 0) return q; /* cache full: a one-off statement, finalized on release */
    s->cache[free_slot].sql = sql;
    s->cache[free_slot].stmt = q;
    return q;
}

void store_stmt_release(gmk_store *s, store_q *q) {
    if (!q) return;
    for (int i = 0; i < STORE_STMT_CACHE; i++)
        if (s->cache[i].stmt == q) {
            s->be->reset(q);
            return;
        }
    s->be->finalize(q);
}

void store_stmt_clear(gmk_store *s) {
    for (int i = 0; i < STORE_STMT_CACHE; i++) {
        if (s->cache[i].stmt) s->be->finalize(s->cache[i].stmt);
        s->cache[i].sql = NULL;
        s->cache[i].stmt = NULL;
    }
}

int store_stmt_exec(gmk_store *s, const char *sql) {
    int rc;
    store_q *q = store_stmt(s, sql, &rc);
    if (!q) return rc;
    rc = q_step(q);
    store_stmt_release(s, q);
    return rc == DB_DONE || rc == DB_ROW ? DB_OK : rc;
}
