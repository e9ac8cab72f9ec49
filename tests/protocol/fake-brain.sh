#!/bin/sh
# fake-brain.sh MODE [MOVES...]: a minimal Gomocup brain for testing the match runner's
# adjudication. It answers START with OK, ignores INFO, exits at END, and at each move request
# (BEGIN, TURN, BOARD..DONE):
#   script X,Y ...   plays the given moves in order
#   crash            exits with status 3
#   silent           never answers
#   error            answers "ERROR cannot move"
#   infoerror X,Y .. plays the given moves, and answers every INFO line with an ERROR
mode=$1
shift
answer() {
    case $mode in
    script|infoerror)
        if [ $# -eq 0 ]; then printf 'ERROR out of moves\n'; else printf '%s\n' "$1"; fi ;;
    crash) exit 3 ;;
    silent) ;;
    error) printf 'ERROR cannot move\n' ;;
    esac
}
in_board=0
cr=$(printf '\r')
while IFS= read -r line; do
    line=${line%"$cr"}
    if [ $in_board -eq 1 ]; then
        [ "$line" = DONE ] && { in_board=0; answer "$@"; [ $# -gt 0 ] && shift; }
        continue
    fi
    case $line in
    START*) printf 'OK\n' ;;
    BEGIN|TURN*) answer "$@"; [ $# -gt 0 ] && shift ;;
    BOARD) in_board=1 ;;
    INFO*) [ "$mode" = infoerror ] && printf 'ERROR INFO refused\n' ;;
    END) exit 0 ;;
    esac
done
