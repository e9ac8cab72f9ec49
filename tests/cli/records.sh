#!/bin/sh
# records.sh: gomoku import and gomoku export, from the outside (docs/formats.md).
#   - a PSQ game is imported (renju, players, move times, CRLF lines) and exported again as
#     PSQ, SGF and a move string, each compared byte for byte with what it must be;
#   - round trips psq -> db -> sgf -> db -> moves -> db keep the same moves (and SGF keeps the
#     players, the rule and the result); a 20x20 game through every corner; a 5x5 draw on a
#     full board; a resignation recorded in SGF; standard input; --output;
#   - the stored results as gomoku stats shows them;
#   - every kind of bad input (empty, blank, binary, NUL bytes, over 1 MB, wrong or
#     rectangular size, off the board, taken point, renju foul, move after a five, corrupt and
#     truncated SGF, two games, a Go SGF, a rule that disagrees, no moves, a missing file or a
#     folder, bad options) gets one line on stderr, exit status 2, nothing on stdout, and
#     stores nothing; a database that is not one gets exit status 1 and is left untouched.
# Needs GMK_BIN (the gomoku binary); tests/run.sh sets it. Works in a temporary folder with
# its own --db. Exits non-zero when anything fails; the last line is a summary.
set -u

if [ -z "${GMK_BIN:-}" ] || [ ! -x "$GMK_BIN" ]; then
    echo "records.sh: GMK_BIN must name the gomoku binary" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmk-records.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
db="$tmp/games.db"

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

# same DESCRIPTION EXPECTED ACTUAL
same() {
    if [ "$2" = "$3" ]; then
        pass
    else
        fail "$1: expected, got:"
        printf '%s\n----\n%s\n' "$2" "$3" | sed 's/^/    /'
    fi
}

# import_ok DESCRIPTION gomoku-import-arguments...: imports, checks the status and that stdout
# is a game id alone; sets $id (empty on failure).
import_ok() {
    what=$1
    shift
    id=$("$GMK_BIN" import --db "$db" "$@" 2>"$tmp/err")
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$what: exit status $rc: $(cat "$tmp/err")"
        id=
    elif ! printf '%s\n' "$id" | grep -Eq '^[1-9][0-9]*$'; then
        fail "$what: expected a game id on stdout, got '$id'"
        id=
    elif [ -s "$tmp/err" ]; then
        fail "$what: unexpected stderr: $(cat "$tmp/err")"
    else
        pass
    fi
}

# export_ok DESCRIPTION gomoku-export-arguments...: exports, checks the status; sets $out.
export_ok() {
    what=$1
    shift
    out=$("$GMK_BIN" export --db "$db" "$@" 2>"$tmp/err")
    rc=$?
    if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ]; then pass; else fail "$what: exit status $rc: $(cat "$tmp/err")"; fi
}

# The games in the database, as gomoku stats lists them.
game_count() {
    "$GMK_BIN" stats --db "$db" --recent 1000 2>/dev/null | grep -c ' human-human '
}

# result_of ID: the result column of gomoku stats for that game.
result_of() {
    "$GMK_BIN" stats --db "$db" --recent 1000 | awk -v id="$1" '$1 == id && /human-human/ {
        sub(/.*human-human +[a-z]+ +[0-9]+ +- +[0-9]+ +/, ""); print }'
}

version=$("$GMK_BIN" version | sed 's/^gomoku //')

# ---- one renju game, in every format --------------------------------------------------------
# Black h8 j10 l12 n14 h12, white a1 b1 c1 d1 e1: white's five at move 10. Piskvork writes CR LF.
printf 'Piskvorky 15x15, 11:11, 0\r\n8,8,1200\r\n1,15,300\r\n10,6,45\r\n2,15,0\r\n12,4,7\r\n3,15,1\r\n14,2,99999\r\n4,15,2\r\n8,4,3\r\n5,15,4\r\nAlice\r\nBob\r\n0\r\n' >"$tmp/a.psq"
import_ok "import PSQ" --rule renju "$tmp/a.psq"
a=$id

export_ok "export PSQ (default format)" "$a"
psq=$out
same "export PSQ: 1-based x,y from the top-left, times, players" "Piskvorky 15x15, 11:11, 0
8,8,1200
1,15,300
10,6,45
2,15,0
12,4,7
3,15,1
14,2,99999
4,15,2
8,4,3
5,15,4
Alice
Bob
0" "$psq"
export_ok "export --format psq" --format psq "$a"
psq2=$out
same "export --format psq is the default" "$psq" "$psq2"

