/* lobby_chat.c: the lobby's chat lines in the store (see lobby_chat.h): added with the older
 * ones pruned in the same transaction, read back newest last. */
#include "store/lobby_chat.h"

#include <stdio.h>
#include <string.h>

#include "store/store_internal.h"

static const char *line_invalid(const gmk_store_lobby_line *line, int keep) {
    if (!line) return "no line";
    if (keep < 1) return "bad keep";
    if (line->at_ms <= 0) return "bad time";
    if (!line->name[0] || strnlen(line->name, GMK_STORE_NAME_MAX) >= GMK_STORE_NAME_MAX)
        return "bad name";
    if (!line->text[0] || strnlen(line->text, GMK_STORE_CHAT_MAX) >= GMK_STORE_CHAT_MAX)
        return "bad text";
    return NULL;
}

gmk_store_status gmk_store_lobby_chat_add(gmk_store *s, gmk_store_lobby_line *line, int keep,
                                          char *err, size_t errlen) {
    const char *what = "cannot add the chat line";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    const char *why = line_invalid(line, keep);
    if (why) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: %s", what, why);
    int rc = store_begin(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    store_q *q = store_stmt(s,
                            "INSERT INTO lobby_chat (at_ms, sender, account_id, name, text) "
                            "VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, line->at_ms);
    if (rc == DB_OK) rc = q_blob(q, 2, line->sender, GMK_STORE_TAG_LEN);
    if (rc == DB_OK) rc = q_int64(q, 3, line->account);
    if (rc == DB_OK) rc = q_text(q, 4, line->name, strlen(line->name));
    if (rc == DB_OK) rc = q_text(q, 5, line->text, strlen(line->text));
    int64_t id = 0;
    if (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        id = q_col64(q, 0);
        rc = q_step(q);
    }
    store_stmt_release(s, q);
    if (rc == DB_DONE) { /* the lines older than the keep-th newest go */
        q = store_stmt(s,
                       "DELETE FROM lobby_chat WHERE id <= (SELECT id FROM lobby_chat "
                       "ORDER BY id DESC LIMIT 1 OFFSET ?1)",
                       &rc);
        if (rc == DB_OK) rc = q_int64(q, 1, keep);
        if (rc == DB_OK) rc = q_step(q);
        store_stmt_release(s, q);
    }
    if (rc == DB_DONE && s->be->notify_room) { /* the other servers read the last lines */
        char payload[32];
        snprintf(payload, sizeof payload, "~C:%lld", (long long)id);
        q = store_stmt(s, s->be->notify_room, &rc);
        if (rc == DB_OK) rc = q_text(q, 1, payload, strlen(payload));
        if (rc == DB_OK) rc = q_step(q);
        store_stmt_release(s, q);
        if (rc == DB_ROW) rc = DB_DONE;
    }
    if (rc == DB_DONE) rc = store_commit(s);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    line->id = id;
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_lobby_chat_recent(gmk_store *s, gmk_store_lobby_line *out, int cap,
                                             int *count, char *err, size_t errlen) {
    const char *what = "cannot read the lobby's chat";
    *count = 0;
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (cap < 0 || (cap > 0 && !out))
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad buffer", what);
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT id, at_ms, sender, account_id, name, text FROM lobby_chat "
                            "ORDER BY id DESC LIMIT ?1",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, cap);
    int n = 0;
    while (rc == DB_OK && n < cap && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        gmk_store_lobby_line *l = &out[n++];
        memset(l, 0, sizeof *l);
        l->id = q_col64(q, 0);
        l->at_ms = q_col64(q, 1);
        size_t len = 0;
        const void *b = s->be->column_blob(q, 2, &len);
        if (b && len == GMK_STORE_TAG_LEN) memcpy(l->sender, b, len);
        l->account = q_col64(q, 3);
        const char *t = q_coltext(q, 4);
        snprintf(l->name, sizeof l->name, "%s", t ? t : "");
        t = q_coltext(q, 5);
        snprintf(l->text, sizeof l->text, "%s", t ? t : "");
    }
    store_stmt_release(s, q);
    if (rc == DB_DONE) rc = DB_OK;
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    for (int i = 0, j = n - 1; i < j; i++, j--) { /* oldest first */
        gmk_store_lobby_line t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    *count = n;
    return GMK_STORE_OK;
}
