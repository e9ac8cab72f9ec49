#!/bin/sh
# bench/match/anchor.sh: the fixed-node anchor of docs/engine.md ("Measuring"). Our engine at
# 100,000 nodes a move against another Gomocup engine at 20,000, over the distinct openings of
# bench/openings-RULE.txt with both colours, two games at a time. Both engines play the same
# game again at a node count, so two builds run from the same --start meet the same games, and
# bench/match/paired.sh compares their reports game by game. The other engine is given as a
# shell command (Rapfi's, say, behind bench/match/paced.sh; nothing of it is in the project).
#   bench/match/anchor.sh --opponent CMD [--engine CMD] [--nodes N] [--opponent-nodes N]
#       [--start K] [--games G] [--rule R] [--report FILE] [--psq DIR]
# The report is gomoku match's output: a line a game, then the summary. Paths and commands are
# taken from the caller's directory.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
bin=${GMK_BIN:-$root/build/gomoku}
engine="$bin brain"
opponent=
nodes=100000
opponent_nodes=20000
start=1
games=200
rule=freestyle
report=
psq=
usage() {
    echo "usage: bench/match/anchor.sh --opponent CMD [--engine CMD] [--nodes N]" \
        "[--opponent-nodes N] [--start K] [--games G] [--rule R] [--report FILE] [--psq DIR]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
    --opponent) opponent=$2 ;;
    --engine) engine=$2 ;;
    --nodes) nodes=$2 ;;
    --opponent-nodes) opponent_nodes=$2 ;;
    --start) start=$2 ;;
    --games) games=$2 ;;
    --rule) rule=$2 ;;
    --report) report=$2 ;;
    --psq) psq=$2 ;;
    *) usage ;;
    esac
    shift 2
done
if [ -z "$opponent" ]; then
    echo "anchor.sh: --opponent CMD is required (the other engine's command)" >&2
    usage
fi
for v in "$nodes" "$opponent_nodes" "$start" "$games"; do
    case $v in
    '' | *[!0-9]*)
        echo "anchor.sh: '$v' is not a whole number" >&2
        exit 2
        ;;
    esac
done
openings=$root/bench/openings-$rule.txt
if [ ! -r "$openings" ]; then
    echo "anchor.sh: no openings for rule '$rule' ($openings)" >&2
    exit 2
fi
set -- --engine1 "$engine" --engine2 "$opponent" --name1 engine --name2 opponent \
    --info1 "max_node $nodes" --info2 "max_node $opponent_nodes" \
    --info1 "max_memory 134217728" --info2 "max_memory 33554432" \
    --openings "$openings" --opening-start "$start" --rule "$rule" --games "$games" -j 2 \
    --turn 10000
[ -n "$psq" ] && set -- "$@" --psq "$psq"
if [ -n "$report" ]; then
    "$bin" match "$@" > "$report"
else
    "$bin" match "$@"
fi
