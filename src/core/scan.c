/* scan.c: decimal numbers inside text (see scan.h). */
#include "scan.h"

#include <ctype.h>

bool gmk_scan_number(const char *s, size_t len, size_t *i, bool allow_sign, long *out) {
    size_t at = *i;
    bool neg = false;
    if (allow_sign && at < len && (s[at] == '-' || s[at] == '+')) neg = s[at++] == '-';
    size_t start = at;
    long v = 0;
    while (at < len && isdigit((unsigned char)s[at])) {
        if (at - start >= 9) {
            *i = at;
            return false;
        }
        v = v * 10 + (s[at] - '0');
        at++;
    }
    if (at == start) return false;
    *i = at;
    *out = neg ? -v : v;
    return true;
}

void gmk_scan_printable(char *s) {
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7F) *s = '?';
}
