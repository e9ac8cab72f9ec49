#!/bin/bash
# bench/match/paced.sh CMD [ARGS...]: runs a Gomocup engine behind a filter for gomoku match,
# for engines that need it (Rapfi, docs/engine.md "Measuring"): "INFO max_memory 0" (no limit)
# is not passed on, so the engine keeps its own table size, and each TURN, BOARD or BEGIN waits
# 20 ms, so that it does not reach an engine still winding down its last search. Everything
# else passes through unchanged; the engine's output goes straight to ours.
set -u
if [ $# -eq 0 ]; then
    echo "usage: bench/match/paced.sh ENGINE_COMMAND [ARGS...]" >&2
    exit 2
fi
while IFS= read -r line; do
    line=${line%$'\r'}
    upper=${line^^}
    case $upper in
    "INFO MAX_MEMORY 0") continue ;;
    TURN* | BOARD* | BEGIN*) sleep 0.02 ;;
    esac
    printf '%s\n' "$line"
done | "$@"
