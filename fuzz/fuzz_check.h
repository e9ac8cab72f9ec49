/* fuzz_check.h: the CHECK macro shared by the libFuzzer targets in fuzz/: a failed check
 * prints what failed and aborts, which libFuzzer reports as a crash with the input saved. */
#ifndef GMK_FUZZ_CHECK_H
#define GMK_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s: check failed: %s (line %d)\n", __FILE__, #cond, __LINE__);        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* An error message: one non-empty line of printable characters. */
static inline void fuzz_check_error(const char *err) {
    CHECK(err[0] != '\0');
    for (const char *s = err; *s; s++) CHECK((unsigned char)*s >= 0x20 && *s != 0x7F);
}

#endif
