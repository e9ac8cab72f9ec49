/* room_read.c: reading an online room (see room.h): its state at a time, its log from a
 * number on (the recent events from memory, older ones from the store), and what the server
 * asks of it between calls (idle, streams, store failures). Nothing here changes the game. */
#include <stdio.h>
#include <string.h>

#include "game/room_internal.h"

void gmk_room_get_state(const gmk_room *r, int64_t now, gmk_room_state *out) {
    memset(out, 0, sizeof *out);
    const gmk_store_room *w = &r->row;
    snprintf(out->code, sizeof out->code, "%.12s", w->code);
    out->phase = (gmk_room_phase)w->phase;
    out->rule = w->rule;
    out->size = w->size;
    out->clock_ms = w->clock_ms;
    out->increment_ms = w->increment_ms;
    out->black_ms = room_left_at(r, GMK_BLACK, now);
    out->white_ms = room_left_at(r, GMK_WHITE, now);
    out->deadline_ms = gmk_room_next_deadline(r);
    out->to_move = w->phase == GMK_ROOM_PLAYING ? room_to_move(r) : GMK_EMPTY;
    out->ply = gmk_session_board(r->session)->move_count;
    for (int i = 0; i < 2; i++) {
        out->seat[i].taken = w->seat[i].taken;
        snprintf(out->seat[i].name, sizeof out->seat[i].name, "%s", w->seat[i].name);
        out->seat[i].color = w->seat[i].color;
        out->seat[i].connected = room_connected(r, i);
        out->seat[i].since_ms = r->live[i].since_ms;
        out->seat[i].muted = (w->muted >> i) & 1;
        out->seat[i].account = w->seat[i].account;
    }
    out->spectators = r->spectators;
    out->rated = w->rated;
    out->draw_by = w->draw_by;
    out->undo_by = w->undo_by;
    out->rematch_by = w->rematch_by;
    out->claim_ms = room_claim_time(r);
    out->outcome = w->phase == GMK_ROOM_OVER ? w->outcome : GMK_ONGOING;
    out->reason = w->phase == GMK_ROOM_OVER ? w->reason : GMK_REASON_NONE;
    out->game_id = w->game_id;
    out->game_no = w->game_no;
    out->last_seq = w->last_seq;
    out->opening = (gmk_opening)w->opening;
    out->swap_actor = room_opening_actor(r);
    out->swap_phase = out->swap_actor >= 0 ? (gmk_swap_phase)w->swap_phase : GMK_SWAP_NONE;
    out->swap_first = w->swap_first;
}

const gmk_session *gmk_room_session(const gmk_room *r) {
    return r->session;
}

int64_t gmk_room_last_seq(const gmk_room *r) {
    return r->row.last_seq;
}

gmk_room_status gmk_room_events_since(gmk_room *r, int64_t after, gmk_room_event *out, int cap,
                                      int *count) {
    *count = 0;
    if (!r || after < 0 || after > r->row.last_seq || cap < 0 || (cap > 0 && !out))
        return GMK_ROOM_BAD_REQUEST;
    int64_t first = r->log_len ? r->log[0].seq : r->row.last_seq + 1;
    if (after + 1 < first) { /* older than memory: from the store */
        if (!r->store) return GMK_ROOM_STORE;
        if (gmk_store_room_events(r->store, r->row.id, after, out, cap, count, NULL, 0) !=
            GMK_STORE_OK)
            return GMK_ROOM_STORE;
        return GMK_ROOM_OK;
    }
    int from = (int)(after + 1 - first), n = r->log_len - from;
    if (n > cap) n = cap;
    if (n > 0) memcpy(out, r->log + from, (size_t)n * sizeof *out);
    *count = n;
    return GMK_ROOM_OK;
}

bool gmk_room_idle(const gmk_room *r, int64_t now) {
    return now >= r->row.touched_ms && now - r->row.touched_ms >= GMK_ROOM_IDLE_MS;
}

int gmk_room_streams_here(const gmk_room *r, int seat) {
    return r && seat >= 0 && seat <= 1 ? r->live[seat].streams : 0;
}

void gmk_room_set_elsewhere(gmk_room *r, const gmk_store_presence elsewhere[2]) {
    if (!r) return;
    for (int i = 0; i < 2; i++) {
        r->elsewhere[i] = elsewhere[i];
        if (r->elsewhere[i].streams < 0) r->elsewhere[i].streams = 0;
    }
}

bool gmk_room_failed(const gmk_room *r) {
    return r && r->failed;
}

bool gmk_room_take_store_message(gmk_room *r, char *buf, size_t buflen) {
    if (!r->store_msg_pending) return false;
    r->store_msg_pending = false;
    snprintf(buf, buflen, "%s", r->store_msg);
    return true;
}

bool gmk_room_saving(const gmk_room *r) {
    return r && r->store != NULL;
}
