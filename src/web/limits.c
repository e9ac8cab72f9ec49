/* limits.c: the per-client limits of gomoku serve (see web_internal.h, docs/http-api.md
 * "Limits"): how many room creations, joins and wrong room codes a client may send a minute,
 * and how many connections it may hold at once; and, in a second table of the same kind, how
 * many games it may create and puzzle answers it may have stored (--write-limit); and in a
 * third, how many analyses it may have in the engine queue at once.
 *
 * A client is its whole IPv4 address, or the /64 prefix of its IPv6 address (one subscriber's
 * network), never a part of it that two clients could share by chance. The counts live in one
 * table of LIMIT_BUCKETS buckets of LIMIT_WAYS slots; a client's bucket is a SipHash of its key
 * under a random key drawn at start (libsodium's crypto_shorthash), so nobody can aim many
 * addresses at one bucket. A slot is given to a new client only when it is free: never used,
 * or its minute is over and it holds no connection. One client's entry is therefore never
 * evicted to make room for another's, and a count can only be reset by time. When every slot
 * of a new client's bucket belongs to clients active within the minute, the new client is
 * refused (LIMIT_FULL) until one of them ages out: the table holds up to 65,536 clients active
 * in a minute, about 2 MB. One mutex guards the table; each call is a few dozen compares.
 *
 * A third table counts sign-ups and log-ins (--auth-limit) with back-off: a client past its
 * limit is shut out for a minute, then for 2, 4 ... up to 64 minutes each time it comes back
 * over the limit (its strikes are forgotten after an hour without one); a shut-out client's
 * slot is never given to another, so waiting is the only way back. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "web/web_internal.h"

#define LIMIT_BUCKETS 4096 /* a power of two */
#define LIMIT_WAYS 16
#define LIMIT_WINDOW_MS 60000
#define BACKOFF_MAX_SHIFT 6             /* at most 64 minutes shut out */
#define BACKOFF_FORGET_MS (3600 * 1000) /* strikes are forgotten after an hour without one */

typedef struct {
    web_client key;
    bool used;
    int64_t start_ms; /* the start of this client's minute */
    int count;        /* events counted in it */
    int conns;        /* connections open now */
    int strikes;      /* times over the limit (limits_take_backoff) */
    int64_t blocked_until, last_strike_ms;
} limit_slot;

struct web_limits {
    pthread_mutex_t mu;
    int per_minute, conns_max;
    uint8_t hash_key[crypto_shorthash_KEYBYTES];
    limit_slot slots[LIMIT_BUCKETS][LIMIT_WAYS];
};

web_limits *limits_new(int per_minute, int conns_max) {
    web_limits *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    pthread_mutex_init(&l->mu, NULL);
    l->per_minute = per_minute;
    l->conns_max = conns_max;
    randombytes_buf(l->hash_key, sizeof l->hash_key);
    return l;
}

void limits_free(web_limits *l) {
    if (!l) return;
    pthread_mutex_destroy(&l->mu);
    free(l);
}

/* The client of an IPv4 address (4 bytes, network order). */
static void client_of_v4(const uint8_t addr[4], web_client *out) {
    memset(out, 0, sizeof *out);
    out->b[0] = 4;
    memcpy(out->b + 1, addr, 4);
}

/* The client of an IPv6 address: its /64, or the IPv4 client of a mapped ::ffff:a.b.c.d. */
static void client_of_v6(const uint8_t addr[16], web_client *out) {
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(addr, mapped, 12) == 0) {
        client_of_v4(addr + 12, out);
        return;
    }
    memset(out, 0, sizeof *out);
    out->b[0] = 6;
    memcpy(out->b + 1, addr, 8);
}

