/* opening.c: Gomocup offset-format openings (see opening.h). */
#include "opening.h"
#include "scan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool read_int(const char **s, int *out) {
    const char *p = *s;
    while (*p == ' ' || *p == '\t') p++;
    size_t i = 0;
    long v;
    if (!gmk_scan_number(p, strlen(p), &i, true, &v) || v > 1000 || v < -1000) return false;
    *out = (int)v;
    *s = p + i;
    return true;
}

static bool skip_comma(const char **s) {
    const char *p = *s;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != ',') return false;
    *s = p + 1;
    return true;
}

bool gmk_opening_parse_line(const char *line, int size, gmk_move_list *out, char *err,
                            size_t errlen) {
    const char *s = line;
    int centre = size / 2, n = 0;
    uint8_t taken[GMK_CELLS] = {0};
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
        if (*s == '\0') break;
        int dx, dy;
        if (!read_int(&s, &dx) || !skip_comma(&s) || !read_int(&s, &dy)) {
            snprintf(err, errlen, "stone %d: expected 'dx,dy'", n + 1);
            return false;
        }
        int x = centre + dx, y = centre + dy;
        if (!gmk_xy_on_board(x, y, size)) {
            snprintf(err, errlen, "stone %d: %d,%d is off a %dx%d board", n + 1, dx, dy, size,
                     size);
            return false;
        }
        gmk_pos p = gmk_pos_xy(x, y);
        if (taken[p]) {
            snprintf(err, errlen, "stone %d: %d,%d is taken twice", n + 1, dx, dy);
            return false;
        }
        taken[p] = 1;
        out->pos[n] = p;
        out->color[n] = (n & 1) ? GMK_WHITE : GMK_BLACK;
        n++;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == ',')
            s++;
        else if (*s != '\0' && *s != '\r' && *s != '\n') {
            snprintf(err, errlen, "stone %d: unexpected '%c'", n, *s);
            return false;
        }
    }
    if (n == 0) {
        snprintf(err, errlen, "empty opening");
        return false;
    }
    out->size = size;
    out->count = n;
    return true;
}

bool gmk_opening_parse_file(const char *text, int size, gmk_move_list *out, int cap, int *count,
                            char *err, size_t errlen) {
    int n = 0, line_no = 0;
    const char *line = text;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        line_no++;
        char buf[1024];
        if (len >= sizeof buf) {
            snprintf(err, errlen, "line %d: too long", line_no);
            return false;
        }
        memcpy(buf, line, len);
        buf[len] = '\0';
        const char *t = buf;
        while (*t == ' ' || *t == '\t' || *t == '\r') t++;
        if (*t && *t != '#') {
            if (n >= cap) {
                snprintf(err, errlen, "line %d: more than %d openings", line_no, cap);
                return false;
            }
            char sub[160];
            if (!gmk_opening_parse_line(buf, size, &out[n], sub, sizeof sub)) {
                snprintf(err, errlen, "line %d: %s", line_no, sub);
                return false;
            }
            n++;
        }
        if (!end) break;
        line = end + 1;
    }
    *count = n;
    return true;
}
