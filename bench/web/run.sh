#!/bin/sh
# Benchmarks of gomoku serve (figures in docs/web.md; not a test): wrk on loopback, 100
# connections, 3 runs of each, printing each run's p99 and the median:
#   1. GET /api/games/{id} (the state of a game)
#   2. POST /api/games/{id}/move in two-person games (one commit each; move.lua)
#   3. and 4. the same two while every engine worker is busy with analyses
#   5. the server's memory (VmRSS) with 1,000 stored games and 100 of them live
# Usage: sh bench/web/run.sh [DURATION_S] (GMK_BIN: the binary, default build/gomoku).
set -eu
cd "$(dirname "$0")/../.."
BIN=${GMK_BIN:-$PWD/build/gomoku}
DUR=${1:-10}
ENGINES=${ENGINES:-2}
TMP=$(mktemp -d /tmp/gmk-webbench.XXXXXX)
PID=""
BUSY=""
cleanup() {
    [ -n "$BUSY" ] && kill $BUSY 2>/dev/null || true
    [ -n "$PID" ] && kill "$PID" 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

start() { # db
    "$BIN" serve --listen 127.0.0.1:0 --db "$1" --engines "$ENGINES" --quiet >"$TMP/out" 2>"$TMP/err" &
    PID=$!
    for _ in $(seq 100); do
        URL=$(sed -n 's|.*\(http://127.0.0.1:[0-9]*\)/.*|\1|p' "$TMP/out")
        [ -n "$URL" ] && return 0
        sleep 0.1
    done
    echo "server did not start: $(cat "$TMP/err")" >&2
    exit 1
}
stop() {
    kill "$PID"
    wait "$PID" || true
    PID=""
}
new_game() { # body -> id
    curl -s -b "$TMP/jar" -c "$TMP/jar" -H 'Content-Type: application/json' -d "$1" "$URL/api/games" |
        sed -n 's/^{"id":\([0-9]*\),.*/\1/p'
}
p99() { # wrk output -> p99 in ms
    awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 }
         else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }
         printf "%.2f", v }' "$1"
}
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
report() { # label wrk-output
    echo "  $1: p99 $(p99 "$2") ms, $(awk '/Requests\/sec/ { print $2 }' "$2") req/s$(awk '/Non-2xx/ { printf ", %s non-2xx", $NF }' "$2")"
}

bench_get() { # label
    id=$(new_game '{"mode":"hvh","moves":"h8i9h9i10"}')
    vals=""
    for run in 1 2 3; do
        wrk -t2 -c100 -d"${DUR}s" --latency "$URL/api/games/$id" >"$TMP/wrk"
        report "$1 run $run" "$TMP/wrk"
        vals="$vals $(p99 "$TMP/wrk")"
    done
    echo "$1: median p99 $(median3 $vals) ms"
}

bench_move() { # label
    vals=""
    for run in 1 2 3; do
        first=$(new_game '{"mode":"hvh","size":22}')
        for _ in $(seq 499); do new_game '{"mode":"hvh","size":22}' >/dev/null; done
        cookie=$(awk '$6 == "gmk_owner" { print "gmk_owner=" $7 }' "$TMP/jar")
        FIRST_ID=$first GAMES_PER_THREAD=250 COOKIE=$cookie \
            wrk -t2 -c100 -d"${DUR}s" --latency -s bench/web/move.lua "$URL" >"$TMP/wrk"
        report "$1 run $run" "$TMP/wrk"
        vals="$vals $(p99 "$TMP/wrk")"
    done
    echo "$1: median p99 $(median3 $vals) ms"
}

busy_engines() { # keeps every engine busy with 5 s analyses until killed
    for _ in $(seq "$ENGINES"); do
        (while :; do
            curl -s -H 'Content-Type: application/json' \
                -d '{"moves":"h8i9h9","time_ms":5000}' "$URL/api/analyze" >/dev/null || sleep 0.2
        done) &
        BUSY="$BUSY $!"
    done
    sleep 1
}

echo "gomoku serve benchmark: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $ENGINES engines, ${DUR}s runs"
start "$TMP/bench.db"
bench_get "GET state"
bench_move "POST move (hvh)"
busy_engines
bench_get "GET state, engines busy"
bench_move "POST move (hvh), engines busy"
kill $BUSY 2>/dev/null || true
BUSY=""
stop

# memory: 1,000 stored games (a few moves each), then a fresh server with 100 of them live
start "$TMP/mem.db"
first=$(new_game '{"mode":"hvh","moves":"h8i9h9i10h10"}')
for _ in $(seq 999); do new_game '{"mode":"hvh","moves":"h8i9h9i10h10"}' >/dev/null; done
stop
start "$TMP/mem.db"
idle=$(awk '/VmRSS/ { print $2 }' /proc/$PID/status)
for i in $(seq 0 99); do curl -s "$URL/api/games/$((first + i))" >/dev/null; done
curl -s "$URL/api/games?limit=500" >/dev/null
live=$(awk '/VmRSS/ { print $2 }' /proc/$PID/status)
echo "memory: VmRSS $idle kB at start (1,000 stored games), $live kB with 100 live games"
stop
