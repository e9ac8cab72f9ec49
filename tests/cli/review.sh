#!/bin/sh
# review.sh: the readable evaluation and game review from the outside (docs/review.md):
#   - `gomoku analyze` says the win rate of the side to move, or who wins in how many moves,
#     beside the raw score, in text and in --json (black's rate the complement of white's);
#   - `gomoku review FILE` labels a game with a known blunder and a missed win; --json says the
#     same; a stored game's review is kept in the database (one row) and shown again the same;
#   - bad input exits with status 2, a message, and nothing on stdout.
# Needs GMK_BIN; tests/run.sh sets it.
set -u
if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "review.sh: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmk-review.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
passed=0
failed=0
check() { # DESCRIPTION COMMAND...
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

# ---- analyze ---------------------------------------------------------------------------------
"$GMK_BIN" analyze --nodes 20000 h8i9h9i10 > "$tmp/a.txt"
check "analyze: the side to move's win rate and the score" \
    grep -Eq '^eval Black [0-9]+% \(score [-+][0-9]+\)$' "$tmp/a.txt"
"$GMK_BIN" analyze --nodes 20000 h8i8h9i9h10i10 > "$tmp/w.txt"
check "analyze: a proved win in words" grep -q '^eval Black wins in 2 (score win in 2)$' "$tmp/w.txt"
"$GMK_BIN" analyze --nodes 20000 --json h8i9h9i10h10 > "$tmp/j.json"
wr=$(sed -n 's/^  "winrate": \([0-9]*\),$/\1/p' "$tmp/j.json")
bwr=$(sed -n 's/^  "black_winrate": \([0-9]*\),$/\1/p' "$tmp/j.json")
check "analyze --json: white to move, black's rate is the complement ($wr, $bwr)" \
    [ -n "$wr" ] && [ -n "$bwr" ] && [ $((wr + bwr)) -eq 100 ]
check "analyze --json: the words" grep -q "\"evaluation\": \"White $wr%\"" "$tmp/j.json"
check "analyze --json: the raw score stays" grep -Eq '^  "score": -?[0-9]+,$' "$tmp/j.json"

# ---- review of a record ---------------------------------------------------------------------
# white's i8 leaves black's four h8-h11 open at h12; black plays j11 instead of the five
echo h8h7h9i9h10i10h11i8j11h12 > "$tmp/game.txt"
"$GMK_BIN" review --nodes 20000 "$tmp/game.txt" > "$tmp/r.txt" 2> "$tmp/r.err"
check "review: succeeds" [ $? -eq 0 ]
check "review: white's i8 is a blunder, h12 better" \
    grep -Eq '^ +8 +i8 +white +blunder .* h12 ' "$tmp/r.txt"
check "review: black's j11 is a missed win, h12 better" \
    grep -Eq '^ +9 +j11 +black +missed-win .* h12 .*turning point' "$tmp/r.txt"
check "review: the summary" grep -q '^White: .* 1 blunders' "$tmp/r.txt"
check "review: no progress when stderr is not a terminal" [ ! -s "$tmp/r.err" ]
"$GMK_BIN" review --nodes 20000 --json "$tmp/game.txt" > "$tmp/r.json"
check "review --json: ten moves" [ "$(grep -c '"ply":' "$tmp/r.json")" -eq 10 ]
check "review --json: one missed win" [ "$(grep -c '"label": "missed-win"' "$tmp/r.json")" -eq 1 ]
check "review --json: complete" grep -q '"complete": true' "$tmp/r.json"

# ---- review of a stored game: kept, and read back -------------------------------------------
db="$tmp/g.db"
id=$("$GMK_BIN" import --db "$db" "$tmp/game.txt" 2>/dev/null | sed -n 's/[^0-9]*\([0-9][0-9]*\).*/\1/p' | head -1)
check "import gives an id ($id)" [ -n "$id" ]
"$GMK_BIN" review --db "$db" --nodes 20000 "$id" > "$tmp/s1.txt" 2>&1
tail -n +2 "$tmp/s1.txt" > "$tmp/s1.tail"
tail -n +2 "$tmp/r.txt" > "$tmp/r.tail"
check "review GAME_ID: the same labels as the file" cmp -s "$tmp/s1.tail" "$tmp/r.tail"
"$GMK_BIN" review --db "$db" --nodes 20000 "$id" > "$tmp/s2.txt" 2>&1
check "review GAME_ID again: the same" cmp -s "$tmp/s1.txt" "$tmp/s2.txt"
if command -v sqlite3 > /dev/null 2>&1; then
    check "the review is kept in the store" \
        [ "$(sqlite3 "$db" "SELECT count(*) FROM reviews WHERE game_id = $id AND moves = 10 AND nodes = 20000")" = 1 ]
    # a kept review is read, not searched again: say in the store that the engine's move before
    # white's 8th was i8 (x 8, y 7), and the table calls i8 best
    sqlite3 "$db" "SELECT data FROM reviews WHERE game_id = $id" > "$tmp/kept.txt"
    awk 'NR == 9 { $1 = "8.7" } { print }' "$tmp/kept.txt" > "$tmp/changed.txt"
    sqlite3 "$db" "UPDATE reviews SET data = readfile('$tmp/changed.txt') WHERE game_id = $id"
    "$GMK_BIN" review --db "$db" --nodes 20000 "$id" > "$tmp/s3.txt" 2>&1
    check "review GAME_ID: the kept searches are what is shown" grep -Eq '^ +8 +i8 +white +best ' "$tmp/s3.txt"
    "$GMK_BIN" review --db "$db" --nodes 30000 "$id" > "$tmp/s4.txt" 2>&1
    check "another node budget is another review" grep -Eq '^ +8 +i8 +white +blunder ' "$tmp/s4.txt"
    # a damaged kept review is searched again
    sqlite3 "$db" "UPDATE reviews SET data = 'gmk-review 1 20000 11\n1.1' WHERE game_id = $id AND nodes = 20000"
    "$GMK_BIN" review --db "$db" --nodes 20000 "$id" > "$tmp/s5.txt" 2>&1
    check "a damaged kept review is searched again" cmp -s "$tmp/s1.txt" "$tmp/s5.txt"
fi

# ---- bad input ------------------------------------------------------------------------------
bad() { # DESCRIPTION ARGS...
    what=$1
    shift
    "$GMK_BIN" "$@" > "$tmp/out" 2> "$tmp/err"
    status=$?
    check "$what: status 2 ($status)" [ "$status" -eq 2 ]
    check "$what: one line on stderr" [ "$(wc -l < "$tmp/err")" -eq 1 ]
    check "$what: nothing on stdout" [ ! -s "$tmp/out" ]
}
bad "review without a game" review
bad "review of a game not in the store" review --db "$db" 999
bad "review of a missing file" review "$tmp/missing.txt"
echo h8h8 > "$tmp/twice.txt"
bad "review of a point played twice" review "$tmp/twice.txt"
echo h8a1h9a2h10a3h11a4h12a5 > "$tmp/after.txt"
bad "review of a move after the end" review "$tmp/after.txt"
bad "review --nodes 5" review --nodes 5 "$tmp/game.txt"
bad "review --nodes nonsense" review --nodes 1e9 "$tmp/game.txt"
bad "review --bogus" review --bogus "$tmp/game.txt"

echo "review.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
