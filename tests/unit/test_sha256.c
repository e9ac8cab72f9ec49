/* test_sha256.c: SHA-256 against the examples of FIPS 180-2 appendix B (the same messages as
 * NIST's "SHA256.pdf" examples): "abc", the 448-bit two-block message, one million 'a', plus
 * the empty message, and the incremental form fed byte by byte. */
#include <criterion/criterion.h>
#include <string.h>

#include "game/sha256.h"

static void expect(const char *msg, size_t len, const char *hex) {
    uint8_t d[GMK_SHA256_LEN];
    char h[2 * GMK_SHA256_LEN + 1];
    gmk_sha256(msg, len, d);
    gmk_sha256_hex(d, h);
    cr_assert_str_eq(h, hex, "sha256 of %zu bytes", len);
    /* the same, one byte at a time */
    gmk_sha256_ctx c;
    gmk_sha256_init(&c);
    for (size_t i = 0; i < len; i++) gmk_sha256_update(&c, msg + i, 1);
    gmk_sha256_final(&c, d);
    gmk_sha256_hex(d, h);
    cr_assert_str_eq(h, hex, "incremental sha256 of %zu bytes", len);
}

Test(sha256, fips_examples) {
    expect("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    expect(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    expect("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

Test(sha256, million_a) {
    static char a[1000000];
    memset(a, 'a', sizeof a);
    expect(a, sizeof a, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

Test(sha256, equal) {
    uint8_t x[GMK_SHA256_LEN], y[GMK_SHA256_LEN];
    gmk_sha256("seat", 4, x);
    memcpy(y, x, sizeof y);
    cr_assert(gmk_sha256_equal(x, y));
    y[31] ^= 1;
    cr_assert(!gmk_sha256_equal(x, y));
    y[31] ^= 1;
    y[0] ^= 0x80;
    cr_assert(!gmk_sha256_equal(x, y));
}

Test(sha256, padding_boundaries_differ) {
    /* lengths around the 55/56/64-byte padding edges all give distinct digests */
    char buf[130];
    uint8_t seen[8][GMK_SHA256_LEN];
    memset(buf, 'x', sizeof buf);
    const size_t lens[] = {54, 55, 56, 57, 63, 64, 65, 119};
    for (int i = 0; i < 8; i++) {
        gmk_sha256(buf, lens[i], seen[i]);
        for (int j = 0; j < i; j++) cr_assert(!gmk_sha256_equal(seen[i], seen[j]));
    }
}