bool web_client_of(const struct sockaddr *sa, web_client *out) {
    memset(out, 0, sizeof *out);
    if (!sa) return false;
    if (sa->sa_family == AF_INET) {
        client_of_v4((const uint8_t *)&((const struct sockaddr_in *)sa)->sin_addr, out);
        return true;
    }
    if (sa->sa_family != AF_INET6) return false;
    client_of_v6(((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr, out);
    return true;
}

bool web_client_parse(const char *text, web_client *out) {
    char buf[64];
    size_t n = strlen(text);
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, text, n + 1);
    if (buf[0] == '[' && n > 2 && buf[n - 1] == ']') { /* [v6] */
        buf[n - 1] = '\0';
        memmove(buf, buf + 1, n - 1);
    }
    uint8_t addr[16];
    if (inet_pton(AF_INET, buf, addr) == 1) {
        client_of_v4(addr, out);
        return true;
    }
    if (inet_pton(AF_INET6, buf, addr) == 1) {
        client_of_v6(addr, out);
        return true;
    }
    return false;
}

/* The bucket of client c. */
static limit_slot *bucket_of(web_limits *l, const web_client *c) {
    uint8_t h[crypto_shorthash_BYTES];
    crypto_shorthash(h, c->b, sizeof c->b, l->hash_key);
    uint32_t idx =
        ((uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16) & (LIMIT_BUCKETS - 1);
    return l->slots[idx];
}

/* The slot of client c, taking a free one for a new client; NULL when its bucket is full of
 * clients active within the minute (l->mu held). */
static limit_slot *slot_of(web_limits *l, const web_client *c, int64_t now) {
    limit_slot *bucket = bucket_of(l, c), *free_slot = NULL;
    for (int i = 0; i < LIMIT_WAYS; i++) {
        limit_slot *s = &bucket[i];
        if (s->used && memcmp(&s->key, c, sizeof *c) == 0) return s;
        bool reusable =
            !s->used || (s->conns == 0 && s->blocked_until <= now &&
                         (s->strikes == 0 || now - s->last_strike_ms >= BACKOFF_FORGET_MS) &&
                         (now - s->start_ms >= LIMIT_WINDOW_MS || s->count == 0));
        if (reusable && !free_slot) free_slot = s;
    }
    if (!free_slot) return NULL;
    memset(free_slot, 0, sizeof *free_slot);
    free_slot->key = *c;
    free_slot->used = true;
    free_slot->start_ms = now;
    return free_slot;
}

/* Starts a new minute for s when its minute is over (l->mu held). */
static void roll(limit_slot *s, int64_t now) {
    if (now - s->start_ms >= LIMIT_WINDOW_MS || now < s->start_ms) {
        s->start_ms = now;
        s->count = 0;
    }
}

limit_verdict limits_take(web_limits *l, const web_client *c, int64_t now) {
    pthread_mutex_lock(&l->mu);
    limit_slot *s = slot_of(l, c, now);
    limit_verdict v = LIMIT_FULL;
    if (s) {
        roll(s, now);
        v = s->count < l->per_minute ? LIMIT_OK : LIMIT_OVER;
        if (v == LIMIT_OK) s->count++;
    }
    pthread_mutex_unlock(&l->mu);
    return v;
}

limit_verdict limits_check(web_limits *l, const web_client *c, int64_t now) {
    pthread_mutex_lock(&l->mu);
    limit_verdict v = LIMIT_FULL;
    limit_slot *bucket = bucket_of(l, c);
    bool found = false;
    for (int i = 0; i < LIMIT_WAYS && !found; i++) {
        limit_slot *s = &bucket[i];
        if (!s->used || memcmp(&s->key, c, sizeof *c) != 0) continue;
        found = true;
        roll(s, now);
        v = s->count < l->per_minute ? LIMIT_OK : LIMIT_OVER;
    }
    pthread_mutex_unlock(&l->mu);
    return found ? v : LIMIT_OK; /* a client never counted is under the limit */
}

limit_verdict limits_take_backoff(web_limits *l, const web_client *c, int64_t now,
                                  int64_t *retry_ms) {
    *retry_ms = 0;
    pthread_mutex_lock(&l->mu);
    limit_slot *s = slot_of(l, c, now);
    limit_verdict v = LIMIT_FULL;
    if (s && s->blocked_until > now) {
        *retry_ms = s->blocked_until - now;
        v = LIMIT_OVER;
    } else if (s) {
        if (s->strikes > 0 && now - s->last_strike_ms >= BACKOFF_FORGET_MS) s->strikes = 0;
        roll(s, now);
        if (s->count < l->per_minute) {
            s->count++;
            v = LIMIT_OK;
        } else {
            int shift = s->strikes < BACKOFF_MAX_SHIFT ? s->strikes : BACKOFF_MAX_SHIFT;
            s->strikes++;
            s->last_strike_ms = now;
            s->blocked_until = now + ((int64_t)LIMIT_WINDOW_MS << shift);
            s->start_ms = s->blocked_until; /* a fresh minute once it is over */
            s->count = 0;
            *retry_ms = s->blocked_until - now;
            v = LIMIT_OVER;
        }
    }
    pthread_mutex_unlock(&l->mu);
    return v;
}

bool limits_conn_allowed(web_limits *l, const web_client *c, int64_t now) {
    pthread_mutex_lock(&l->mu);
    limit_slot *s = slot_of(l, c, now);
    bool ok = s && s->conns < l->conns_max;
    pthread_mutex_unlock(&l->mu);
    return ok;
}

bool limits_hold(web_limits *l, const web_client *c, int64_t now) {
    pthread_mutex_lock(&l->mu);
    limit_slot *s = slot_of(l, c, now);
    bool ok = s && s->conns < l->conns_max;
    if (ok) s->conns++;
    pthread_mutex_unlock(&l->mu);
    return ok;
}

bool limits_conn_add(web_limits *l, const web_client *c, int64_t now, int delta) {
    pthread_mutex_lock(&l->mu);
    limit_slot *s = slot_of(l, c, now); /* one holding connections is never given away */
    bool ok = s && s->conns + delta >= 0;
    if (ok) s->conns += delta;
    pthread_mutex_unlock(&l->mu);
    return ok;
}

bool limits_write_take(web_request *rq, enum MHD_Result *res) {
    limit_verdict v = limits_take(rq->web->writes, &rq->client, web_now_ms());
    if (v == LIMIT_OK) return true;
    *res = v == LIMIT_FULL
               ? web_error(rq, 503, "the server is serving too many clients; try again in a minute")
               : web_error(rq, 429,
                           "too many new games, undos, offers or puzzle answers from your "
                           "address; wait a minute");
    return false;
}
