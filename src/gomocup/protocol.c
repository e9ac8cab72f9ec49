/* protocol.c: parsing and formatting of Gomocup protocol lines (see protocol.h). */
#include "protocol.h"
#include "core/scan.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/gmk.h"

static gmk_proto_status fail(gmk_proto_status st, char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        gmk_scan_printable(err);
    }
    return st;
}

static bool fail_bool(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        gmk_scan_printable(err);
    }
    return false;
}

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* The line without leading and trailing white space, as [*start, *start + *len). */
static void trim(const char *line, const char **start, size_t *len) {
    while (is_space(*line)) line++;
    size_t n = strlen(line);
    while (n > 0 && is_space(line[n - 1])) n--;
    *start = line;
    *len = n;
}

/* Reads a non-negative decimal number of at most 9 digits at s[*i]. */
static bool read_uint(const char *s, size_t len, size_t *i, int *out) {
    long v;
    if (!gmk_scan_number(s, len, i, false, &v)) return false;
    *out = (int)v;
    return true;
}

static void skip_blank(const char *s, size_t len, size_t *i) {
    while (*i < len && (s[*i] == ' ' || s[*i] == '\t')) (*i)++;
}

/* Reads "x,y" (blanks allowed around the comma) at s[*i]. */
static bool read_xy(const char *s, size_t len, size_t *i, int *x, int *y) {
    skip_blank(s, len, i);
    if (!read_uint(s, len, i, x)) return false;
    skip_blank(s, len, i);
    if (*i >= len || s[*i] != ',') return false;
    (*i)++;
    skip_blank(s, len, i);
    if (!read_uint(s, len, i, y)) return false;
    skip_blank(s, len, i);
    return true;
}

static const struct {
    const char *word;
    gmk_proto_kind kind;
} commands[] = {
    {"START", GMK_CMD_START},
    {"RECTSTART", GMK_CMD_RECTSTART},
    {"RESTART", GMK_CMD_RESTART},
    {"BEGIN", GMK_CMD_BEGIN},
    {"TURN", GMK_CMD_TURN},
    {"BOARD", GMK_CMD_BOARD},
    {"YXBOARD", GMK_CMD_YXBOARD},
    {"SWAP2BOARD", GMK_CMD_SWAP2BOARD},
    {"DONE", GMK_CMD_DONE},
    {"END", GMK_CMD_END},
    {"ABOUT", GMK_CMD_ABOUT},
    {"TAKEBACK", GMK_CMD_TAKEBACK},
    {"PLAY", GMK_CMD_PLAY},
    {"INFO", GMK_CMD_INFO},
    {"YXSTOP", GMK_CMD_STOP},
    {"STOP", GMK_CMD_STOP},
    {"YXSHOWFORBID", GMK_CMD_SHOWFORBID},
    {"YXHASHCLEAR", GMK_CMD_HASHCLEAR},
    {"YXNBEST", GMK_CMD_NBEST},
    {"YXSHOWINFO", GMK_CMD_SHOWINFO},
};