export_ok "export SGF" --format sgf "$a"
sgf=$out
same "export SGF: GM[4], SZ, RU, PB, PW, RE, moves from the top-left" \
    "(;GM[4]FF[4]CA[UTF-8]AP[gomoku:$version]SZ[15]RU[renju]PB[Alice]PW[Bob]RE[W+];B[hh];W[ao];B[jf];W[bo];B[ld];W[co];B[nb];W[do];B[hd];W[eo])" \
    "$sgf"

export_ok "export moves" --format moves "$a"
moves=$out
same "export moves: renju notation, a1 at the bottom left" "h8a1j10b1l12c1n14d1h12e1" "$moves"
same "stats: the imported PSQ game" "white wins (five in a row)" "$(result_of "$a")"

# --output writes the same bytes as stdout
"$GMK_BIN" export --db "$db" --format=sgf --output "$tmp/a.sgf" "$a" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/a.sgf")" = "$sgf" ]; then
    pass
else
    fail "export --output: status $rc, stdout '$(cat "$tmp/out")', file '$(cat "$tmp/a.sgf" 2>/dev/null)'"
fi

# ---- round trip: psq -> db -> sgf -> db -> moves -> db ---------------------------------------
import_ok "import the exported SGF" "$tmp/a.sgf"
b=$id
export_ok "export SGF of the SGF import" --format sgf "$b"
sgf_b=$out
same "psq -> db -> sgf -> db -> sgf: same record" "$sgf" "$sgf_b"
export_ok "export moves of the SGF import" --format moves "$b"
moves_b=$out
same "psq -> db -> sgf -> db -> moves: same moves" "$moves" "$moves_b"
printf '%s\n' "$moves_b" >"$tmp/b.txt"
import_ok "import the exported move string" --rule renju "$tmp/b.txt"
c=$id
export_ok "export moves of the move-string import" --format moves "$c"
moves_c=$out
same "psq -> db -> sgf -> db -> moves -> db -> moves: same moves" "$moves" "$moves_c"
export_ok "export PSQ of the move-string import" "$c"
psq_c=$out
same "moves -> db -> psq: same points, times unknown, no players" "Piskvorky 15x15, 11:11, 0
8,8,0
1,15,0
10,6,0
2,15,0
12,4,0
3,15,0
14,2,0
4,15,0
8,4,0
5,15,0
0" "$psq_c"
same "stats: the SGF import" "white wins (five in a row)" "$(result_of "$b")"
same "stats: the move-string import" "white wins (five in a row)" "$(result_of "$c")"

# ---- 20x20 through the corners, resignation in SGF, names that need escaping ---------------
printf '(;GM[4]FF[4]SZ[20]RU[freestyle]PB[A\\]B \\\\ C]PW[w]RE[B+R]\n;B[jj];W[aa];B[ta];W[at];B[tt];W[ks];B[sk])\n' >"$tmp/big.sgf"
import_ok "import 20x20 SGF" "$tmp/big.sgf"
big=$id
export_ok "export 20x20 moves" --format moves "$big"
big_moves=$out
same "20x20 moves: corners and two-digit rows" "j11a20t20a1t1k2s10" "$big_moves"
export_ok "export 20x20 PSQ" "$big"
big_psq=$out
same "20x20 PSQ" "Piskvorky 20x20, 11:11, 0
10,10,0
1,1,0
20,1,0
1,20,0
20,20,0
11,19,0
19,11,0
A]B \\ C
w
0" "$big_psq"
export_ok "export 20x20 SGF" --format sgf "$big"
big_sgf=$out
same "20x20 SGF: escaped names, resignation" \
    "(;GM[4]FF[4]CA[UTF-8]AP[gomoku:$version]SZ[20]RU[freestyle]PB[A\\]B \\\\ C]PW[w]RE[B+R];B[jj];W[aa];B[ta];W[at];B[tt];W[ks];B[sk])" \
    "$big_sgf"
same "stats: resignation from the SGF" "black wins (resignation)" "$(result_of "$big")"
printf '%s\n' "$big_psq" >"$tmp/big.psq"
import_ok "import 20x20 PSQ back" "$tmp/big.psq"
export_ok "export moves of the 20x20 PSQ import" --format moves "$id"
big_moves2=$out
same "20x20 psq -> db -> moves" "$big_moves" "$big_moves2"
printf '%s\n' "$big_moves" >"$tmp/big.txt"
import_ok "import 20x20 move string with --size" --size 20 "$tmp/big.txt"
export_ok "export PSQ of the 20x20 move-string import" "$id"
big_psq3=$out
same "20x20 moves -> db -> psq: same points" \
    "$(printf '%s\n' "$big_psq" | sed -e '/^A/d' -e '/^w$/d')" "$big_psq3"
