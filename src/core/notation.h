/* notation.h: reading and writing points, move lists and board diagrams (RULES.md section 5).
 *
 * Renju notation: a letter for the column from the left (a..), a number for the row from the
 * bottom (1..N), so a1 is the bottom-left corner. Gomocup notation: "x,y", 0-based, y from the
 * top. A move string is renju points one after another ("h8i9j10"), optionally separated by
 * spaces or commas, black first. A diagram is one line per row, top row first, of '.', 'X'
 * and 'O'. Parsing is strict: on any error the function returns false, writes a message that
 * names the offending position into err, and leaves no partial result. Pure functions. */
#ifndef GMK_NOTATION_H
#define GMK_NOTATION_H

#include <stddef.h>

#include "board.h"

/* A position as a list of stones in the order they were placed. */
typedef struct {
    int size;
    int count;
    gmk_pos pos[GMK_MAX_MOVES];
    uint8_t color[GMK_MAX_MOVES];
} gmk_move_list;

/* "h8" on a size x size board. The whole string must be one point. */
bool gmk_notation_parse_point(const char *text, int size, gmk_pos *out, char *err, size_t errlen);
/* "7,7" on a size x size board. */
bool gmk_notation_parse_gomocup(const char *text, int size, gmk_pos *out, char *err, size_t errlen);
/* A move string; colours alternate from black. Repeated points are an error. */
bool gmk_notation_parse_moves(const char *text, int size, gmk_move_list *out, char *err,
                              size_t errlen);
/* A diagram. size 0 takes the size from the number of rows; otherwise it must match. Black
 * and white stones are listed alternately from black while both last, then the rest. */
bool gmk_notation_parse_diagram(const char *text, int size, gmk_move_list *out, char *err,
                                size_t errlen);

/* Sets up board b (rule given) from a move list. Fails only on a bad size. */
bool gmk_move_list_to_board(const gmk_move_list *list, gmk_rule rule, gmk_board *b);

/* Writes "h8" (at most 4 bytes with the terminator). */
void gmk_notation_point(gmk_pos p, int size, char out[4]);
/* Writes "7,7". */
void gmk_notation_gomocup(gmk_pos p, char out[8]);
/* Writes the board's history as a move string without separators; returns the length, or -1
 * when it does not fit in cap bytes. */
int gmk_notation_moves(const gmk_board *b, char *out, size_t cap);

#endif
