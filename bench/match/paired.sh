#!/bin/sh
# bench/match/paired.sh FIRST SECOND: two reports of bench/match/anchor.sh (or of any gomoku
# match whose engine 1 is named "engine") compared game by game. For each game number in both,
# the difference of engine's score (1, 1/2 or 0) in SECOND and in FIRST; prints the games
# compared, each report's score over them, the mean difference with its standard error, in
# points, and how many games had the same result. When most games are the same move for move,
# the paired error is far smaller than that of two separate scores (docs/engine.md).
set -u
if [ $# -ne 2 ]; then
    echo "usage: bench/match/paired.sh FIRST_REPORT SECOND_REPORT" >&2
    exit 2
fi
for f in "$1" "$2"; do
    if [ ! -r "$f" ]; then
        echo "paired.sh: cannot read $f" >&2
        exit 2
    fi
done
awk '
function score(line,    m, colour, res) {
    # "game N/T: A (black) vs B (white), opening K: R, ..." -> engine score, or -1
    if (match(line, /engine \((black|white)\)/) == 0) return -1
    colour = substr(line, RSTART + 8, 5)
    if (match(line, /opening [0-9]+: (1-0|0-1|1\/2),/) == 0) return -1
    res = substr(line, RSTART, RLENGTH)
    sub(/.*: /, "", res)
    sub(/,$/, "", res)
    if (res == "1/2") return 0.5
    if (res == "1-0") return colour == "black" ? 1 : 0
    return colour == "white" ? 1 : 0
}
/^game [0-9]+\/[0-9]+: / {
    split($2, g, "/")
    s = score($0)
    if (s < 0) next
    if (FILENAME == first) a[g[1]] = s
    else b[g[1]] = s
}
BEGIN { first = ARGV[1] }
END {
    n = 0; sa = 0; sb = 0; sd = 0; sdd = 0; same = 0
    for (k in a) {
        if (!(k in b)) continue
        d = b[k] - a[k]
        n++; sa += a[k]; sb += b[k]; sd += d; sdd += d * d
        if (d == 0) same++
    }
    if (n < 2) {
        print "paired.sh: fewer than two games in both reports" > "/dev/stderr"
        exit 1
    }
    mean = sd / n
    var = (sdd - n * mean * mean) / (n - 1)
    if (var < 0) var = 0
    printf "games %d: first %.1f%%, second %.1f%%, difference %+.1f +- %.1f points (same result %d)\n", \
        n, 100 * sa / n, 100 * sb / n, 100 * mean, 100 * sqrt(var / n), same
}' "$1" "$2"
