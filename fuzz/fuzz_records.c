/* fuzz_records.c: libFuzzer target for the game record readers (src/core/record.c): PSQ, SGF
 * and move strings, with a round-trip property.
 *
 * Input: byte 0 picks the reader (0 PSQ, 1 SGF, 2 move string) and the rule, byte 1 the board
 * size of a move string (5..22); the rest is the text. Checks, besides memory errors and
 * undefined behaviour: a failed read gives one printable error line; a record that was read
 * has its moves on the board, none twice; and written back in the same format it reads back
 * the same (size, moves, and for PSQ and SGF the names) and writes the same text again. A
 * record read from any format also goes through PSQ and SGF: the moves and the names survive
 * (names that PSQ cannot hold, with line breaks or spaces at the ends, are left out).
 * Build and run: make fuzz; build/fuzz/fuzz_records -max_total_time=30 fuzz/corpus/records */
#include <stdint.h>
#include <string.h>

#include "core/gmk.h"
#include "core/record.h"
#include "fuzz_check.h"

enum { CAP = 64 * 1024 };

static void check_moves(const gmk_record *r) {
    CHECK(r->size >= GMK_MIN_SIZE && r->size <= GMK_MAX_SIZE);
    CHECK(r->count >= 0 && r->count <= r->size * r->size);
    static uint8_t seen[GMK_CELLS];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < r->count; i++) {
        gmk_pos p = r->moves[i];
        CHECK(p >= 0 && p < GMK_CELLS && gmk_xy_on_board(gmk_pos_x(p), gmk_pos_y(p), r->size));
        CHECK(!seen[p]);
        seen[p] = 1;
    }
}

static bool same_moves(const gmk_record *a, const gmk_record *b) {
    return a->size == b->size && a->count == b->count &&
           memcmp(a->moves, b->moves, (size_t)a->count * sizeof a->moves[0]) == 0;
}

/* Writes r in format f into out; the length or -1. */
static int write_as(int f, const gmk_record *r, char *out) {
    return f == 0   ? gmk_record_write_psq(r, out, CAP)
           : f == 1 ? gmk_record_write_sgf(r, out, CAP)
                    : gmk_record_write_moves(r, out, CAP);
}

static bool read_as(int f, const char *text, int size, gmk_rule rule, gmk_record *r, char *err,
                    size_t errlen) {
    return f == 0   ? gmk_record_read_psq(text, rule, r, err, errlen)
           : f == 1 ? gmk_record_read_sgf(text, rule, NULL, r, err, errlen)
                    : gmk_record_read_moves(text, size, rule, r, err, errlen);
}

/* A name PSQ keeps as it is: printable, not blank, no space at either end. */
static bool psq_name(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || s[0] == ' ' || s[n - 1] == ' ' || strcmp(s, "?") == 0) return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F) return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    if (len < 2) return 0;
    int f = data[0] % 3;
    gmk_rule rule = (gmk_rule)((data[0] / 3) % GMK_RULE_COUNT);
    int size = GMK_MIN_SIZE + data[1] % (GMK_MAX_SIZE - GMK_MIN_SIZE + 1);
    char *text = malloc(len - 1);
    static char out1[CAP], out2[CAP];
    static gmk_record r, back, again;
    if (!text) return 0;
    memcpy(text, data + 2, len - 2);
    text[len - 2] = '\0';
    char err[300];
    err[0] = '\0';
    if (!read_as(f, text, size, rule, &r, err, sizeof err)) {
        fuzz_check_error(err);
        free(text);
        return 0;
    }
    check_moves(&r);
    /* the same format: reads back the same, and writes the same text again */
    int n1 = write_as(f, &r, out1);
    CHECK(n1 >= 0);
    CHECK(read_as(f, out1, r.size, rule, &back, err, sizeof err));
    CHECK(same_moves(&r, &back));
    if (f != 2) {
        CHECK(strcmp(r.black, back.black) == 0 || !psq_name(r.black));
        CHECK(strcmp(r.white, back.white) == 0 || !psq_name(r.white));
    }
    int n2 = write_as(f, &back, out2);
    CHECK(n2 == n1 && memcmp(out1, out2, (size_t)n1) == 0);
    /* through PSQ and SGF: the moves, and the names PSQ can hold */
    for (int g = 0; g < 2; g++) {
        CHECK(write_as(g, &r, out1) >= 0);
        CHECK(read_as(g, out1, r.size, rule, &again, err, sizeof err));
        CHECK(same_moves(&r, &again));
        if (psq_name(r.black)) CHECK(strcmp(again.black, r.black) == 0);
        if (psq_name(r.white)) CHECK(strcmp(again.white, r.white) == 0);
    }
    free(text);
    return 0;
}
