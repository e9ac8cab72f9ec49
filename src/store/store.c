/* store.c: opening a database (the backend is chosen by the name: a PostgreSQL connection
 * string or a file path), errors, transactions and batches over either backend, and settings.
 * Games and the scoreboard are in games.c; each backend's opening in db_sqlite.c, db_pg.c. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store_internal.h"

gmk_store_status store_fail(char *err, size_t errlen, gmk_store_status st, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        for (char *c = err; *c; c++) /* one line, whatever SQLite said */
            if (*c == '\n' || *c == '\r' || *c == '\t') *c = ' ';
    }
    return st;
}

gmk_store_status store_status_of(int rc) {
    switch (rc) {
    case DB_OK:
    case DB_ROW:
    case DB_DONE: return GMK_STORE_OK;
    case DB_NOTADB:
    case DB_CORRUPT: return GMK_STORE_CORRUPT;
    case DB_READONLY: return GMK_STORE_READ_ONLY;
    case DB_CANTOPEN: return GMK_STORE_CANT_OPEN;
    case DB_BUSY: return GMK_STORE_BUSY;
    case DB_UNAVAILABLE: return GMK_STORE_UNAVAILABLE;
    default: return GMK_STORE_IO;
    }
}

gmk_store_status store_sql_fail(gmk_store *s, int rc, const char *what, char *err, size_t errlen) {
    gmk_store_status st = store_status_of(rc);
    if (st == GMK_STORE_OK) st = GMK_STORE_IO;
    const char *msg = s->batch && s->batch_failed ? "an earlier write of the batch failed"
                      : s->be                     ? s->be->errmsg(s)
                                                  : "no database";
    store_fail(err, errlen, st, "%s: %s (%s)", what, msg, s->path);
    store_rollback(s);
    return st;
}

gmk_store_status store_check(gmk_store *s, bool write, const char *what, char *err, size_t errlen) {
    if (!s || !s->db) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no database", what);
    if (write && s->readonly)
        return store_fail(err, errlen, GMK_STORE_READ_ONLY, "%s: %s was opened read-only", what,
                          s->path);
    if (!s->batch && s->be->ensure) s->be->ensure(s);
    return GMK_STORE_OK;
}

/* Inside a batch a step is no statement of its own (a savepoint and its release were a third
 * of a room move's round trips on PostgreSQL): its writes join the batch's transaction, and a
 * failed write step spoils the batch (batch_failed), which then commits nothing. */
int store_begin(gmk_store *s) {
    if (s->batch) {
        s->batch_writing = true;
        return s->batch_failed ? DB_ERROR : DB_OK;
    }
    return store_stmt_exec(s, s->be->begin_write);
}

int store_begin_game(gmk_store *s, int64_t id) {
    int rc = store_begin(s);
    if (rc != DB_OK || !s->be->lock_game) return rc;
    store_q *q = store_stmt(s, s->be->lock_game, &rc);
    if (q) rc = q_int64(q, 1, id);
    if (rc == DB_OK) rc = q_step(q);
    store_stmt_release(s, q);
    return rc == DB_ROW || rc == DB_DONE ? DB_OK : rc;
}

int store_read_begin(gmk_store *s) {
    return s->batch ? DB_OK : store_stmt_exec(s, s->be->begin_read);
}

int store_commit(gmk_store *s) {
    if (s->batch) {
        s->batch_writing = false;
        return DB_OK;
    }
    return store_stmt_exec(s, "COMMIT");
}

void store_rollback(gmk_store *s) {
    if (!s->db || !s->be || !s->be->in_transaction(s)) return;
    if (s->batch) { /* the end of a read step, or a failed write step: the batch is spoilt */
        if (s->batch_writing) s->batch_failed = true;
        s->batch_writing = false;
    } else {
        s->be->exec(s, "ROLLBACK");
    }
}

