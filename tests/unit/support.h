/* support.h: helpers shared by the unit tests (header only: every tests/unit/test_*.c file is
 * its own binary, so nothing here may need a separate object file).
 *
 * - a seeded pseudo-random generator (splitmix64), so that every random test is repeatable;
 * - locating and reading the test data (GMK_TEST_DATA, else tests/data from the repo root);
 * - points by name ("h8") and a reader for the renju forbidden-point files (format in their
 *   headers), written independently of src/core/notation.c so that the tests do not lean on
 *   the parsers they are not testing. */
#ifndef GMK_TEST_SUPPORT_H
#define GMK_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"

/* ---- random numbers ------------------------------------------------------------------------ */

typedef struct {
    uint64_t state;
} test_rng;

static inline uint64_t rng_next(test_rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static inline int rng_below(test_rng *r, int n) {
    return (int)(rng_next(r) % (uint64_t)n);
}

/* ---- test data ----------------------------------------------------------------------------- */

/* Full path of a file under the test data directory. */
static inline void data_path(const char *name, char *out, size_t cap) {
    const char *dir = getenv("GMK_TEST_DATA");
    if (!dir || !*dir) dir = "tests/data";
    snprintf(out, cap, "%s/%s", dir, name);
}

/* The whole file as a NUL-terminated string (malloc'd), or NULL. */
static inline char *read_text_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[len] = '\0';
    return buf;
}

/* ---- points by name ------------------------------------------------------------------------ */

/* "h8" on a 15x15 board -> x (column from the left) and y (row from the top), 0-based. Accepts
 * exactly a lowercase letter a..o and a number 1..15. */
static inline bool test_point15(const char *s, size_t len, int *x, int *y) {
    if (len < 2 || len > 3 || s[0] < 'a' || s[0] > 'o') return false;
    int row = 0;
    for (size_t i = 1; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        row = row * 10 + (s[i] - '0');
    }
    if (s[1] == '0' || row < 1 || row > 15) return false;
    *x = s[0] - 'a';
    *y = 15 - row;
    return true;
}

/* The point named `name` ("h8") as a gmk_pos, read by test_point15; a bad name in a test is the
 * test's own bug, so it stops the test. */
static inline gmk_pos test_point(const char *name) {
    int x, y;
    if (!test_point15(name, strlen(name), &x, &y)) {
        fprintf(stderr, "test_point: \"%s\" is not a point of the 15x15 board\n", name);
        abort();
    }
    return gmk_pos_xy(x, y);
}

/* ---- renju forbidden-point files ----------------------------------------------------------- */

enum { RC_MAX_PROBES = 64, RC_MAX_FORBIDDEN = 120, RC_ID_LEN = 96 };

typedef struct {
    int x, y;
    gmk_forbid_kind kind;
} rc_point;

typedef struct {
    char id[RC_ID_LEN];
    int line; /* line of the "case" header in the file */
    char board[15][16];
    int probe_count;
    rc_point probe[RC_MAX_PROBES];
    bool has_forbidden; /* a "forbidden" line was seen */
    int forbidden_count;
    rc_point forbidden[RC_MAX_FORBIDDEN];
} renju_case;

typedef struct {
    int count;
    renju_case *cases;
    char error[256]; /* why parsing failed, when it did */
} renju_file;

/* "five" "legal" "overline" "double-four" "double-three" -> kind; false when unknown. */
static inline bool rc_verdict(const char *s, size_t len, gmk_forbid_kind *out) {
    static const struct {
        const char *name;
        gmk_forbid_kind kind;
    } names[] = {{"five", GMK_FORBID_FIVE},
                 {"legal", GMK_FORBID_NONE},
                 {"overline", GMK_FORBID_OVERLINE},
                 {"double-four", GMK_FORBID_DOUBLE_FOUR},
                 {"double-three", GMK_FORBID_DOUBLE_THREE}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == len && memcmp(names[i].name, s, len) == 0) {
            *out = names[i].kind;
            return true;
        }
    return false;
}

/* Name of a verdict in the files' words. */
static inline const char *rc_verdict_name(gmk_forbid_kind k) {
    switch (k) {
    case GMK_FORBID_NONE: return "legal";
    case GMK_FORBID_FIVE: return "five";
    case GMK_FORBID_OVERLINE: return "overline";
    case GMK_FORBID_DOUBLE_FOUR: return "double-four";
    case GMK_FORBID_DOUBLE_THREE: return "double-three";
    }
    return "?";
}

static inline bool rc_fail(renju_file *f, int line, const char *what) {
    snprintf(f->error, sizeof f->error, "line %d: %s", line, what);
    return false;
}

/* Parses a renju data file's text. Strict: anything unexpected is an error, so that a damaged
 * file cannot silently lose cases. The caller frees f->cases. */