gmk_proto_status gmk_proto_parse(const char *line, gmk_proto_command *out, char *err,
                                 size_t errlen) {
    memset(out, 0, sizeof *out);
    if (err && errlen) err[0] = '\0';
    if (!line) return GMK_PROTO_EMPTY;
    const char *s;
    size_t len;
    trim(line, &s, &len);
    if (len == 0) return GMK_PROTO_EMPTY;
    for (size_t k = 0; k < len; k++)
        if (s[k] == '\0' || ((unsigned char)s[k] < 0x20 && s[k] != '\t'))
            return fail(GMK_PROTO_MALFORMED, err, errlen, "control character in the line");

    size_t wlen = 0;
    while (wlen < len && !is_space(s[wlen])) wlen++;
    size_t keep = wlen < GMK_PROTO_WORD_MAX - 1 ? wlen : GMK_PROTO_WORD_MAX - 1;
    for (size_t k = 0; k < keep; k++) out->word[k] = (char)toupper((unsigned char)s[k]);
    out->word[keep] = '\0';

    int found = -1;
    if (wlen < GMK_PROTO_WORD_MAX)
        for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++)
            if (strcmp(out->word, commands[c].word) == 0) found = (int)c;
    if (found < 0) return fail(GMK_PROTO_UNKNOWN, err, errlen, "unknown command '%s'", out->word);
    out->kind = commands[found].kind;

    size_t i = wlen;
    skip_blank(s, len, &i);
    bool has_args = i < len;
    const char *w = commands[found].word;

    switch (out->kind) {
    case GMK_CMD_START:
        if (!read_uint(s, len, &i, &out->n) || (skip_blank(s, len, &i), i != len))
            return fail(GMK_PROTO_MALFORMED, err, errlen,
                        "START needs a board size, e.g. START 15");
        return GMK_PROTO_OK;
    case GMK_CMD_RECTSTART:
        if (!read_xy(s, len, &i, &out->x, &out->y) || i != len)
            return fail(GMK_PROTO_MALFORMED, err, errlen,
                        "RECTSTART needs width,height, e.g. RECTSTART 20,15");
        return GMK_PROTO_OK;
    case GMK_CMD_TURN:
    case GMK_CMD_TAKEBACK:
    case GMK_CMD_PLAY:
        if (!read_xy(s, len, &i, &out->x, &out->y) || i != len)
            return fail(GMK_PROTO_MALFORMED, err, errlen, "%s needs a point x,y, e.g. %s 7,7", w,
                        w);
        return GMK_PROTO_OK;
    case GMK_CMD_NBEST:
        if (!read_uint(s, len, &i, &out->n) || (skip_blank(s, len, &i), i != len) || out->n < 1)
            return fail(GMK_PROTO_MALFORMED, err, errlen,
                        "YXNBEST needs a count of at least 1, e.g. YXNBEST 3");
        return GMK_PROTO_OK;
    case GMK_CMD_INFO: {
        if (!has_args)
            return fail(GMK_PROTO_MALFORMED, err, errlen, "INFO needs a key and a value");
        size_t k0 = i;
        while (i < len && !is_space(s[i])) i++;
        size_t klen = i - k0;
        if (klen >= GMK_PROTO_KEY_MAX)
            return fail(GMK_PROTO_MALFORMED, err, errlen, "INFO key too long");
        for (size_t k = 0; k < klen; k++) out->key[k] = (char)tolower((unsigned char)s[k0 + k]);
        out->key[klen] = '\0';
        skip_blank(s, len, &i);
        size_t vlen = len - i;
        if (vlen >= GMK_PROTO_VALUE_MAX)
            return fail(GMK_PROTO_MALFORMED, err, errlen, "INFO value too long");
        memcpy(out->value, s + i, vlen);
        out->value[vlen] = '\0';
        return GMK_PROTO_OK;
    }
    default:
        if (has_args) return fail(GMK_PROTO_MALFORMED, err, errlen, "%s takes no arguments", w);
        return GMK_PROTO_OK;
    }
}

bool gmk_proto_parse_stone(const char *line, int *x, int *y, int *field, char *err, size_t errlen) {
    const char *s;
    size_t len, i = 0;
    trim(line ? line : "", &s, &len);
    int f;
    if (!read_xy(s, len, &i, x, y) || i >= len || s[i] != ',')
        return fail_bool(err, errlen, "expected a stone x,y,field, got '%.40s'", s);
    i++;
    skip_blank(s, len, &i);
    if (!read_uint(s, len, &i, &f) || (skip_blank(s, len, &i), i != len))
        return fail_bool(err, errlen, "expected a stone x,y,field, got '%.40s'", s);
    if (f < 1 || f > 3) return fail_bool(err, errlen, "stone field must be 1, 2 or 3, got %d", f);
    *field = f;
    return true;
}

bool gmk_proto_parse_point(const char *line, int *x, int *y, char *err, size_t errlen) {
    const char *s;
    size_t len, i = 0;
    trim(line ? line : "", &s, &len);
    if (!read_xy(s, len, &i, x, y))
        return fail_bool(err, errlen, "expected a point x,y, got '%.40s'", s);
    if (i < len && s[i] == ',') {
        int f;
        i++;
        skip_blank(s, len, &i);
        if (!read_uint(s, len, &i, &f))
            return fail_bool(err, errlen, "expected a point x,y, got '%.40s'", s);
        skip_blank(s, len, &i);
    }
    if (i != len) return fail_bool(err, errlen, "expected a point x,y, got '%.40s'", s);
    return true;
}

bool gmk_proto_parse_int(const char *value, int64_t *out) {
    const char *s;
    size_t len, i = 0;
    trim(value ? value : "", &s, &len);
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    if (i == len) return false;
    int64_t v = 0;
    for (; i < len; i++) {
        if (!isdigit((unsigned char)s[i])) return false;
        int d = s[i] - '0';
        if (v > (INT64_MAX - d) / 10) return false; /* 2^63-1 is the largest */
        v = v * 10 + d;
    }
    *out = neg ? -v : v;
    return true;
}

