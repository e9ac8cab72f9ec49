#!/bin/sh
# cli.sh: the gomoku binary seen from the outside.
#   - `gomoku forbid -` on every case of the renju data files prints exactly the expected
#     forbidden set (`<point> <kind>`, sorted by column letter, then row number);
#   - `gomoku show` of finished games prints the winner, the reason and the winning line;
#   - bad input exits with status 2 and one line on stderr, and nothing on stdout;
#   - help and version work.
# Needs GMK_BIN (the gomoku binary) and GMK_TEST_DATA (tests/data); tests/run.sh sets both.
# Exits non-zero when anything fails; the last line is a summary.
set -u

if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "cli.sh: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi
if [ -z "${GMK_TEST_DATA:-}" ] || [ ! -d "$GMK_TEST_DATA" ]; then
    echo "cli.sh: GMK_TEST_DATA must name the test data directory" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmk-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

# ---- forbid on the renju data files ----------------------------------------------------------
# split_cases FILE DIR: writes DIR/N.board (the diagram) and DIR/N.want (the expected output of
# gomoku forbid) for every case, and prints "N case-id" lines.
split_cases() {
    awk -v dir="$2" '
    BEGIN { rows = -1 }
    function flush_want(   i, j, t, line) {
        # insertion sort by column, then row
        for (i = 2; i <= nf; i++) {
            t = key[i]; line = out[i]
            for (j = i - 1; j >= 1 && key[j] > t; j--) { key[j + 1] = key[j]; out[j + 1] = out[j] }
            key[j + 1] = t; out[j + 1] = line
        }
        for (i = 1; i <= nf; i++) print out[i] > (dir "/" n ".want")
        close(dir "/" n ".want")
    }
    /^case / { n++; id = $2; rows = -1; seen_forbidden = 0; next }
    /^board$/ { rows = 0; printf "" > (dir "/" n ".board"); next }
    rows >= 0 && rows < 15 { print $0 > (dir "/" n ".board"); rows++; next }
    /^forbidden / {
        seen_forbidden = 1; nf = 0
        printf "" > (dir "/" n ".want")
        if ($2 != "-") {
            for (f = 2; f <= NF; f++) {
                pt = $f; sub(/\(.*/, "", pt)
                kind = $f; sub(/^[^(]*\(/, "", kind); sub(/\)$/, "", kind)
                if (kind == "33") kind = "double-three"
                else if (kind == "44") kind = "double-four"
                else if (kind == "6") kind = "overline"
                else kind = "unknown-kind-" kind
                nf++
                key[nf] = index("abcdefghijklmnopqrstuvwxyz", substr(pt, 1, 1)) * 100 + substr(pt, 2)
                out[nf] = pt " " kind
            }
        }
        next
    }
    /^end$/ {
        close(dir "/" n ".board")
        if (seen_forbidden) flush_want()
        else { printf "" > (dir "/" n ".want"); close(dir "/" n ".want") }
        print n, id
        next
    }
    ' "$1"
}

forbid_file() { # name
    name=$1
    file="$GMK_TEST_DATA/renju/$name"
    if [ ! -r "$file" ]; then
        fail "forbid: $file is missing"
        return
    fi
    dir="$tmp/$name.d"
    mkdir -p "$dir"
    split_cases "$file" "$dir" >"$dir/list"
    count=0
    # run the cases four at a time
    while read -r num id; do
        ("$GMK_BIN" forbid - <"$dir/$num.board" >"$dir/$num.got" 2>"$dir/$num.err"
            echo $? >"$dir/$num.rc") &
        count=$((count + 1))
        [ $((count % 4)) -eq 0 ] && wait
    done <"$dir/list"
    wait
    if [ "$count" -eq 0 ]; then
        fail "forbid: no cases in $name"
        return
    fi
    mismatches=0
    while read -r num id; do
        rc=$(cat "$dir/$num.rc")
        if [ "$rc" != 0 ]; then
            fail "forbid $name $id: exit status $rc: $(cat "$dir/$num.err")"
            mismatches=$((mismatches + 1))
        elif ! cmp -s "$dir/$num.want" "$dir/$num.got"; then
            fail "forbid $name $id: output differs (expected, got):"
            diff "$dir/$num.want" "$dir/$num.got" | sed 's/^/    /'
            mismatches=$((mismatches + 1))
        elif [ -s "$dir/$num.err" ]; then
            fail "forbid $name $id: wrote to stderr: $(cat "$dir/$num.err")"
            mismatches=$((mismatches + 1))
        else
            pass
        fi
    done <"$dir/list"
    echo "forbid: $name: $count cases, $mismatches mismatches"
}

forbid_file forbidden_published.txt
forbid_file forbidden_constructed.txt

# forbid with a move string: c01 (f8 g8 h6 h7 black; h8 is a double-three)
out=$("$GMK_BIN" forbid f8a1g8a2h6a3h7a4 2>&1)
if [ "$out" = "h8 double-three" ]; then pass; else fail "forbid f8a1g8a2h6a3h7a4: got '$out'"; fi
# nothing when there is nothing
out=$("$GMK_BIN" forbid h8 2>&1)
if [ -z "$out" ]; then pass; else fail "forbid h8: expected no output, got '$out'"; fi
# sorted by column letter, then row number (e9 before e10, h8 before h11)
out=$("$GMK_BIN" forbid "f8 a1 g8 a3 h6 a5 h7 a7 f11 a9 g11 a11 h12 a13 h13 o1" 2>&1)
want=$(printf "%s\n" "e9 double-three" "e10 double-three" "f9 double-three" "f10 double-three" \
    "h8 double-three" "h11 double-three")
if [ "$out" = "$want" ]; then pass; else fail "forbid: expected sorted output, got: $out"; fi

# ---- show ------------------------------------------------------------------------------------
expect_show() { # description, expected substring, gomoku arguments...
    what=$1
    want=$2
    shift 2
    got=$("$GMK_BIN" "$@" 2>&1)
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$what: exit status $rc: $got"
    elif printf '%s\n' "$got" | grep -F -q -- "$want"; then
        pass
    else
        fail "$what: output lacks '$want':"
        printf '%s\n' "$got" | sed 's/^/    /'
    fi
}

# expect_win description winner points -- gomoku arguments...: the result line names the
# winner and exactly these points as the winning line (in any order).
expect_win() {
    what=$1
    winner=$2
    points=$3
    shift 4
    got=$("$GMK_BIN" "$@" 2>&1)
    rc=$?
    line=$(printf '%s\n' "$got" | grep '^result: ')
    case $line in
    "result: $winner wins by five in a row: "*)
        have=$(printf '%s\n' "${line#*in a row: }" | tr ' ' '\n' | sort | tr '\n' ' ')
        want=$(printf '%s\n' "$points" | tr ' ' '\n' | sort | tr '\n' ' ')
        if [ $rc -eq 0 ] && [ "$have" = "$want" ]; then
            pass
        else
            fail "$what: status $rc, winning line '$have', expected '$want'"
        fi
        ;;
    *)
        fail "$what: status $rc, no '$winner wins by five' result line:"
        printf '%s\n' "$got" | sed 's/^/    /'
        ;;
    esac
}

