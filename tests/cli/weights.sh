#!/bin/sh
# weights.sh: the evaluation's training tools, from the outside (docs/engine.md, "Learned
# weights"): tools/gendata.c plays self-play games (the same seed gives the same games, each
# line a well-formed game), tools/texel.c fits them and prints C source that compiles against
# src/core/weights.h with a lower training loss than it started from, and both refuse bad
# arguments and input with a message and a non-zero status. tools/policy.c fits the
# move-ordering policy to the same games and prints C source that compiles against
# src/engine/policy.h, with a lower loss than it started from; tools/evalnet.c fits the
# evaluation network likewise (src/engine/evalnet.h).
# Needs GMK_BIN (the gomoku binary); gendata, texel, policy and evalnet are looked for beside it.
set -u

if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "weights.sh: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi
dir=$(dirname "$GMK_BIN")
gendata="$dir/gendata"
texel="$dir/texel"
policy="$dir/policy"
evalnet="$dir/evalnet"
for t in "$gendata" "$texel" "$policy" "$evalnet" "$dir/winrate"; do
    if [ ! -x "$t" ]; then
        echo "weights.sh: $t is missing (make $t)" >&2
        exit 2
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmk-weights.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
check() { # DESCRIPTION COMMAND...
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}
differ() { ! cmp -s "$1" "$2"; } # FILE FILE: the two files differ

# loss_falls DESCRIPTION LOG BEFORE AFTER: the loss the log's line matching BEFORE reports is
# above the one of the line matching AFTER (each a sed pattern before "loss <number>")
loss_falls() {
    first=$(sed -n "s/.*$3 loss \([0-9.]*\).*/\1/p" "$2")
    last=$(sed -n "s/.*$4 loss \([0-9.]*\).*/\1/p" "$2")
    check "$1 ($first -> $last)" \
        awk -v a="$first" -v b="$last" 'BEGIN { exit !(a != "" && b != "" && b < a) }'
}

"$gendata" --games 60 --nodes 300 --seed 3 > "$tmp/a.txt" 2> /dev/null
"$gendata" --games 60 --nodes 300 --seed 3 --threads 1 > "$tmp/b.txt" 2> /dev/null
"$gendata" --games 60 --nodes 300 --seed 4 > "$tmp/c.txt" 2> /dev/null
check "60 games" [ "$(wc -l < "$tmp/a.txt")" -eq 60 ]
check "the same seed gives the same games, with any number of threads" cmp -s "$tmp/a.txt" "$tmp/b.txt"
check "another seed gives other games" sh -c "! cmp -s '$tmp/a.txt' '$tmp/c.txt'"
# a long run stopped early keeps the games already played, in order: the first lines of a run
# of many games, stopped once some are out, are those of the short run with the same seed
: > "$tmp/long.txt" # there before the loop below reads it
"$gendata" --games 2000 --nodes 300 --seed 3 >> "$tmp/long.txt" 2> /dev/null &
long_pid=$!
waited=0
while [ "$(wc -l < "$tmp/long.txt")" -lt 5 ] && [ "$waited" -lt 300 ]; do
    sleep 0.2
    waited=$((waited + 1))
done
kill "$long_pid" 2> /dev/null
wait "$long_pid" 2> /dev/null
kept=$(wc -l < "$tmp/long.txt")
check "a run stopped early keeps the games printed ($kept)" [ "$kept" -ge 5 ]
head -n 5 "$tmp/a.txt" > "$tmp/a5.txt"
head -n 5 "$tmp/long.txt" > "$tmp/long5.txt"
check "and they are the same seed's first games" cmp -s "$tmp/a5.txt" "$tmp/long5.txt"
# result in -1..1, an opening of 3 to 6 stones, then (x, y, score) triples on the board, the
# points all different, and a decided game ends with the winner's move
check "every line is a well-formed game" awk '
    { if ($1 < -1 || $1 > 1 || $2 < 3 || $2 > 6 || (NF - 2) % 3 != 0) exit 1
      n = (NF - 2) / 3; if (n <= $2) exit 1
      delete seen
      for (i = 0; i < n; i++) {
          x = $(3 + 3 * i); y = $(4 + 3 * i)
          if (x < 0 || x > 14 || y < 0 || y > 14 || ((x, y) in seen)) exit 1
          seen[x, y] = 1
      }
      if ($1 == 1 && n % 2 == 0) exit 1
      if ($1 == -1 && n % 2 == 1) exit 1 }' "$tmp/a.txt"

