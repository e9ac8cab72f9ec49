/* presence.c: streams of room seats across servers (see presence.h). Every call is one or two
 * statements outside any transaction: a server writes its row, then reads the others', so that
 * of two servers whose last streams of a seat close at once, the second to write sees the
 * first's row gone (each statement commits before the next begins). */
#include "store/presence.h"

#include <string.h>

#include "store/rooms.h"
#include "store/store_internal.h"

#define DEAD_FORGOTTEN_MS 120000 /* a server dead this long: its rows no longer matter */

static gmk_store_status check(gmk_store *s, const char *what, char *err, size_t errlen) {
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (s->kind != STORE_PG)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: only a shared database", what);
    return GMK_STORE_OK;
}

/* Runs sql with int64 parameters v[0..n-1] (and the code as ?1 when code is given, the numbers
 * then from ?2) to its end; a DB_ code. */
static int run(gmk_store *s, const char *sql, const char *code, const int64_t *v, int n) {
    int rc;
    store_q *q = store_stmt(s, sql, &rc);
    int at = 1;
    if (rc == DB_OK && code) rc = q_text(q, at++, code, strnlen(code, GMK_STORE_ROOM_CODE_MAX - 1));
    for (int i = 0; i < n && rc == DB_OK; i++) rc = q_int64(q, at++, v[i]);
    if (rc == DB_OK) rc = q_step(q);
    store_stmt_release(s, q);
    return rc == DB_DONE || rc == DB_ROW ? DB_OK : rc;
}

gmk_store_status gmk_store_server_beat(gmk_store *s, int64_t server, int64_t now_ms,
                                       int64_t lease_ms, bool gc, char *err, size_t errlen) {
    const char *what = "cannot renew the server's lease";
    gmk_store_status st = check(s, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (server <= 0 || now_ms <= 0 || lease_ms <= 0)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad arguments", what);
    const int64_t v[] = {server, now_ms + lease_ms};
    int rc = run(s,
                 "INSERT INTO gomoku_servers (id, alive_until_ms) VALUES (?1, ?2) ON CONFLICT "
                 "(id) DO UPDATE SET alive_until_ms = excluded.alive_until_ms",
                 NULL, v, 2);
    const int64_t before[] = {now_ms - DEAD_FORGOTTEN_MS};
    if (rc == DB_OK && gc)
        rc = run(s,
                 "DELETE FROM gomoku_presence WHERE server IN "
                 "(SELECT id FROM gomoku_servers WHERE alive_until_ms < ?1)",
                 NULL, before, 1);
    if (rc == DB_OK && gc)
        rc = run(s, "DELETE FROM gomoku_servers WHERE alive_until_ms < ?1", NULL, before, 1);
    return rc == DB_OK ? GMK_STORE_OK : store_sql_fail(s, rc, what, err, errlen);
}

gmk_store_status gmk_store_server_leave(gmk_store *s, int64_t server, int64_t now_ms, char *err,
                                        size_t errlen) {
    const char *what = "cannot end the server's lease";
    gmk_store_status st = check(s, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    const int64_t v[] = {server, now_ms};
    int rc = run(s, "UPDATE gomoku_servers SET alive_until_ms = ?2 WHERE id = ?1", NULL, v, 2);
    return rc == DB_OK ? GMK_STORE_OK : store_sql_fail(s, rc, what, err, errlen);
}

gmk_store_status gmk_store_presence_set(gmk_store *s, int64_t server, const char *code, int seat,
                                        int streams, int64_t now_ms, char *err, size_t errlen) {
    const char *what = "cannot record the room's connections";
    gmk_store_status st = check(s, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!code || seat < 0 || seat > 1 || streams < 0 || server <= 0)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: bad arguments", what);
    const int64_t v[] = {seat, server, streams, now_ms};
    int rc = run(s,
                 "INSERT INTO gomoku_presence (code, seat, server, streams, since_ms) "
                 "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (code, seat, server) DO UPDATE "
                 "SET streams = excluded.streams, since_ms = excluded.since_ms",
                 code, v, 4);
    return rc == DB_OK ? GMK_STORE_OK : store_sql_fail(s, rc, what, err, errlen);
}

gmk_store_status gmk_store_presence_others(gmk_store *s, int64_t server, const char *code,
                                           int64_t now_ms, gmk_store_presence out[2], char *err,
                                           size_t errlen) {
    const char *what = "cannot read the room's connections";
    memset(out, 0, 2 * sizeof *out);
    gmk_store_status st = check(s, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!code) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no code", what);
    /* a live server's streams count; a dead one's were cut by the end of its lease */
    int rc;
    store_q *q = store_stmt(
        s,
        "SELECT p.seat, sum(CASE WHEN p.streams > 0 AND v.alive_until_ms >= ?3 THEN p.streams "
        "ELSE 0 END), max(CASE WHEN p.streams > 0 THEN COALESCE(v.alive_until_ms, p.since_ms) "
        "ELSE p.since_ms END) FROM gomoku_presence p LEFT JOIN gomoku_servers v "
        "ON v.id = p.server WHERE p.code = ?1 AND p.server <> ?2 GROUP BY p.seat",
        &rc);
    if (rc == DB_OK) rc = q_text(q, 1, code, strnlen(code, GMK_STORE_ROOM_CODE_MAX - 1));
    if (rc == DB_OK) rc = q_int64(q, 2, server);
    if (rc == DB_OK) rc = q_int64(q, 3, now_ms);
    while (rc == DB_OK && (rc = q_step(q)) == DB_ROW) {
        rc = DB_OK;
        int seat = q_colint(q, 0);
        if (seat < 0 || seat > 1) continue;
        out[seat].streams = q_colint(q, 1);
        out[seat].since_ms = q_col64(q, 2);
    }
    store_stmt_release(s, q);
    return rc == DB_DONE ? GMK_STORE_OK : store_sql_fail(s, rc, what, err, errlen);
}

int64_t gmk_store_moves_checksum(const gmk_pos *moves, int n) {
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += (int64_t)(i + 1) * (gmk_pos_x(moves[i]) * 64 + gmk_pos_y(moves[i]) + 1);
    return sum;
}

gmk_store_status gmk_store_game_mark_get(gmk_store *s, int64_t id, gmk_store_game_mark *out,
                                         char *err, size_t errlen) {
    const char *what = "cannot read the game";
    memset(out, 0, sizeof *out);
    gmk_store_status st = store_check(s, false, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    int rc;
    store_q *q = store_stmt(s,
                            "SELECT (SELECT count(*) FROM moves WHERE game_id = ?1), "
                            "(SELECT COALESCE(sum((ply + 1) * (x * 64 + y + 1)), 0) FROM moves "
                            "WHERE game_id = ?1), CASE WHEN outcome IS NULL THEN 0 ELSE 1 END "
                            "FROM games WHERE id = ?1",
                            &rc);
    if (rc == DB_OK) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        out->moves = q_colint(q, 0);
        out->checksum = q_col64(q, 1);
        out->over = q_col64(q, 2) != 0;
    } else if (rc == DB_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "there is no game %lld", (long long)id);
    } else {
        st = store_sql_fail(s, rc, what, err, errlen);
    }
    store_stmt_release(s, q);
    return st;
}