gmk_store_status gmk_store_batch_begin(gmk_store *s, char *err, size_t errlen) {
    const char *what = "cannot start writing";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (s->batch) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: a batch is open", what);
    int rc = s->be->exec(s, s->be->begin_write);
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen);
    s->batch = true;
    s->batch_writing = s->batch_failed = false;
    s->batch_conn = s->conn_no;
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_batch_end(gmk_store *s, bool commit, char *err, size_t errlen) {
    const char *what = "cannot save";
    if (!s || !s->db || !s->batch)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no batch is open", what);
    s->batch = false;
    if (commit && s->batch_failed) { /* a step failed (and said so): nothing is saved */
        if (s->be->in_transaction(s)) s->be->exec(s, "ROLLBACK");
        return store_fail(err, errlen, GMK_STORE_IO, "%s: a write of the batch failed (%s)", what,
                          s->path);
    }
    if (s->batch_conn != s->conn_no || !s->be->in_transaction(s)) {
        /* the connection was lost (and made again) since the batch began: it is gone */
        if (!commit) return GMK_STORE_OK;
        return store_fail(err, errlen, GMK_STORE_UNAVAILABLE,
                          "%s: the connection to the database was lost; nothing was saved (%s)",
                          what, s->path);
    }
    int rc = s->be->exec(s, commit ? "COMMIT" : "ROLLBACK");
    if (rc != DB_OK) return store_sql_fail(s, rc, what, err, errlen); /* rolls back */
    return GMK_STORE_OK;
}

const char *gmk_store_status_name(gmk_store_status st) {
    switch (st) {
    case GMK_STORE_OK: return "ok";
    case GMK_STORE_NOT_FOUND: return "not found";
    case GMK_STORE_INVALID: return "invalid argument";
    case GMK_STORE_CANT_OPEN: return "cannot open";
    case GMK_STORE_READ_ONLY: return "read-only";
    case GMK_STORE_CORRUPT: return "corrupt";
    case GMK_STORE_TOO_NEW: return "too new";
    case GMK_STORE_BUSY: return "busy";
    case GMK_STORE_IO: return "I/O error";
    case GMK_STORE_UNAVAILABLE: return "unavailable";
    }
    return "unknown status";
}

const char *gmk_store_mode_name(gmk_store_mode m) {
    switch (m) {
    case GMK_STORE_MODE_HVC: return "human-computer";
    case GMK_STORE_MODE_HVH: return "human-human";
    case GMK_STORE_MODE_CVC: return "computer-computer";
    case GMK_STORE_MODE_ONLINE: return "online";
    case GMK_STORE_MODE_COUNT: break;
    }
    return "unknown";
}

gmk_store_status gmk_store_default_path(char *buf, size_t buflen, char *err, size_t errlen) {
    if (!buf || !buflen) return store_fail(err, errlen, GMK_STORE_INVALID, "no path buffer");
    buf[0] = '\0';
    const char *xdg = getenv("XDG_DATA_HOME");
    int n;
    if (xdg && xdg[0] == '/') { /* the XDG spec ignores relative paths */
        n = snprintf(buf, buflen, "%s/gomoku/gomoku.db", xdg);
    } else {
        const char *home = getenv("HOME");
        if (!home || home[0] != '/') {
            struct passwd *pw = getpwuid(getuid());
            home = pw ? pw->pw_dir : NULL;
        }
        if (!home || home[0] != '/')
            return store_fail(err, errlen, GMK_STORE_CANT_OPEN,
                              "cannot find a place for the database: set HOME or "
                              "XDG_DATA_HOME, or give --db PATH");
        n = snprintf(buf, buflen, "%s/.local/share/gomoku/gomoku.db", home);
    }
    if (n < 0 || (size_t)n >= buflen) {
        buf[0] = '\0';
        return store_fail(err, errlen, GMK_STORE_CANT_OPEN, "the database path is too long");
    }
    return GMK_STORE_OK;
}

/* --- opening -------------------------------------------------------------------------- */

gmk_store_status gmk_store_open(const char *path, int flags, gmk_store **out, char *err,
                                size_t errlen) {
    if (!out) return store_fail(err, errlen, GMK_STORE_INVALID, "no handle to open into");
    *out = NULL;
    if (flags & ~(GMK_STORE_OPEN_READONLY | GMK_STORE_OPEN_EXISTING))
        return store_fail(err, errlen, GMK_STORE_INVALID, "unknown open flags %#x", flags);
    char def[PATH_MAX];
    if (!path) {
        const char *env = getenv("GOMOKU_DB");
        if (env && env[0]) {
            path = env;
        } else {
            gmk_store_status st = gmk_store_default_path(def, sizeof def, err, errlen);
            if (st != GMK_STORE_OK) return st;
            path = def;
        }
    }
    if (!path[0]) return store_fail(err, errlen, GMK_STORE_INVALID, "empty database path");
    gmk_store *s = calloc(1, sizeof *s);
    if (!s) return store_fail(err, errlen, GMK_STORE_IO, "out of memory");
    s->wal_fd = -1;
    gmk_store_status st = store_pg_is_conninfo(path)
                              ? store_pg_open(s, path, flags, err, errlen)
                              : store_sqlite_open(s, path, flags, err, errlen);
    if (st != GMK_STORE_OK) {
        gmk_store_close(s);
        return st;
    }
    *out = s;
    return GMK_STORE_OK;
}

