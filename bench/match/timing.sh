#!/bin/sh
# bench/match/timing.sh [BIN] [GAMES]: whole self-play games of `BIN brain` (default
# build/gomoku) at timeout_turn 200, 1000 and 5000 ms with no tolerance, and a table of the
# longest reply at each limit, measured by gomoku match from outside the brain. GAMES per limit
# (default 2: one opening, both colours). The 5000 ms row takes a few minutes.
set -u
cd "$(dirname "$0")/../.." || exit 1
bin=${1:-build/gomoku}
games=${2:-2}
openings=tests/protocol/openings/piskvork_15x15_offset.txt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmk-timing.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf '| timeout_turn | games | moves | longest reply (engine 1 / 2) | time losses |\n'
printf '|---|---|---|---|---|\n'
for limit in 200 1000 5000; do
    "$bin" match --engine1 "$bin brain" --engine2 "$bin brain" --name1 a --name2 b \
        --games "$games" --turn "$limit" --tolerance 0 --openings "$openings" --quiet \
        > "$tmp/out.txt" 2>&1
    a=$(sed -n 's/^a: longest move \([0-9]*\) ms.*/\1/p' "$tmp/out.txt")
    b=$(sed -n 's/^b: longest move \([0-9]*\) ms.*/\1/p' "$tmp/out.txt")
    ta=$(sed -n 's/^a: .*time losses \([0-9]*\).*/\1/p' "$tmp/out.txt")
    tb=$(sed -n 's/^b: .*time losses \([0-9]*\).*/\1/p' "$tmp/out.txt")
    moves=$(sed -n 's/.*; \([0-9]*\) moves played by the engines/\1/p' "$tmp/out.txt")
    printf '| %s ms | %s | %s | %s / %s ms | %s |\n' "$limit" "$games" "$moves" "$a" "$b" \
        "$((ta + tb))"
done
