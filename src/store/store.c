/* store.c: opening the database (checks before any write, WAL, migrations), errors and
 * settings. Games and the scoreboard are in games.c. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/schema.h"
#include "store/store_internal.h"

enum { BUSY_TIMEOUT_MS = 5000 };

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
    switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE: return GMK_STORE_OK;
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
    case SQLITE_FORMAT: return GMK_STORE_CORRUPT;
    case SQLITE_READONLY: return GMK_STORE_READ_ONLY;
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_AUTH: return GMK_STORE_CANT_OPEN;
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return GMK_STORE_BUSY;
    default: return GMK_STORE_IO;
    }
}

gmk_store_status store_sql_fail(gmk_store *s, int rc, const char *what, char *err, size_t errlen) {
    gmk_store_status st = store_status_of(rc);
    if (st == GMK_STORE_OK) st = GMK_STORE_IO;
    const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    store_fail(err, errlen, st, "%s: %s (%s)", what, msg, s->path);
    store_rollback(s);
    return st;
}

gmk_store_status store_check(gmk_store *s, bool write, const char *what, char *err, size_t errlen) {
    if (!s || !s->db) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no database", what);
    if (write && s->readonly)
        return store_fail(err, errlen, GMK_STORE_READ_ONLY, "%s: %s was opened read-only", what,
                          s->path);
    return GMK_STORE_OK;
}

int store_begin(gmk_store *s) {
    return store_stmt_exec(s, s->batch ? "SAVEPOINT gmk_step" : "BEGIN IMMEDIATE");
}

int store_read_begin(gmk_store *s) {
    return sqlite3_exec(s->db, s->batch ? "SAVEPOINT gmk_step" : "BEGIN", NULL, NULL, NULL);
}

int store_commit(gmk_store *s) {
    return store_stmt_exec(s, s->batch ? "RELEASE gmk_step" : "COMMIT");
}

void store_rollback(gmk_store *s) {
    if (!s->db || sqlite3_get_autocommit(s->db)) return;
    if (s->batch) /* the step only; "no such savepoint" when it has ended already */
        sqlite3_exec(s->db, "ROLLBACK TO gmk_step; RELEASE gmk_step", NULL, NULL, NULL);
    else
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

