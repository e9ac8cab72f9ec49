#!/bin/sh
# judge.sh: bench/judge.c from the outside, with a fake judge (a Gomocup engine written here in
# sh that answers as Rapfi's "ucilike" messages do): the loss of a move is the judge's win rate
# after its own move minus after ours, a mate ("+M3") is a certain win, a move that makes five
# needs no judge, the answers are kept in the cache and read back, the evaluation measures are
# printed, and bad input gets a message and a non-zero status.
# Needs GMK_BIN (the gomoku binary); judge is looked for beside it.
set -u

if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "judge.sh: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi
judge="$(dirname "$GMK_BIN")/judge"
if [ ! -x "$judge" ]; then
    echo "judge.sh: $judge is missing (make judge)" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmk-judge.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
check() { # DESCRIPTION COMMAND...
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

# The fake judge: a position whose last stone is on column 0 is a mate for the side to move
# (+M3); any other is worth 10 a stone to it. Its move is the first empty point of column 14.
cat > "$tmp/fake.sh" <<'FAKE'
#!/bin/sh
log=$1
inboard=0
while IFS= read -r line; do
    line=$(printf '%s' "$line" | tr -d '\r')
    echo "$line" >> "$log"
    case $line in
    START*) echo OK ;;
    BOARD) inboard=1; n=0; last=""; taken=" " ;;
    DONE)
        inboard=0
        case $last in
        0,*) ev="+M3" ;;
        *) ev=$((n * 10)) ;;
        esac
        y=0
        while case $taken in *" 14,$y "*) true ;; *) false ;; esac; do y=$((y + 1)); done
        echo "MESSAGE depth 5-9 ev $ev n 12K n/ms 100 tm 5 pv O1"
        echo "14,$y"
        ;;
    *)
        if [ $inboard = 1 ]; then
            xy=${line%,*}
            n=$((n + 1)); last=$xy; taken="$taken$xy "
        fi
        ;;
    esac
done
FAKE
chmod +x "$tmp/fake.sh"
fake="$tmp/fake.sh $tmp/fake.log"

# 1: white must block black's four at 0,5 (the fake calls that a mate for black); the fake's
# own move 14,0 leaves black 80, so the loss is 1 - sigmoid(80 / 250) = 0.421.
# 2: white makes five (at 0,9 or 5,9): no loss, whatever the fake says.
cat > "$tmp/pos.txt" <<'POS'
# two positions
block 1,5 5,5 2,5 7,9 3,5 8,9 4,5
five 7,7 1,9 7,8 2,9 8,7 3,9 9,12 4,9 12,12
POS
"$judge" --judge "$fake" --cache "$tmp/cache.txt" --positions "$tmp/pos.txt" moves --nodes 2000 \
    > "$tmp/out1.txt" 2> "$tmp/err1.txt"
rc=$?
check "moves runs" [ $rc -eq 0 ]
check "the block loses 0.421" grep -q "^block 0,5 judge 14,0 loss 0.421 " "$tmp/out1.txt"
check "the five loses nothing" grep -q "^five [05],9 judge 14,0 loss 0.000 " "$tmp/out1.txt"
check "the mean and the judge's moves" grep -q "^mean loss 0.2103 .*the judge's move 0 of 2" \
    "$tmp/out1.txt"
check "the cache holds the judge's answers" grep -q "^1000000 1,5;5,5;2,5;7,9;3,5;8,9;4,5;0,5 30000 14,0" \
    "$tmp/cache.txt"
asked=$(grep -c '^DONE' "$tmp/fake.log")
# a second run asks the judge nothing new
"$judge" --judge "$fake" --cache "$tmp/cache.txt" --positions "$tmp/pos.txt" moves --nodes 2000 \
    > "$tmp/out2.txt" 2>&1
check "the second run reads the cache" [ "$(grep -c '^DONE' "$tmp/fake.log")" -eq "$asked" ]
check "the second run gives the same figures" cmp -s "$tmp/out1.txt" "$tmp/out2.txt"

"$judge" --judge "$fake" --cache "$tmp/cache.txt" --positions "$tmp/pos.txt" eval \
    > "$tmp/eval.txt" 2>&1
check "eval prints the bias" grep -q "^side-to-move bias: -*[0-9.]* logit" "$tmp/eval.txt"
check "eval prints the inconsistency" grep -q "^one-ply inconsistency .*: [0-9.]* logit" "$tmp/eval.txt"
check "eval prints the correlation" grep -q "^correlation with the judge's search" "$tmp/eval.txt"
check "eval prints the two-ply average" grep -q "^two-ply average .*: bias -*[0-9.]*, inconsistency [0-9.]*, correlation" "$tmp/eval.txt"

# the board's eight symmetries: each search is turned back, so every orientation blocks at 0,5
# and loses 0.421, and every orientation makes five and loses nothing
"$judge" --judge "$fake" --cache "$tmp/cache.txt" --positions "$tmp/pos.txt" moves --nodes 2000 \
    --symmetries 8 > "$tmp/sym.txt" 2> "$tmp/symerr.txt"
check "moves --symmetries 8 runs" [ $? -eq 0 ]
check "every orientation of the block is turned back to 0,5" grep -q \
    "^block\( 0,5 loss 0.421 depth [0-9]*-[0-9]*\)\{8\} judge 14,0 mean loss 0.421$" "$tmp/sym.txt"
check "every orientation of the five loses nothing" grep -q \
    "^five\( [05],9 loss 0.000 depth [0-9]*-[0-9]*\)\{8\} judge 14,0 mean loss 0.000$" "$tmp/sym.txt"
check "the mean over the symmetries" grep -q "^mean loss 0.2103 .*the judge's move 0 of 16" "$tmp/sym.txt"
check "the agreement of the orientations" grep -q "^symmetries 8: the most common move of a position in 1[2-6] of 16 searches" "$tmp/sym.txt"
"$judge" --judge "$fake" --cache "$tmp/cache.txt" --positions "$tmp/pos.txt" moves --symmetries 9 \
    > "$tmp/o9" 2> "$tmp/e9"
check "nine symmetries are refused" [ $? -eq 2 ]

# bad input
printf 'bad 1,5 1,5\n' > "$tmp/twice.txt"
"$judge" --judge "$fake" --cache "$tmp/c2.txt" --positions "$tmp/twice.txt" moves > "$tmp/o3" 2> "$tmp/e3"
check "a point played twice is refused" [ $? -eq 2 ]
check "with a message naming the line" grep -q "twice.txt:1: bad moves" "$tmp/e3"
"$judge" --judge "$fake" --cache "$tmp/c2.txt" --positions "$tmp/pos.txt" moves --nodes -5 > "$tmp/o4" 2> "$tmp/e4"
check "a negative node count is refused" [ $? -eq 2 ]
"$judge" --judge "$tmp/missing-engine" --cache "$tmp/c2.txt" --positions "$tmp/pos.txt" moves > "$tmp/o5" 2> "$tmp/e5"
check "a judge that does not start is an error" [ $? -eq 2 ]
"$judge" --judge "$fake" --cache "$tmp/c2.txt" --positions "$tmp/pos.txt" eval --scale 700 > "$tmp/o6" 2> "$tmp/e6"
check "an option after the command is refused" [ $? -eq 2 ]
check "with the usage" grep -q "^usage: judge" "$tmp/e6"

echo "judge.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