same "stats: a record without a result is kept without one" "abandoned" "$(result_of "$id")"

# ---- a draw on a full 5x5 board, from standard input ----------------------------------------
full=a5c5b5d5e5a4c4b4d4e4a3c3b3d3e3a2c2b2d2e2a1c1b1d1e1
if id=$(printf '%s\n' "$full" | "$GMK_BIN" import --db "$db" --size 5 - 2>"$tmp/err") &&
    [ -n "$id" ]; then
    pass
else
    fail "import from standard input: $(cat "$tmp/err")"
fi
same "stats: full board" "draw (full board)" "$(result_of "$id")"
export_ok "export the draw as SGF" --format sgf "$id"
full_sgf=$out
case $full_sgf in
*"SZ[5]RU[freestyle]RE[0];B[aa];W[ca];"*";B[ee])") pass ;;
*) fail "draw as SGF: $full_sgf" ;;
esac

# ---- bad input: one line on stderr, status 2, nothing on stdout, nothing stored -------------
# expect_refused DESCRIPTION WANTED-STATUS MESSAGE-PART gomoku-arguments...
expect_refused() {
    what=$1
    want=$2
    part=$3
    shift 3
    before=$(game_count)
    "$GMK_BIN" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err" | tr -d ' ')
    after=$(game_count)
    if [ $rc -ne "$want" ]; then
        fail "$what: exit status $rc, expected $want: $(cat "$tmp/err")"
    elif [ "$lines" != 1 ]; then
        fail "$what: $lines lines on stderr, expected 1:"
        sed 's/^/    /' "$tmp/err"
    elif [ -s "$tmp/out" ]; then
        fail "$what: unexpected stdout: $(cat "$tmp/out")"
    elif ! grep -qF -- "$part" "$tmp/err"; then
        fail "$what: the message does not say '$part': $(cat "$tmp/err")"
    elif [ "$before" != "$after" ]; then
        fail "$what: the database went from $before to $after games"
    else
        pass
    fi
}
bad() { # description, message part, file contents (printf format): import must refuse it
    # shellcheck disable=SC2059 # the contents are a printf format, for \000 and \r
    printf "$3" >"$tmp/bad"
    expect_refused "import: $1" 2 "$2" import --db "$db" "$tmp/bad"
}

: >"$tmp/empty"
expect_refused "import: empty file" 2 "is empty" import --db "$db" "$tmp/empty"
bad "blank file" "is empty" '  \r\n\n\t\n'
bad "binary junk" "not a text file" '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\001'
bad "NUL inside a move string" "not a text file" 'h8i9\000j10\n'
bad "junk without NUL" "not a text file" 'Piskvorky\033[2J\007'
bad "text that is no record" "not a game record" '#!/bin/sh\necho hi\n'
bad "prose" "" 'hello world\n'
# over 1 MB: a valid move string followed by blanks, so that only the size refuses it
{
    printf 'h8i9\n'
    dd if=/dev/zero bs=1024 count=1100 2>/dev/null | tr '\000' ' '
} >"$tmp/huge"
expect_refused "import: over 1 MB" 2 "larger than 1 MB" import --db "$db" "$tmp/huge"
bad "PSQ board too big" "board size 30" 'Piskvorky 30x30, 11:11, 0\n1,1,0\n'
bad "PSQ board too small" "board size 4" 'Piskvorky 4x4, 11:11, 0\n1,1,0\n'
bad "PSQ rectangular board" "rectangular" 'Piskvorky 15x20, 11:11, 0\n1,1,0\n'
bad "PSQ bad header" "line 1" 'Piskvorky fifteen\n1,1,0\n'
bad "PSQ move off the board" "line 3" 'Piskvorky 15x15, 11:11, 0\n8,8,0\n16,8,0\n'
bad "PSQ zero coordinate (PSQ is 1-based)" "line 2" 'Piskvorky 15x15, 11:11, 0\n0,0,0\n'
bad "PSQ taken point" "already played" 'Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,8,0\n'
bad "PSQ garbage after the moves" "line" 'Piskvorky 15x15, 11:11, 0\n8,8,0\nx\ny\nz\nw\n'
bad "PSQ without moves" "no moves" 'Piskvorky 15x15, 11:11, 0\n0\n'
bad "move after a five" "move 10 (a2) comes after the end" 'h8a1h9b1h10c1h11d1h12a2\n'
bad "move string taken point" "played twice" 'h8i9h8\n'
bad "move string off the board" "column 'p'" 'h8p1\n'
bad "SGF truncated" "expected ')'" '(;GM[4]SZ[15];B[hh];W[ii]'
bad "SGF unclosed value" "not closed" '(;GM[4]SZ[15];B[hh'
bad "SGF of Go" "GM[1]" '(;GM[1]SZ[19];B[pd])'
bad "SGF board too big" "board size 23" '(;GM[4]SZ[23];B[aa])'
bad "SGF rectangular board" "rectangular" '(;GM[4]SZ[15:13];B[aa])'
bad "SGF move off the board" "off the 15x15 board" '(;GM[4]SZ[15];B[hh];W[zz])'
bad "SGF taken point" "already played" '(;GM[4];B[hh];W[ii];B[hh])'
bad "SGF two moves by black" "white is to move" '(;GM[4];B[hh];B[ii])'
bad "SGF pass" "passes" '(;GM[4];B[hh];W[])'
bad "SGF two games" "more than one game" '(;GM[4];B[hh])(;GM[4];B[ii])'
bad "SGF text after the game" "unexpected text" '(;GM[4];B[hh]) junk'
bad "SGF foul claimed but not played" "forbidden move" '(;GM[4]RU[renju]RE[W+F];B[hh];W[ii])'
bad "SGF without moves" "no moves" '(;GM[4]SZ[15])'