# --openings: the openings alone, each searched once and printed when balanced, in the offset
# form of Gomocup's opening files: 3 to 6 different points from the centre, on the board; the
# same seed gives the same file with any number of threads
"$gendata" --openings --games 60 --nodes 2000 --seed 5 > "$tmp/op.txt" 2> /dev/null
"$gendata" --openings --games 60 --nodes 2000 --seed 5 --threads 1 > "$tmp/op1.txt" 2> /dev/null
ops=$(wc -l < "$tmp/op.txt")
check "--openings prints some of its 60 tries ($ops)" [ "$ops" -ge 1 ] && [ "$ops" -le 60 ]
check "and the same ones with one thread" cmp -s "$tmp/op.txt" "$tmp/op1.txt"
check "every line is an opening in offset form" awk -F', ' '
    { if (NF < 3 || NF > 6) exit 1
      delete seen
      for (i = 1; i <= NF; i++) {
          if ($i !~ /^-?[0-9]+,-?[0-9]+$/) exit 1
          split($i, xy, ","); x = xy[1] + 0; y = xy[2] + 0
          if (x < -7 || x > 7 || y < -7 || y > 7 || ((x, y) in seen)) exit 1
          seen[x, y] = 1
      } }' "$tmp/op.txt"
# no two openings of a run hold the same stones of each colour (3,000 tries of seed 5 at 300
# nodes gave one such pair before they were left out)
"$gendata" --openings --games 3000 --nodes 300 --seed 5 > "$tmp/opmany.txt" 2> /dev/null
check "--openings prints no opening twice, in any order of its stones" awk -F', ' '
    { delete at
      for (i = 1; i <= NF; i++) { split($i, xy, ","); at[xy[1] + 0, xy[2] + 0] = i % 2 ? "b" : "w" }
      key = ""
      for (x = -7; x <= 7; x++) for (y = -7; y <= 7; y++) key = key (((x, y) in at) ? at[x, y] : ".")
      if (key in seen) exit 1
      seen[key] = 1 }' "$tmp/opmany.txt"
"$GMK_BIN" match --engine1 "$GMK_BIN brain" --engine2 "$GMK_BIN brain" --games 2 --openings "$tmp/op.txt" \
    --info "max_node 300" --quiet > "$tmp/opmatch.txt" 2>&1
check "gomoku match plays from them" grep -q "in 2 games" "$tmp/opmatch.txt"

"$texel" --epochs 200 "$tmp/a.txt" "$tmp/c.txt" > "$tmp/weights.c" 2> "$tmp/texel.log"
check "texel succeeds" [ $? -eq 0 ]
check "the weights compile against weights.h" \
    cc -std=c11 -Wall -Werror -fsyntax-only -Isrc/core "$tmp/weights.c"
check "the header names the data" grep -q "Fitted to 120 self-play games" "$tmp/weights.c"
loss_falls "the fit lowers the training loss" "$tmp/texel.log" "positions, K [0-9]*," "epoch 200,"

# a file whose last line was cut short (a gendata run stopped while printing it): that game is
# left out with a message, the others are read
cp "$tmp/a.txt" "$tmp/cut.txt"
head -n 1 "$tmp/c.txt" | cut -c 1-40 | tr -d '\n' >> "$tmp/cut.txt"
"$texel" --epochs 10 "$tmp/cut.txt" > "$tmp/cut.c" 2> "$tmp/cut.log"
check "texel reads a file with a cut-short last line" [ $? -eq 0 ]
check "and leaves that line out" grep -q "Fitted to 60 self-play games" "$tmp/cut.c"
check "saying so" grep -q "last line is cut short" "$tmp/cut.log"

# the setting of make weights: quiet positions, targets half result and half search score
"$texel" --quiet --lambda 0.5 --epochs 100 "$tmp/a.txt" "$tmp/c.txt" > "$tmp/quiet.c" 2> /dev/null
check "texel --quiet --lambda 0.5 succeeds" [ $? -eq 0 ]
check "its weights compile" cc -std=c11 -Wall -Werror -fsyntax-only -Isrc/core "$tmp/quiet.c"
# --two-ply: search targets averaged with the next position's; on search scores alone (lambda
# 0) the targets, and so the weights and the network, change
"$texel" --quiet --lambda 0 --epochs 100 "$tmp/a.txt" "$tmp/c.txt" > "$tmp/search.c" 2> /dev/null
"$texel" --quiet --lambda 0 --two-ply --epochs 100 "$tmp/a.txt" "$tmp/c.txt" > "$tmp/twoply.c" 2> /dev/null
check "texel --two-ply succeeds" [ $? -eq 0 ]
check "its weights compile" cc -std=c11 -Wall -Werror -fsyntax-only -Isrc/core "$tmp/twoply.c"
check "texel --two-ply fits other weights" differ "$tmp/search.c" "$tmp/twoply.c"

