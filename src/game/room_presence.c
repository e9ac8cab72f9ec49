/* room_presence.c: who is in an online room (see room.h): a seat's streams opening and
 * closing (logged as CONNECTION when the seat's state changes, here or on another server) and
 * the spectators, counted in memory only so that watching writes nothing. */
#include "game/room_internal.h"

static gmk_room_status set_connected(gmk_room *r, const void *token, size_t token_len, int delta,
                                     int64_t now) {
    if (!room_time_ok(now)) return GMK_ROOM_BAD_REQUEST;
    int i = gmk_room_seat_of(r, token, token_len);
    if (i < 0) return GMK_ROOM_NO_SEAT;
    if (r->failed) { /* the server drops the room; only the count moves */
        r->live[i].streams += delta < 0 && r->live[i].streams == 0 ? 0 : delta;
        return GMK_ROOM_STORE;
    }
    room_enter(r);
    room_settle_flag(r, now);
    bool was = room_connected(r, i);
    if (delta < 0 && r->live[i].streams == 0) return room_done(r, now, GMK_ROOM_NOT_NOW);
    r->live[i].streams += delta;
    bool is = room_connected(r, i);
    if (was != is) {
        r->live[i].since_ms = now;
        gmk_room_event *e = room_add_event(r, GMK_ROOM_EV_CONNECTION, now);
        e->seat = i;
        e->color = r->row.seat[i].color;
        e->count = is ? 1 : 0;
    }
    return room_done(r, now, GMK_ROOM_OK);
}

gmk_room_status gmk_room_connect(gmk_room *r, const void *token, size_t token_len, int64_t now) {
    if (!r) return GMK_ROOM_BAD_REQUEST;
    return set_connected(r, token, token_len, 1, now);
}

gmk_room_status gmk_room_disconnect(gmk_room *r, const void *token, size_t token_len, int64_t now) {
    if (!r) return GMK_ROOM_BAD_REQUEST;
    return set_connected(r, token, token_len, -1, now);
}

static void spectators(gmk_room *r, int delta, int64_t now) {
    (void)now;
    if (!r || (delta < 0 && r->spectators == 0)) return;
    r->spectators += delta; /* in memory only: watching writes nothing */
}

void gmk_room_spectator_join(gmk_room *r, int64_t now) {
    spectators(r, 1, now);
}

void gmk_room_spectator_leave(gmk_room *r, int64_t now) {
    spectators(r, -1, now);
}
