/* account.c: user names, their keys and password hashing (see account.h). */
#include "game/account.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <unicase.h>
#include <uninorm.h>
#include <unistr.h>

#include "game/room.h"

static void put_err(char *err, size_t errlen, const char *msg) {
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

gmk_pwhash_cost gmk_account_pwhash_default(void) {
    return (gmk_pwhash_cost){.ops = 2, .mem = (size_t)19 << 20};
}

bool gmk_account_name_key(const char *name, char key[GMK_ACCOUNT_KEY_MAX], char *err,
                          size_t errlen) {
    char why[128];
    if (!gmk_room_name_valid(name, why, sizeof why)) {
        /* the room's messages speak of a display name */
        const char *m = strstr(why, "display name");
        if (m)
            snprintf(err, errlen, "%.*suser name%s", (int)(m - why), why, m + 12);
        else
            put_err(err, errlen, why);
        return false;
    }
    size_t n = strlen(name);
    if (name[0] == ' ' || name[n - 1] == ' ') {
        put_err(err, errlen, "the user name may not begin or end with a space");
        return false;
    }
    size_t len = 0;
    uint8_t *folded = u8_casefold((const uint8_t *)name, n, NULL, UNINORM_NFKC, NULL, &len);
    if (!folded) {
        put_err(err, errlen, "the user name cannot be read");
        return false;
    }
    bool ok = len > 0 && len < GMK_ACCOUNT_KEY_MAX && !memchr(folded, 0, len);
    if (ok) {
        memcpy(key, folded, len);
        key[len] = '\0';
    }
    free(folded);
    if (!ok) {
        put_err(err, errlen, "the user name is too long");
        return false;
    }
    if (strcmp(key, GMK_ACCOUNT_NEUTRAL_NAME) == 0) {
        put_err(err, errlen, "that user name is reserved");
        return false;
    }
    return true;
}

bool gmk_account_password_valid(const char *pw, char *err, size_t errlen) {
    size_t n = pw ? strnlen(pw, GMK_ACCOUNT_PASSWORD_MAX + 1) : 0;
    if (n < GMK_ACCOUNT_PASSWORD_MIN) {
        snprintf(err, errlen, "the password must have at least %d characters",
                 GMK_ACCOUNT_PASSWORD_MIN);
        return false;
    }
    if (n > GMK_ACCOUNT_PASSWORD_MAX) {
        snprintf(err, errlen, "the password must have at most %d bytes", GMK_ACCOUNT_PASSWORD_MAX);
        return false;
    }
    if (u8_check((const uint8_t *)pw, n) != NULL) {
        put_err(err, errlen, "the password is not valid UTF-8");
        return false;
    }
    return true;
}

bool gmk_account_password_hash(const char *pw, gmk_pwhash_cost cost,
                               char out[GMK_ACCOUNT_PWHASH_MAX]) {
    if (sodium_init() < 0) return false;
    return crypto_pwhash_str(out, pw, strlen(pw), cost.ops, cost.mem) == 0;
}

bool gmk_account_password_verify(const char *hash, const char *pw) {
    if (!hash || !pw || sodium_init() < 0) return false;
    return crypto_pwhash_str_verify(hash, pw, strlen(pw)) == 0;
}

static pthread_mutex_t dummy_mu = PTHREAD_MUTEX_INITIALIZER;
static char dummy[GMK_ACCOUNT_PWHASH_MAX];
static gmk_pwhash_cost dummy_cost;

const char *gmk_account_dummy_hash(gmk_pwhash_cost cost) {
    pthread_mutex_lock(&dummy_mu);
    if (!dummy[0] || dummy_cost.ops != cost.ops || dummy_cost.mem != cost.mem) {
        if (!gmk_account_password_hash("x", cost, dummy)) dummy[0] = '\0';
        dummy_cost = cost;
    }
    pthread_mutex_unlock(&dummy_mu);
    return dummy;
}
