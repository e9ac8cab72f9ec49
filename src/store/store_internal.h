/* store_internal.h: what the files of src/store/ share: the handle, the two database backends
 * behind one small interface, error reporting and transactions. Only the .c files of
 * src/store/ include this; sqlite3.h appears only in db_sqlite.c and libpq-fe.h
 * only in db_pg.c.
 *
 * The SQL of games.c, rooms.c, owners.c and store.c is shared by both backends: numbered
 * placeholders (?1, ?2 ... or plain ? in order), standard upserts (ON CONFLICT ... DO UPDATE),
 * RETURNING for new ids, CASE instead of summing booleans. What differs (how a write begins,
 * how a read sees one state, the row lock of a game, the column types of the schema, where the
 * schema version is kept) is in each backend's struct store_backend and its migrations. */
#ifndef GMK_STORE_INTERNAL_H
#define GMK_STORE_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>

#include "store/store.h"

enum { STORE_STMT_CACHE = 40 };

/* Result codes of the backend interface (the numbers are SQLite's primary codes, which
 * db_sqlite.c passes through; db_pg.c maps SQLSTATEs onto them). */
enum {
    DB_OK = 0,
    DB_ERROR = 1,
    DB_BUSY = 5, /* a lock held too long, a statement timeout, a serialization failure */
    DB_READONLY = 8,
    DB_IOERR = 10,
    DB_CORRUPT = 11,
    DB_FULL = 13,
    DB_CANTOPEN = 14,
    DB_CONSTRAINT = 19,
    DB_RANGE = 25,
    DB_NOTADB = 26,
    DB_ROW = 100,
    DB_DONE = 101,
    DB_UNAVAILABLE = 1000, /* the database server cannot be reached (PostgreSQL) */
};

typedef enum { STORE_SQLITE, STORE_PG } store_kind;

/* A prepared statement of either backend; each backend's own struct begins with this. */
typedef struct store_q {
    struct gmk_store *s;
} store_q;

typedef struct store_backend {
    const char *name; /* "SQLite", "PostgreSQL" */
    /* dialect */
    const char *begin_write; /* a write step outside a batch */
    const char *begin_read;  /* a read step that sees one state */
    const char *lock_game;   /* run first in a write step on a game (?1 = id); NULL: none */
    const char *notify_room; /* run in a room's save (?1 = code); NULL: nobody to tell */
    /* connection */
    int (*exec)(struct gmk_store *s, const char *sql); /* statements without parameters */
    store_q *(*prepare)(struct gmk_store *s, const char *sql, int *rc);
    int (*bind_int64)(store_q *q, int i, int64_t v); /* i from 1 */
    int (*bind_text)(store_q *q, int i, const char *text, size_t len);
    int (*bind_blob)(store_q *q, int i, const void *data, size_t len);
    int (*bind_double)(store_q *q, int i, double v);
    int (*step)(store_q *q);                    /* DB_ROW, DB_DONE or an error code */
    int64_t (*column_int64)(store_q *q, int i); /* i from 0; NULL reads as 0 */
    double (*column_double)(store_q *q, int i);
    const char *(*column_text)(store_q *q, int i);              /* NULL when NULL */
    const void *(*column_blob)(store_q *q, int i, size_t *len); /* NULL when NULL */
    bool (*column_null)(store_q *q, int i);
    int64_t (*changes)(store_q *q); /* rows changed by the statement just run */
    void (*reset)(store_q *q);      /* ready to bind and run again */
    void (*finalize)(store_q *q);
    const char *(*errmsg)(struct gmk_store *s);
    bool (*in_transaction)(struct gmk_store *s);
    void (*ensure)(struct gmk_store *s); /* reconnects a lost connection; NULL: nothing */
    void (*close)(struct gmk_store *s);
} store_backend;

struct gmk_store {
    store_kind kind;
    const store_backend *be;
    void *db; /* sqlite3 * or PGconn * */
    int version;
    bool readonly;
    bool read_only_file;     /* SQLite: the file itself is not writable (mode or permissions) */
    bool batch;              /* in gmk_store_batch_begin: steps join the batch's transaction */
    bool batch_writing;      /* a write step of the batch is open */
    bool batch_failed;       /* a write step of the batch failed: it commits nothing */
    unsigned batch_conn;     /* the connection number the batch began on (PostgreSQL) */
    unsigned conn_no;        /* PostgreSQL: raised on each reconnection */
    int64_t retry_ms;        /* PostgreSQL: no reconnection attempt before this (monotonic ms) */
    char pg_error[256];      /* PostgreSQL: the last error, one line */
    atomic_bool down;        /* the last call found the server unreachable (gmk_store_reachable) */
    void *sync_conn;         /* PostgreSQL with deferred syncing: the syncer's connection */
    pthread_mutex_t sync_mu; /* its lock (gmk_store_sync may come from any thread) */
    bool deferred_sync;      /* sync.c: commits are synced by gmk_store_sync, on wal_fd */
    int wal_fd;
    struct {
        const char *sql; /* a string literal of the caller's */
        store_q *stmt;
    } cache[STORE_STMT_CACHE]; /* statements.c */
    char path[PATH_MAX];       /* the file, or the connection string without its password */
    char conninfo[1024];       /* PostgreSQL: the connection string as given */
};

