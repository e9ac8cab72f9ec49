/* sha256.h: SHA-256 (FIPS 180-4), for storing seat and owner tokens only as
 * their hash, and the web page's ETags.
 *
 * One-shot and incremental forms over bytes; the digest is 32 bytes. Also a constant-time
 * comparison of two digests, so that checking a presented token takes the same time whether
 * or not it matches. Pure functions, no I/O. The constants were computed from their
 * definition (the first 32 bits of the fractional parts of the square and cube roots of the
 * first primes, FIPS 180-4 sections 4.2.2 and 5.3.3); tests/unit/test_sha256.c checks
 * the standard's examples. */
#ifndef GMK_SHA256_H
#define GMK_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GMK_SHA256_LEN 32

typedef struct {
    uint32_t h[8];
    uint64_t len; /* bytes hashed so far */
    uint8_t buf[64];
    size_t used; /* bytes waiting in buf */
} gmk_sha256_ctx;

/* Starts a hash. */
void gmk_sha256_init(gmk_sha256_ctx *c);
/* Adds len bytes (data may be NULL when len is 0). */
void gmk_sha256_update(gmk_sha256_ctx *c, const void *data, size_t len);
/* Finishes: writes the digest into out; c must be initialised again before reuse. */
void gmk_sha256_final(gmk_sha256_ctx *c, uint8_t out[GMK_SHA256_LEN]);
/* The digest of len bytes at data. */
void gmk_sha256(const void *data, size_t len, uint8_t out[GMK_SHA256_LEN]);
/* Lower-case hex of a digest into hex[65] (NUL-terminated). */
void gmk_sha256_hex(const uint8_t digest[GMK_SHA256_LEN], char hex[2 * GMK_SHA256_LEN + 1]);
/* Are two digests equal? Takes the same time wherever they differ. */
bool gmk_sha256_equal(const uint8_t a[GMK_SHA256_LEN], const uint8_t b[GMK_SHA256_LEN]);

#endif
