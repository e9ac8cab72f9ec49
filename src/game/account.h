/* account.h: the rules of players' accounts, apart from any storage: what a user name may be
 * and the key that makes names unique, what a password may be and how it is hashed.
 *
 * A user name is a display name as online rooms take them (game/room.h,
 * gmk_room_name_valid: 1..24 characters, no control or bidirectional characters, something
 * visible) without spaces at either end. Its key is the name case-folded and normalised to
 * NFKC (libunistring's u8_casefold with UNINORM_NFKC: Unicode's toCasefold(NFKC(x)) as
 * Unicode 3.13 "Default Caseless Matching" describes compatibility caseless matching), so
 * "Ann", "ANN", "ａｎｎ" (fullwidth) and "Ａnn" are one name; the store keeps the key UNIQUE.
 * The name shown is the one given. The neutral name that replaces a deleted account's
 * (GMK_ACCOUNT_NEUTRAL_NAME) cannot be taken.
 *
 * Passwords are GMK_ACCOUNT_PASSWORD_MIN..MAX bytes of UTF-8 and are hashed with Argon2id by
 * libsodium (crypto_pwhash_str: a random salt; the parameters are in the string, so changing
 * the defaults later still verifies old hashes). Defaults for a 2-core server: 2 passes over
 * 19 MiB (OWASP's Password Storage Cheat Sheet's first Argon2id choice, m=19 MiB t=2 p=1),
 * about 50 ms of one core per hash here; docs/accounts.md has the figures. Called by
 * src/web/api_account.c. */
#ifndef GMK_ACCOUNT_H
#define GMK_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>

#define GMK_ACCOUNT_KEY_MAX 256 /* a key, NUL included (casefolding can lengthen a name) */
#define GMK_ACCOUNT_PASSWORD_MIN 8
#define GMK_ACCOUNT_PASSWORD_MAX 256
#define GMK_ACCOUNT_NEUTRAL_NAME "deleted player"
#define GMK_ACCOUNT_PWHASH_MAX 128 /* crypto_pwhash_STRBYTES */

/* Argon2id's cost: passes (opslimit) and memory in bytes (memlimit). */
typedef struct {
    unsigned long long ops;
    size_t mem;
} gmk_pwhash_cost;

/* The shipped cost: 2 passes, 19 MiB. */
gmk_pwhash_cost gmk_account_pwhash_default(void);

/* Checks name as a user name and writes its key into key[GMK_ACCOUNT_KEY_MAX]; false with why
 * in err otherwise. */
bool gmk_account_name_key(const char *name, char key[GMK_ACCOUNT_KEY_MAX], char *err,
                          size_t errlen);

/* Is pw a password we take (length, valid UTF-8, no NUL)? false with why in err. */
bool gmk_account_password_valid(const char *pw, char *err, size_t errlen);

/* Hashes pw into out[GMK_ACCOUNT_PWHASH_MAX]; false when out of memory. */
bool gmk_account_password_hash(const char *pw, gmk_pwhash_cost cost,
                               char out[GMK_ACCOUNT_PWHASH_MAX]);

/* Does pw match hash (in constant time as libsodium compares)? */
bool gmk_account_password_verify(const char *hash, const char *pw);

/* A hash of the password "x" made once at cost, to verify against when there is no such user,
 * so that a wrong name takes as long as a wrong password. */
const char *gmk_account_dummy_hash(gmk_pwhash_cost cost);

#endif