gmk_store_status gmk_store_batch_begin(gmk_store *s, char *err, size_t errlen) {
    const char *what = "cannot start writing";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (s->batch) return store_fail(err, errlen, GMK_STORE_INVALID, "%s: a batch is open", what);
    int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, what, err, errlen);
    s->batch = true;
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_batch_end(gmk_store *s, bool commit, char *err, size_t errlen) {
    const char *what = "cannot save";
    if (!s || !s->db || !s->batch)
        return store_fail(err, errlen, GMK_STORE_INVALID, "%s: no batch is open", what);
    s->batch = false;
    int rc = sqlite3_exec(s->db, commit ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, what, err, errlen); /* rolls back */
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

/* --- paths ---------------------------------------------------------------------------- */

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
    rc = query_one(s->db, "PRAGMA user_version", &v, NULL, 0);
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
        rc = sqlite3_exec(s->db, store_migrations[v], NULL, NULL, &msg);
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
    rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
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
    int rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    if (rc == SQLITE_OK) sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
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
        rc = sqlite3_open_v2(s->path, &s->db, oflags, NULL);
        if (rc == SQLITE_OK) sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
    }
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot open the database", err, errlen);
    if (!s->readonly && sqlite3_db_readonly(s->db, "main") == 1)
        return store_fail(err, errlen, GMK_STORE_READ_ONLY, "%s is not writable", s->path);

    /* Read and check everything before the first write. */
    int v = 0;
    rc = query_one(s->db, "PRAGMA user_version", &v, NULL, 0);
    if (rc != SQLITE_OK && s->readonly && (rc & 0xff) == SQLITE_READONLY && !has_wal(s->path)) {
        /* A WAL file that nobody may write: SQLite cannot set up its shared-memory index.
         * With no WAL content left over, the file alone is the whole database. */
        sqlite3_close_v2(s->db);
        s->db = NULL;
        rc = open_immutable(s);
        if (rc == SQLITE_OK) rc = query_one(s->db, "PRAGMA user_version", &v, NULL, 0);
    }
    if (rc != SQLITE_OK) {
        gmk_store_status st = store_status_of(rc);
        if (st == GMK_STORE_CORRUPT || st == GMK_STORE_IO)
            return store_fail(err, errlen, GMK_STORE_CORRUPT,
                              "%s is not a gomoku database or is damaged (%s); it was left "
                              "untouched",
                              s->path, sqlite3_errmsg(s->db));
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
        rc = query_one(s->db, "PRAGMA quick_check(1)", NULL, check, sizeof check);
        if (rc != SQLITE_OK || strcmp(check, "ok") != 0)
            return store_fail(err, errlen, GMK_STORE_CORRUPT,
                              "%s is damaged (%s); it was left untouched", s->path,
                              rc != SQLITE_OK ? sqlite3_errmsg(s->db) : check);
    }
    int tables = 0, ours = 0;
    rc = query_one(s->db, "SELECT count(*) FROM sqlite_master", &tables, NULL, 0);
    if (rc == SQLITE_OK)
        rc = query_one(s->db,
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
    rc = query_one(s->db, "PRAGMA journal_mode = WAL", NULL, mode, sizeof mode);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot switch to WAL mode", err, errlen);
    if (strcmp(mode, "wal") != 0)
        return store_fail(err, errlen, GMK_STORE_IO, "cannot switch %s to WAL mode (got %s)",
                          s->path, mode);
    rc = sqlite3_exec(s->db, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON", NULL, NULL,
                      NULL);
    if (rc != SQLITE_OK) return store_sql_fail(s, rc, "cannot set up the database", err, errlen);
    if (v < GMK_STORE_SCHEMA_VERSION) return migrate(s, err, errlen);
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_open(const char *path, int flags, gmk_store **out, char *err,
                                size_t errlen) {
    if (!out) return store_fail(err, errlen, GMK_STORE_INVALID, "no handle to open into");
    *out = NULL;
    if (flags & ~(GMK_STORE_OPEN_READONLY | GMK_STORE_OPEN_EXISTING))
        return store_fail(err, errlen, GMK_STORE_INVALID, "unknown open flags %#x", flags);
    char def[PATH_MAX];
    if (!path) {
        gmk_store_status st = gmk_store_default_path(def, sizeof def, err, errlen);
        if (st != GMK_STORE_OK) return st;
        path = def;
    }
    if (!path[0]) return store_fail(err, errlen, GMK_STORE_INVALID, "empty database path");
    if (strlen(path) >= PATH_MAX)
        return store_fail(err, errlen, GMK_STORE_INVALID, "the database path is too long");
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

    gmk_store *s = calloc(1, sizeof *s);
    if (!s) return store_fail(err, errlen, GMK_STORE_IO, "out of memory");
    snprintf(s->path, sizeof s->path, "%s", path);
    s->readonly = ro;
    s->read_only_file = existed && ((sb.st_mode & 0222) == 0 || access(path, W_OK) != 0);
    gmk_store_status st = open_db(s, existed, flags & GMK_STORE_OPEN_EXISTING, err, errlen);
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
        close(s->wal_fd);
    }
    if (s->db) {
        s->batch = false; /* an open batch is rolled back whole */
        store_rollback(s);
        store_stmt_clear(s);
        sqlite3_close_v2(s->db);
    }
    free(s);
}

const char *gmk_store_path(const gmk_store *s) {
    return s ? s->path : "";
}

int gmk_store_schema_version(const gmk_store *s) {
    return s ? s->version : 0;
}

/* --- settings ------------------------------------------------------------------------- */

gmk_store_status gmk_store_setting_get(gmk_store *s, const char *key, char *value, size_t valuelen,
                                       char *err, size_t errlen) {
    gmk_store_status st = store_check(s, false, "cannot read a setting", err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (!key || !value || !valuelen)
        return store_fail(err, errlen, GMK_STORE_INVALID, "cannot read a setting: no key");
    value[0] = '\0';
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db, "SELECT value FROM settings WHERE key = ?", -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(q, 0);
        size_t n = (size_t)sqlite3_column_bytes(q, 0);
        if (n >= valuelen) {
            st = store_fail(err, errlen, GMK_STORE_INVALID, "setting '%s' is too long", key);
        } else {
            if (t) memcpy(value, t, n);
            value[n] = '\0';
        }
    } else if (rc == SQLITE_DONE) {
        st = store_fail(err, errlen, GMK_STORE_NOT_FOUND, "setting '%s' is not set", key);
    } else {
        st = store_sql_fail(s, rc, "cannot read a setting", err, errlen);
    }
    sqlite3_finalize(q);
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
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(s->db,
                                "INSERT INTO settings (key, value) VALUES (?1, ?2) "
                                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                -1, &q, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(q, 2, value, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(q);
    if (rc != SQLITE_DONE) st = store_sql_fail(s, rc, "cannot save a setting", err, errlen);
    sqlite3_finalize(q);
    return st;
}
