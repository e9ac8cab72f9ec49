/* common.c: helpers shared by the subcommands (see cli.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gomoku%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_USAGE;
}

bool cli_wants_help(int argc, char **argv, const cli_command *cmd) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(cmd->usage, stdout);
            return true;
        }
    return false;
}

bool cli_parse_int(const char *text, long lo, long hi, long *out) {
    if (!text || !*text) return false;
    errno = 0;
    char *end;
    long v = strtol(text, &end, 10);
    if (errno || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static char *read_all(FILE *f, size_t limit, size_t *out_len) {
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len > limit) {
            free(buf);
            return NULL;
        }
        if (cap - len - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    buf[len] = '\0';
    *out_len = len;
    return buf;
}

bool cli_option(int argc, char **argv, int *i, const char *name, const char **value) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return false;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return true;
    }
    if (argv[*i][n] != '\0') return false;
    *value = *i + 1 < argc ? argv[++*i] : NULL;
    return true;
}

bool cli_read_position(const char *arg, int size, gmk_move_list *out, char *err, size_t errlen) {
    if (strcmp(arg, "-") == 0) {
        size_t len = 0;
        char *text = read_all(stdin, 1 << 16, &len);
        if (!text) {
            snprintf(err, errlen, "cannot read the diagram from standard input (too long?)");
            return false;
        }
        if (strlen(text) != len) {
            free(text);
            snprintf(err, errlen, "the diagram holds a NUL byte");
            return false;
        }
        bool ok = gmk_notation_parse_diagram(text, size, out, err, errlen);
        free(text);
        return ok;
    }
    return gmk_notation_parse_moves(arg, size ? size : GMK_DEFAULT_SIZE, out, err, errlen);
}
