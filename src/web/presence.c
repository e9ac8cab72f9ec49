/* presence.c: the server's part in presence across servers (store/presence.h, docs/deploy.md):
 * its lease, renewed every second by the rooms' timer, and the rows of the streams it holds,
 * written when a seat's stream opens or closes here. A failure is reported once and changes
 * nothing else: a room goes on, and its claims count only what could be read. */
#include <stdio.h>

#include "store/presence.h"
#include "web/web_internal.h"

#define BEAT_EVERY_MS 1000
#define LEASE_MS 5000 /* a server silent this long is dead: its streams no longer count */
#define GC_EVERY_MS 60000

void web_presence_start(gmk_web *w) {
    if (!gmk_store_is_shared(w->store) || w->server_id > 0) return;
    uint64_t id = 0;
    while (id == 0) {
        web_random(&id, sizeof id);
        id &= INT64_MAX;
    }
    char err[256]; /* the lease first (the timer renews it from now on), then the id is used */
    pthread_mutex_lock(&w->store_mu);
    if (gmk_store_server_beat(w->store, (int64_t)id, web_wall_ms(), LEASE_MS, false, err,
                              sizeof err) != GMK_STORE_OK)
        fprintf(stderr, "gomoku serve: %s\n", err);
    pthread_mutex_unlock(&w->store_mu);
    atomic_store(&w->server_id, (int64_t)id);
}

void web_presence_beat(gmk_web *w, int64_t now) {
    int64_t id = atomic_load(&w->server_id);
    if (id <= 0 || now < w->next_beat) return;
    w->next_beat = now + BEAT_EVERY_MS;
    bool gc = now >= w->next_gc;
    if (gc) w->next_gc = now + GC_EVERY_MS;
    char err[256];
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st = gmk_store_server_beat(w->store, id, now, LEASE_MS, gc, err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
    if (st != GMK_STORE_OK && !w->beat_failed) fprintf(stderr, "gomoku serve: %s\n", err);
    w->beat_failed = st != GMK_STORE_OK;
}

void web_presence_stop(gmk_web *w) {
    int64_t id = atomic_load(&w->server_id);
    if (id <= 0) return;
    char err[256];
    pthread_mutex_lock(&w->store_mu);
    gmk_store_server_leave(w->store, id, web_wall_ms(), err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
}

void web_presence_read(gmk_web *w, live_room *lr, int64_t now) {
    int64_t id = atomic_load(&w->server_id);
    if (id <= 0) return;
    gmk_store_presence others[2];
    if (gmk_store_presence_others(w->store, id, lr->code, now, others, NULL, 0) == GMK_STORE_OK)
        gmk_room_set_elsewhere(lr->room, others);
}

void web_presence_seat(gmk_web *w, live_room *lr, int seat, int delta, int64_t now) {
    int64_t id = atomic_load(&w->server_id);
    if (id <= 0 || seat < 0) return;
    int here = gmk_room_streams_here(lr->room, seat) + delta;
    /* written first, then the others read: see store/presence.c */
    gmk_store_presence_set(w->store, id, lr->code, seat, here < 0 ? 0 : here, now, NULL, 0);
    web_presence_read(w, lr, now);
}
