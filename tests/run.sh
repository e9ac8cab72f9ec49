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
for t in "$OUT"/tests/test_*; do
    [ -x "$t" ] || continue
    run "$(basename "$t")" "$t" --jobs 2
done
# Scripted suites (each a shell script taking the gomoku binary in $GMK_BIN).
for s in tests/cli/*.sh tests/protocol/run.sh tests/tui/run.sh tests/api/run.sh tests/browser/run.sh; do
    [ -f "$s" ] || continue
    run "$s" sh "$s"
done
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