# renju: black's double-three at h8 (f8 g8 and h9 h10); legal in freestyle
printf 'f8a1g8a2h9a3h10a4h8\n' >"$tmp/foul.txt"
expect_refused "import: renju foul" 2 "move 9 (h8) is forbidden for black under renju rules (double-three)" \
    import --db "$db" --rule renju "$tmp/foul.txt"
printf '(;GM[4]SZ[15]RU[renju];B[fh];W[ao];B[gh];W[an];B[hg];W[am];B[hf];W[al];B[hh])' >"$tmp/foul.sgf"
expect_refused "import: renju foul, rule from RU[]" 2 "move 9 (h8)" import --db "$db" "$tmp/foul.sgf"
import_ok "the same moves are legal in freestyle" "$tmp/foul.txt"
same "stats: game on when the record ends without a result" "abandoned" "$(result_of "$id")"
expect_refused "import: --rule disagrees with RU[]" 2 "--rule says freestyle" \
    import --db "$db" --rule freestyle "$tmp/foul.sgf"
expect_refused "import: --size disagrees with the PSQ" 2 "--size says 19" \
    import --db "$db" --size 19 "$tmp/a.psq"
expect_refused "import: move string off a --size board" 2 "off a 5x5 board" \
    import --db "$db" --size 5 "$tmp/b.txt"
expect_refused "import: missing file" 2 "cannot open" import --db "$db" "$tmp/nope.psq"
expect_refused "import: a folder" 2 "cannot read" import --db "$db" "$tmp"
expect_refused "import: no file argument" 2 "which file" import --db "$db"
expect_refused "import: two files" 2 "unexpected argument" import --db "$db" "$tmp/a.psq" "$tmp/a.psq"
expect_refused "import: bad rule" 2 "--rule" import --db "$db" --rule gomoku "$tmp/a.psq"
expect_refused "import: bad size" 2 "--size" import --db "$db" --size 30 "$tmp/a.psq"
expect_refused "import: unknown option" 2 "unknown option" import --db "$db" --frob "$tmp/a.psq"

expect_refused "export: unknown id" 2 "no game 9999" export --db "$db" 9999
expect_refused "export: id 0" 2 "not a game id" export --db "$db" 0
expect_refused "export: not a number" 2 "not a game id" export --db "$db" 12abc
expect_refused "export: no id" 2 "which game" export --db "$db"
expect_refused "export: two ids" 2 "unexpected argument" export --db "$db" "$a" "$a"
expect_refused "export: bad format" 2 "--format" export --db "$db" --format pgn "$a"
expect_refused "export: no database file" 2 "no game 1" export --db "$tmp/none.db" 1
if [ ! -e "$tmp/none.db" ]; then pass; else fail "export created a database"; fi
expect_refused "export: unwritable --output" 1 "cannot create" \
    export --db "$db" --output "$tmp/no/such/dir/a.psq" "$a"

# a database that is not one: status 1, and the file is left as it was
printf 'this is not a database, just text that is long enough to be a header of sorts....\n' \
    >"$tmp/junk.db"
