/* store_internal.h: what the files of src/store/ share: the handle, error reporting and
 * transactions. Only the .c files of src/store/ include this (it is the one place sqlite3.h
 * appears). */
#ifndef GMK_STORE_INTERNAL_H
#define GMK_STORE_INTERNAL_H

#include <limits.h>
#include <sqlite3.h>

#include "store/store.h"

enum { STORE_STMT_CACHE = 16 };

struct gmk_store {
    sqlite3 *db;
    int version;
    bool readonly;
    bool read_only_file; /* the file itself is not writable (mode or permissions) */
    bool batch;          /* in gmk_store_batch_begin: each step is a savepoint of the batch */
    bool deferred_sync;  /* sync.c: commits are synced by gmk_store_sync, on wal_fd */
    int wal_fd;
    struct {
        const char *sql; /* a string literal of the caller's */
        sqlite3_stmt *stmt;
    } cache[STORE_STMT_CACHE]; /* statements.c */
    char path[PATH_MAX];
};

/* Writes a message into err (when given) and returns st. */
gmk_store_status store_fail(char *err, size_t errlen, gmk_store_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The status for an SQLite result code. */
gmk_store_status store_status_of(int rc);

/* Reports an SQLite failure: "<what>: <sqlite message> (<path>)", status from rc. Rolls back
 * an open transaction. */
gmk_store_status store_sql_fail(gmk_store *s, int rc, const char *what, char *err, size_t errlen);

/* Checks a handle before an operation: not NULL, and writable when write is true. */
gmk_store_status store_check(gmk_store *s, bool write, const char *what, char *err, size_t errlen);

/* A write step: BEGIN IMMEDIATE / COMMIT, or inside a batch a savepoint and its release;
 * each returns an SQLite result code. store_rollback undoes the step (only the step in a
 * batch) and also ends a read step. */
int store_begin(gmk_store *s);
int store_commit(gmk_store *s);
void store_rollback(gmk_store *s);

/* The prepared statement for sql (a string literal), from the handle's cache: prepared on
 * first use, then reused. NULL with *rc set when it does not prepare. Every statement taken
 * must be given back with store_stmt_release (which resets it) before the next is taken for
 * the same SQL. store_stmt_clear finalizes them all (before closing the connection). */
sqlite3_stmt *store_stmt(gmk_store *s, const char *sql, int *rc);
void store_stmt_release(gmk_store *s, sqlite3_stmt *q);
void store_stmt_clear(gmk_store *s);

/* Runs a cached statement with no parameters to its end; returns an SQLite code (SQLITE_OK
 * when it ran). */
int store_stmt_exec(gmk_store *s, const char *sql);

/* A read step that sees one state of the file (BEGIN, or a savepoint in a batch); end it
 * with store_rollback. */
int store_read_begin(gmk_store *s);

#endif