static inline bool renju_file_parse(const char *text, renju_file *f) {
    memset(f, 0, sizeof *f);
    int cap = 16;
    f->cases = calloc((size_t)cap, sizeof *f->cases);
    if (!f->cases) return rc_fail(f, 0, "out of memory");
    renju_case *c = NULL;
    int board_rows = -1; /* >= 0 while reading board lines */
    int lineno = 0;
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *next = end ? end + 1 : p + len;
        lineno++;
        while (len > 0 && (p[len - 1] == '\r' || p[len - 1] == ' ')) len--;
        if (board_rows >= 0) {
            if (len != 15) return rc_fail(f, lineno, "board line is not 15 cells");
            for (size_t i = 0; i < 15; i++)
                if (p[i] != '.' && p[i] != 'X' && p[i] != 'O')
                    return rc_fail(f, lineno, "bad board character");
            memcpy(c->board[board_rows], p, 15);
            c->board[board_rows][15] = '\0';
            if (++board_rows == 15) board_rows = -2;
            p = next;
            continue;
        }
        if (len == 0 || p[0] == '#') {
            p = next;
            continue;
        }
        size_t wlen = 0;
        while (wlen < len && p[wlen] != ' ') wlen++;
        const char *rest = p + wlen;
        size_t rlen = len - wlen;
        while (rlen > 0 && *rest == ' ') rest++, rlen--;
#define WORD_IS(w) (wlen == strlen(w) && memcmp(p, w, wlen) == 0)
        if (WORD_IS("case")) {
            if (c) return rc_fail(f, lineno, "case inside a case");
            if (rlen == 0 || rlen >= RC_ID_LEN) return rc_fail(f, lineno, "bad case id");
            if (f->count == cap) {
                renju_case *bigger = realloc(f->cases, (size_t)cap * 2 * sizeof *bigger);
                if (!bigger) return rc_fail(f, lineno, "out of memory");
                f->cases = bigger;
                cap *= 2;
            }
            c = &f->cases[f->count];
            memset(c, 0, sizeof *c);
            memcpy(c->id, rest, rlen);
            c->line = lineno;
            board_rows = -1;
        } else if (!c) {
            return rc_fail(f, lineno, "line outside a case");
        } else if (WORD_IS("board")) {
            if (c->board[0][0]) return rc_fail(f, lineno, "second board");
            board_rows = 0;
        } else if (WORD_IS("probe")) {
            const char *sp = memchr(rest, ' ', rlen);
            if (!sp) return rc_fail(f, lineno, "probe without a verdict");
            if (c->probe_count == RC_MAX_PROBES) return rc_fail(f, lineno, "too many probes");
            rc_point *pr = &c->probe[c->probe_count++];
            if (!test_point15(rest, (size_t)(sp - rest), &pr->x, &pr->y))
                return rc_fail(f, lineno, "bad probe point");
            if (!rc_verdict(sp + 1, rlen - (size_t)(sp + 1 - rest), &pr->kind))
                return rc_fail(f, lineno, "bad probe verdict");
        } else if (WORD_IS("forbidden")) {
            if (c->has_forbidden) return rc_fail(f, lineno, "second forbidden line");
            c->has_forbidden = true;
            if (rlen == 1 && rest[0] == '-') {
                p = next;
                continue;
            }
            size_t i = 0;
            while (i < rlen) {
                size_t j = i;
                while (j < rlen && rest[j] != ' ') j++;
                const char *tok = rest + i;
                size_t tlen = j - i;
                const char *paren = memchr(tok, '(', tlen);
                if (!paren || tok[tlen - 1] != ')') return rc_fail(f, lineno, "bad forbidden");
                if (c->forbidden_count == RC_MAX_FORBIDDEN)
                    return rc_fail(f, lineno, "too many forbidden points");
                rc_point *fp = &c->forbidden[c->forbidden_count++];
                if (!test_point15(tok, (size_t)(paren - tok), &fp->x, &fp->y))
                    return rc_fail(f, lineno, "bad forbidden point");
                size_t klen = (size_t)(tok + tlen - 1 - (paren + 1));
                if (klen == 2 && memcmp(paren + 1, "33", 2) == 0)
                    fp->kind = GMK_FORBID_DOUBLE_THREE;
                else if (klen == 2 && memcmp(paren + 1, "44", 2) == 0)
                    fp->kind = GMK_FORBID_DOUBLE_FOUR;
                else if (klen == 1 && paren[1] == '6')
                    fp->kind = GMK_FORBID_OVERLINE;
                else
                    return rc_fail(f, lineno, "bad forbidden kind");
                i = j;
                while (i < rlen && rest[i] == ' ') i++;
            }
        } else if (WORD_IS("source") || WORD_IS("origin") || WORD_IS("note")) {
            /* descriptive */
        } else if (WORD_IS("end")) {
            if (board_rows != -2) return rc_fail(f, lineno, "case without a complete board");
            if (!c->has_forbidden) return rc_fail(f, lineno, "case without a forbidden line");
            f->count++;
            c = NULL;
            board_rows = -1;
        } else {
            return rc_fail(f, lineno, "unknown keyword");
        }
#undef WORD_IS
        p = next;
    }
    if (c) return rc_fail(f, lineno, "unterminated case");
    return true;
}

/* Reads and parses tests/data/<name>. On failure returns false with f->error set. */
static inline bool renju_file_load(const char *name, renju_file *f) {
    char path[1024];
    data_path(name, path, sizeof path);
    char *text = read_text_file(path);
    if (!text) {
        memset(f, 0, sizeof *f);
        snprintf(f->error, sizeof f->error, "cannot read %.200s", path);
        return false;
    }
    bool ok = renju_file_parse(text, f);
    free(text);
    return ok;
}

/* Sets up a renju board from a case's diagram (stones placed with gmk_board_put; black is to
 * move afterwards). */
static inline void renju_case_board(const renju_case *c, gmk_board *b) {
    gmk_board_init(b, 15, GMK_RULE_RENJU);
    for (int y = 0; y < 15; y++)
        for (int x = 0; x < 15; x++) {
            char ch = c->board[y][x];
            if (ch == 'X') gmk_board_put(b, gmk_pos_xy(x, y), GMK_BLACK);
            if (ch == 'O') gmk_board_put(b, gmk_pos_xy(x, y), GMK_WHITE);
        }
    b->side = GMK_BLACK;
}

/* "h8" for x, y on a 15x15 board. */
static inline void rc_point_name(int x, int y, char out[8]) {
    int row = 15 - y, n = 0;
    out[n++] = (char)('a' + x);
    if (row >= 10) out[n++] = (char)('0' + row / 10);
    out[n++] = (char)('0' + row % 10);
    out[n] = '\0';
}

#endif
