/* fuzz_protocol.c: libFuzzer target for the Gomocup protocol line parsers
 * (src/gomocup/protocol.c): gmk_proto_parse, _parse_stone, _parse_point and _parse_int.
 *
 * Input: one line of text (NUL-terminated here). Besides memory errors and undefined behaviour
 * the target checks each parser's contract: a status in range, an error message of one
 * printable line for UNKNOWN and MALFORMED, coordinates and sizes that are non-negative for an
 * accepted command, a field of 1-3 for a stone, and numbers that print back as they were read.
 * Build and run: make fuzz; build/fuzz/fuzz_protocol -max_total_time=30 fuzz/corpus/protocol */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "gomocup/protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *line = malloc(len + 1);
    if (!line) return 0;
    memcpy(line, data, len);
    line[len] = '\0';
    gmk_proto_command c;
    char err[200];
    err[0] = '\0';
    gmk_proto_status st = gmk_proto_parse(line, &c, err, sizeof err);
    CHECK(st >= GMK_PROTO_OK && st <= GMK_PROTO_MALFORMED);
    if (st == GMK_PROTO_UNKNOWN || st == GMK_PROTO_MALFORMED) fuzz_check_error(err);
    if (st == GMK_PROTO_OK) {
        CHECK(c.kind >= GMK_CMD_START && c.kind <= GMK_CMD_SHOWINFO);
        switch (c.kind) {
        case GMK_CMD_TURN:
        case GMK_CMD_TAKEBACK:
        case GMK_CMD_PLAY:
        case GMK_CMD_RECTSTART: CHECK(c.x >= 0 && c.y >= 0); break;
        case GMK_CMD_START:
        case GMK_CMD_NBEST: CHECK(c.n >= 0); break;
        case GMK_CMD_INFO:
            CHECK(memchr(c.key, '\0', sizeof c.key) != NULL);
            CHECK(memchr(c.value, '\0', sizeof c.value) != NULL);
            for (const char *k = c.key; *k; k++) CHECK(!(*k >= 'A' && *k <= 'Z'));
            break;
        default: break;
        }
    }
    /* the same line as a BOARD stone and a SWAP2BOARD point */
    int x = -1, y = -1, f = -1;
    err[0] = '\0';
    if (gmk_proto_parse_stone(line, &x, &y, &f, err, sizeof err)) {
        CHECK(x >= 0 && y >= 0 && f >= 1 && f <= 3);
    } else {
        fuzz_check_error(err);
    }
    err[0] = '\0';
    if (gmk_proto_parse_point(line, &x, &y, err, sizeof err))
        CHECK(x >= 0 && y >= 0);
    else
        fuzz_check_error(err);
    /* a number reads back as it prints */
    int64_t v, w;
    if (gmk_proto_parse_int(line, &v)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" PRId64, v);
        CHECK(gmk_proto_parse_int(buf, &w) && w == v);
        gmk_rule r;
        if (gmk_proto_rule_from_mask(v, &r)) CHECK(r >= 0 && r < GMK_RULE_COUNT);
    }
    free(line);
    return 0;
}
