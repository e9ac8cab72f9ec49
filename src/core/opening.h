/* opening.h: opening files in the Gomocup offset format (../shared/testdata/openings): one
 * opening per line, black's stone first and colours alternating, each stone "dx,dy" as offsets
 * from the centre cell (floor(N/2), floor(N/2)) in Gomocup coordinates. Blank lines and lines
 * starting with '#' are skipped. Strict parsing with messages naming the line. Pure. */
#ifndef GMK_OPENING_H
#define GMK_OPENING_H

#include <stddef.h>

#include "notation.h"

/* Parses one opening line for a size x size board. */
bool gmk_opening_parse_line(const char *line, int size, gmk_move_list *out, char *err,
                            size_t errlen);

/* Parses a whole file's text: fills up to cap openings, sets *count. On error names the
 * 1-based line number. */
bool gmk_opening_parse_file(const char *text, int size, gmk_move_list *out, int cap, int *count,
                            char *err, size_t errlen);

#endif
