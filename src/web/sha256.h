/* sha256.h: SHA-256 (FIPS 180-4), for hashing the web owners' tokens and the assets' ETags.
 * Written from the standard's description; checked against its test vectors in
 * tests/unit/test_web.c. Pure functions; any thread. */
#ifndef GMK_SHA256_H
#define GMK_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define GMK_SHA256_BYTES 32

/* The SHA-256 digest of len bytes at data into out. */
void gmk_sha256(const void *data, size_t len, uint8_t out[GMK_SHA256_BYTES]);

/* Writes the n bytes at in as 2n lowercase hex digits and a NUL into out[2n+1]. */
void gmk_hex(const uint8_t *in, size_t n, char *out);

#endif