expect_win "show: black five" black "h8 i8 j8 k8 l8" -- show h8a1i8a2j8a3k8a4l8
expect_win "show: black five, separators" black "h8 i8 j8 k8 l8" -- \
    show "h8 a1, i8 a2 j8,a3 k8 a4 l8"
expect_win "show: white five in a column" white "o11 o12 o13 o14 o15" -- \
    show --rule standard a1o15c3o14e5o13g7o12b1o11
expect_win "show: diagonal five" black "d4 e5 f6 g7 h8" -- show d4a1e5a2f6a3g7a4h8
expect_win "show: anti-diagonal five" black "a5 b4 c3 d2 e1" -- show --size 5 a5a1b4a2c3a3d2a4e1
expect_win "show: overline in freestyle" black "c8 d8 e8 f8 g8 h8" -- \
    show --rule freestyle c8a1d8a3e8a5g8a7h8a9f8
expect_win "show: white overline in renju" white "c8 d8 e8 f8 g8 h8" -- \
    show --rule renju a1c8a3d8a5e8a7g8a9h8a11f8
expect_win "show: caro five against the edge" black "a8 b8 c8 d8 e8" -- \
    show --rule caro a8a1b8a2c8f8d8a3e8
expect_win "show: five wins on the last cell" black "a1 b1 c1 d1 e1" -- show - <<'EOF2'
XXOXO
OOXOX
XXOXO
OOXOX
XXXXX
EOF2
expect_show "show: renju foul" "white wins: black played the forbidden point h8 (double-three)" \
    show --rule renju f8a1g8a2h6a3h7a4h8
expect_show "show: renju by number" "white wins: black played the forbidden point h8 (double-three)" \
    show --rule 4 f8a1g8a2h6a3h7a4h8
expect_show "show: overline in standard" "to move: white" \
    show --rule standard c8a1d8a3e8a5g8a7h8a9f8
expect_show "show: caro blocked five" "to move: white" \
    show --rule caro c8b8d8h8e8a1f8a2g8
expect_show "show: game on" "to move: white" show h8
expect_show "show: size" "rule: freestyle, 19x19, 1 stones" show --size 19 s19
expect_show "show: diagram" "rule: freestyle, 5x5" show - <<'EOF'
.....
..X..
..O..
.....
.....
EOF
expect_show "show: moves after the end" "note: 1 move(s) were played after the end" \
    show h8a1i8a2j8a3k8a4l8a5

