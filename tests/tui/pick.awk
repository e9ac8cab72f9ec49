# pick.awk: the tactics of the tmux test's player (freestyle rules).
#
# Reads a tmux capture of the terminal game drawn with --ascii (X black, O white; cell x of
# the row labelled r sits at screen column 4 + 2x) and prints the point to play, as "h8":
# a five, else a block of the opponent's five, else an open or double four or a short win by
# continuous fours (a four-three, say). Prints nothing when there is none of these: the test
# then asks the game for a hint. Variables: me (X or O), N (board size).
function inb(x, y) { return x >= 0 && y >= 0 && x < N && y < N }
function run(c, x, y, dx, dy,    n) {
    n = 0
    x += dx; y += dy
    while (inb(x, y) && b[x, y] == c) { n++; x += dx; y += dy }
    return n
}
# would c make five or more by playing the empty point (x, y)?
function five_at(c, x, y,    d) {
    if (b[x, y] != 0) return 0
    for (d = 0; d < 4; d++)
        if (1 + run(c, x, y, DX[d], DY[d]) + run(c, x, y, -DX[d], -DY[d]) >= 5) return 1
    return 0
}
# empty points on the lines through (x, y), within 5, where c would make five
function fives_near(c, x, y,    d, k, s, px, py, seen, n, key) {
    n = 0
    split("", seen)
    for (d = 0; d < 4; d++)
        for (s = -1; s <= 1; s += 2)
            for (k = 1; k <= 5; k++) {
                px = x + s * k * DX[d]; py = y + s * k * DY[d]
                if (!inb(px, py)) break
                key = px SUBSEP py
                if (b[px, py] == 0 && !(key in seen) && five_at(c, px, py)) { seen[key] = 1; n++ }
            }
    return n
}
function any_five(c,    x, y) {
    for (y = 0; y < N; y++) for (x = 0; x < N; x++) if (five_at(c, x, y)) { FX = x; FY = y; return 1 }
    return 0
}
function near(x, y,    dx, dy) {
    for (dx = -2; dx <= 2; dx++) for (dy = -2; dy <= 2; dy++)
        if (inb(x + dx, y + dy) && b[x + dx, y + dy] != 0) return 1
    return 0
}
# does c win by continuous fours from here, within depth fours? (sets WX, WY to the first)
function vcf(c, depth,    i, x, y, o, n, fx, fy, win) {
    o = 3 - c
    for (i = 0; i < NC; i++) {
        x = CX[i]; y = CY[i]
        if (b[x, y] != 0) continue
        b[x, y] = c
        n = fives_near(c, x, y)
        win = 0
        if (n >= 2 && !any_five(o)) win = 1
        else if (n == 1 && depth > 1) {
            any_five_of_c_near(c, x, y)
            fx = NFX; fy = NFY
            b[fx, fy] = o
            if (!any_five(o) && vcf_inner(c, depth - 1)) win = 1
            b[fx, fy] = 0
        }
        b[x, y] = 0
        if (win) { WX = x; WY = y; return 1 }
    }
    return 0
}
function vcf_inner(c, depth,    sx, sy, r) {
    sx = WX; sy = WY
    r = vcf(c, depth)
    WX = sx; WY = sy
    return r
}
function any_five_of_c_near(c, x, y,    d, k, s, px, py) {
    for (d = 0; d < 4; d++)
        for (s = -1; s <= 1; s += 2)
            for (k = 1; k <= 5; k++) {
                px = x + s * k * DX[d]; py = y + s * k * DY[d]
                if (!inb(px, py)) break
                if (five_at(c, px, py)) { NFX = px; NFY = py; return }
            }
}
function emit(x, y) {
    printf "%c%d\n", 97 + x, N - y
    done = 1
    exit
}
BEGIN {
    DX[0] = 1; DY[0] = 0; DX[1] = 0; DY[1] = 1; DX[2] = 1; DY[2] = 1; DX[3] = 1; DY[3] = -1
    ME = 1; OP = 2
    opp = me == "X" ? "O" : "X"
}
{
    lab = substr($0, 1, 2)
    if (lab ~ /^ ?[0-9]+$/ && substr($0, 3, 1) == " ") {
        r = lab + 0
        if (r >= 1 && r <= N) {
            y = N - r
            for (x = 0; x < N; x++) {
                c = substr($0, 5 + 2 * x, 1)
                b[x, y] = c == me ? ME : c == opp ? OP : 0
                if (b[x, y]) stones++
            }
        }
    }
}
END {
    if (done) exit
    if (!stones) emit(int(N / 2), int(N / 2))
    NC = 0
    for (y = 0; y < N; y++) for (x = 0; x < N; x++)
        if (b[x, y] == 0 && near(x, y)) { CX[NC] = x; CY[NC] = y; NC++ }
    # 1. five; 2. block a five
    for (i = 0; i < NC; i++) if (five_at(ME, CX[i], CY[i])) emit(CX[i], CY[i])
    for (i = 0; i < NC; i++) if (five_at(OP, CX[i], CY[i])) emit(CX[i], CY[i])
    # 3. open four or double four; 4. a short VCF (four-three and the like)
    if (vcf(ME, 3)) emit(WX, WY)
}
