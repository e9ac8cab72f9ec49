#!/bin/sh
# bench/match/sprt.sh [OPTIONS FOR gomoku match]: a self-play SPRT of the engine against
# itself, as a strength change is shown (DESIGN.md section 5). By default engine 1 is
# build/gomoku at full strength and engine 2 the same binary at INFO level 5; to compare two
# builds, give --engine2 "path/to/old/gomoku brain" (later options win). Openings: the shared
# freestyle set, each played twice. Stops at the SPRT decision or after 400 games.
#   bench/match/sprt.sh --engine2 "../old/build/gomoku brain" --info2 "level 0"
set -u
cd "$(dirname "$0")/../.." || exit 1
bin=${GMK_BIN:-build/gomoku}
exec "$bin" match --engine1 "$bin brain" --engine2 "$bin brain" --name1 test --name2 base \
    --info2 "level 5" --openings tests/protocol/openings/piskvork_15x15_offset.txt \
    --games 400 --turn 200 --tolerance 1000 -j 2 --sprt 0,50,0.05,0.05 "$@"
