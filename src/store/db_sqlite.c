/* db_sqlite.c: the SQLite backend: the statement calls of store_backend over sqlite3, and
 * opening a file (checks before any write, WAL, migrations). The file's schema version is
 * PRAGMA user_version; migrations run inside BEGIN IMMEDIATE, which is the lock that keeps two
 * processes opening one file together from migrating it twice. */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/schema.h"
#include "store/store_internal.h"

_Static_assert(DB_OK == SQLITE_OK && DB_ERROR == SQLITE_ERROR && DB_BUSY == SQLITE_BUSY &&
                   DB_READONLY == SQLITE_READONLY && DB_IOERR == SQLITE_IOERR &&
                   DB_CORRUPT == SQLITE_CORRUPT && DB_FULL == SQLITE_FULL &&
                   DB_CANTOPEN == SQLITE_CANTOPEN && DB_CONSTRAINT == SQLITE_CONSTRAINT &&
                   DB_RANGE == SQLITE_RANGE && DB_NOTADB == SQLITE_NOTADB && DB_ROW == SQLITE_ROW &&
                   DB_DONE == SQLITE_DONE,
               "the backend codes are SQLite's primary codes");

enum { BUSY_TIMEOUT_MS = 5000 };

typedef struct {
    store_q base;
    sqlite3_stmt *st;
} lite_q;

static sqlite3 *db_of(gmk_store *s) {
    return (sqlite3 *)s->db;
}

static int code(int rc) {
    return rc & 0xff; /* the primary code of an extended one */
}

static int lite_exec(gmk_store *s, const char *sql) {
    return code(sqlite3_exec(db_of(s), sql, NULL, NULL, NULL));
}

static store_q *lite_prepare(gmk_store *s, const char *sql, int *rc) {
    sqlite3_stmt *st = NULL;
    *rc = code(sqlite3_prepare_v3(db_of(s), sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL));
    if (*rc != SQLITE_OK) {
        sqlite3_finalize(st);
        return NULL;
    }
    lite_q *q = calloc(1, sizeof *q);
    if (!q) {
        sqlite3_finalize(st);
        *rc = SQLITE_NOMEM;
        return NULL;
    }
    q->base.s = s;
    q->st = st;
    return &q->base;
}

static sqlite3_stmt *st_of(store_q *q) {
    return ((lite_q *)q)->st;
}

static int lite_bind_int64(store_q *q, int i, int64_t v) {
    return code(sqlite3_bind_int64(st_of(q), i, v));
}

static int lite_bind_text(store_q *q, int i, const char *t, size_t len) {
    return code(sqlite3_bind_text(st_of(q), i, t, (int)len, SQLITE_TRANSIENT));
}

static int lite_bind_blob(store_q *q, int i, const void *p, size_t len) {
    return code(sqlite3_bind_blob(st_of(q), i, p, (int)len, SQLITE_TRANSIENT));
}

static int lite_bind_double(store_q *q, int i, double v) {
    return code(sqlite3_bind_double(st_of(q), i, v));
}

static double lite_column_double(store_q *q, int i) {
    return sqlite3_column_double(st_of(q), i);
}

static int lite_step(store_q *q) {
    return code(sqlite3_step(st_of(q)));
}

static int64_t lite_column_int64(store_q *q, int i) {
    return sqlite3_column_int64(st_of(q), i);
}

static const char *lite_column_text(store_q *q, int i) {
    return (const char *)sqlite3_column_text(st_of(q), i);
}

static const void *lite_column_blob(store_q *q, int i, size_t *len) {
    const void *p = sqlite3_column_blob(st_of(q), i);
    *len = (size_t)sqlite3_column_bytes(st_of(q), i);
    return p;
}

static bool lite_column_null(store_q *q, int i) {
    return sqlite3_column_type(st_of(q), i) == SQLITE_NULL;
}

static int64_t lite_changes(store_q *q) {
    return sqlite3_changes(sqlite3_db_handle(st_of(q)));
}

static void lite_reset(store_q *q) {
    sqlite3_reset(st_of(q));
    sqlite3_clear_bindings(st_of(q));
}

static void lite_finalize(store_q *q) {
    if (!q) return;
    sqlite3_finalize(st_of(q));
    free(q);
}

static const char *lite_errmsg(gmk_store *s) {
    return s->db ? sqlite3_errmsg(db_of(s)) : "no database";
}

static bool lite_in_transaction(gmk_store *s) {
    return s->db && !sqlite3_get_autocommit(db_of(s));
}

