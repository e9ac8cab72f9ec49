/* fuzz_diagram.c: libFuzzer target for the diagram reader (gmk_notation_parse_diagram in
 * src/core/notation.c), which reads a board drawn as text, one line per row of '.', 'X' and
 * 'O' (notation.h).
 *
 * Input: byte 0 the board size (5..22, or 0 above 0xF0: take it from the diagram); the rest is
 * the text. Checks, besides memory errors and undefined behaviour: a failure gives one
 * printable error line and leaves the list alone; a success gives points on the board, none
 * twice, colours listed alternately from black while both last, a board that passes its
 * self-check, and a diagram that, drawn again and read again (with the size given and
 * guessed), gives the same stones in the same order.
 * Build and run: make fuzz; build/fuzz/fuzz_diagram -max_total_time=30 fuzz/corpus/diagram */
#include <stdint.h>
#include <string.h>

#include "core/gmk.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    if (len < 1) return 0;
    int size = data[0] >= 0xF0 ? 0 : GMK_MIN_SIZE + data[0] % (GMK_MAX_SIZE - GMK_MIN_SIZE + 1);
    char *text = malloc(len);
    if (!text) return 0;
    memcpy(text, data + 1, len - 1);
    text[len - 1] = '\0';
    static gmk_move_list list, again;
    static gmk_board board;
    char err[200];
    err[0] = '\0';
    list.count = -1;
    if (!gmk_notation_parse_diagram(text, size, &list, err, sizeof err)) {
        CHECK(list.count == -1);
        fuzz_check_error(err);
        free(text);
        return 0;
    }
    CHECK(list.size >= GMK_MIN_SIZE && list.size <= GMK_MAX_SIZE);
    if (size) CHECK(list.size == size);
    CHECK(list.count >= 0 && list.count <= list.size * list.size);
    static uint8_t seen[GMK_CELLS];
    memset(seen, 0, sizeof seen);
    int blacks = 0;
    for (int i = 0; i < list.count; i++) blacks += list.color[i] == GMK_BLACK;
    int whites = list.count - blacks, both = blacks < whites ? blacks : whites;
    for (int i = 0; i < list.count; i++) {
        gmk_pos p = list.pos[i];
        CHECK(p >= 0 && p < GMK_CELLS && gmk_xy_on_board(gmk_pos_x(p), gmk_pos_y(p), list.size));
        CHECK(!seen[p]);
        seen[p] = 1;
        CHECK(list.color[i] == GMK_BLACK || list.color[i] == GMK_WHITE);
        /* alternately from black while both colours last, then the rest */
        gmk_color want = i < 2 * both ? (i % 2 ? GMK_WHITE : GMK_BLACK)
                                      : (blacks > whites ? GMK_BLACK : GMK_WHITE);
        CHECK(list.color[i] == want);
    }
    CHECK(gmk_move_list_to_board(&list, GMK_RULE_FREESTYLE, &board));
    CHECK(gmk_board_check(&board));
    static char drawn[GMK_MAX_SIZE * (GMK_MAX_SIZE + 1) + 1];
    size_t n = 0;
    for (int y = 0; y < board.size; y++) {
        for (int x = 0; x < board.size; x++) drawn[n++] = ".XO"[board.stone[gmk_pos_xy(x, y)]];
        drawn[n++] = '\n';
    }
    drawn[n] = '\0';
    for (int guess = 0; guess < 2; guess++) {
        CHECK(gmk_notation_parse_diagram(drawn, guess ? 0 : list.size, &again, err, sizeof err));
        CHECK(again.count == list.count && again.size == list.size);
        CHECK(memcmp(again.pos, list.pos, (size_t)list.count * sizeof list.pos[0]) == 0);
    }
    free(text);
    return 0;
}
