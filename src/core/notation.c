/* notation.c: strict parsers and formatters for points, move strings and diagrams. */
#include "notation.h"
#include "scan.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool fail(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* A character of the input as it may appear in a one-line message: itself when printable
 * ASCII, else \xNN (so that a newline or a stray UTF-8 byte cannot break the message). */
typedef struct {
    char s[8];
} shown_char;

static shown_char shown(char c) {
    shown_char out;
    unsigned char u = (unsigned char)c;
    if (u >= 0x20 && u < 0x7F)
        snprintf(out.s, sizeof out.s, "%c", c);
    else
        snprintf(out.s, sizeof out.s, "\\x%02X", u);
    return out;
}

static bool size_ok(int size, char *err, size_t errlen) {
    if (size >= GMK_MIN_SIZE && size <= GMK_MAX_SIZE) return true;
    return fail(err, errlen, "board size %d is not supported (%d-%d)", size, GMK_MIN_SIZE,
                GMK_MAX_SIZE);
}

/* Reads one renju point at text[*i]; advances *i past it. */
static bool read_point(const char *text, size_t *i, int size, gmk_pos *out, char *err,
                       size_t errlen) {
    size_t start = *i;
    char letter = (char)tolower((unsigned char)text[*i]);
    char last_letter = (char)('a' + size - 1);
    if (letter < 'a' || letter > 'z') {
        if (!text[*i])
            return fail(err, errlen, "at character %zu: expected a column letter a-%c", start + 1,
                        last_letter);
        return fail(err, errlen, "at character %zu: expected a column letter a-%c, got '%s'",
                    start + 1, last_letter, shown(text[*i]).s);
    }
    if (letter > last_letter)
        return fail(err, errlen, "at character %zu: column '%c' is off a %dx%d board (a-%c)",
                    start + 1, text[*i], size, size, last_letter);
    (*i)++;
    if (!isdigit((unsigned char)text[*i]))
        return fail(err, errlen, "at character %zu: expected a row number after '%c'", *i + 1,
                    text[start]);
    if (text[*i] == '0')
        return fail(err, errlen, "at character %zu: a row number cannot start with 0", *i + 1);
    int row = 0;
    while (isdigit((unsigned char)text[*i])) {
        row = row * 10 + (text[*i] - '0');
        if (row > 99) return fail(err, errlen, "at character %zu: row number too large", start + 1);
        (*i)++;
    }
    if (row < 1 || row > size)
        return fail(err, errlen, "at character %zu: row %d is off a %dx%d board (1-%d)", start + 1,
                    row, size, size, size);
    *out = gmk_pos_xy(letter - 'a', size - row);
    return true;
}

bool gmk_notation_parse_point(const char *text, int size, gmk_pos *out, char *err, size_t errlen) {
    if (!size_ok(size, err, errlen)) return false;
    if (!text || !*text) return fail(err, errlen, "empty point");
    size_t i = 0;
    gmk_pos p;
    if (!read_point(text, &i, size, &p, err, errlen)) return false;
    if (text[i] != '\0')
        return fail(err, errlen, "at character %zu: unexpected '%s' after the point", i + 1,
                    shown(text[i]).s);
    *out = p;
    return true;
}

static bool read_number(const char *text, size_t *i, int *out) {
    long v;
    if (!gmk_scan_number(text, strlen(text), i, false, &v) || v > 9999) return false;
    *out = (int)v;
    return true;
}

bool gmk_notation_parse_gomocup(const char *text, int size, gmk_pos *out, char *err,
                                size_t errlen) {
    if (!size_ok(size, err, errlen)) return false;
    if (!text) return fail(err, errlen, "empty point");
    size_t i = 0;
    int x, y;
    if (!read_number(text, &i, &x))
        return fail(err, errlen, "at character %zu: expected a column number", i + 1);
    if (text[i] != ',')
        return fail(err, errlen, "at character %zu: expected ',' between x and y", i + 1);
    i++;
    if (!read_number(text, &i, &y))
        return fail(err, errlen, "at character %zu: expected a row number", i + 1);
    if (text[i] != '\0')
        return fail(err, errlen, "at character %zu: unexpected '%s'", i + 1, shown(text[i]).s);
    if (!gmk_xy_on_board(x, y, size))
        return fail(err, errlen, "%d,%d is off a %dx%d board", x, y, size, size);
    *out = gmk_pos_xy(x, y);
    return true;
}