void gmk_store_close(gmk_store *s) {
    if (!s) return;
    if (s->deferred_sync) {
        gmk_store_sync(s, NULL, 0);
        if (s->wal_fd >= 0) close(s->wal_fd);
    }
    if (s->db) {
        s->batch = false; /* an open batch is rolled back whole */
        store_rollback(s);
        store_stmt_clear(s);
    }
    if (s->be) s->be->close(s);
    free(s);
}

const char *gmk_store_path(const gmk_store *s) {
    return s ? s->path : "";
}

int gmk_store_schema_version(const gmk_store *s) {
    return s ? s->version : 0;
}

bool gmk_store_is_shared(const gmk_store *s) {
    return s && s->kind == STORE_PG;
}

bool gmk_store_reachable(const gmk_store *s) {
    return s && !atomic_load(&((gmk_store *)s)->down);
}

gmk_store_status gmk_store_ping(gmk_store *s, char *err, size_t errlen) {
    gmk_store_status st = store_check(s, false, "the database does not answer", err, errlen);
    if (st != GMK_STORE_OK || s->kind != STORE_PG) return st;
    int rc = store_stmt_exec(s, "SELECT 1");
    if (rc != DB_OK) return store_sql_fail(s, rc, "the database does not answer", err, errlen);
    return GMK_STORE_OK;
}

bool gmk_store_names_server(const char *name) {
    return name && store_pg_is_conninfo(name);
}

/* --- settings ------------------------------------------------------------------------- */

gmk_store_status gmk_store_setting_get(gmk_store *s, const char *key, char *value, size_t valuelen,
                                       char *err, size_t errlen) {
    gmk_store_status st = store_check(s, false, "cannot read a setting", err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!key || !value || !valuelen)
        return store_fail(err, errlen, GMK_STORE_INVALID, "cannot read a setting: no key");
    value[0] = '\0';
    int rc;
    store_q *q = store_stmt(s, "SELECT value FROM settings WHERE key = ?1", &rc);
    if (rc == DB_OK) rc = q_text(q, 1, key, strlen(key));
    if (rc == DB_OK) rc = q_step(q);
    if (rc == DB_ROW) {
        const char *t = q_coltext(q, 0);
        size_t n = t ? strlen(t) : 0;
        if (n >= valuelen) {
            st = store_fail(err, errlen, GMK_STORE_INVALID, "setting '%s' is too long", key);
        } else {
            if (t) memcpy(value, t, n);
            value[n] = '\0';
        }
    } else if (rc == DB_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "setting '%s' is not set", key);
    } else {
        st = store_sql_fail(s, rc, "cannot read a setting", err, errlen);
    }
    store_stmt_release(s, q);
    return st;
}

gmk_store_status gmk_store_setting_set(gmk_store *s, const char *key, const char *value, char *err,
                                       size_t errlen) {
    gmk_store_status st = store_check(s, true, "cannot save a setting", err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!key || !key[0] || strlen(key) >= GMK_STORE_KEY_MAX)
        return store_fail(err, errlen, GMK_STORE_INVALID,
                          "cannot save a setting: the key must be 1 to %d bytes",
                          GMK_STORE_KEY_MAX - 1);
    if (!value || strlen(value) >= GMK_STORE_VALUE_MAX)
        return store_fail(err, errlen, GMK_STORE_INVALID,
                          "cannot save setting '%s': the value must be at most %d bytes", key,
                          GMK_STORE_VALUE_MAX - 1);
    int rc;
    store_q *q = store_stmt(s,
                            "INSERT INTO settings (key, value) VALUES (?1, ?2) "
                            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                            &rc);
    if (rc == DB_OK) rc = q_text(q, 1, key, strlen(key));
    if (rc == DB_OK) rc = q_text(q, 2, value, strlen(value));
    if (rc == DB_OK) rc = q_step(q);
    if (rc != DB_DONE) st = store_sql_fail(s, rc, "cannot save a setting", err, errlen);
    store_stmt_release(s, q);
    return st;
}
