#!/bin/sh
# pg.sh: a private PostgreSQL server for the tests, from Debian's postgresql package. Source it,
# then:
#   pg_start          initdb in a new temporary folder, start the server on a Unix socket in
#                     that folder (no TCP port), create the database "gomoku"; sets PG_DIR,
#                     PG_BIN and GMK_TEST_PG (a libpq connection string). Returns 1 when no
#                     server can be started (the package is missing, initdb fails).
#   pg_ctl_as ARGS    runs pg_ctl on that server as its owner (restart, stop -m immediate...)
#   pg_stop           stops it and removes the folder.
# The server runs as an unprivileged user: initdb and postgres refuse to run as root, and CI
# runs as root, so under root the folder is given to the user "nobody" and the server runs as
# it (runuser). Test settings: fsync off (a test cluster lives as long as the run; a server
# crash, not a machine crash, is what the tests cause, and the OS keeps what was written),
# trust authentication on the socket, which only the folder's owner and root can reach.
pg_start() {
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
        echo "pg: no PostgreSQL server installed (Debian package postgresql)" >&2
        return 1
    fi
    PG_DIR=$(mktemp -d /tmp/gmk-pg-XXXXXX) || return 1
    chmod 755 "$PG_DIR"
    PG_AS=""
    if [ "$(id -u)" -eq 0 ]; then
        chown nobody "$PG_DIR"
        PG_AS="runuser -u nobody --"
    fi
    if ! $PG_AS "$PG_BIN/initdb" -D "$PG_DIR/data" -U gomoku -A trust -E UTF8 --no-sync \
        --locale=C >"$PG_DIR/initdb.log" 2>&1; then
        echo "pg: initdb failed:" >&2
        tail -n 5 "$PG_DIR/initdb.log" >&2
        rm -rf "$PG_DIR"
        return 1
    fi
    cat >>"$PG_DIR/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$PG_DIR'
fsync = off
full_page_writes = off
max_connections = 200
shared_buffers = 64MB
log_min_messages = warning
CONF
    if ! pg_ctl_as -w -t 30 -l "$PG_DIR/server.log" start >/dev/null; then
        echo "pg: the server did not start:" >&2
        tail -n 5 "$PG_DIR/server.log" >&2
        rm -rf "$PG_DIR"
        return 1
    fi
    GMK_TEST_PG="host=$PG_DIR port=5432 user=gomoku dbname=gomoku"
    if ! psql -X -q -d "host=$PG_DIR port=5432 user=gomoku dbname=postgres" \
        -c "CREATE DATABASE gomoku" >/dev/null; then
        pg_stop
        return 1
    fi
    export PG_DIR PG_BIN PG_AS GMK_TEST_PG
    return 0
}

pg_ctl_as() {
    $PG_AS "$PG_BIN/pg_ctl" -D "$PG_DIR/data" "$@"
}

pg_stop() {
    [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR" ] || return 0
    pg_ctl_as -w -t 30 -m fast stop >/dev/null 2>&1 || pg_ctl_as -m immediate stop >/dev/null 2>&1
    rm -rf "$PG_DIR"
    PG_DIR=""
}
