#!/bin/sh
# The Gomocup suite, against the gomoku binary in $GMK_BIN (tests/run.sh sets it):
#   1. scripted sessions: each tests/protocol/NAME.in is sent to `gomoku brain` by a small
#      driver (driver.c, compiled here) and the replies are checked against NAME.out; among
#      them stress.in (every INFO key with extreme values) and dNN_*.in (the brain defects of
#      issue 11, one session each);
#   2. pbrain-gomoku started with no arguments from another directory, and the search threads
#      of INFO thread_num 1000 (no more than the online processors);
#   3. gomoku match: self-play (freestyle and renju) with the records read back, the
#      adjudication of illegal moves, fouls, crashes, time losses and ERROR replies, SPRT, and
#      the runner defects of issue 11 (ERROR after INFO, write errors, --verify, --sprt);
#   4. time: at timeout_turn 200 ms (whole games), 1000 ms (6 moves) and 5000 ms (2 moves) the
#      longest reply, measured by gomoku match from outside the brain, stays under the limit
#      (with 200 ms of slack for sanitizer builds only).
# GMK_PROTOCOL_QUICK=1 skips part 4.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.." || exit 1
: "${GMK_BIN:?set GMK_BIN to the gomoku binary}"
bindir=$(dirname "$GMK_BIN")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmk-protocol.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
passed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

driver="$bindir/tests/protocol-driver"
if [ ! -x "$driver" ] || [ "$here/driver.c" -nt "$driver" ]; then
    mkdir -p "$bindir/tests"
    ${CC:-cc} -std=c11 -O1 -Wall -o "$driver" "$here/driver.c" || { echo "FAIL: cannot build the driver"; exit 1; }
fi

# 1. scripted sessions (sanitizer builds take more memory and time: the memory limits are
# scaled and 2 s are added to the time limits, so there they only catch a brain that ignores
# its time; the release build is held to the limits as written. Under ASan the timings follow
# the machine's load: with one other busy process the brain's exit after the end of input
# (d06_eof) took 1.6 s, LeakSanitizer's scan of the heap, against 0.1 s in the release build)
if grep -q __asan_init "$GMK_BIN" 2> /dev/null; then
    export GMK_DRIVER_RSS_FACTOR=6 GMK_DRIVER_SLACK_MS=2000
fi
for script in "$here"/*.in; do
    name=$(basename "$script" .in)
    if "$driver" "$script" "$here/$name.out" -- "$GMK_BIN" brain > "$tmp/$name.log" 2>&1; then
        ok "session $name"
    else
        bad "session $name"
        sed 's/^/    /' "$tmp/$name.log"
    fi
done

# 2. the pbrain-gomoku name, no arguments, another working directory
if (cd / && "$driver" "$here/basic.in" "$here/basic.out" -- "$bindir/pbrain-gomoku") > "$tmp/pbrain.log" 2>&1; then
    ok "pbrain-gomoku from /"
else
    bad "pbrain-gomoku from /"
    sed 's/^/    /' "$tmp/pbrain.log"
fi

# 2b. INFO thread_num beyond the machine's processors: the search starts no more threads than
# there are online processors (64 threads on 2 cores starved the main search into the
# watchdog's fallback move). The brain's threads are counted in /proc during a long search,
# once with thread_num 1 and once with thread_num 1000: the difference is the helpers.
search_threads() { # thread_num: the most threads the brain had during 1.5 s of a search
    mkfifo "$tmp/in.$1"
    "$GMK_BIN" brain < "$tmp/in.$1" > /dev/null 2>&1 &
    pid=$!
    exec 3> "$tmp/in.$1"
    printf 'START 15\nINFO thread_num %s\nINFO timeout_turn 3000\n' "$1" >&3
    sleep 0.5 # the other rules' tables are built by a thread of their own: let it end
    printf 'TURN 7,7\n' >&3
    most=0
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
        sleep 0.1
        n=$(ls "/proc/$pid/task" 2> /dev/null | wc -l)
        [ "$n" -gt "$most" ] && most=$n
    done
    printf 'END\n' >&3
    exec 3>&-
    wait "$pid"
    echo "$most"
}
cpus=$(getconf _NPROCESSORS_ONLN)
one=$(search_threads 1)
many=$(search_threads 1000)
if [ "$one" -gt 0 ] && [ $((many - one)) -le $((cpus - 1)) ] && [ "$many" -ge "$one" ]; then
    ok "INFO thread_num 1000: at most $cpus search threads ($one threads with 1, $many with 1000)"
else
    bad "INFO thread_num 1000 on $cpus processors: $one threads with thread_num 1, $many with 1000"
fi

# match helpers: the value of a field of the final report
longest() { # file engine-name
    grep "^$2: longest move" "$1" | sed -n 's/.*longest move \([0-9]*\) ms.*/\1/p'
}
clean_report() { # file: true when no engine lost by adjudication
    ! grep -E "(time losses|illegal moves|fouls|error replies|crashes) [1-9]" "$1" > /dev/null
}
brain="$GMK_BIN brain"
fake="sh $here/fake-brain.sh"

