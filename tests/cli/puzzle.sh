#!/bin/sh
# puzzle.sh: `gomoku puzzle`, the terminal's puzzle mode, from the outside (docs/puzzles.md):
# a puzzle by id solved from standard input (the solution read from the shipped set,
# src/game/puzzles_data.c), the rating and streak kept in the database and shown again, a
# wrong move with the solution, a taken point refused without ending the puzzle, a hint that
# keeps the puzzle unrated, Chinese, and bad arguments (status 2, one line on stderr).
# Needs GMK_BIN; tests/run.sh sets it.
set -u
if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "puzzle.sh: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmk-puzzle.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
passed=0
failed=0
check() { # DESCRIPTION COMMAND...
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}
data="$(dirname "$0")/../../src/game/puzzles_data.c"
# the first defence puzzle of the set: id, moves, solution
line=$(sed -n 's/^ *"\([0-9]* [a-z]* defence [0-9]* .*\)",$/\1/p' "$data" | head -1)
id=$(echo "$line" | cut -d' ' -f1)
sol=$(echo "$line" | cut -d' ' -f6)
first=$(echo "$line" | cut -d' ' -f5 | sed 's/^\([a-o][0-9]*\).*/\1/')
check "a defence puzzle in the set ($id $sol)" [ -n "$id" ] && [ -n "$sol" ]
db="$tmp/p.db"

printf '%s\n%s\n' "$first" "$sol" | "$GMK_BIN" puzzle --db "$db" --id "$id" > "$tmp/a.txt" 2>&1
check "puzzle: the task" grep -q "to play: find the only defence" "$tmp/a.txt"
check "puzzle: a taken point is refused" grep -q "^.*$first cannot be played here" "$tmp/a.txt"
check "puzzle: solved" grep -q "Solved!" "$tmp/a.txt"
check "puzzle: the rating went up, streak 1" grep -Eq "rating: 1[5-9][0-9][0-9], streak 1 \(best 1\)" "$tmp/a.txt"
r1=$(sed -n 's/.*rating: \([0-9]*\),.*/\1/p' "$tmp/a.txt")
# kept: a hinted solve next does not change it
printf '?\n%s\n' "$sol" | "$GMK_BIN" puzzle --db "$db" --id "$id" > "$tmp/b.txt" 2>&1
check "puzzle: the hint is the solution" grep -q "Hint: $sol" "$tmp/b.txt"
check "puzzle: a hinted solve is not rated, the rating kept" grep -q "rating: $r1, streak 1 (best 1)" "$tmp/b.txt"
# a wrong move: a corner that is empty and not the solution
wrong=a1
echo "$line" | cut -d' ' -f5 | grep -Eq "a1([^0-9]|$)" && wrong=o15
[ "$wrong" = "$sol" ] && wrong=b2
printf '%s\n' "$wrong" | "$GMK_BIN" puzzle --db "$db" --id "$id" > "$tmp/c.txt" 2>&1
check "puzzle: a wrong move, with the solution" grep -q "Not this one: the move was $sol\." "$tmp/c.txt"
check "puzzle: the streak ends, the best stays" grep -q "streak 0 (best 1)" "$tmp/c.txt"
printf 'q\n' | "$GMK_BIN" puzzle --no-db --lang zh --id "$id" > "$tmp/d.txt" 2>&1
check "puzzle: Chinese" grep -q "先走：找出唯一的防守" "$tmp/d.txt"
printf 'q\n' | "$GMK_BIN" puzzle --no-db --kind threes > "$tmp/t.txt" 2>&1
check "puzzle: --kind threes" grep -q "to play and win by threes and fours\." "$tmp/t.txt"
printf 'q\n' | "$GMK_BIN" puzzle --no-db --daily > "$tmp/e.txt" 2>&1
check "puzzle: the puzzle of the day" grep -q "^Puzzle #" "$tmp/e.txt"

# the miner (tools/puzzles.c) on a few self-play games: its lines are puzzles --emit accepts,
# and the C source compiles against puzzle.h
dir=$(dirname "$GMK_BIN")
if [ -x "$dir/puzzles" ] && [ -x "$dir/gendata" ]; then
    "$dir/gendata" --games 40 --nodes 2000 --seed 9 > "$tmp/g.txt" 2> /dev/null
    "$dir/puzzles" "$tmp/g.txt" > "$tmp/lines.txt" 2> "$tmp/mine.log"
    check "miner: succeeds" [ $? -eq 0 ]
    check "miner: reports its counts" grep -q "^puzzles: freestyle fours:" "$tmp/mine.log"
    check "miner: finds puzzles in 40 games" [ "$(wc -l < "$tmp/lines.txt")" -ge 1 ]
    head -n 10 "$tmp/g.txt" > "$tmp/g10.txt" # the threes solver is slower: 10 games
    "$dir/puzzles" --threes --first-id 200000 "$tmp/g10.txt" > "$tmp/threes.txt" 2> "$tmp/threes.log"
    check "miner --threes: threes puzzles only, from 200000" \
        [ "$(grep -c '^2[0-9]* freestyle threes ' "$tmp/threes.txt")" -eq "$(wc -l < "$tmp/threes.txt")" ]
    check "miner --threes: reports its counts" grep -q "^puzzles: freestyle threes:" "$tmp/threes.log"
    "$dir/puzzles" --emit "$tmp/lines.txt" > "$tmp/data.c"
    check "miner --emit: succeeds" [ $? -eq 0 ]
    check "miner --emit: compiles" cc -std=c11 -Wall -Werror -fsyntax-only -Isrc "$tmp/data.c"
    echo "1 freestyle fours 2 h8h8 h9" > "$tmp/badline.txt"
    "$dir/puzzles" --emit "$tmp/badline.txt" > /dev/null 2>&1
    check "miner --emit: refuses a line that is not a puzzle" [ $? -ne 0 ]
    "$dir/puzzles" "$tmp/missing.txt" > /dev/null 2>&1
    check "miner: a missing file" [ $? -ne 0 ]
else
    check "gendata and puzzles are built beside $GMK_BIN" false
fi

bad() { # DESCRIPTION ARGS...
    what=$1
    shift
    "$GMK_BIN" "$@" < /dev/null > "$tmp/out" 2> "$tmp/err"
    status=$?
    check "$what: status 2 ($status)" [ "$status" -eq 2 ]
    check "$what: one line on stderr" [ "$(wc -l < "$tmp/err")" -eq 1 ]
}
bad "puzzle --id 0" puzzle --no-db --id 0
bad "puzzle --id of no puzzle" puzzle --no-db --id 99999999
bad "puzzle --kind nonsense" puzzle --no-db --kind nonsense
bad "puzzle --rule caro" puzzle --no-db --rule caro
bad "puzzle --bogus" puzzle --bogus

echo "puzzle.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
