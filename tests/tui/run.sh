#!/bin/sh
# tests/tui/run.sh: drives the real terminal game (gomoku play) in tmux, as a player would:
# sends keys (and a mouse click), reads the screen with capture-pane and checks what it says.
#
# Covers: the first screen (coordinates, status), two humans playing to a five with undo and
# redo, the new-game menu, the computer's reply at level 1, undo against the computer (two
# moves), resign with its confirmation, a whole game won by a five against level 1, the
# "thinking" status and "move now", quitting and the scoreboard after a restart (in the game
# and with gomoku stats), resuming after kill -9, a corrupt database, Chinese, the round
# stones, resizing (no move while the terminal is too small), a mouse click, and the renju
# draw when black has only forbidden points left.
#
# Usage: sh tests/tui/run.sh (GMK_BIN: the gomoku binary, default build/gomoku). Every wait
# is bounded; the tmux server is private to the run and killed at the end. Exit status 0 when
# every check passed.
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${GMK_BIN:-$PWD/build/gomoku}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
PICK=$PWD/tests/tui/pick.awk
if ! command -v tmux >/dev/null 2>&1; then
    echo "FAIL - tmux is not installed (make deps installs it)"
    exit 1
fi
if [ ! -x "$BIN" ]; then
    echo "FAIL - no binary at $BIN"
    exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gmk-tui.XXXXXX") || exit 1