bool gmk_proto_rule_from_mask(int64_t n, gmk_rule *out) {
    if (n < 0) return false;
    if ((n & 4) || n == 2)
        *out = GMK_RULE_RENJU;
    else if (n & 8)
        *out = GMK_RULE_CARO;
    else if (n & 1)
        *out = GMK_RULE_STANDARD;
    else
        *out = GMK_RULE_FREESTYLE;
    return true;
}

void gmk_proto_format_point(gmk_pos p, char out[8]) {
    gmk_notation_gomocup(p, out);
}

int gmk_proto_format_about(char *out, size_t cap) {
    int n = snprintf(out, cap,
                     "name=\"gomoku\", version=\"%s\", author=\"the gomoku authors\", "
                     "country=\"\", www=\"\", email=\"\"",
                     GMK_VERSION);
    return n < 0 || (size_t)n >= cap ? -1 : n;
}

int gmk_proto_format_forbid(const gmk_pos *points, int count, char *out, size_t cap) {
    size_t len = 0;
    int n = snprintf(out, cap, "FORBID ");
    if (n < 0 || (size_t)n >= cap) return -1;
    len = (size_t)n;
    for (int i = 0; i < count; i++) {
        int x = gmk_pos_x(points[i]), y = gmk_pos_y(points[i]);
        if (x < 0 || y < 0 || x > 99 || y > 99) continue;
        n = snprintf(out + len, cap - len, "%02d%02d", x, y);
        if (n < 0 || (size_t)n >= cap - len) return -1;
        len += (size_t)n;
    }
    if (len + 2 > cap) return -1;
    out[len++] = '.';
    out[len] = '\0';
    return (int)len;
}

void gmk_proto_format_eval(int score, char out[16]) {
    int plies;
    if (gmk_score_is_mate(score, &plies))
        snprintf(out, 16, "%s%d", score > 0 ? "+W" : "-L", plies);
    else
        snprintf(out, 16, "%d", score);
}

/* Appends " pv x,y x,y ..." for the given PV. */
static int append_pv(char *out, size_t cap, size_t len, const gmk_pos *pv, int pv_len) {
    int n = snprintf(out + len, cap - len, " pv");
    if (n < 0 || (size_t)n >= cap - len) return -1;
    len += (size_t)n;
    for (int i = 0; i < pv_len && i < GMK_MAX_PV; i++) {
        char pt[8];
        gmk_proto_format_point(pv[i], pt);
        n = snprintf(out + len, cap - len, " %s", pt);
        if (n < 0 || (size_t)n >= cap - len) return -1;
        len += (size_t)n;
    }
    return (int)len;
}

int gmk_proto_format_detail(const gmk_search_result *r, int line, char *out, size_t cap) {
    char ev[16];
    int n;
    if (line < 0) {
        gmk_proto_format_eval(r->score, ev);
        int64_t ms = r->time_ms > 0 ? r->time_ms : 0;
        int64_t nps = r->nodes * 1000 / (ms > 0 ? ms : 1);
        n = snprintf(out, cap, "MESSAGE depth %d-%d eval %s nodes %lld nps %lld time %lld",
                     r->depth, r->seldepth > r->depth ? r->seldepth : r->depth, ev,
                     (long long)r->nodes, (long long)nps, (long long)ms);
        if (n < 0 || (size_t)n >= cap) return -1;
        const gmk_pos *pv = r->nlines > 0 ? r->lines[0].pv : &r->best;
        int pv_len = r->nlines > 0 ? r->lines[0].pv_len : (r->best != GMK_POS_NONE);
        return append_pv(out, cap, (size_t)n, pv, pv_len);
    }
    if (line >= r->nlines || line >= GMK_MAX_NBEST) return -1;
    const gmk_line *l = &r->lines[line];
    char pt[8];
    gmk_proto_format_point(l->move, pt);
    gmk_proto_format_eval(l->score, ev);
    n = snprintf(out, cap, "MESSAGE nbest %d move %s eval %s depth %d", line + 1, pt, ev, r->depth);
    if (n < 0 || (size_t)n >= cap) return -1;
    return append_pv(out, cap, (size_t)n, l->pv, l->pv_len);
}
