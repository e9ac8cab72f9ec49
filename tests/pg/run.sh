#!/bin/sh
# Scale-out tests (tests/pg/scale.test.mjs): several `gomoku serve` ($GMK_BIN) on one PostgreSQL.
# tests/run.sh starts the private server (pg.sh) and passes PG_CONN, PG_DIR, PG_BIN and PG_AS;
# run alone, this script starts one itself.
set -u
cd "$(dirname "$0")" || exit 1
if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "pg: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi
. ./pg.sh
if [ -z "${PG_CONN:-}" ]; then
    pg_start || exit 1
    PG_CONN=$GMK_TEST_PG
    export PG_CONN
    trap pg_stop EXIT
fi
timeout 300 node --test --test-reporter=spec --test-concurrency=1 scale.test.mjs
