/* sync.c: deferred syncing for group commit (see store.h, "group commit").
 *
 * In WAL mode with synchronous=NORMAL, SQLite writes each commit's frames to the WAL file and
 * returns without syncing it (it still syncs the WAL before a checkpoint copies it into the
 * database, and the database after). Syncing the WAL file ourselves afterwards makes every
 * commit written so far durable, exactly as synchronous=FULL would have one commit at a time:
 * the frames and the WAL header are in that file, and a frame is only used on recovery when
 * its checksums (chained from the header) are intact.
 *
 * PostgreSQL (db_pg.c): the handle's connection commits with synchronous_commit off (the
 * commit is visible to every server at once, its WAL flushed a moment later), and
 * gmk_store_sync commits an empty transaction that holds an id on a second connection with
 * synchronous_commit on: its commit returns once the server's WAL is flushed up to its own
 * record, which comes after every commit made before, so one round trip makes all of them
 * durable, outside the lock of the handle. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "store/store_internal.h"

gmk_store_status gmk_store_defer_sync(gmk_store *s, char *err, size_t errlen) {
    const char *what = "cannot defer syncing";
    gmk_store_status st = store_check(s, true, what, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (s->deferred_sync) return GMK_STORE_OK;
    if (s->kind == STORE_PG) return store_pg_defer_sync(s, err, errlen);
    char wal[PATH_MAX + 8];
    snprintf(wal, sizeof wal, "%s-wal", s->path);
    int fd = open(wal, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return store_fail(err, errlen, GMK_STORE_CANT_OPEN, "%s: %s: %s", what, wal,
                          strerror(errno));
    int rc = s->be->exec(s, "PRAGMA synchronous = NORMAL");
    if (rc != DB_OK) {
        close(fd);
        return store_sql_fail(s, rc, what, err, errlen);
    }
    s->wal_fd = fd;
    s->deferred_sync = true;
    return GMK_STORE_OK;
}

gmk_store_status gmk_store_sync(gmk_store *s, char *err, size_t errlen) {
    if (!s || !s->deferred_sync) return GMK_STORE_OK;
    if (s->kind == STORE_PG) return store_pg_sync(s, err, errlen);
    if (fdatasync(s->wal_fd) != 0)
        return store_fail(err, errlen, GMK_STORE_IO, "cannot sync %s-wal: %s", s->path,
                          strerror(errno));
    return GMK_STORE_OK;
}
