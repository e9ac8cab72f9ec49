/* fuzz_brain.c: libFuzzer target for a whole brain session (src/gomocup/brain*.c): the input
 * is the manager's side of a session (any bytes; lines end with LF, CR or CRLF), run in-process
 * through gmk_brain_run_with on a memory file, with every move cut to 30 ms and the tables to
 * 1 MiB whatever INFO says (so that INFO timeout_turn 2^63-1 or max_memory 2^62 cost nothing
 * here), and the end of input letting a search finish so that every line is handled.
 *
 * Checks, besides memory errors and undefined behaviour: the brain returns 0, and every line it
 * writes is a protocol answer: OK, ERROR ..., UNKNOWN ..., MESSAGE ..., DEBUG ..., SWAP,
 * FORBID ...., the ABOUT line, a move "x,y" on a board of at most 22x22, or a Swap2 proposal
 * "x,y x,y x,y" of three distinct points.
 * Build and run: make fuzz; build/fuzz/fuzz_brain -max_total_time=30 fuzz/corpus/brain */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/defs.h"
#include "fuzz_check.h"
#include "gomocup/brain.h"

/* "x,y" at s (digits only); returns the length read, 0 if none. */
static size_t point_at(const char *s, int *x, int *y) {
    size_t i = 0;
    int v[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        size_t d = 0;
        while (s[i] >= '0' && s[i] <= '9' && d < 3) v[k] = v[k] * 10 + (s[i++] - '0'), d++;
        if (d == 0) return 0;
        if (k == 0 && s[i++] != ',') return 0;
    }
    *x = v[0];
    *y = v[1];
    return i;
}

static bool starts(const char *s, const char *w) {
    return strncmp(s, w, strlen(w)) == 0;
}

static void check_line(const char *s) {
    if (strcmp(s, "OK") == 0 || strcmp(s, "SWAP") == 0) return;
    if (starts(s, "ERROR ") || starts(s, "UNKNOWN ") || starts(s, "MESSAGE ") ||
        starts(s, "DEBUG ") || starts(s, "name=\"")) {
        for (const char *c = s; *c; c++) CHECK((unsigned char)*c >= 0x20 && *c != 0x7F);
        return;
    }
    if (starts(s, "FORBID ")) {
        size_t n = strlen(s);
        CHECK(n >= 8 && s[n - 1] == '.' && (n - 8) % 4 == 0);
        for (size_t i = 7; i + 1 < n; i++) CHECK(s[i] >= '0' && s[i] <= '9');
        return;
    }
    int x[3], y[3];
    size_t n = point_at(s, &x[0], &y[0]);
    CHECK(n > 0);
    CHECK(x[0] < GMK_MAX_SIZE && y[0] < GMK_MAX_SIZE);
    if (s[n] == '\0') return;
    for (int k = 1; k < 3; k++) { /* a Swap2 proposal */
        CHECK(s[n] == ' ');
        size_t m = point_at(s + n + 1, &x[k], &y[k]);
        CHECK(m > 0 && x[k] < GMK_MAX_SIZE && y[k] < GMK_MAX_SIZE);
        n += m + 1;
    }
    CHECK(s[n] == '\0');
    CHECK(!(x[0] == x[1] && y[0] == y[1]) && !(x[0] == x[2] && y[0] == y[2]) &&
          !(x[1] == x[2] && y[1] == y[2]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    int fd = memfd_create("fuzz-brain-input", 0);
    if (fd < 0) return 0;
    if (len > 0 && write(fd, data, len) != (ssize_t)len) {
        close(fd);
        return 0;
    }
    lseek(fd, 0, SEEK_SET);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out) {
        close(fd);
        return 0;
    }
    gmk_brain_options opt = {.max_think_ms = 30,
                             .max_table_bytes = 1 << 20,
                             .finish_on_eof = true,
                             .free_at_exit = true};
    int status = gmk_brain_run_with(fd, out, &opt);
    fclose(out);
    close(fd);
    CHECK(status == 0);
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        CHECK(next != NULL); /* every reply ends with a newline */
        *next++ = '\0';
        check_line(line);
    }
    free(text);
    return 0;
}