static void lite_close(gmk_store *s) {
    if (s->db) sqlite3_close_v2(db_of(s));
    s->db = NULL;
}

const store_backend store_sqlite_backend = {
    .name = "SQLite",
    .begin_write = "BEGIN IMMEDIATE", /* the file's write lock, waiting up to the busy timeout */
    .begin_read = "BEGIN",            /* a read transaction sees one snapshot */
    .lock_game = NULL,                /* BEGIN IMMEDIATE already locks the whole file */
    .notify_room = NULL,              /* one server per file */
    .exec = lite_exec,
    .prepare = lite_prepare,
    .bind_int64 = lite_bind_int64,
    .bind_text = lite_bind_text,
    .bind_blob = lite_bind_blob,
    .bind_double = lite_bind_double,
    .step = lite_step,
    .column_int64 = lite_column_int64,
    .column_double = lite_column_double,
    .column_text = lite_column_text,
    .column_blob = lite_column_blob,
    .column_null = lite_column_null,
    .changes = lite_changes,
    .reset = lite_reset,
    .finalize = lite_finalize,
    .errmsg = lite_errmsg,
    .in_transaction = lite_in_transaction,
    .ensure = NULL,
    .close = lite_close,
};

/* --- paths ---------------------------------------------------------------------------- */

/* The folder part of path ("." when there is none) into dir[PATH_MAX]. */
static void parent_dir(const char *path, char *dir) {
    const char *slash = strrchr(path, '/');
    if (!slash) {
        strcpy(dir, ".");
    } else if (slash == path) {
        strcpy(dir, "/");
    } else {
        size_t n = (size_t)(slash - path);
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
}

/* mkdir -p dir, mode 0700 for what it creates. */
static bool make_dirs(const char *dir) {
    char tmp[PATH_MAX];
    size_t len = strlen(dir);
    if (len >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return false;
    }
    memcpy(tmp, dir, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (tmp[i] != '/' && tmp[i] != '\0') continue;
        char c = tmp[i];
        tmp[i] = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST) return false;
        tmp[i] = c;
    }
    struct stat sb;
    if (stat(dir, &sb) != 0) return false;
    if (!S_ISDIR(sb.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return true;
}

/* --- opening -------------------------------------------------------------------------- */

/* Runs a query that returns one integer (or one text when text is given). */
static int query_one(sqlite3 *db, const char *sql, int *num, char *text, size_t textlen) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) goto done;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        if (num) *num = sqlite3_column_int(st, 0);
        if (text && textlen) {
            const unsigned char *t = sqlite3_column_text(st, 0);
            snprintf(text, textlen, "%s", t ? (const char *)t : "");
        }
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        if (num) *num = 0;
        if (text && textlen) text[0] = '\0';
        rc = SQLITE_OK;
    }
done:
    sqlite3_finalize(st);
    return rc;
}

