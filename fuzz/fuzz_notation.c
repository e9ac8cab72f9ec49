/* fuzz_notation.c: libFuzzer target for the notation parsers (src/core/notation.c).
 *
 * Input: byte 0 picks the parser (low 2 bits: point, Gomocup x,y, move string, diagram), byte
 * 1 the board size (5..22; for diagrams also 0 = "take it from the diagram"); the rest is the
 * text, NUL-terminated. Besides memory errors (AddressSanitizer) and undefined behaviour, the
 * target checks each parser's contract:
 *   - on failure: an error message of one printable line;
 *   - on success: every point on the board, no point twice, colours right, and the result
 *     survives a round trip through the writers (gmk_notation_point / _gomocup / _moves).
 * Build and run: make fuzz; build/fuzz/fuzz_notation -max_total_time=30 fuzz/corpus/notation */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_notation: check failed: %s (line %d)\n", #cond, __LINE__);       \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static void check_error(const char *err) {
    CHECK(err[0] != '\0');
    for (const char *s = err; *s; s++) CHECK((unsigned char)*s >= 0x20 && *s != 0x7F);
}

static bool on_board(gmk_pos p, int size) {
    return p >= 0 && p < GMK_CELLS && gmk_xy_on_board(gmk_pos_x(p), gmk_pos_y(p), size) &&
           p == gmk_pos_xy(gmk_pos_x(p), gmk_pos_y(p));
}

static void check_list(const gmk_move_list *l, int size_wanted) {
    CHECK(l->size >= GMK_MIN_SIZE && l->size <= GMK_MAX_SIZE);
    if (size_wanted) CHECK(l->size == size_wanted);
    CHECK(l->count >= 0 && l->count <= l->size * l->size);
    static uint8_t seen[GMK_CELLS];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < l->count; i++) {
        CHECK(on_board(l->pos[i], l->size));
        CHECK(!seen[l->pos[i]]);
        seen[l->pos[i]] = 1;
        CHECK(l->color[i] == GMK_BLACK || l->color[i] == GMK_WHITE);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    if (len < 2) return 0;
    int which = data[0] & 3;
    int size = GMK_MIN_SIZE + data[1] % (GMK_MAX_SIZE - GMK_MIN_SIZE + 1);
    if (which == 3 && data[1] >= 0xF0) size = 0;
    char *text = malloc(len - 1);
    if (!text) return 0;
    memcpy(text, data + 2, len - 2);
    text[len - 2] = '\0';
    char err[160];
    err[0] = '\0';
    static gmk_move_list list, again;
    static gmk_board board;

    switch (which) {
    case 0: {
        gmk_pos p = GMK_POS_NONE;
        if (gmk_notation_parse_point(text, size, &p, err, sizeof err)) {
            CHECK(on_board(p, size));
            char name[4];
            gmk_notation_point(p, size, name);
            gmk_pos q = GMK_POS_NONE;
            CHECK(gmk_notation_parse_point(name, size, &q, err, sizeof err));
            CHECK(q == p);
        } else {
            CHECK(p == GMK_POS_NONE);
            check_error(err);
        }
        break;
    }
    case 1: {
        gmk_pos p = GMK_POS_NONE;
        if (gmk_notation_parse_gomocup(text, size, &p, err, sizeof err)) {
            CHECK(on_board(p, size));
            char xy[8];
            gmk_notation_gomocup(p, xy);
            gmk_pos q = GMK_POS_NONE;
            CHECK(gmk_notation_parse_gomocup(xy, size, &q, err, sizeof err));
            CHECK(q == p);
        } else {
            CHECK(p == GMK_POS_NONE);
            check_error(err);
        }
        break;
    }
    case 2:
        list.count = -1;
        if (gmk_notation_parse_moves(text, size, &list, err, sizeof err)) {
            check_list(&list, size);
            for (int i = 0; i < list.count; i++)
                CHECK(list.color[i] == (i % 2 ? GMK_WHITE : GMK_BLACK));
            CHECK(gmk_move_list_to_board(&list, GMK_RULE_RENJU, &board));
            CHECK(gmk_board_check(&board));
            static char written[4 * GMK_MAX_MOVES + 1];
            CHECK(gmk_notation_moves(&board, written, sizeof written) >= 0);
            CHECK(gmk_notation_parse_moves(written, size, &again, err, sizeof err));
            CHECK(again.count == list.count);
            CHECK(memcmp(again.pos, list.pos, (size_t)list.count * sizeof list.pos[0]) == 0);
        } else {
            CHECK(list.count == -1);
            check_error(err);
        }
        break;
    default:
        list.count = -1;
        if (gmk_notation_parse_diagram(text, size, &list, err, sizeof err)) {
            check_list(&list, size);
            CHECK(gmk_move_list_to_board(&list, GMK_RULE_FREESTYLE, &board));
            CHECK(gmk_board_check(&board));
            /* redraw the diagram and read it again: the same stones */
            static char drawn[GMK_MAX_SIZE * (GMK_MAX_SIZE + 1) + 1];
            size_t n = 0;
            for (int y = 0; y < board.size; y++) {
                for (int x = 0; x < board.size; x++)
                    drawn[n++] = ".XO"[board.stone[gmk_pos_xy(x, y)]];
                drawn[n++] = '\n';
            }
            drawn[n] = '\0';
            CHECK(gmk_notation_parse_diagram(drawn, 0, &again, err, sizeof err));
            CHECK(again.count == list.count && again.size == list.size);
            CHECK(memcmp(again.pos, list.pos, (size_t)list.count * sizeof list.pos[0]) == 0);
        } else {
            CHECK(list.count == -1);
            check_error(err);
        }
        break;
    }
    free(text);
    return 0;
}
