/* room_sync.c: an online room kept in step with the store when several servers share one
 * database (see room.h, gmk_room_refresh and gmk_room_catch_up): the few events another server
 * saved are applied when they are moves and connection changes, else the whole room is read
 * again (row, game, swap opening). */
#include <string.h>

#include "game/room_internal.h"

/* Brings the room up to the events another server stored after it, when they are only moves
 * of the game this room has open and connection changes (what nearly every change is): each is
 * applied as the other server made it (the move played on the board without writing it, the
 * clocks and turn start as the event carries them) and joins the log in memory. False at the
 * first event it cannot apply; the room may then be half way, and the caller reads it whole. */
static bool catch_up(gmk_room *r, const gmk_room_event *ev, int n) {
    for (int i = 0; i < n; i++) {
        const gmk_room_event *e = &ev[i];
        if (e->seq != r->row.last_seq + 1) return false;
        if (e->kind == GMK_ROOM_EV_MOVED) {
            gmk_session_state ss;
            gmk_session_get_state(r->session, &ss);
            if (r->row.phase != GMK_ROOM_PLAYING || room_opening_actor(r) >= 0 || e->game_id == 0 ||
                ss.game_id != e->game_id || e->color != room_to_move(r) ||
                e->ply != gmk_session_board(r->session)->move_count + 1)
                return false; /* the first move of a game, or not the move this room expects */
            int evs = 0;
            if (gmk_session_play_stored(r->session, gmk_pos_xy(e->x, e->y), &evs) != GMK_PLAY_OK ||
                (evs & GMK_EV_GAME_OVER))
                return false;
            r->row.black_ms = e->black_ms;
            r->row.white_ms = e->white_ms;
            r->row.turn_start_ms = e->at_ms;
            r->row.draw_by = r->row.undo_by = GMK_EMPTY;
            r->row.game_id = e->game_id;
        } else if (e->kind != GMK_ROOM_EV_CONNECTION) {
            return false;
        }
        r->row.touched_ms = e->at_ms;
        r->row.last_seq = e->seq;
        room_log_append(r, e, 1);
    }
    return true;
}

static gmk_room_status reload(gmk_room *r, gmk_store *store, bool *changed);

/* The room as stored up to event seq (> its own): the few events after its own when they can
 * be applied, else the whole room read again. */
static gmk_room_status refresh_to(gmk_room *r, gmk_store *store, int64_t seq, bool *changed) {
    gmk_room_event ev[PENDING_MAX]; /* a few events behind: read only those (one query) */
    int n = 0;
    if (r->store && seq > r->row.last_seq && seq - r->row.last_seq <= PENDING_MAX &&
        gmk_store_room_events(store, r->row.id, r->row.last_seq, ev, PENDING_MAX, &n, NULL, 0) ==
            GMK_STORE_OK &&
        n == seq - r->row.last_seq && catch_up(r, ev, n)) {
        if (changed) *changed = true;
        return GMK_ROOM_OK;
    }
    return reload(r, store, changed);
}

gmk_room_status gmk_room_catch_up(gmk_room *r, gmk_store *store, int64_t seq, bool *changed) {
    if (changed) *changed = false;
    if (!r || !store || r->batch || seq < 0) return GMK_ROOM_BAD_REQUEST;
    if (r->store && seq <= r->row.last_seq) return GMK_ROOM_OK; /* its own save, or older news */
    return refresh_to(r, store, seq, changed);
}

gmk_room_status gmk_room_refresh(gmk_room *r, gmk_store *store, bool force, bool *changed) {
    if (changed) *changed = false;
    if (!r || !store || r->batch) return GMK_ROOM_BAD_REQUEST;
    if (!force && r->store) {
        int64_t seq = 0;
        gmk_store_status st = gmk_store_room_seq(store, r->row.code, &seq, NULL, 0);
        if (st == GMK_STORE_NOT_FOUND) return GMK_ROOM_NOT_FOUND;
        if (st != GMK_STORE_OK) return GMK_ROOM_STORE;
        if (seq == r->row.last_seq) return GMK_ROOM_OK;
        return refresh_to(r, store, seq, changed);
    }
    return reload(r, store, changed);
}

/* Reads the whole room again: row, game, and the log from the store from now on. */
static gmk_room_status reload(gmk_room *r, gmk_store *store, bool *changed) {
    char err[MSG_LEN];
    gmk_store_status st;
    gmk_store_room row;
    st = gmk_store_room_find(store, r->row.code, &row, err, sizeof err);
    if (st == GMK_STORE_NOT_FOUND) return GMK_ROOM_NOT_FOUND;
    if (st != GMK_STORE_OK) return GMK_ROOM_STORE;
    gmk_session *fresh = NULL;
    gmk_session_options opt = {.no_engine = true, .seed = 1};
    if (gmk_session_create(store, &opt, &fresh) != GMK_SESSION_OK) return GMK_ROOM_NO_MEMORY;
    if (row.game_id > 0 &&
        gmk_session_open(fresh, row.game_id, 0, NULL, err, sizeof err) != GMK_SESSION_OK) {
        gmk_session_free(fresh);
        return GMK_ROOM_STORE;
    }
    gmk_session *old = r->session;
    gmk_store_room old_row = r->row;
    r->session = fresh;
    r->row = row;
    if (row.game_id > 0 && !room_opening_resume(r)) { /* a damaged opening: keep the old room */
        r->session = old;
        r->row = old_row;
        gmk_session_free(fresh);
        return GMK_ROOM_STORE;
    }
    gmk_session_free(old);
    r->store = store;
    r->failed = false; /* as stored again */
    r->npending = 0;
    r->log_len = 0; /* the log is read from the store from now on */
    if (row.game_id == 0 && row.phase != GMK_ROOM_WAITING) { /* started, no move saved yet */
        bool ok = room_start_game(r, row.turn_start_ms);
        r->row = row;
        r->npending = 0;
        if (!ok) return GMK_ROOM_STORE;
    }
    if (changed) *changed = true;
    return GMK_ROOM_OK;
}