# one set per rule: freestyle's colours share their shape weights, renju's are fitted apart
colour_lines() { # FILE: how many different lines of pattern weights the two colours have
    [ "$(grep -c '{.pattern' "$1")" -eq 2 ] && grep '{.pattern' "$1" | sort -u | wc -l
}
colours_share() { [ "$(colour_lines "$1")" = 1 ]; }
colours_differ() { [ "$(colour_lines "$1")" = 2 ]; }
check "freestyle names its set" grep -q "^const gmk_weights gmk_weights_freestyle = {" "$tmp/weights.c"
check "freestyle's colours share their shape weights" colours_share "$tmp/weights.c"
"$gendata" --rule renju --games 60 --nodes 300 --seed 5 > "$tmp/r.txt" 2> /dev/null
check "renju games" [ "$(wc -l < "$tmp/r.txt")" -eq 60 ]
"$texel" --rule renju --epochs 300 "$tmp/r.txt" > "$tmp/renju.c" 2> /dev/null
check "texel --rule renju succeeds" [ $? -eq 0 ]
check "renju's weights compile" cc -std=c11 -Wall -Werror -fsyntax-only -Isrc/core "$tmp/renju.c"
check "renju names its set" grep -q "^const gmk_weights gmk_weights_renju = {" "$tmp/renju.c"
check "renju's colours get shape weights of their own" colours_differ "$tmp/renju.c"

# the move-ordering policy, from the same games
"$policy" --epochs 100 "$tmp/a.txt" "$tmp/c.txt" > "$tmp/policy.c" 2> "$tmp/policy.log"
check "policy succeeds" [ $? -eq 0 ]
check "the policy compiles against policy.h" \
    cc -std=c11 -Wall -Werror -fsyntax-only -Isrc -Isrc/engine "$tmp/policy.c"
check "the policy names its set" grep -q "^const gmk_policy_weights gmk_policy_freestyle = {" "$tmp/policy.c"
check "the policy's header names the data" grep -q "moves of 120 self-play games" "$tmp/policy.c"
loss_falls "the policy's fit lowers its loss" "$tmp/policy.log" "epoch 50," "epoch 100,"
"$policy" --rule renju --epochs 50 "$tmp/r.txt" > "$tmp/policy_renju.c" 2> /dev/null
check "policy --rule renju names its set" \
    grep -q "^const gmk_policy_weights gmk_policy_renju = {" "$tmp/policy_renju.c"

# the evaluation network, from the same games
"$evalnet" --epochs 5 "$tmp/a.txt" "$tmp/c.txt" > "$tmp/evalnet.c" 2> "$tmp/evalnet.log"
check "evalnet succeeds" [ $? -eq 0 ]
check "the network compiles against evalnet.h" \
    cc -std=c11 -Wall -Werror -fsyntax-only -Isrc -Isrc/engine "$tmp/evalnet.c"
check "the network names its set" grep -q "^const gmk_net_weights gmk_net_freestyle = {" "$tmp/evalnet.c"
check "the network's header names the data" grep -q "Fitted to 120 self-play games" "$tmp/evalnet.c"
loss_falls "the network's fit lowers the loss" "$tmp/evalnet.log" "linear evaluation:" "epoch 5,"
"$evalnet" --epochs 5 "$tmp/a.txt" "$tmp/c.txt" > "$tmp/evalnet2.c" 2> /dev/null
check "the same games give the same network" cmp -s "$tmp/evalnet.c" "$tmp/evalnet2.c"
"$evalnet" --two-ply --epochs 5 "$tmp/a.txt" "$tmp/c.txt" > "$tmp/evalnet3.c" 2> /dev/null
check "evalnet --two-ply succeeds" [ $? -eq 0 ]
check "evalnet --two-ply fits another network" differ "$tmp/evalnet.c" "$tmp/evalnet3.c"
# --scale holds the sigmoid's K instead of fitting it to the weights in force
"$texel" --scale 700 --epochs 10 "$tmp/a.txt" > /dev/null 2> "$tmp/scale.log"
check "texel --scale 700 fits at K 700" grep -q "positions, K 700," "$tmp/scale.log"
"$evalnet" --scale 700 --epochs 1 "$tmp/a.txt" > /dev/null 2> "$tmp/scale2.log"
check "evalnet --scale 700 fits at K 700" grep -q "positions, K 700," "$tmp/scale2.log"
"$evalnet" --rule renju --epochs 5 "$tmp/r.txt" > "$tmp/evalnet_renju.c" 2> /dev/null
check "evalnet --rule renju names its set" \
    grep -q "^const gmk_net_weights gmk_net_renju = {" "$tmp/evalnet_renju.c"