# ---- bad input: status 2, one line on stderr, nothing on stdout -----------------------------
expect_usage_error() { # description, stdin text, gomoku arguments...
    what=$1
    input=$2
    shift 2
    printf '%s' "$input" | "$GMK_BIN" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err" | tr -d ' ')
    if [ $rc -ne 2 ]; then
        fail "$what: exit status $rc, expected 2"
    elif [ "$lines" != 1 ]; then
        fail "$what: $lines lines on stderr, expected 1:"
        sed 's/^/    /' "$tmp/err"
    elif [ -s "$tmp/out" ]; then
        fail "$what: wrote to stdout"
    else
        pass
    fi
}

expect_usage_error "unknown subcommand" "" frobnicate
expect_usage_error "unknown subcommand, option-like" "" --frobnicate
expect_usage_error "show: bad option" "" show --bogus h8
expect_usage_error "forbid: bad option" "" forbid -x h8
expect_usage_error "show: --size too small" "" show --size 4 h8
expect_usage_error "show: --size too big" "" show --size 23 h8
expect_usage_error "show: --size not a number" "" show --size 15x h8
expect_usage_error "show: --size missing" "" show --size
expect_usage_error "forbid: --size empty" "" forbid --size= h8
expect_usage_error "play: --threads 0" "" play --no-db --threads 0
expect_usage_error "play: --threads 65" "" play --no-db --threads 65
expect_usage_error "play: --threads huge" "" play --no-db --threads 99999999999999999999
expect_usage_error "show: --rule unknown" "" show --rule gomoku h8
expect_usage_error "show: --rule 3" "" show --rule 3 h8
expect_usage_error "show: --rule missing" "" show --rule
expect_usage_error "show: no position" "" show
expect_usage_error "show: two positions" "" show h8 i9
expect_usage_error "show: repeated point" "" show h8i9h8
expect_usage_error "show: off-board point" "" show h8p1
expect_usage_error "show: row 0" "" show h0
expect_usage_error "show: junk" "" show 'h8;i9'
expect_usage_error "show: point off a small board" "" show --size 9 j9
expect_usage_error "forbid: bad position" "" forbid z99
expect_usage_error "forbid: bad position, newline" "" forbid "h8
x"
expect_usage_error "forbid: ragged diagram" ".....
....
.....
.....
.....
" forbid -
expect_usage_error "forbid: bad diagram character" ".....
..#..
.....
.....
.....
" forbid -
expect_usage_error "forbid: non-square diagram" "......
......
......
......
......
" forbid -
expect_usage_error "forbid: diagram vs --size" ".....
.....
.....
.....
.....
" forbid --size 15 -
expect_usage_error "forbid: empty diagram" "" forbid -
expect_usage_error "version: extra argument" "" version now
expect_usage_error "help: unknown command" "" help frobnicate
expect_usage_error "bench: bad option" "" bench --nope
expect_usage_error "bench --middle: a node count out of range" "" bench --middle 5
expect_usage_error "bench --middle: an extra argument" "" bench --middle 2000 3000
# the middle-game bench: the same nodes on every run, and a speed
"$GMK_BIN" bench --middle 2000 >"$tmp/mid1" 2>&1
"$GMK_BIN" bench --middle 2000 >"$tmp/mid2" 2>&1
if grep -Eq '^Middle: 15 positions, [0-9]+ nodes in [0-9]+ ms: [0-9]+ nps$' "$tmp/mid1" &&
    [ "$(sed 's/ in .*//' "$tmp/mid1")" = "$(sed 's/ in .*//' "$tmp/mid2")" ]; then
    pass
else
    fail "bench --middle: $(cat "$tmp/mid1") / $(cat "$tmp/mid2")"
fi

# a NUL byte inside a diagram (printf in a pipe, since sh strings cannot hold NUL)
printf '.....\n..\000..\n.....\n.....\n.....\n' | "$GMK_BIN" show - >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err" | tr -d ' ')" = 1 ]; then pass; else fail "show: NUL in diagram: status $rc"; fi

# ---- help and version -----------------------------------------------------------------------
expect_show "help" "forbid" help
expect_show "help lists show" "show" help
expect_show "help COMMAND" "usage: gomoku show" help show
expect_show "show --help" "usage: gomoku show" show --help
expect_show "forbid --help" "usage: gomoku forbid" forbid --help
expect_show "forbid -h" "usage: gomoku forbid" forbid -h
expect_show "version" "gomoku " version
expect_show "--version" "gomoku " --version
if "$GMK_BIN" 2>&1 | grep -q "usage: gomoku COMMAND"; then pass; else fail "gomoku with no arguments: no usage"; fi
if "$GMK_BIN" >/dev/null 2>&1; then pass; else fail "gomoku with no arguments: non-zero status"; fi

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
