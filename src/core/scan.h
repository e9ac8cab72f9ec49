/* scan.h: reading a decimal number inside a line of text, for the parsers of points, openings,
 * game records and the Gomocup protocol, and making their error messages printable. Pure. */
#ifndef GMK_SCAN_H
#define GMK_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* Reads 1 to 9 decimal digits at s[*i] (s holds len bytes), after a '+' or '-' when
 * allow_sign. On success stores the value, moves *i past it and returns true. Returns false
 * when there is no digit (leaving *i) or more than 9 digits (*i then points at the 10th). */
bool gmk_scan_number(const char *s, size_t len, size_t *i, bool allow_sign, long *out);

/* Replaces control characters (bytes below 0x20, and 0x7F) in the string s with '?', so that an
 * error message quoting outside text is one printable line that cannot drive a terminal. */
void gmk_scan_printable(char *s);

#endif