/* The backends (db_sqlite.c, db_pg.c). Each open fills s->db, s->version (migrating under
 * its lock) and s->be; on failure it reports and the caller closes the handle. */
extern const store_backend store_sqlite_backend;
extern const store_backend store_pg_backend;
gmk_store_status store_sqlite_open(gmk_store *s, const char *path, int flags, char *err,
                                   size_t errlen);
gmk_store_status store_pg_open(gmk_store *s, const char *conninfo, int flags, char *err,
                               size_t errlen);
/* Group commit on PostgreSQL (sync.c calls them; see there). */
gmk_store_status store_pg_defer_sync(gmk_store *s, char *err, size_t errlen);
gmk_store_status store_pg_sync(gmk_store *s, char *err, size_t errlen);
/* Does name look like a PostgreSQL connection string (postgresql://, postgres:// or libpq's
 * keyword=value form)? */
bool store_pg_is_conninfo(const char *name);
/* The connection string without its password, into out[outlen] (for messages). */
void store_pg_display(const char *conninfo, char *out, size_t outlen);

/* Writes a message into err (when given) and returns st. */
gmk_store_status store_fail(char *err, size_t errlen, gmk_store_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The status for a backend result code. */
gmk_store_status store_status_of(int rc);

/* Reports a database failure: "<what>: <database's message> (<path>)", status from rc. Rolls
 * back an open transaction. */
gmk_store_status store_sql_fail(gmk_store *s, int rc, const char *what, char *err, size_t errlen);

/* Checks a handle before an operation: not NULL, and writable when write is true. Outside a
 * batch it also lets the backend reconnect a lost connection. */
gmk_store_status store_check(gmk_store *s, bool write, const char *what, char *err, size_t errlen);

/* A write step: the backend's begin_write / COMMIT, or inside a batch nothing of its own (its
 * writes are the batch's); each returns a DB_ code. store_rollback undoes the step, and also
 * ends a read step; inside a batch a write step it ends spoils the whole batch, which then
 * commits nothing. store_begin_game also takes the game's row lock where the backend has
 * one. */
int store_begin(gmk_store *s);
int store_begin_game(gmk_store *s, int64_t id);
int store_commit(gmk_store *s);
void store_rollback(gmk_store *s);

/* A read step that sees one state of the database (begin_read; in a batch, the batch's);
 * end it with store_rollback. */
int store_read_begin(gmk_store *s);

/* The prepared statement for sql (a string literal), from the handle's cache: prepared on
 * first use, then reused. NULL with *rc set when it does not prepare. Every statement taken
 * must be given back with store_stmt_release (which resets it) before the next is taken for
 * the same SQL. store_stmt_clear finalizes them all (before closing the connection). */
store_q *store_stmt(gmk_store *s, const char *sql, int *rc);
void store_stmt_release(gmk_store *s, store_q *q);
void store_stmt_clear(gmk_store *s);

/* Runs a cached statement with no parameters to its end; returns DB_OK when it ran. */
int store_stmt_exec(gmk_store *s, const char *sql);

/* Short forms of the backend's calls on a statement. */
static inline int q_int64(store_q *q, int i, int64_t v) {
    return q->s->be->bind_int64(q, i, v);
}
static inline int q_text(store_q *q, int i, const char *t, size_t len) {
    return q->s->be->bind_text(q, i, t, len);
}
static inline int q_blob(store_q *q, int i, const void *p, size_t len) {
    return q->s->be->bind_blob(q, i, p, len);
}
static inline int q_double(store_q *q, int i, double v) {
    return q->s->be->bind_double(q, i, v);
}
static inline double q_coldouble(store_q *q, int i) {
    return q->s->be->column_double(q, i);
}
static inline int q_step(store_q *q) {
    return q->s->be->step(q);
}
static inline int64_t q_col64(store_q *q, int i) {
    return q->s->be->column_int64(q, i);
}
static inline int q_colint(store_q *q, int i) {
    int64_t v = q->s->be->column_int64(q, i);
    return v < INT_MIN ? INT_MIN : v > INT_MAX ? INT_MAX : (int)v;
}
static inline const char *q_coltext(store_q *q, int i) {
    return q->s->be->column_text(q, i);
}
static inline bool q_colnull(store_q *q, int i) {
    return q->s->be->column_null(q, i);
}

#endif