/* Brings the file from its version to GMK_STORE_SCHEMA_VERSION in one transaction. */
static gmk_store_status migrate(gmk_store *s, char *err, size_t errlen) {
    int rc = store_begin(s);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot upgrade the database", err, errlen);
    int v = 0;
    rc = query_one(db_of(s), "PRAGMA user_version", &v, NULL, 0);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot upgrade the database", err, errlen);
    if (v > GMK_STORE_SCHEMA_VERSION) { /* another process got there first with a newer build */
        store_rollback(s);
        return store_fail(err, errlen, GMK_STORE_TOO_NEW,
                          "%s was written by a newer version of gomoku (schema %d, this one "
                          "knows up to %d); it was left untouched",
                          s->path, v, GMK_STORE_SCHEMA_VERSION);
    }
    for (; v < GMK_STORE_SCHEMA_VERSION; v++) {
        char *msg = NULL;
        rc = sqlite3_exec(db_of(s), store_migrations[v], NULL, NULL, &msg);
        if (rc != SQLITE_OK) {
            gmk_store_status st = store_status_of(rc);
            store_fail(err, errlen, st == GMK_STORE_OK ? GMK_STORE_IO : st,
                       "cannot upgrade %s from schema %d to %d: %s; it was left unchanged", s->path,
                       v, v + 1, msg ? msg : sqlite3_errstr(rc));
            sqlite3_free(msg);
            store_rollback(s);
            return st == GMK_STORE_OK ? GMK_STORE_IO : st;
        }
    }
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", GMK_STORE_SCHEMA_VERSION);
    rc = sqlite3_exec(db_of(s), sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = store_commit(s);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot upgrade the database", err, errlen);
    s->version = GMK_STORE_SCHEMA_VERSION;
    return GMK_STORE_OK;
}

/* Checks, before SQLite writes anything, that an existing file looks like an SQLite file:
 * SQLite would otherwise still refuse it, but with a less helpful message. */
static gmk_store_status check_header(const char *path, off_t size, char *err, size_t errlen) {
    if (size == 0) return GMK_STORE_OK; /* an empty file is an empty database */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return store_fail(err, errlen, GMK_STORE_CANT_OPEN, "cannot read %s: %s", path,
                          strerror(errno));
    char head[100];
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    if (n < (ssize_t)sizeof head || memcmp(head, "SQLite format 3", 16) != 0)
        return store_fail(err, errlen, GMK_STORE_CORRUPT,
                          "%s is not a gomoku database (not an SQLite file, or cut short); it "
                          "was left untouched",
                          path);
    return GMK_STORE_OK;
}

/* Is there a non-empty WAL file next to path? */
static bool has_wal(const char *path) {
    char wal[PATH_MAX + 8];
    snprintf(wal, sizeof wal, "%s-wal", path);
    struct stat sb;
    return stat(wal, &sb) == 0 && sb.st_size > 0;
}

/* Opens s->path read-only as an immutable file (no locks, no shared memory). */
static int open_immutable(gmk_store *s) {
    char uri[3 * PATH_MAX + 32], *o = uri;
    o += sprintf(o, "file:");
    for (const unsigned char *p = (const unsigned char *)s->path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#' || *p < 0x20)
            o += sprintf(o, "%%%02X", *p);
        else
            *o++ = (char)*p;
    }
    strcpy(o, "?immutable=1");
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    s->db = db;
    if (rc == SQLITE_OK) sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    return rc;
}

/* Everything after the file checks: SQLite open, validation, WAL, migrations. */
static gmk_store_status open_db(gmk_store *s, bool existed, bool must_exist, char *err,
                                size_t errlen) {
    int oflags = s->readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int rc;
    if (s->readonly && s->read_only_file && !has_wal(s->path)) {
        /* A file nobody may write (mode 0444) cannot change under us: read it as immutable,
         * so that SQLite creates no -shm file, which would take the file's mode and block
         * every later writer once the file is writable again. */
        rc = open_immutable(s);
    } else {
        sqlite3 *db = NULL;
        rc = sqlite3_open_v2(s->path, &db, oflags, NULL);
        s->db = db;
        if (rc == SQLITE_OK) sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    }
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot open the database", err, errlen);
    if (!s->readonly && sqlite3_db_readonly(db_of(s), "main") == 1)
        return store_fail(err, errlen, GMK_STORE_READ_ONLY, "%s is not writable", s->path);

    /* Read and check everything before the first write. */
    int v = 0;
    rc = query_one(db_of(s), "PRAGMA user_version", &v, NULL, 0);
    if (rc != SQLITE_OK && s->readonly && (rc & 0xff) == SQLITE_READONLY && !has_wal(s->path)) {
        /* A WAL file that nobody may write: SQLite cannot set up its shared-memory index.
         * With no WAL content left over, the file alone is the whole database. */
        sqlite3_close_v2(db_of(s));
        s->db = NULL;
        rc = open_immutable(s);
        if (rc == SQLITE_OK) rc = query_one(db_of(s), "PRAGMA user_version", &v, NULL, 0);
    }
    if (rc != SQLITE_OK) {
        gmk_store_status st = store_status_of(rc);
        if (st == GMK_STORE_CORRUPT || st == GMK_STORE_IO)
            return store_fail(err, errlen, GMK_STORE_CORRUPT,
                              "%s is not a gomoku database or is damaged (%s); it was left "
                              "untouched",
                              s->path, sqlite3_errmsg(db_of(s)));
        return store_sql_fail(s, rc, "cannot read the database", err, errlen);
    }
    s->version = v;
    if (v > GMK_STORE_SCHEMA_VERSION)
        return store_fail(err, errlen, GMK_STORE_TOO_NEW,
                          "%s was written by a newer version of gomoku (schema %d, this one "
                          "knows up to %d); it was left untouched",
                          s->path, v, GMK_STORE_SCHEMA_VERSION);
    if (v < 0)
        return store_fail(err, errlen, GMK_STORE_CORRUPT,
                          "%s has an unknown schema version %d; it was left untouched", s->path, v);
    if (existed) {
        char check[200];
        rc = query_one(db_of(s), "PRAGMA quick_check(1)", NULL, check, sizeof check);
        if (rc != SQLITE_OK || strcmp(check, "ok") != 0)
            return store_fail(err, errlen, GMK_STORE_CORRUPT,
                              "%s is damaged (%s); it was left untouched", s->path,
                              rc != SQLITE_OK ? sqlite3_errmsg(db_of(s)) : check);
    }
    int tables = 0, ours = 0;
    rc = query_one(db_of(s), "SELECT count(*) FROM sqlite_master", &tables, NULL, 0);
    if (rc == SQLITE_OK)
        rc = query_one(db_of(s),
                       "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                       "('games', 'moves')",
                       &ours, NULL, 0);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot read the database", err, errlen);
    if ((v == 0 && tables > 0) || (v > 0 && ours != 2))
        return store_fail(err, errlen, GMK_STORE_CORRUPT,
                          "%s is an SQLite file but not a gomoku database; it was left "
                          "untouched",
                          s->path);

    if (v == 0 && must_exist) /* an empty file: nothing to read, and nothing to create */
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s holds no games yet", s->path);
    if (s->readonly) {
        if (v == 0)
            return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "%s holds no games yet", s->path);
        if (v < GMK_STORE_SCHEMA_VERSION)
            return store_fail(err, errlen, GMK_STORE_READ_ONLY,
                              "%s needs upgrading from schema %d to %d; open it once for "
                              "writing",
                              s->path, v, GMK_STORE_SCHEMA_VERSION);
        return GMK_STORE_OK;
    }

    char mode[16];
    rc = query_one(db_of(s), "PRAGMA journal_mode = WAL", NULL, mode, sizeof mode);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot switch to WAL mode", err, errlen);
    if (strcmp(mode, "wal") != 0)
        return store_fail(err, errlen, GMK_STORE_IO, "cannot switch %s to WAL mode (got %s)",
                          s->path, mode);
    rc = sqlite3_exec(db_of(s), "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON", NULL, NULL,
                      NULL);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot set up the database", err, errlen);
    if (v < GMK_STORE_SCHEMA_VERSION) return migrate(s, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status store_sqlite_open(gmk_store *s, const char *path, int flags, char *err,
                                   size_t errlen) {
    s->kind = STORE_SQLITE;
    s->be = &store_sqlite_backend;
    if (strlen(path) >= PATH_MAX)
        return store_fail(err, errlen, GMK_STORE_INVALID, "the database path is too long");
    snprintf(s->path, sizeof s->path, "%s", path);
    bool ro = flags & GMK_STORE_OPEN_READONLY;
    char dir[PATH_MAX];
    parent_dir(path, dir);
    struct stat sb;
    bool existed = stat(path, &sb) == 0;
    if (!existed && errno != ENOENT)
        return store_fail(err, errlen, GMK_STORE_CANT_OPEN, "cannot open %s: %s", path,
                          strerror(errno));
    if (existed && !S_ISREG(sb.st_mode))
        return store_fail(err, errlen, GMK_STORE_CANT_OPEN, "%s is not a regular file", path);
    if (!existed && (flags & (GMK_STORE_OPEN_READONLY | GMK_STORE_OPEN_EXISTING)))
        return store_fail(err, errlen, GMK_STORE_NOT_FOUND, "no database at %s", path);
    if (!existed) {
        if (!make_dirs(dir))
            return store_fail(err, errlen, GMK_STORE_CANT_OPEN, "cannot create the folder %s: %s",
                              dir, strerror(errno));
        if (access(dir, W_OK | X_OK) != 0)
            return store_fail(err, errlen, GMK_STORE_CANT_OPEN,
                              "cannot create %s: the folder is not writable (%s)", path,
                              strerror(errno));
    } else {
        gmk_store_status st = check_header(path, sb.st_size, err, errlen);
        if (st != GMK_STORE_OK) return st;
        if (!ro && access(path, W_OK) != 0)
            return store_fail(err, errlen, GMK_STORE_READ_ONLY, "%s is not writable (%s)", path,
                              strerror(errno));
        if (!ro && access(dir, W_OK | X_OK) != 0)
            return store_fail(err, errlen, GMK_STORE_READ_ONLY,
                              "the folder of %s is not writable (%s); SQLite keeps its journal "
                              "there",
                              path, strerror(errno));
    }
    existed = existed && sb.st_size > 0;
    s->readonly = ro;
    s->read_only_file = existed && ((sb.st_mode & 0222) == 0 || access(path, W_OK) != 0);
    return open_db(s, existed, flags & GMK_STORE_OPEN_EXISTING, err, errlen);
}