# bad arguments and input: a message on stderr, nothing on stdout, a non-zero status
bad() { # DESCRIPTION COMMAND...
    what=$1
    shift
    "$@" > "$tmp/out" 2> "$tmp/err"
    status=$?
    check "$what: non-zero status" [ "$status" -ne 0 ]
    check "$what: a message" [ -s "$tmp/err" ]
    check "$what: no output" [ ! -s "$tmp/out" ]
}
bad "gendata --games 0" "$gendata" --games 0
bad "gendata --nodes with an absurd number" "$gendata" --nodes 99999999999999999999
bad "gendata --rule nonsense" "$gendata" --rule nonsense
bad "texel --rule caro (it plays with freestyle's weights)" "$texel" --rule caro "$tmp/a.txt"
bad "texel, a missing file" "$texel" "$tmp/missing.txt"
printf 'garbage\n\001\002\n' > "$tmp/garbage.txt"
bad "texel, a file that is not games" "$texel" "$tmp/garbage.txt"
head -c 100000 /dev/urandom > "$tmp/random.txt"
bad "texel, random bytes" "$texel" "$tmp/random.txt"
bad "texel --epochs -5" "$texel" --epochs -5 "$tmp/a.txt"
bad "texel --lambda 2" "$texel" --lambda 2 "$tmp/a.txt"
bad "policy --rule caro (it plays with freestyle's policy)" "$policy" --rule caro "$tmp/a.txt"
bad "policy, a missing file" "$policy" "$tmp/missing.txt"
bad "policy, random bytes" "$policy" "$tmp/random.txt"
bad "policy --epochs 0" "$policy" --epochs 0 "$tmp/a.txt"
bad "policy --epochs with an absurd number" "$policy" --epochs 99999999999999999999 "$tmp/a.txt"
bad "policy --epochs 5x" "$policy" --epochs 5x "$tmp/a.txt"
bad "texel --epochs with an absurd number" "$texel" --epochs 4294967297 "$tmp/a.txt"
bad "winrate --rule caro (it uses freestyle's fit)" "$dir/winrate" --rule caro "$tmp/a.txt"
bad "winrate, a missing file" "$dir/winrate" "$tmp/missing.txt"
bad "winrate, random bytes" "$dir/winrate" "$tmp/random.txt"
head -3 "$tmp/a.txt" > "$tmp/few.txt"
bad "winrate, too few positions" "$dir/winrate" "$tmp/few.txt"
bad "evalnet --rule caro (it plays with freestyle's network)" "$evalnet" --rule caro "$tmp/a.txt"
bad "evalnet, a missing file" "$evalnet" "$tmp/missing.txt"
bad "evalnet, random bytes" "$evalnet" "$tmp/random.txt"
bad "evalnet --epochs 0" "$evalnet" --epochs 0 "$tmp/a.txt"
bad "evalnet --epochs with an absurd number" "$evalnet" --epochs 99999999999999999999 "$tmp/a.txt"
bad "evalnet --lambda 2" "$evalnet" --lambda 2 "$tmp/a.txt"
bad "texel --scale 10" "$texel" --scale 10 "$tmp/a.txt"
bad "texel --scale 700x" "$texel" --scale 700x "$tmp/a.txt"
bad "evalnet --scale with an absurd number" "$evalnet" --scale 1e999 "$tmp/a.txt"
bad "evalnet --scale nothing" "$evalnet" --scale "" "$tmp/a.txt"
bad "texel --lambda 0.5x" "$texel" --lambda 0.5x "$tmp/a.txt"
bad "evalnet --lambda nothing" "$evalnet" --lambda "" "$tmp/a.txt"

echo "weights.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