cp "$tmp/junk.db" "$tmp/junk.orig"
"$GMK_BIN" import --db "$tmp/junk.db" "$tmp/a.psq" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err" | tr -d ' ')" = 1 ] && [ ! -s "$tmp/out" ] &&
    cmp -s "$tmp/junk.db" "$tmp/junk.orig"; then
    pass
else
    fail "import into a junk database: status $rc, $(cat "$tmp/err")"
fi
"$GMK_BIN" export --db "$tmp/junk.db" 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err" | tr -d ' ')" = 1 ] && [ ! -s "$tmp/out" ] &&
    cmp -s "$tmp/junk.db" "$tmp/junk.orig"; then
    pass
else
    fail "export from a junk database: status $rc, $(cat "$tmp/err")"
fi

# issue 11, defect 14: an import is one transaction. Under a file size limit (a full disk) a
# 225-move game fails to import and leaves no half-stored, unfinished game behind.
awk 'BEGIN {
    print "Piskvorky 15x15, 11:11, 0"
    nb = 0; nw = 0
    for (y = 0; y < 15; y++) for (x = 0; x < 15; x++) {
        # (x + 2y) mod 4 < 2 is black: no five in any direction, 113 black and 112 white
        if ((x + 2 * y) % 4 < 2) { bx[nb] = x; by[nb] = y; nb++ } else { wx[nw] = x; wy[nw] = y; nw++ }
    }
    for (i = 0; i < nb; i++) {
        print bx[i] + 1 "," by[i] + 1 ",0"
        if (i < nw) print wx[i] + 1 "," wy[i] + 1 ",0"
    }
    print "0"
}' >"$tmp/full.psq"
for limit in 8 24 32 60; do # KiB: some limits stop the import, others let it through
    fdb="$tmp/fsize$limit.db"
    "$GMK_BIN" import --db "$fdb" "$tmp/a.psq" >/dev/null 2>&1 # the database exists
    (ulimit -f $limit && "$GMK_BIN" import --db "$fdb" "$tmp/full.psq") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    "$GMK_BIN" stats --db "$fdb" >"$tmp/stats" 2>&1
    if grep -q unfinished "$tmp/stats"; then
        fail "import under ulimit -f $limit left an unfinished game (status $rc)"
    elif [ $rc -eq 0 ] && grep -q " 225  draw (full board)" "$tmp/stats"; then
        pass
    elif [ $rc -ne 0 ] && [ -s "$tmp/err" ] && ! grep -q " 225 " "$tmp/stats"; then
        pass
    else
        fail "import under ulimit -f $limit: status $rc, $(cat "$tmp/err")"
    fi
done

# issue 11, defect 15: reading a database whose file is read-only (mode 0444) creates no -shm
# or -wal file (SQLite would give it the file's mode, and every later write would fail). As
# root the mode is what counts; as an ordinary user (setpriv, when there is one) the later
# write must work.
rdb="$tmp/ro.db"
"$GMK_BIN" import --db "$rdb" "$tmp/a.psq" >/dev/null 2>&1
rm -f "$rdb-shm" "$rdb-wal"
chmod 0444 "$rdb"
"$GMK_BIN" stats --db "$rdb" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -e "$rdb-shm" ] && [ ! -e "$rdb-wal" ]; then
    pass
else
    fail "stats on a 0444 database: status $rc, $(ls -l "$rdb"* | tr '\n' ' ')$(cat "$tmp/err")"
fi
chmod 0644 "$rdb"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
    udir="$tmp/user"
    mkdir "$udir" && cp "$rdb" "$udir/u.db" && cp "$tmp/a.psq" "$udir/a.psq" &&
        chmod 0777 "$tmp" "$udir" && chmod 0444 "$udir/u.db" && chown nobody "$udir/u.db"
    as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$GMK_BIN" "$@"; }
    as_nobody stats --db "$udir/u.db" >/dev/null 2>&1
    chmod 0644 "$udir/u.db"
    if as_nobody import --db "$udir/u.db" "$udir/a.psq" >"$tmp/out" 2>"$tmp/err"; then
        pass
    else
        fail "a write after stats on a read-only database (as nobody): $(cat "$tmp/err")"
    fi
fi

# help
if "$GMK_BIN" help import | grep -q "usage: gomoku import"; then pass; else fail "help import"; fi
if "$GMK_BIN" export --help | grep -q "usage: gomoku export"; then pass; else fail "export --help"; fi

echo "records: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
