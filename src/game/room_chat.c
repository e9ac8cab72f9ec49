/* room_chat.c: the chat of a room (see room.h, docs/rooms.md "Chat"). A chat line is an event
 * of the room's log, saved with the room like a move, so that a reload and a stream resumed
 * after Last-Event-ID show it; its audience says who is sent it: the players' chat goes to the
 * two seats, the spectators' chat to the spectators, and a line of a muted player back to its
 * sender only. */
#include <stdio.h>
#include <string.h>

#include "game/room_internal.h"

bool gmk_room_event_visible(const gmk_room_event *e, int seat) {
    switch (e->audience) {
    case GMK_ROOM_TO_ALL: return true;
    case GMK_ROOM_TO_PLAYERS: return seat >= 0;
    case GMK_ROOM_TO_SPECTATORS: return seat < 0;
    case GMK_ROOM_TO_SEAT0: return seat == 0;
    case GMK_ROOM_TO_SEAT1: return seat == 1;
    default: return false;
    }
}

gmk_room_status gmk_room_chat(gmk_room *r, const void *token, size_t token_len, const char *text,
                              int64_t now) {
    char line[GMK_ROOM_CHAT_MAX];
    if (!r || !gmk_room_chat_clean(text, line, NULL, 0)) return GMK_ROOM_BAD_REQUEST;
    int seat;
    gmk_room_status st = room_acting_seat(r, token, token_len, now, &seat);
    if (st != GMK_ROOM_OK) return room_done(r, now, st);
    bool muted = (r->row.muted >> (1 - seat)) & 1; /* the other seat has muted this one */
    gmk_room_event *e = room_add_event(r, GMK_ROOM_EV_CHAT, now);
    e->seat = seat;
    e->color = r->row.seat[seat].color;
    snprintf(e->name, sizeof e->name, "%s", r->row.seat[seat].name);
    snprintf(e->text, sizeof e->text, "%s", line);
    e->audience = muted ? GMK_ROOM_TO_SEAT0 + seat : GMK_ROOM_TO_PLAYERS;
    return room_done(r, now, GMK_ROOM_OK);
}

gmk_room_status gmk_room_spectator_chat(gmk_room *r, const char *name, const char *text,
                                        int64_t now) {
    char line[GMK_ROOM_CHAT_MAX];
    if (!r || !room_time_ok(now) || !gmk_room_name_valid(name, NULL, 0) ||
        !gmk_room_chat_clean(text, line, NULL, 0))
        return GMK_ROOM_BAD_REQUEST;
    if (r->failed) return GMK_ROOM_STORE;
    room_enter(r);
    gmk_room_event *e = room_add_event(r, GMK_ROOM_EV_CHAT, now);
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->text, sizeof e->text, "%s", line);
    e->audience = GMK_ROOM_TO_SPECTATORS;
    return room_done(r, now, GMK_ROOM_OK);
}

gmk_room_status gmk_room_mute(gmk_room *r, const void *token, size_t token_len, bool mute,
                              int64_t now) {
    int seat;
    gmk_room_status st = room_acting_seat(r, token, token_len, now, &seat);
    if (st != GMK_ROOM_OK) return room_done(r, now, st);
    bool was = (r->row.muted >> seat) & 1;
    if (was == mute) return room_done(r, now, GMK_ROOM_NOT_NOW);
    r->row.muted ^= 1 << seat;
    gmk_room_event *e = room_add_event(r, GMK_ROOM_EV_MUTE, now);
    e->seat = seat;
    e->color = r->row.seat[seat].color;
    e->count = mute ? 1 : 0;
    e->audience = GMK_ROOM_TO_SEAT0 + seat;
    return room_done(r, now, GMK_ROOM_OK);
}

gmk_room_status gmk_room_chat_recent(gmk_room *r, int seat, gmk_room_event *out, int cap,
                                     int *count) {
    *count = 0;
    if (!r || cap < 0 || (cap > 0 && !out) || seat < -1 || seat > 1) return GMK_ROOM_BAD_REQUEST;
    /* from the newest back: the memory's log first, then the store's older lines */
    int n = 0;
    for (int i = r->log_len - 1; i >= 0 && n < cap; i--) {
        const gmk_room_event *e = &r->log[i];
        if (e->kind == GMK_ROOM_EV_CHAT && gmk_room_event_visible(e, seat)) out[n++] = *e;
    }
    int64_t before = r->log_len ? r->log[0].seq : r->row.last_seq + 1;
    if (n < cap && before > 1 && r->store) {
        /* older lines: the last few hundred chat events of the store, of which the visible */
        enum { BATCH = 64 };
        gmk_room_event batch[BATCH];
        for (int rounds = 0; rounds < 8 && n < cap && before > 1; rounds++) {
            int got = 0;
            if (gmk_store_room_events_of_kind(r->store, r->row.id, GMK_ROOM_EV_CHAT, before, batch,
                                              BATCH, &got, NULL, 0) != GMK_STORE_OK)
                return GMK_ROOM_STORE;
            for (int i = got - 1; i >= 0 && n < cap; i--)
                if (gmk_room_event_visible(&batch[i], seat)) out[n++] = batch[i];
            if (got < BATCH) break;
            before = batch[0].seq;
        }
    }
    for (int i = 0, j = n - 1; i < j; i++, j--) { /* oldest first */
        gmk_room_event t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    *count = n;
    return GMK_ROOM_OK;
}