# 3a. self-play, freestyle: records written and read back
out="$tmp/self"
if "$GMK_BIN" match --engine1 "$brain" --engine2 "$brain" --name1 a --name2 b --games 4 -j 2 \
    --turn 100 --openings "$here/openings/piskvork_15x15_offset.txt" \
    --psq "$out.psq" --sgf "$out.sgf" --log "$out.log" > "$out.txt" 2>&1 &&
    grep -q "in 4 games" "$out.txt" && clean_report "$out.txt"; then
    ok "self-play: 4 games, no adjudication"
else
    bad "self-play"
    sed 's/^/    /' "$out.txt"
fi
if "$GMK_BIN" match --verify "$out".psq/*.psq "$out.sgf" > "$out.verify" 2>&1 &&
    grep -q "verified 8 games in 5 files: 0 problems" "$out.verify"; then
    ok "self-play records read back (4 PSQ, 4 SGF)"
else
    bad "self-play records read back"
    sed 's/^/    /' "$out.verify"
fi
if grep -q "> INFO rule 0" "$out.log" && grep -q "< OK" "$out.log"; then
    ok "match log"
else
    bad "match log"
fi

# 3b. self-play, renju: black never fouls; engines at different settings
out="$tmp/renju"
if "$GMK_BIN" match --engine1 "$brain" --engine2 "$bindir/pbrain-gomoku" --info1 "max_depth 3" \
    --info2 "level 4" --rule renju --games 2 --turn 100 --draw-after 80 \
    --openings "$here/openings/balanced_renju15_offset.txt" --sgf "$out.sgf" --log "$out.log" \
    > "$out.txt" 2>&1 && grep -q "in 2 games" "$out.txt" && clean_report "$out.txt" &&
    grep -q "engine1 > INFO max_depth 3" "$out.log" && grep -q "engine2 > INFO level 4" "$out.log" &&
    "$GMK_BIN" match --verify "$out.sgf" > "$out.verify" 2>&1; then
    ok "renju self-play: no foul, records read back"
else
    bad "renju self-play"
    cat "$out.txt" "$out.verify" 2>/dev/null | sed 's/^/    /'
fi

# 3c. adjudication, with scripted fake engines
adjudge() { # name expected-regexp match-args...
    name=$1
    want=$2
    shift 2
    if "$GMK_BIN" match --games 1 "$@" > "$tmp/adj.txt" 2>&1 && grep -Eq "$want" "$tmp/adj.txt"; then
        ok "adjudication: $name"
    else
        bad "adjudication: $name (expected /$want/)"
        sed 's/^/    /' "$tmp/adj.txt"
    fi
}
adjudge "illegal move" "^engine1: .*illegal moves 1" \
    --engine1 "$fake script 7,7 7,7" --engine2 "$brain" --turn 200
adjudge "move off the board" "^engine1: .*illegal moves 1" \
    --engine1 "$fake script 15,3" --engine2 "$brain" --turn 200
adjudge "renju foul (h8 double-three)" "^engine1: .*fouls 1" \
    --engine1 "$fake script 5,7 6,7 7,5 7,6 7,7" --engine2 "$fake script 0,0 0,2 0,4 0,6" \
    --rule renju
adjudge "crash" "^engine2: .*crashes 1" --engine1 "$brain" --engine2 "$fake crash" --turn 200
adjudge "time loss" "^engine2: .*time losses 1" --engine1 "$fake script 7,7" \
    --engine2 "$fake silent" --turn 1000 --tolerance 100
adjudge "ERROR reply" "^engine2: .*error replies 1" --engine1 "$brain" --engine2 "$fake error" \
    --turn 200
adjudge "five in a row" "1-0, five in a row" \
    --engine1 "$fake script 0,0 1,0 2,0 3,0 4,0" --engine2 "$fake script 0,5 1,5 2,5 3,5 5,5"
adjudge "draw after N moves" "1/2, draw after 6 moves" \
    --engine1 "$brain" --engine2 "$brain" --draw-after 6 --turn 100
adjudge "renju: black with no legal point left draws" "1/2, no legal point for black" \
    --engine1 "$fake script 4,5" --engine2 "$fake script 5,5" --rule renju --size 6 \
    --openings "$here/forbidden_only_opening.txt"
{ grep -v '^#' "$here/forbidden_only_opening.txt" | tr -d '\n'; echo ', 1,2, 2,2'; } > "$tmp/drawn.txt"
adjudge "renju: an opening that leaves black no legal point is drawn" \
    "1/2, the opening is already decided: no legal point for black" \
    --engine1 "$fake script" --engine2 "$fake script" --rule renju --size 6 --openings "$tmp/drawn.txt"
adjudge "SPRT report" "^sprt: elo0 0 elo1 20 alpha 0.1 beta 0.1: llr" \
    --engine1 "$fake script 0,0 1,0 2,0 3,0 4,0" --engine2 "$fake script 0,5 1,5 2,5 3,5 5,5" \
    --sprt 0,20,0.1,0.1

# 3d. issue 11, defects 10-12 of the runner (each failed before its fix)
# defect 10: an ERROR that answers an INFO is not the move; a max_memory that cannot be had
adjudge "issue 11 #10: ERROR answering INFO is not a move" "1-0, five in a row" \
    --engine1 "$fake infoerror 0,0 1,0 2,0 3,0 4,0" --engine2 "$fake script 0,5 1,5 2,5 3,5 5,5" \
    --game-time 10000
if "$GMK_BIN" match --engine1 "$brain" --engine2 "$brain" --name1 a --name2 b --games 2 \
    --turn 100 --max-memory 68719476736 > "$tmp/mem.txt" 2>&1 &&
    grep -q "in 2 games" "$tmp/mem.txt" && clean_report "$tmp/mem.txt"; then
    ok "issue 11 #10: --max-memory 64 GB: no error replies"
else
    bad "issue 11 #10: --max-memory 64 GB"
    sed 's/^/    /' "$tmp/mem.txt"
fi
# defect 11: a record or log that cannot be written is an error (exit status and message)
quick="--engine1 \"$fake script 0,0 1,0 2,0 3,0 4,0\" --engine2 \"$fake script 0,5 1,5 2,5 3,5 5,5\" --games 1"
for dest in "--sgf /dev/full" "--log /dev/full"; do
    # shellcheck disable=SC2086
    if eval "\"$GMK_BIN\" match $quick $dest" > "$tmp/full.txt" 2>&1; then
        bad "issue 11 #11: match $dest exits 0"
        sed 's/^/    /' "$tmp/full.txt"
    elif grep -q "cannot write /dev/full" "$tmp/full.txt"; then
        ok "issue 11 #11: match $dest fails with a message"
    else
        bad "issue 11 #11: match $dest: no message"
        sed 's/^/    /' "$tmp/full.txt"
    fi
done
# (the report goes through a pipe: a file would be under the limit too)
if (ulimit -f 0 && eval "\"$GMK_BIN\" match $quick --psq \"$tmp/psq0\" --sgf \"$tmp/f0.sgf\"" 2>&1;
    echo "exit $?") | cat > "$tmp/ulimit.txt" && grep -q "^exit 0" "$tmp/ulimit.txt"; then
    bad "issue 11 #11: match under ulimit -f 0 exits 0"
    sed 's/^/    /' "$tmp/ulimit.txt"
elif grep -q "records are lost" "$tmp/ulimit.txt"; then
    ok "issue 11 #11: match under ulimit -f 0 fails: records are lost"
else
    bad "issue 11 #11: match under ulimit -f 0: no message"
    sed 's/^/    /' "$tmp/ulimit.txt"
fi
# defect 12: --verify does not print control characters; --sprt needs four finite values
printf '(;GM[4]SZ[15]B[hh];W[\033[2Jxx])\n' > "$tmp/esc.sgf"
"$GMK_BIN" match --verify "$tmp/esc.sgf" > "$tmp/esc.txt" 2>&1
if grep -q "FAIL" "$tmp/esc.txt" && ! grep -q "$(printf '\033')" "$tmp/esc.txt"; then
    ok "issue 11 #12: --verify prints no control characters"
else
    bad "issue 11 #12: --verify prints control characters"
fi
for sprt in 0,10,nan,0.05 0,10,0.05 inf,10,0.05,0.05 0,10,0.05,0.05,1; do
    if "$GMK_BIN" match --engine1 "$brain" --engine2 "$brain" --games 1 --sprt "$sprt" \
        > "$tmp/sprt.txt" 2>&1; then
        bad "issue 11 #12: --sprt $sprt accepted"
    else
        ok "issue 11 #12: --sprt $sprt refused"
    fi
done

# 4. time: the longest reply at each limit, measured from outside the brain. A sanitizer build
# is several times slower at everything (allocation above all), so there the replies may
# overrun the limit by $slack ms; the release build gets no slack at all.
slack=0
if grep -q __asan_init "$GMK_BIN" 2> /dev/null; then slack=200; fi
if [ "${GMK_PROTOCOL_QUICK:-0}" != 1 ]; then
    timed() { # limit-ms draw-after(0: whole game) games
        limit=$1
        shift
        extra=""
        [ "$1" -gt 0 ] && extra="--draw-after $1"
        # shellcheck disable=SC2086
        "$GMK_BIN" match --engine1 "$brain" --engine2 "$brain" --name1 a --name2 b --games "$2" \
            --turn "$limit" --tolerance "$slack" \
            --openings "$here/openings/piskvork_15x15_offset.txt" $extra > "$tmp/time.txt" 2>&1
        a=$(longest "$tmp/time.txt" a)
        b=$(longest "$tmp/time.txt" b)
        moves=$(grep -c "^game " "$tmp/time.txt")
        if [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt $((limit + slack)) ] &&
            [ "$b" -lt $((limit + slack)) ] && clean_report "$tmp/time.txt"; then
            ok "time: timeout_turn $limit ms: longest replies $a and $b ms ($moves games, slack $slack ms)"
        else
            bad "time: timeout_turn $limit ms"
            sed 's/^/    /' "$tmp/time.txt"
        fi
    }
    timed 200 0 2
    timed 1000 9 1
    timed 5000 5 1
    # a game clock: 4 s a game with a 50 ms increment, 1 s a move at most
    if "$GMK_BIN" match --engine1 "$brain" --engine2 "$brain" --name1 a --name2 b --games 1 \
        --turn 1000 --game-time 4000 --increment 50 --tolerance "$slack" \
        --openings "$here/openings/piskvork_15x15_offset.txt" > "$tmp/clock.txt" 2>&1 &&
        clean_report "$tmp/clock.txt"; then
        ok "time: 4 s a game + 50 ms: no time loss"
    else
        bad "time: 4 s a game"
        sed 's/^/    /' "$tmp/clock.txt"
    fi
fi

echo "protocol: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
