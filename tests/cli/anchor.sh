#!/bin/sh
# anchor.sh: the fixed-node anchor's scripts from the outside (docs/engine.md, "Measuring").
# bench/match/paced.sh drops "INFO max_memory 0" and passes every other line on in order;
# bench/match/paired.sh compares two reports game by game (draws, games in one report only)
# with the right mean and standard error; bench/match/anchor.sh plays real games between two
# engine processes at fixed node counts, and the same start gives the same games again; bad
# arguments get a message and a non-zero status.
# Needs GMK_BIN (the gomoku binary, an absolute path).
set -u

if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "anchor.sh: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
paced="$root/bench/match/paced.sh"
paired="$root/bench/match/paired.sh"
anchor="$root/bench/match/anchor.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmk-anchor.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
check() { # DESCRIPTION COMMAND...
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

# paced.sh, with cat standing in for the engine
printf 'INFO max_memory 0\r\nSTART 15\ninfo MAX_MEMORY 0\nINFO max_memory 33554432\nTURN 7,7\r\nEND\n' |
    "$paced" cat > "$tmp/paced.txt"
printf 'START 15\nINFO max_memory 33554432\nTURN 7,7\nEND\n' > "$tmp/paced.want"
check "paced.sh drops INFO max_memory 0 and passes the rest in order" cmp -s "$tmp/paced.txt" "$tmp/paced.want"
"$paced" > /dev/null 2> "$tmp/paced.err" < /dev/null
check "paced.sh without an engine is refused" [ $? -eq 2 ]
check "with the usage" grep -q "^usage: bench/match/paced.sh" "$tmp/paced.err"

# paired.sh on two reports written here: engine's scores 1, 0, 0, 1/2 and 1, 1, 0, 1/2, and a
# fifth game only in the first
cat > "$tmp/a.txt" << 'R'
game 2/5: opponent (black) vs engine (white), opening 1: 1-0, five in a row, 30 moves | engine: +0 -1 =0 0.0%
game 1/5: engine (black) vs opponent (white), opening 1: 1-0, five in a row, 31 moves | engine: +1 -1 =0 50.0%
game 3/5: engine (black) vs opponent (white), opening 2: 0-1, five in a row, 40 moves | engine: +1 -2 =0 33.3%
game 4/5: opponent (black) vs engine (white), opening 2: 1/2, full board, 225 moves | engine: +1 -2 =1 37.5%
game 5/5: engine (black) vs opponent (white), opening 3: 1-0, five in a row, 25 moves | engine: +2 -2 =1 50.0%

result: engine vs opponent: 2 wins, 2 losses, 1 draws in 5 games
R
cat > "$tmp/b.txt" << 'R'
game 1/4: engine (black) vs opponent (white), opening 1: 1-0, five in a row, 31 moves | engine: +1 -0 =0 100.0%
game 2/4: opponent (black) vs engine (white), opening 1: 0-1, five in a row, 44 moves | engine: +2 -0 =0 100.0%
game 3/4: engine (black) vs opponent (white), opening 2: 0-1, five in a row, 40 moves | engine: +2 -1 =0 66.7%
game 4/4: opponent (black) vs engine (white), opening 2: 1/2, full board, 225 moves | engine: +2 -1 =1 62.5%
R
"$paired" "$tmp/a.txt" "$tmp/b.txt" > "$tmp/pair.txt"
check "paired.sh: the games in both, each score, the difference and its error" \
    grep -qx "games 4: first 37.5%, second 62.5%, difference +25.0 +- 25.0 points (same result 3)" "$tmp/pair.txt"
"$paired" "$tmp/b.txt" "$tmp/a.txt" > "$tmp/pair2.txt"
check "paired.sh: the other way round, the opposite difference" \
    grep -qx "games 4: first 62.5%, second 37.5%, difference -25.0 +- 25.0 points (same result 3)" "$tmp/pair2.txt"
"$paired" "$tmp/a.txt" "$tmp/missing.txt" > /dev/null 2> "$tmp/pe1"
check "paired.sh: a missing report is refused" [ $? -eq 2 ]
check "with a message naming it" grep -q "cannot read $tmp/missing.txt" "$tmp/pe1"
printf 'result: nothing\n' > "$tmp/empty.txt"
"$paired" "$tmp/a.txt" "$tmp/empty.txt" > /dev/null 2> "$tmp/pe2"
check "paired.sh: a report without games is an error" [ $? -eq 1 ]
check "with a message" grep -q "fewer than two games" "$tmp/pe2"

# anchor.sh: two real engine processes (ours at 2,000 nodes against ours at 500, behind paced.sh)
opp="$paced $GMK_BIN brain"
GMK_BIN="$GMK_BIN" "$anchor" --opponent "$opp" --nodes 2000 --opponent-nodes 500 --games 4 \
    --start 3 --report "$tmp/r1.txt" --psq "$tmp/psq" 2> "$tmp/ae1"
check "anchor.sh plays its games" [ "$(grep -c '^game [0-9]*/4: ' "$tmp/r1.txt")" -eq 4 ]
check "from the opening asked for, both colours" [ "$(grep -c 'opening 3: ' "$tmp/r1.txt")" -eq 2 ]
check "with no time loss, illegal move or error reply" \
    grep -q "^engine: .*time losses 0, illegal moves 0, fouls 0, error replies 0, crashes 0" "$tmp/r1.txt"
check "and writes the records" [ -f "$tmp/psq/game-0004.psq" ]
GMK_BIN="$GMK_BIN" "$anchor" --opponent "$opp" --nodes 2000 --opponent-nodes 500 --games 4 \
    --start 3 --report "$tmp/r2.txt" 2> "$tmp/ae2"
"$paired" "$tmp/r1.txt" "$tmp/r2.txt" > "$tmp/pair3.txt"
check "the same start gives the same games again" grep -q "difference +0.0 +- 0.0 points (same result 4)" "$tmp/pair3.txt"
(cd "$tmp" && GMK_BIN="$GMK_BIN" "$anchor" --opponent "$opp" --nodes 2000 --opponent-nodes 500 \
    --games 2 --start 3 --report r3.txt 2> ae6)
check "a relative --report is written in the caller's directory" [ -s "$tmp/r3.txt" ]
GMK_BIN="$GMK_BIN" "$anchor" --nodes 2000 > /dev/null 2> "$tmp/ae3"
check "anchor.sh without an opponent is refused" [ $? -eq 2 ]
check "with a message" grep -q "opponent CMD is required" "$tmp/ae3"
GMK_BIN="$GMK_BIN" "$anchor" --opponent "$opp" --nodes 1e9 > /dev/null 2> "$tmp/ae4"
check "a node count that is not a whole number is refused" [ $? -eq 2 ]
GMK_BIN="$GMK_BIN" "$anchor" --opponent "$opp" --rule gomoku9 > /dev/null 2> "$tmp/ae5"
check "a rule without openings is refused" [ $? -eq 2 ]
check "with a message naming the file" grep -q "openings-gomoku9.txt" "$tmp/ae5"

echo "anchor.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
