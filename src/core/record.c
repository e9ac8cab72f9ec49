/* record.c: PSQ, SGF and move-string records (see record.h). */
#include "record.h"
#include "scan.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gmk.h"

static bool fail(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        gmk_scan_printable(err);
    }
    return false;
}

/* A bounded output buffer; `ok` turns false once something did not fit. */
typedef struct {
    char *out;
    size_t cap, len;
    bool ok;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...) {
    if (!b->ok) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->out + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= b->cap - b->len) {
        b->ok = false;
        return;
    }
    b->len += (size_t)n;
}

static int finish(sbuf *b) {
    if (!b->ok) {
        if (b->cap) b->out[0] = '\0';
        return -1;
    }
    return (int)b->len;
}

static void copy_text(char *dst, size_t cap, const char *src, size_t len) {
    if (len >= cap) len = cap - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

void gmk_record_init(gmk_record *r, int size, gmk_rule rule) {
    memset(r, 0, sizeof *r);
    r->size = size;
    r->rule = rule;
    r->rule_known = true;
    r->outcome = GMK_ONGOING;
    r->reason = GMK_REASON_NONE;
}

bool gmk_record_add(gmk_record *r, gmk_pos p, int32_t time_ms) {
    if (r->count >= GMK_MAX_MOVES || r->count >= r->size * r->size) return false;
    r->moves[r->count] = p;
    r->time_ms[r->count] = time_ms;
    r->count++;
    return true;
}

void gmk_record_from_board(gmk_record *r, const gmk_board *b) {
    gmk_record_init(r, b->size, b->rule);
    for (int i = 0; i < b->move_count; i++) gmk_record_add(r, b->moves[i], -1);
}

bool gmk_record_to_board(const gmk_record *r, gmk_board *b, char *err, size_t errlen) {
    if (gmk_board_init(b, r->size, r->rule) != GMK_OK)
        return fail(err, errlen, "board size %d is not supported (%d-%d)", r->size, GMK_MIN_SIZE,
                    GMK_MAX_SIZE);
    for (int i = 0; i < r->count; i++) {
        gmk_pos p = r->moves[i];
        int x = gmk_pos_x(p), y = gmk_pos_y(p);
        if (p < 0 || p >= GMK_CELLS || !gmk_board_on(b, x, y))
            return fail(err, errlen, "move %d is off the %dx%d board", i + 1, r->size, r->size);
        if (!gmk_board_empty_at(b, p)) {
            char name[4];
            gmk_notation_point(p, r->size, name);
            return fail(err, errlen, "move %d (%s) is on a taken point", i + 1, name);
        }
        gmk_board_make(b, p);
    }
    return true;
}

gmk_record_format gmk_record_detect(const char *text) {
    if (!text) return GMK_RECORD_UNKNOWN;
    while (isspace((unsigned char)*text)) text++;
    if (strncmp(text, "Piskvorky", 9) == 0) return GMK_RECORD_PSQ;
    if (*text == '(') return GMK_RECORD_SGF;
    if (isalpha((unsigned char)*text)) return GMK_RECORD_MOVES;
    return GMK_RECORD_UNKNOWN;
}

/* ---- PSQ ---- */

static bool psq_move_line(const char *s, size_t len, long v[3], int *nv);

/* A player's name on its own PSQ line: control characters (line breaks) become spaces, spaces
 * at the end go, and a blank name is "?" (the reader skips blank lines). A name that would read as
 * a move line ("1,1") or that starts with '=' is written after an '=' that the reader takes off, so
 * that no name is ever read as a move. */
static void put_psq_name(sbuf *b, const char *name) {
    char line[sizeof((gmk_record *)0)->black + 1];
    size_t n = 0;
    bool blank = true;
    for (const char *c = name; *c && n + 1 < sizeof line; c++) {
        bool ctrl = (unsigned char)*c < 0x20 || *c == 0x7f;
        if (!ctrl && *c != ' ') blank = false;
        line[n++] = ctrl ? ' ' : *c;
    }
    while (n > 0 && line[n - 1] == ' ') n--; /* the reader drops them: so does the writer */
    line[n] = '\0';
    if (blank) {
        put(b, "?\n");
        return;
    }
    long v[3];
    int nv;
    bool escape = line[0] == '=' || psq_move_line(line, n, v, &nv);
    put(b, "%s%s\n", escape ? "=" : "", line);
}

int gmk_record_write_psq(const gmk_record *r, char *out, size_t cap) {
    sbuf b = {out, cap, 0, cap > 0};
    put(&b, "Piskvorky %dx%d, 11:11, 0\n", r->size, r->size);
    for (int i = 0; i < r->count; i++)
        put(&b, "%d,%d,%d\n", gmk_pos_x(r->moves[i]) + 1, gmk_pos_y(r->moves[i]) + 1,
            r->time_ms[i] >= 0 ? r->time_ms[i] : 0);
    if (r->black[0] || r->white[0]) {
        put_psq_name(&b, r->black);
        put_psq_name(&b, r->white);
    }
    put(&b, "%d\n", r->psq_code);
    return finish(&b);
}

/* Splits text into lines: returns the length of the line at *pos (without CR/LF) and moves
 * *pos to the next one; -1 at the end. */
static long next_line(const char *text, size_t *pos, const char **line) {
    if (text[*pos] == '\0') return -1;
    const char *s = text + *pos;
    size_t n = strcspn(s, "\n");
    *pos += n + (s[n] == '\n');
    while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    *line = s;
    return (long)n;
}

/* Reads an optionally signed decimal int at s[*i] (at most 9 digits). */
static bool read_int(const char *s, size_t len, size_t *i, long *out) {
    return gmk_scan_number(s, len, i, true, out);
}

static bool expect(const char *s, size_t len, size_t *i, const char *lit) {
    size_t n = strlen(lit);
    if (*i + n > len || memcmp(s + *i, lit, n) != 0) return false;
    *i += n;
    return true;
}

/* "x,y" or "x,y,t" with numbers; true when the whole line is that. */
static bool psq_move_line(const char *s, size_t len, long v[3], int *nv) {
    size_t i = 0;
    *nv = 0;
    for (int k = 0; k < 3; k++) {
        if (!read_int(s, len, &i, &v[k])) return false;
        (*nv)++;
        if (i == len) return *nv >= 2;
        if (s[i] != ',' || k == 2) return false;
        i++;
    }
    return false;
}

bool gmk_record_read_psq(const char *text, gmk_rule rule, gmk_record *out, char *err,
                         size_t errlen) {
    if (!text) return fail(err, errlen, "empty PSQ text");
    gmk_record r;
    size_t pos = 0;
    const char *s;
    long len = next_line(text, &pos, &s);
    if (len < 0) return fail(err, errlen, "empty PSQ text");
    size_t L = (size_t)len, i = 0;
    long w, h, l1, l2, flag;
    if (!expect(s, L, &i, "Piskvorky ") || !read_int(s, L, &i, &w) || !expect(s, L, &i, "x") ||
        !read_int(s, L, &i, &h) || !expect(s, L, &i, ", ") || !read_int(s, L, &i, &l1) ||
        !expect(s, L, &i, ":") || !read_int(s, L, &i, &l2) || !expect(s, L, &i, ", ") ||
        !read_int(s, L, &i, &flag) || i != L)
        return fail(err, errlen,
                    "line 1: expected a PSQ header like 'Piskvorky 15x15, 11:11, 0', at "
                    "character %zu",
                    i + 1);
    if (w != h)
        return fail(err, errlen, "line 1: rectangular boards (%ldx%ld) are not supported", w, h);
    if (w < GMK_MIN_SIZE || w > GMK_MAX_SIZE)
        return fail(err, errlen, "line 1: board size %ld is not supported (%d-%d)", w, GMK_MIN_SIZE,
                    GMK_MAX_SIZE);
    if (flag != 0 && flag != 1)
        return fail(err, errlen, "line 1: the starting-player flag must be 0 or 1, got %ld", flag);
    gmk_record_init(&r, (int)w, rule);
    r.rule_known = false;
    uint16_t taken[GMK_CELLS];
    memset(taken, 0, sizeof taken);

    int lineno = 1;
    const char *tail[4];
    size_t tail_len[4];
    int ntail = 0, tail_line = 0;
    while ((len = next_line(text, &pos, &s)) >= 0) {
        lineno++;
        if (len == 0) continue;
        long v[3];
        int nv;
        if (ntail == 0 && psq_move_line(s, (size_t)len, v, &nv)) {
            if (v[0] < 1 || v[1] < 1 || v[0] > r.size || v[1] > r.size)
                return fail(err, errlen, "line %d: %ld,%ld is off the %dx%d board (1-%d)", lineno,
                            v[0], v[1], r.size, r.size, r.size);
            gmk_pos p = gmk_pos_xy((int)v[0] - 1, (int)v[1] - 1);
            if (taken[p])
                return fail(err, errlen, "line %d: %ld,%ld was already played (move %d)", lineno,
                            v[0], v[1], taken[p]);
            if (nv == 3 && v[2] < 0)
                return fail(err, errlen, "line %d: negative move time %ld", lineno, v[2]);
            if (!gmk_record_add(&r, p, nv == 3 ? (int32_t)v[2] : -1))
                return fail(err, errlen, "line %d: more moves than points", lineno);
            taken[p] = (uint16_t)r.count;
            continue;
        }
        if (ntail == 0) tail_line = lineno;
        if (ntail >= 3)
            return fail(err, errlen, "line %d: unexpected text after the result code", lineno);
        tail[ntail] = s;
        tail_len[ntail] = (size_t)len;
        ntail++;
    }
    /* after the moves: nothing, the code, the two names, or the names and the code */
    long code = 0;
    size_t k = 0;
    bool last_is_code = ntail > 0 && read_int(tail[ntail - 1], tail_len[ntail - 1], &k, &code) &&
                        k == tail_len[ntail - 1];
    int names = ntail - (last_is_code ? 1 : 0);
    if (names != 0 && names != 2)
        return fail(err, errlen,
                    "line %d: after the moves a PSQ file holds the two players' names and a "
                    "result code, got %d other line%s",
                    tail_line, ntail, ntail == 1 ? "" : "s");
    r.psq_code = (int)code;
    if (names == 2) {
        int b = flag == 0 ? 0 : 1;
        for (int k = 0; k < 2; k++) /* the writer's escape: one leading '=' */
            if (tail_len[k] > 0 && tail[k][0] == '=') {
                tail[k]++;
                tail_len[k]--;
            }
        copy_text(r.black, sizeof r.black, tail[b], tail_len[b]);
        copy_text(r.white, sizeof r.white, tail[1 - b], tail_len[1 - b]);
    }
    *out = r;
    return true;
}

/* ---- SGF ---- */

static void put_sgf_text(sbuf *b, const char *text) {
    for (const char *c = text; *c; c++) {
        if (*c == ']' || *c == '\\')
            put(b, "\\%c", *c);
        else
            put(b, "%c", *c);
    }
}

static const char *sgf_result(const gmk_record *r) {
    bool black = r->outcome == GMK_BLACK_WINS;
    switch (r->outcome) {
    case GMK_DRAW: return "0";
    case GMK_BLACK_WINS:
    case GMK_WHITE_WINS:
        switch (r->reason) {
        case GMK_REASON_TIME: return black ? "B+T" : "W+T";
        case GMK_REASON_RESIGN: return black ? "B+R" : "W+R";
        case GMK_REASON_FORBIDDEN: return black ? "B+F" : "W+F";
        default: return black ? "B+" : "W+";
        }
    default: return NULL;
    }
}

int gmk_record_write_sgf(const gmk_record *r, char *out, size_t cap) {
    sbuf b = {out, cap, 0, cap > 0};
    put(&b, "(;GM[4]FF[4]CA[UTF-8]AP[gomoku:%s]SZ[%d]", GMK_VERSION, r->size);
    if (r->rule_known) put(&b, "RU[%s]", gmk_rule_name(r->rule));
    if (r->black[0]) {
        put(&b, "PB[");
        put_sgf_text(&b, r->black);
        put(&b, "]");
    }
    if (r->white[0]) {
        put(&b, "PW[");
        put_sgf_text(&b, r->white);
        put(&b, "]");
    }
    const char *re = sgf_result(r);
    if (re) put(&b, "RE[%s]", re);
    if (r->note[0]) {
        put(&b, "GC[");
        put_sgf_text(&b, r->note);
        put(&b, "]");
    }
    for (int i = 0; i < r->count; i++)
        put(&b, ";%c[%c%c]", i % 2 == 0 ? 'B' : 'W', 'a' + gmk_pos_x(r->moves[i]),
            'a' + gmk_pos_y(r->moves[i]));
    put(&b, ")\n");
    return finish(&b);
}

typedef struct {
    const char *s;
    size_t i;
    char *err;
    size_t errlen;
} sgf_reader;

static void sgf_skip_ws(sgf_reader *rd) {
    while (rd->s[rd->i] && isspace((unsigned char)rd->s[rd->i])) rd->i++;
}

/* Reads one property value "[...]" at rd->i into val (unescaped, cut to cap). */
static bool sgf_value(sgf_reader *rd, char *val, size_t cap, size_t *vlen) {
    size_t at = rd->i;
    if (rd->s[rd->i] != '[')
        return fail(rd->err, rd->errlen, "at character %zu: expected '['", at + 1);
    rd->i++;
    size_t n = 0;
    for (;;) {
        char c = rd->s[rd->i];
        if (c == '\0')
            return fail(rd->err, rd->errlen, "at character %zu: value not closed by ']'", at + 1);
        rd->i++;
        if (c == ']') break;
        if (c == '\\') {
            c = rd->s[rd->i];
            if (c == '\0')
                return fail(rd->err, rd->errlen, "at character %zu: value not closed by ']'",
                            at + 1);
            rd->i++;
            if (c == '\n' || c == '\r') { /* soft line break */
                if ((rd->s[rd->i] == '\n' || rd->s[rd->i] == '\r') && rd->s[rd->i] != c) rd->i++;
                continue;
            }
        }
        if (n + 1 < cap) val[n++] = c;
    }
    val[n] = '\0';
    *vlen = n;
    return true;
}

/* State of the main line while reading. */
typedef struct {
    gmk_record rec;
    bool size_seen, gm_seen;
    int nodes;
    char setup_ab[GMK_MAX_MOVES][3], setup_aw[GMK_MAX_MOVES][3];
    int nab, naw;
    size_t setup_at;
    char pl;
    bool root_done;
    uint16_t taken[GMK_CELLS];
} sgf_game;

static bool sgf_point(sgf_reader *rd, const gmk_record *r, const char *v, size_t at, gmk_pos *p) {
    if (v[0] == '\0' || (strcmp(v, "tt") == 0 && r->size <= 19))
        return fail(rd->err, rd->errlen, "at character %zu: passes are not supported", at + 1);
    if (strlen(v) != 2 || v[0] < 'a' || v[0] > 'z' || v[1] < 'a' || v[1] > 'z')
        return fail(rd->err, rd->errlen, "at character %zu: '%s' is not a point (two letters)",
                    at + 1, v);
    int x = v[0] - 'a', y = v[1] - 'a';
    if (x >= r->size || y >= r->size)
        return fail(rd->err, rd->errlen, "at character %zu: '%s' is off the %dx%d board", at + 1, v,
                    r->size, r->size);
    *p = gmk_pos_xy(x, y);
    return true;
}

static bool sgf_add_move(sgf_reader *rd, sgf_game *g, gmk_pos p, size_t at) {
    if (g->taken[p])
        return fail(rd->err, rd->errlen, "at character %zu: %c%c was already played (move %d)",
                    at + 1, 'a' + gmk_pos_x(p), 'a' + gmk_pos_y(p), g->taken[p]);
    if (!gmk_record_add(&g->rec, p, -1))
        return fail(rd->err, rd->errlen, "at character %zu: more moves than points", at + 1);
    g->taken[p] = (uint16_t)g->rec.count;
    return true;
}

static void sgf_read_result(gmk_record *r, const char *v) {
    if (v[0] == 'B' || v[0] == 'W') {
        if (v[1] != '+') return;
        r->outcome = v[0] == 'B' ? GMK_BLACK_WINS : GMK_WHITE_WINS;
        char why = (char)toupper((unsigned char)v[2]);
        if (why == 'T') r->reason = GMK_REASON_TIME;
        if (why == 'R') r->reason = GMK_REASON_RESIGN;
        if (why == 'F') r->reason = GMK_REASON_FORBIDDEN;
    } else if (strcmp(v, "0") == 0 || strcmp(v, "Draw") == 0 || strcmp(v, "draw") == 0) {
        r->outcome = GMK_DRAW;
    }
}

/* The root node is complete: decode the setup stones now that the size is known. */
static bool sgf_finish_root(sgf_reader *rd, sgf_game *g) {
    g->root_done = true;
    if (g->nab == 0 && g->naw == 0) return true;
    if (g->nab != g->naw && g->nab != g->naw + 1)
        return fail(rd->err, rd->errlen,
                    "at character %zu: %d black and %d white setup stones cannot be replayed as "
                    "alternating moves",
                    g->setup_at + 1, g->nab, g->naw);
    bool black_next = g->nab == g->naw;
    if (g->pl && (g->pl == 'B') != black_next)
        return fail(rd->err, rd->errlen, "at character %zu: PL[%c] does not fit the setup stones",
                    g->setup_at + 1, g->pl);
    for (int k = 0; k < g->nab + g->naw; k++) {
        const char *v = k % 2 == 0 ? g->setup_ab[k / 2] : g->setup_aw[k / 2];
        gmk_pos p = GMK_POS_NONE; /* set by sgf_point when it succeeds */
        if (!sgf_point(rd, &g->rec, v, g->setup_at, &p)) return false;
        if (!sgf_add_move(rd, g, p, g->setup_at)) return false;
    }
    return true;
}

static bool sgf_property(sgf_reader *rd, sgf_game *g, bool follow, bool root) {
    size_t at = rd->i;
    char id[8];
    size_t n = 0;
    while (isupper((unsigned char)rd->s[rd->i])) {
        if (n + 1 >= sizeof id)
            return fail(rd->err, rd->errlen, "at character %zu: property name too long", at + 1);
        id[n++] = rd->s[rd->i++];
    }
    id[n] = '\0';
    if (n == 0) {
        char c = rd->s[rd->i];
        if (islower((unsigned char)c))
            return fail(rd->err, rd->errlen,
                        "at character %zu: property names are upper-case letters", at + 1);
        return fail(rd->err, rd->errlen, "at character %zu: unexpected '%c'", at + 1, c ? c : ' ');
    }
    sgf_skip_ws(rd);
    if (rd->s[rd->i] != '[')
        return fail(rd->err, rd->errlen, "at character %zu: property %s has no value", at + 1, id);
    int nvalues = 0;
    while (rd->s[rd->i] == '[') {
        char val[GMK_RECORD_NOTE_MAX];
        size_t vlen = 0, vat = rd->i;
        if (!sgf_value(rd, val, sizeof val, &vlen)) return false;
        nvalues++;
        sgf_skip_ws(rd);
        if (!follow) continue;
        gmk_record *r = &g->rec;
        bool is_move = strcmp(id, "B") == 0 || strcmp(id, "W") == 0;
        bool is_setup = strcmp(id, "AB") == 0 || strcmp(id, "AW") == 0;
        bool root_only = strcmp(id, "GM") == 0 || strcmp(id, "SZ") == 0 || strcmp(id, "RU") == 0;
        if ((is_setup || root_only) && !root)
            return fail(rd->err, rd->errlen,
                        "at character %zu: %s is only allowed in the root node", at + 1, id);
        if (nvalues > 1 && !is_setup)
            return fail(rd->err, rd->errlen, "at character %zu: %s takes one value", vat + 1, id);
        if (is_move) {
            if (root && !g->root_done && !sgf_finish_root(rd, g)) return false;
            char want = r->count % 2 == 0 ? 'B' : 'W';
            if (id[0] != want)
                return fail(rd->err, rd->errlen,
                            "at character %zu: move %d is %s, but %s is to move", at + 1,
                            r->count + 1, id[0] == 'B' ? "black" : "white",
                            want == 'B' ? "black" : "white");
            gmk_pos p = GMK_POS_NONE;
            if (!sgf_point(rd, r, val, vat, &p)) return false;
            if (!sgf_add_move(rd, g, p, vat)) return false;
        } else if (is_setup) {
            if (g->root_done)
                return fail(rd->err, rd->errlen,
                            "at character %zu: setup stones after moves are not supported", at + 1);
            if (vlen != 2)
                return fail(rd->err, rd->errlen, "at character %zu: '%s' is not a point", vat + 1,
                            val);
            if (g->nab + g->naw == 0) g->setup_at = at;
            if (id[1] == 'B' && g->nab < GMK_MAX_MOVES) memcpy(g->setup_ab[g->nab++], val, 3);
            if (id[1] == 'W' && g->naw < GMK_MAX_MOVES) memcpy(g->setup_aw[g->naw++], val, 3);
        } else if (strcmp(id, "AE") == 0) {
            return fail(rd->err, rd->errlen,
                        "at character %zu: AE (removing stones) is not supported", at + 1);
        } else if (strcmp(id, "GM") == 0) {
            if (strcmp(val, "4") != 0)
                return fail(rd->err, rd->errlen,
                            "at character %zu: GM[%s] is not a gomoku record (GM[4])", vat + 1,
                            val);
            g->gm_seen = true;
        } else if (strcmp(id, "SZ") == 0) {
            if (g->root_done || r->count > 0)
                return fail(rd->err, rd->errlen, "at character %zu: SZ after the moves", at + 1);
            size_t k = 0, L = strlen(val);
            long w, h;
            if (!read_int(val, L, &k, &w))
                return fail(rd->err, rd->errlen, "at character %zu: bad board size '%s'", vat + 1,
                            val);
            h = w;
            if (k < L && val[k] == ':') {
                k++;
                if (!read_int(val, L, &k, &h))
                    return fail(rd->err, rd->errlen, "at character %zu: bad board size '%s'",
                                vat + 1, val);
            }
            if (k != L)
                return fail(rd->err, rd->errlen, "at character %zu: bad board size '%s'", vat + 1,
                            val);
            if (w != h)
                return fail(rd->err, rd->errlen,
                            "at character %zu: rectangular boards are not supported", vat + 1);
            if (w < GMK_MIN_SIZE || w > GMK_MAX_SIZE)
                return fail(rd->err, rd->errlen,
                            "at character %zu: board size %ld is not supported (%d-%d)", vat + 1, w,
                            GMK_MIN_SIZE, GMK_MAX_SIZE);
            r->size = (int)w;
            g->size_seen = true;
        } else if (strcmp(id, "RU") == 0) {
            gmk_rule rule;
            char lower[GMK_RECORD_NOTE_MAX];
            size_t k;
            for (k = 0; val[k] && k + 1 < sizeof lower; k++)
                lower[k] = (char)tolower((unsigned char)val[k]);
            lower[k] = '\0';
            if (gmk_rule_parse(lower, &rule)) {
                r->rule = rule;
                r->rule_known = true;
            }
        } else if (strcmp(id, "PB") == 0) {
            copy_text(r->black, sizeof r->black, val, vlen);
        } else if (strcmp(id, "PW") == 0) {
            copy_text(r->white, sizeof r->white, val, vlen);
        } else if (strcmp(id, "RE") == 0) {
            sgf_read_result(r, val);
        } else if (strcmp(id, "GC") == 0) {
            copy_text(r->note, sizeof r->note, val, vlen);
        } else if (strcmp(id, "PL") == 0) {
            if (strcmp(val, "B") != 0 && strcmp(val, "W") != 0)
                return fail(rd->err, rd->errlen, "at character %zu: PL must be B or W", vat + 1);
            if (root) g->pl = val[0];
        }
    }
    return true;
}

/* Reads a game tree at rd->i ('('); follow: this tree is on the main line. */
static bool sgf_tree(sgf_reader *rd, sgf_game *g, bool follow, int depth) {
    if (depth > 1000)
        return fail(rd->err, rd->errlen, "at character %zu: variations nested too deeply",
                    rd->i + 1);
    rd->i++; /* '(' */
    sgf_skip_ws(rd);
    if (rd->s[rd->i] != ';')
        return fail(rd->err, rd->errlen, "at character %zu: a game tree starts with ';'",
                    rd->i + 1);
    while (rd->s[rd->i] == ';') {
        rd->i++;
        bool root = follow && g->nodes == 0;
        if (follow) g->nodes++;
        sgf_skip_ws(rd);
        while (rd->s[rd->i] && rd->s[rd->i] != ';' && rd->s[rd->i] != '(' && rd->s[rd->i] != ')') {
            if (!sgf_property(rd, g, follow, root)) return false;
            sgf_skip_ws(rd);
        }
        if (root && !g->root_done && !sgf_finish_root(rd, g)) return false;
    }
    bool first = true;
    while (rd->s[rd->i] == '(') {
        if (!sgf_tree(rd, g, follow && first, depth + 1)) return false;
        first = false;
        sgf_skip_ws(rd);
    }
    if (rd->s[rd->i] != ')')
        return fail(rd->err, rd->errlen, "at character %zu: expected ')'%s", rd->i + 1,
                    rd->s[rd->i] ? "" : " before the end of the text");
    rd->i++;
    return true;
}

bool gmk_record_read_sgf(const char *text, gmk_rule rule, size_t *consumed, gmk_record *out,
                         char *err, size_t errlen) {
    if (!text) return fail(err, errlen, "empty SGF text");
    sgf_game g;
    memset(&g, 0, sizeof g);
    gmk_record_init(&g.rec, GMK_DEFAULT_SIZE, rule);
    g.rec.rule_known = false;
    sgf_reader rd = {text, 0, err, errlen};
    sgf_skip_ws(&rd);
    if (text[rd.i] != '(')
        return fail(err, errlen, "at character %zu: an SGF collection starts with '('", rd.i + 1);
    if (!sgf_tree(&rd, &g, true, 0)) return false;
    /* a missing GM is accepted: many writers leave it out */
    *out = g.rec;
    if (consumed) *consumed = rd.i;
    return true;
}

/* ---- move strings ---- */

int gmk_record_write_moves(const gmk_record *r, char *out, size_t cap) {
    sbuf b = {out, cap, 0, cap > 0};
    if (cap) out[0] = '\0';
    for (int i = 0; i < r->count; i++) {
        char name[4];
        gmk_notation_point(r->moves[i], r->size, name);
        put(&b, "%s", name);
    }
    return finish(&b);
}

bool gmk_record_read_moves(const char *text, int size, gmk_rule rule, gmk_record *out, char *err,
                           size_t errlen) {
    gmk_move_list list;
    if (!gmk_notation_parse_moves(text, size, &list, err, errlen)) return false;
    gmk_record r;
    gmk_record_init(&r, size, rule);
    for (int i = 0; i < list.count; i++) gmk_record_add(&r, list.pos[i], -1);
    *out = r;
    return true;
}