SOCK=gmk-tui-$$
finished=0
cleanup() {
    tmux -L "$SOCK" kill-server >/dev/null 2>&1
    rm -rf "$TMP"
    if [ "$finished" != 1 ]; then
        echo "FAIL - the test stopped before its end"
        exit 1
    fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

passed=0
failed=0
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
screen() { T capture-pane -p -t g 2>/dev/null; }
ok() {
    passed=$((passed + 1))
    echo "ok - $1"
}
fail() {
    failed=$((failed + 1))
    echo "FAIL - $1"
    echo "---- the screen:"
    screen | sed 's/^/| /'
    echo "----"
}
# start ARGS...: runs gomoku play ARGS in a fresh 80x24 pane (LANG as in $RUN_LANG)
start() {
    T kill-session -t g >/dev/null 2>&1
    rm -f "$TMP/pid"
    T new-session -d -s g -x 80 -y 24 \
        "echo \$\$ > '$TMP/pid'; exec env LANG=${RUN_LANG:-C.UTF-8} LC_ALL= LC_MESSAGES= '$BIN' play $*"
    T set-option -t g remain-on-exit on >/dev/null
    wait_for "to move\|unfinished game\|cannot be used\|轮到" 10 || true
}
# The whole run stops waiting after this many seconds (each wait is bounded anyway).
BUDGET_S=${GMK_TUI_BUDGET_S:-480}
deadline=$(($(date +%s) + BUDGET_S))
out_of_time() { [ "$(date +%s)" -ge "$deadline" ]; }
# wait_for PATTERN [SECONDS]: until the screen matches (grep basic regex); false on timeout
wait_for() {
    n=$(( ${2:-5} * 10 ))
    out_of_time && n=1
    while [ "$n" -gt 0 ]; do
        screen | grep -q -- "$1" && return 0
        sleep 0.1
        n=$((n - 1))
    done
    return 1
}
# check NAME PATTERN [SECONDS]
check() {
    if wait_for "$2" "${3:-5}"; then ok "$1"; else fail "$1 (waited for: $2)"; fi
}
check_not() { # NAME PATTERN: the screen does not show it now
    if screen | grep -q -- "$2"; then fail "$1 (shows: $2)"; else ok "$1"; fi
}
keys() { T send-keys -t g "$@"; }
play() { # play h8: types the coordinate
    keys :
    T send-keys -t g -l "$1"
    keys Enter
}
moves() { screen | sed -n 's/.*Move \([0-9][0-9]*\).*/\1/p' | head -n 1; }
# cell X Y: what the board shows at column X (0-based from the left), row Y (0-based from the
# top) on a 15x15 board in --ascii: X, O, . or +
cell() { screen | awk -v x="$1" -v y="$2" 'NR == 2 + y { print substr($0, 5 + 2 * x, 1) }'; }
pane_dead() { [ "$(T display-message -p -t g '#{pane_dead}' 2>/dev/null)" = 1 ]; }

echo "tui: driving $BIN in tmux $(tmux -V | sed 's/^tmux //')"
# A session that lives for the whole run keeps the private server up: killing the last session
# ends a tmux server, and a client that starts the next one at that moment races the old
# server's exit ("server exited unexpectedly").
T new-session -d -s keep -x 80 -y 24 "sleep 3600" || {
    echo "FAIL - cannot start a tmux server"
    exit 1
}
DB=$TMP/games.db
ASCII="--db '$DB' --ascii --lang en"

# --- 1. the first screen -----------------------------------------------------------------
start "$ASCII --mode hvh --rule freestyle --size 15"
check "first screen: status line says whose turn" "^ Black to move *$"
check "first screen: letters along the bottom" "^    a b c d e f g h i j k l m n o"
check "first screen: numbers up the side" "^15  \. \. \."
check "first screen: numbers up the side (1)" "^ 1  \. \. \."
check "first screen: the panel" "Mode: two humans"
check_not "first screen: nothing to resume in a new database" "unfinished"

# --- 2. two humans: undo, redo, a five ---------------------------------------------------
play h8
check "two humans: black's move is drawn and marked" "^ 8  .*\[X\]" 3
play h9
check "two humans: white's move" "Move 2, last h9"
keys u
check "two humans: undo takes back one move" "Move 1, last h8"
check "two humans: after undo it is white's turn" "^ White to move *$"
keys U
check "two humans: redo (U)" "Move 2, last h9"
keys u C-r
check "two humans: undo then redo (Ctrl-R)" "Move 2, last h9"
for m in i8 i9 j8 j9 k8 k9 l8; do play "$m"; done
check "two humans: five in a row ends the game with its line" \
    "Black wins: five in a row h8-l8\." 5
if [ "$(cell 7 7)$(cell 8 7)$(cell 9 7)$(cell 10 7)" = XXXX ]; then
    ok "two humans: the stones are where they were typed"
else
    fail "two humans: the stones are where they were typed"
fi
keys u
check "two humans: no undo after the end" "The game is over: n for a new game"

# --- 3. the new-game menu -----------------------------------------------------------------
keys n
check "menu: opens" "New game"
check "menu: shows the mode" "Mode *< two humans >"
keys Up Up Up Up Left # from Start up to Mode (Size, Opening, Rule), then back one: vs computer
check "menu: mode changes" "Mode *< you vs computer >"
check "menu: asks who moves first against the computer" "You play *< black (moves first) >"
check "menu: the opening rule" "Opening *< free >"
keys Down Down Down Down Down # Side, Rule, Opening, Size, Level
i=0
while ! screen | grep -q "Level *< 1 Beginner >" && [ $i -lt 8 ]; do
    keys Left
    sleep 0.1
    i=$((i + 1))
done
check "menu: level 1 is Beginner" "Level *< 1 Beginner >"
keys Enter
check "menu: starts the game" "Level: 1 Beginner"
check "vs computer: the human moves first" "^ Black to move (you) *$"

# --- 4. the computer replies; undo takes back two; resign -------------------------------
play h8
check "level 1: the computer replies" "Move 2, last" 10
check "level 1: then it is the human's turn again" "^ Black to move (you) *$"
keys u
check "vs computer: undo takes back the reply and the move" "Move 0" 3
check "vs computer: after undo it is the human's turn" "^ Black to move (you) *$"
keys U
check "vs computer: redo replays both" "Move 2, last" 3
keys r
check "resign: asks first" "Resign this game? (y/n)"
keys n
check "resign: n keeps playing" "^ Black to move (you) *$"
keys r
wait_for "Resign this game" 3
keys y
check "resign: the result and reason" "White wins: Black resigned\. You lose\." 3

# --- 5. a whole game against level 1, won by a five ---------------------------------------
# The player's tactics (five, block, four-three, short VCF) come from pick.awk; other moves
# are the game's own hint (?), which plays far above level 1. Up to three games.
won=0
game=0
while [ $won -eq 0 ] && [ $game -lt 3 ] && ! out_of_time; do
    game=$((game + 1))
    keys n
    wait_for "New game" 3
    keys Enter # the menu remembers: vs computer, level 1, black
    wait_for "^ Black to move (you) *$" 5
    replies_ok=1
    turns=0
    while [ $turns -lt 60 ] && ! out_of_time; do
        if screen | grep -q "wins:\|^ Draw"; then break; fi
        if ! wait_for "^ Black to move (you) *$\|wins:" 10; then
            replies_ok=0
            break
        fi
        screen | grep -q "wins:" && break
        before=$(moves)
        mv=$(screen | awk -v me=X -v N=15 -f "$PICK")
        if [ -z "$mv" ]; then
            keys '?'
            if ! wait_for "Hint: [a-o][0-9]* (marked ?)" 10; then
                replies_ok=0
                break
            fi
            mv=$(screen | sed -n 's/.*Hint: \([a-o][0-9]*\) (marked ?).*/\1/p')
        fi
        play "$mv"
        turns=$((turns + 1))
        # the computer answers (the move count goes up by two) unless the game ended
        n=0
        while [ $n -lt 100 ]; do
            now=$(moves)
            [ -n "$now" ] && [ "$now" -ge $((before + 2)) ] && break
            screen | grep -q "wins:" && break
            sleep 0.1
            n=$((n + 1))
        done
    done
    if screen | grep -q "Black wins: five in a row [a-o][0-9]*-[a-o][0-9]*\. You win!"; then
        won=1
    elif [ $replies_ok -eq 0 ]; then
        break
    fi
done
if [ $won -eq 1 ]; then
    ok "level 1: played to a five and won (game $game)"
else
    fail "level 1: played to a five and won"
fi

# --- 6. thinking, and a key makes the computer move now -----------------------------------
start "$ASCII --mode hvc --side black --level 7 --time 30"
play h8
check "thinking: the status line says so, with the time" \
    "^ White (computer) thinking\.\.\. [0-9][0-9]*\.[0-9]s" 3
sleep 1
check "thinking: the time goes up" "thinking\.\.\. [1-9][0-9]*\.[0-9]s" 3
keys Enter
check "move now: the computer plays at once" "^ Black to move (you) *$" 3
check "move now: its move is on the board" "Move 2, last" 1

# --- 7. quit; the scoreboard after a restart -----------------------------------------------
keys q
n=0
while ! pane_dead && [ $n -lt 50 ]; do
    sleep 0.1
    n=$((n + 1))
done
if pane_dead; then ok "quit: q ends the program"; else fail "quit: q ends the program"; fi
# (with the scroll-back: tmux's "Pane is dead" line may push the message out of view)
if T capture-pane -p -S -50 -t g | grep -q "The game is saved; run gomoku to resume it\."; then
    ok "quit: says the game is kept"
else
    fail "quit: says the game is kept"
fi
start "$ASCII"
check "restart: offers the unfinished game" "An unfinished game was found:"
check "restart: describes it" "you vs computer, freestyle 15x15, 2 moves"
keys n
check "restart: declining starts a new game" "^ Black to move (you) *$"
keys s
check "scoreboard: shown in the game" "Scoreboard"
losses=$((game))
[ $won -eq 1 ] && losses=$((game - 1))
losses=$((losses + 1)) # the resignation
# the level-1 line: games, won, lost, drawn
# inside the box: what follows its left border
inbox() { awk '{ i = index($0, "│"); if (i) print substr($0, i + length("│")) }'; }
line=$(screen | inbox | grep "^ *1 Beginner" | head -n 1)
set -- $(echo "$line" | sed 's/.*Beginner//; s/[^0-9 ]//g')
if [ $# -ge 4 ] && [ "$1" -eq $((losses + won)) ] && [ "$2" -eq "$won" ] && [ "$3" -eq "$losses" ]; then
    ok "scoreboard: level 1 counts $won won, $losses lost after the restart"
else
    fail "scoreboard: level 1 counts $won won, $losses lost after the restart"
fi
check "scoreboard: two humans, one black win" "two humans *games *black *white"
line=$(screen | inbox | grep -A1 "two humans" | tail -n 1)
set -- $(echo "$line" | sed 's/[^0-9 ]//g')
if [ $# -ge 4 ] && [ "$1" = 1 ] && [ "$2" = 1 ] && [ "$3" = 0 ]; then
    ok "scoreboard: the two-human game"
else
    fail "scoreboard: the two-human game"
fi
keys x
check "scoreboard: a key closes it" "^ Black to move (you) *$"
if "$BIN" help stats >/dev/null 2>&1; then
    out=$("$BIN" stats --db "$DB" 2>&1)
    if echo "$out" | grep -q "^ *1 *$((losses + won)) *$won *$losses *0"; then
        ok "gomoku stats: the same scoreboard"
    else
        echo "$out"
        fail "gomoku stats: the same scoreboard"
    fi
fi

# --- 8. resume after kill -9 ----------------------------------------------------------------
DB2=$TMP/kill.db
start "--db '$DB2' --ascii --lang en --mode hvh --size 15"
for m in h8 i9 g7 j10 f6; do play "$m"; done
check "kill -9: five moves played" "Move 5, last f6"
kill -9 "$(cat "$TMP/pid")"
n=0
while ! pane_dead && [ $n -lt 50 ]; do
    sleep 0.1
    n=$((n + 1))
done
start "--db '$DB2' --ascii --lang en"
check "kill -9: the next start offers the game" "two humans, freestyle 15x15, 5 moves"
keys y
check "kill -9: resumed with every move" "Move 5, last f6"
check "kill -9: white to move" "^ White to move *$"
got="$(cell 7 7)$(cell 8 6)$(cell 6 8)$(cell 9 5)$(cell 5 9)"
if [ "$got" = XOXOX ]; then ok "kill -9: the stones are in place"; else fail "kill -9: the stones are in place ($got)"; fi

# --- 9. a corrupt database: a clear message, and the game plays without saving -----------
BAD=$TMP/bad.db
printf 'this is not a database, just some bytes that are not SQLite\n' >"$BAD"
cp "$BAD" "$TMP/bad.orig"
start "--db '$BAD' --ascii --lang en --mode hvh"
check "corrupt db: says the store cannot be used" "The game store cannot be used:"
check "corrupt db: and that the game plays on" "The game plays on without saving\."
keys x
check "corrupt db: the game starts" "^ Black to move *$"
check "corrupt db: the panel says it is not saving" "Not saving"
play h8
check "corrupt db: moves are played" "Move 1, last h8"
if cmp -s "$BAD" "$TMP/bad.orig"; then ok "corrupt db: the file is left alone"; else fail "corrupt db: the file is left alone"; fi

# --- 10. languages, stones, resizing, the mouse --------------------------------------------
start "--db '$TMP/zh.db' --lang zh --mode hvc --level 1"
check "Chinese: --lang zh" "轮到黑方（你）"
check "Chinese: the panel" "模式：人机对战"
RUN_LANG=zh_CN.UTF-8 start "--db '$TMP/zh.db' --mode hvh"
check "Chinese: from LANG=zh_CN.UTF-8" "轮到黑方"
start "--db '$TMP/utf.db' --lang en --mode hvh"
play h8
play j8
check "round stones: black" "^ 8  .*\[\?●\]\? .*○"
T resize-window -t g -x 100 -y 30
check "resize: larger, redrawn with the status on the last line" "^ Black to move *$" 3
if [ "$(screen | wc -l)" -ge 30 ] && screen | sed -n 30p | grep -q "Black to move"; then
    ok "resize: the status line follows the bottom"
else
    fail "resize: the status line follows the bottom"
fi
T resize-window -t g -x 30 -y 12
check "resize: too small says so" "Terminal too small: need 34x17" 3
# issue 11, defect 16: while the board cannot be shown, keys other than quit and resize do
# nothing (a typed point, the cursor and Enter, a mouse-free "move now")
play a1
keys Left Up Enter Space x u
sleep 0.3
T resize-window -t g -x 80 -y 24
check "resize: back to 80x24" "^ 8  .*\[\?●\]\?" 3
check "too small: no move was played meanwhile" "Move 2, last j8" 3
# a mouse click on c13 (screen column 4 + 2*2, row 1 + 2), as xterm reports it
hex() { printf '%x' "$1"; }
keys -H 1b 5b 4d "$(hex 32)" "$(hex $((32 + 8 + 1)))" "$(hex $((32 + 3 + 1)))"
keys -H 1b 5b 4d "$(hex 35)" "$(hex $((32 + 8 + 1)))" "$(hex $((32 + 3 + 1)))"
check "mouse: a click places a stone" "Move 3, last c13" 3

# issue 29: the coach (w): why the last move lost, and what is on the board, in words
start "--db '$TMP/coach.db' --ascii --lang en --mode hvh --size 15"
for p in h8 h7 h9 i9 h10 i10 h11 i8; do play $p; done
check "coach: eight moves played" "Move 8, last i8" 5
keys w
check "coach: the box" "Why?" 5
check "coach: why the last move lost" "After White's i8:" 5
check "coach: black's forced win" "Black wins by fours (VCF): h12\." 5
check "coach: the defence" "White at h12 instead would have stopped it\." 5
check "coach: black's four with its stones" "Black has a four (h8 h9 h10 h11): five at h12\." 5
keys x
sleep 0.3
check_not "coach: a key closes the box" "Why?"
check "coach: the game goes on" "Black to move" 3

# issue 29: swap2 against the computer: it places the opening, the player places two more,
# it chooses a colour
start "--db '$TMP/swap.db' --ascii --lang en --mode hvc --side white --opening swap2 --level 1"
check "swap2: the computer places three stones, the player chooses" \
    "Choose: b take black, w take white, p place two more" 10
check "swap2: three stones" "Move 3, last" 3
play a1
check "swap2: a stone before the choice is refused" "Choose a colour first" 3
keys p
check "swap2: p to place two more" "Place two more stones: stone 1 of 2 (White)" 3
play a1
check "swap2: the fourth stone" "Place two more stones: stone 2 of 2 (Black)" 3
play o15
check "swap2: the computer chooses and the game goes on" "^ \(Black\|White\) to move (you) *$" 10
if screen | grep -q "Move 5, last o15" && screen | grep -q "White to move (you)"; then
    ok "swap2: it took black, the player is white"
elif screen | grep -q "Move 6, last" && screen | grep -q "Black to move (you)"; then
    ok "swap2: it played white's sixth stone, the player is black"
else
    fail "swap2: the colours after the choice"
fi

# issue 29: puzzle mode inside the game (P): a rated failure, a hinted solve, the puzzle of the
# day, back to the game; the rating is kept
start "--db '$TMP/puzzle.db' --ascii --lang en --mode hvh"
play h8
keys P
check "puzzles: P opens a puzzle" "Puzzle #[0-9]" 5
check "puzzles: the player's rating" "Your rating: 1500" 3
for p in a1 o1 a15 o15; do
    play "$p"
    wait_for "Not this one\|cannot be played" 3
    screen | grep -q "Not this one" && break
done
check "puzzles: a wrong move fails the puzzle and shows the solution" "Not this one: the move was [a-o][0-9]*" 3
if screen | grep -q "Your rating: 1[0-4][0-9][0-9]\b" && screen | grep -q "Streak: 0"; then
    ok "puzzles: the failure is rated (below 1500, streak 0)"
else
    fail "puzzles: the failure is rated (below 1500, streak 0)"
fi
rating=$(screen | sed -n 's/.*Your rating: \([0-9]*\).*/\1/p' | head -n 1)
keys n
wait_for "Your move" 3
n=0
while ! screen | grep -q "Solved!" && [ $n -lt 40 ] && ! out_of_time; do
    keys '?'
    wait_for "Hint: [a-o][0-9]*" 3 || break
    mv=$(screen | sed -n 's/.*Hint: \([a-o][0-9]*\).*/\1/p' | head -n 1)
    play "$mv"
    wait_for "Good\. The answer\|Solved!" 3
    n=$((n + 1))
done
check "puzzles: solved with the hints" "Solved! n for the next puzzle" 3
check "puzzles: a hinted puzzle is not rated" "Your rating: $rating\b" 3
keys d
check "puzzles: the puzzle of the day" "Puzzle of the day #[0-9]" 3
keys q
check "puzzles: q goes back to the game as it was" "Move 1, last h8" 3
keys P
check "puzzles: the rating is kept" "Your rating: $rating\b" 3
keys q

# issue 29: a review inside the game (R): progress, cancel, then the labels and turning points
start "--db '$TMP/review.db' --ascii --lang en --mode hvh"
for p in h9 h7 g6 g7 i7 i6 j5 f8 j6 h8 j8 j7 h6 g5 i9 g9 h10 k7 i10 g8 e8 f9 e10 f10 g11 f12 f11 e11 d12 f7; do
    play "$p"
done
check "review: thirty moves played" "Move 30, last f7" 5
keys R
check "review: a progress bar" "Reviewing the game: [0-9]* of 31" 5
keys Escape
check "review: Esc cancels it" "Review cancelled" 10
keys R
check "review: the result" "Review of game #[0-9]*: 30 moves" 60
check "review: each side's tally" "Black: [0-9]* inaccuracies, [0-9]* mistakes" 3
keys x
sleep 0.3
check_not "review: a key closes it" "Review of game"
# the kept review is shown at once the second time (no progress bar)
keys R
check "review: kept in the store" "Review of game #[0-9]*: 30 moves" 3
keys x
start "--db '$TMP/review2.db' --ascii --lang en --mode hvh"
for p in h8 h7 h9 i9 h10 i10 h11 i8 j11; do play "$p"; done
keys R
check "review: the missed win is a turning point, with the better move" \
    "9\. Black j11: missed-win ([0-9]*% -> [0-9]*%), better h12" 60
check "review: and the blunder before it" "8\. White i8: blunder" 3
keys x

# issue 29: against the computer, a take-back after the end puts the game on again
start "--db '$TMP/back.db' --ascii --lang en --mode hvc --side black --level 1"
play h8
check "take-back: the computer replies" "Move 2, last" 10
keys r
wait_for "Resign this game" 3
keys y
check "take-back: the game is over" "White wins: Black resigned\. You lose\." 3
keys u
check "take-back: u after the end takes back the move and the reply" "Move 0" 3
check "take-back: the human is to move again" "^ Black to move (you) *$" 3
check_not "take-back: the result is gone" "wins:"

# renju on 6x6: black left with only forbidden points (tests/unit/test_rules.c's position) draws
start "--no-db --ascii --lang en --mode hvh --rule renju --size 6"
for p in a6 a5 b6 b5 c6 c5 e6 e5 f6 f5 d5 a3 a4 b3 b4 c3 c4 e3 e4 f3 f4 a2 d3 b2 c2 e2 d2 b1 \
    f2 c1 a1 d1 e1 f1; do
    play "$p"
done
check "renju: black without a legal point, the game is a draw and says why" \
    "Draw: black has no legal point left\." 5

finished=1
out_of_time && fail "the run took longer than $BUDGET_S s"
echo "tui: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