bool gmk_notation_parse_moves(const char *text, int size, gmk_move_list *out, char *err,
                              size_t errlen) {
    if (!text) return fail(err, errlen, "no moves");
    if (!size_ok(size, err, errlen)) return false;
    static const uint8_t colour_of_move[2] = {GMK_BLACK, GMK_WHITE};
    uint16_t taken[GMK_CELLS] = {0}; /* 1-based move number of each point, 0 = free */
    gmk_move_list list;              /* written to *out only on success */
    int count = 0;
    size_t i = 0;
    for (;;) {
        while (text[i] == ' ' || text[i] == ',' || text[i] == '\t') i++;
        if (text[i] == '\0' || text[i] == '\n' || text[i] == '\r') break;
        size_t at = i;
        gmk_pos p;
        if (!read_point(text, &i, size, &p, err, errlen)) return false;
        if (taken[p]) {
            char name[4];
            gmk_notation_point(p, size, name);
            return fail(err, errlen, "at character %zu: %s is played twice (moves %d and %d)",
                        at + 1, name, taken[p], count + 1);
        }
        if (count >= size * size) return fail(err, errlen, "too many moves");
        taken[p] = (uint16_t)(count + 1);
        list.pos[count] = p;
        list.color[count] = colour_of_move[count & 1];
        count++;
    }
    while (text[i] == '\n' || text[i] == '\r') i++;
    if (text[i] != '\0')
        return fail(err, errlen, "at character %zu: unexpected text after the moves", i + 1);
    list.size = size;
    list.count = count;
    memcpy(out, &list, sizeof list);
    return true;
}

bool gmk_notation_parse_diagram(const char *text, int size, gmk_move_list *out, char *err,
                                size_t errlen) {
    if (!text) return fail(err, errlen, "empty diagram");
    char grid[GMK_MAX_SIZE][GMK_MAX_SIZE];
    int rows = 0, width = -1, lineno = 0; /* rows read; text line (blank lines count) */
    const char *line = text;
    while (*line) {
        lineno++;
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
            len--;
        if (len > 0) {
            if (rows >= GMK_MAX_SIZE)
                return fail(err, errlen, "line %d: more than %d rows", lineno, GMK_MAX_SIZE);
            if (width >= 0 && (int)len != width)
                return fail(err, errlen, "line %d: %zu cells, but the first row has %d", lineno,
                            len, width);
            if (len > GMK_MAX_SIZE)
                return fail(err, errlen, "line %d: more than %d cells", lineno, GMK_MAX_SIZE);
            for (size_t k = 0; k < len; k++) {
                char ch = line[k];
                if (ch != '.' && ch != 'X' && ch != 'O')
                    return fail(err, errlen,
                                "line %d, column %zu: unexpected '%s' (use '.', 'X' or 'O')",
                                lineno, k + 1, shown(ch).s);
                grid[rows][k] = ch;
            }
            width = (int)len;
            rows++;
        }
        if (!end) break;
        line = end + 1;
    }
    if (rows == 0) return fail(err, errlen, "empty diagram");
    if (rows != width)
        return fail(err, errlen, "the diagram has %d rows of %d cells; it must be square", rows,
                    width);
    if (rows < GMK_MIN_SIZE) return fail(err, errlen, "a %dx%d board is too small", rows, rows);
    if (size && size != rows)
        return fail(err, errlen, "the diagram is %dx%d but --size is %d", rows, rows, size);
    gmk_pos black[GMK_MAX_MOVES], white[GMK_MAX_MOVES];
    int nb = 0, nw = 0;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < rows; x++) {
            if (grid[y][x] == 'X') black[nb++] = gmk_pos_xy(x, y);
            if (grid[y][x] == 'O') white[nw++] = gmk_pos_xy(x, y);
        }
    int n = 0, ib = 0, iw = 0;
    while (ib < nb || iw < nw) {
        if (ib < nb && (ib <= iw || iw >= nw)) {
            out->pos[n] = black[ib++];
            out->color[n++] = GMK_BLACK;
        } else {
            out->pos[n] = white[iw++];
            out->color[n++] = GMK_WHITE;
        }
    }
    out->size = rows;
    out->count = n;
    return true;
}

bool gmk_move_list_to_board(const gmk_move_list *list, gmk_rule rule, gmk_board *b) {
    if (gmk_board_init(b, list->size, rule) != GMK_OK) return false;
    for (int i = 0; i < list->count; i++) {
        if (!gmk_board_empty_at(b, list->pos[i])) return false;
        gmk_board_put(b, list->pos[i], (gmk_color)list->color[i]);
    }
    return true;
}

void gmk_notation_point(gmk_pos p, int size, char out[4]) {
    int x = gmk_pos_x(p), y = gmk_pos_y(p);
    if (p == GMK_POS_NONE || !gmk_xy_on_board(x, y, size)) {
        strcpy(out, "--");
        return;
    }
    int row = size - y, n = 0;
    out[n++] = (char)('a' + x);
    if (row >= 10) out[n++] = (char)('0' + row / 10);
    out[n++] = (char)('0' + row % 10);
    out[n] = '\0';
}

void gmk_notation_gomocup(gmk_pos p, char out[8]) {
    int x = gmk_pos_x(p), y = gmk_pos_y(p);
    if (x < 0 || y < 0 || x > 99 || y > 99) {
        strcpy(out, "-1,-1");
        return;
    }
    snprintf(out, 8, "%d,%d", x % 100, y % 100);
}

int gmk_notation_moves(const gmk_board *b, char *out, size_t cap) {
    size_t len = 0;
    if (cap) out[0] = '\0';
    for (int i = 0; i < b->move_count; i++) {
        char name[4];
        gmk_notation_point(b->moves[i], b->size, name);
        size_t n = strlen(name);
        if (len + n + 1 > cap) return -1;
        memcpy(out + len, name, n + 1);
        len += n;
    }
    return (int)len;
}
