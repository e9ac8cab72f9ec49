#!/bin/sh
# Runs every test against the build in $1 (default: build), from the repository root.
# Each suite prints its own results; the last line sums them up as "N passed, N failed".
set -u
OUT=${1:-build}
cd "$(dirname "$0")/.." || exit 1
export GMK_BIN="$PWD/$OUT/gomoku"
export GMK_TEST_DATA="$PWD/tests/data"
passed=0
failed=0
run() { # name command...
    name=$1
    shift
    echo "== $name"
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $name"; fi
}
# A private PostgreSQL server (tests/pg/pg.sh) for the store suite's second run and the
# scale-out tests; `make test` must be able to start one (scripts/deps.sh installs it).
. tests/pg/pg.sh
PG_CONN=""
echo "== PostgreSQL: starting a private server"
if pg_start; then
    PG_CONN=$GMK_TEST_PG
    unset GMK_TEST_PG
    trap pg_stop EXIT
    trap 'pg_stop; exit 130' INT TERM
else
    failed=$((failed + 1))
    echo "FAILED: PostgreSQL could not be started"
fi
export PG_CONN
for t in "$OUT"/tests/test_*; do
    [ -x "$t" ] || continue
    run "$(basename "$t")" "$t" --jobs 2
done
if [ -n "$PG_CONN" ]; then
    run "test_store (PostgreSQL)" env GMK_TEST_PG="$PG_CONN" "$OUT"/tests/test_store --jobs 2
    run "test_accounts (PostgreSQL)" env GMK_TEST_PG="$PG_CONN" "$OUT"/tests/test_accounts --jobs 2
    run "test_lobby_chat (PostgreSQL)" env GMK_TEST_PG="$PG_CONN" "$OUT"/tests/test_lobby_chat --jobs 2
fi
# Scripted suites (each a shell script taking the gomoku binary in $GMK_BIN).
for s in tests/cli/*.sh tests/protocol/run.sh tests/tui/run.sh tests/api/run.sh tests/pg/run.sh tests/browser/run.sh; do
    [ -f "$s" ] || continue
    run "$s" sh "$s"
done
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
