/* room.c: an online room (see room.h). The persistent state is a gmk_store_room kept exactly
 * as the store holds it; what only lives while the server runs (connections, spectators, the
 * recent log) sits beside it. Each public call that may change anything opens a store batch
 * (enter) once the caller holds a seat, collects its events in `pending`, and ends in commit:
 * the session's writes (a move, a result), the room row and the events are then committed
 * together, or none of them, and the events join the in-memory log. */
#include "game/room.h"
#include "game/room_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "game/rating.h"
#include "store/accounts.h"

/* Times a caller may give (Unix ms, 1970 to about 2500) and the most time a clock may hold. */
#define TIME_MAX_MS (16LL * 1000 * 1000 * 1000 * 1000)
#define LEFT_MAX_MS (24LL * 3600 * 1000)

/* --- small helpers ----------------------------------------------------------------------- */

static void put_err(char *err, size_t errlen, const char *msg) {
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

static gmk_color other(gmk_color c) {
    return c == GMK_BLACK ? GMK_WHITE : GMK_BLACK;
}

static bool has_clock(const gmk_room *r) {
    return r->row.clock_ms > 0;
}

static int64_t *left_of(gmk_room *r, gmk_color c) {
    return c == GMK_BLACK ? &r->row.black_ms : &r->row.white_ms;
}

static const gmk_board *board(const gmk_room *r) {
    return gmk_session_board(r->session);
}

/* The colour whose turn it is: the side to move, or during a swap opening the colour of the
 * seat that places or chooses (its clock runs). */
static gmk_color to_move(const gmk_room *r) {
    int actor = room_opening_actor(r);
    return actor >= 0 ? r->row.seat[actor].color : gmk_board_side(board(r));
}

/* Does seat i have a stream open here or on another server? */
static bool connected(const gmk_room *r, int i) {
    return r->live[i].streams + r->elsewhere[i].streams > 0;
}

static int seat_of_color(const gmk_room *r, gmk_color c) {
    for (int i = 0; i < 2; i++)
        if (r->row.seat[i].taken && r->row.seat[i].color == c) return i;
    return -1;
}

static bool time_ok(int64_t now) {
    return now > 0 && now <= TIME_MAX_MS;
}

static bool token_ok(const void *token, size_t len) {
    return token && len >= GMK_ROOM_TOKEN_MIN && len <= GMK_ROOM_TOKEN_MAX;
}

int gmk_room_seat_of(const gmk_room *r, const void *token, size_t token_len) {
    if (!r || !token_ok(token, token_len)) return -1;
    uint8_t h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, token, token_len);
    int found = -1;
    for (int i = 0; i < 2; i++) /* both compared, whatever matches (libsodium: constant time) */
        if (sodium_memcmp(h, r->row.seat[i].token_sha256, sizeof h) == 0 && r->row.seat[i].taken)
            found = i;
    return found;
}

/* Appends an event to pending with the next number; the caller fills its fields. */
static gmk_room_event *add_event(gmk_room *r, int kind, int64_t now) {
    if (r->npending >= PENDING_MAX) abort(); /* a bug: no call makes that many */
    gmk_room_event *e = &r->pending[r->npending++];
    memset(e, 0, sizeof *e);
    e->seq = ++r->row.last_seq;
    e->kind = kind;
    e->at_ms = now;
    e->seat = -1;
    e->x = e->y = -1;
    e->ply = board(r)->move_count;
    e->game_id = r->row.game_id;
    e->black_ms = r->row.black_ms;
    e->white_ms = r->row.white_ms;
    return e;
}

static void store_failed(gmk_room *r, const char *err) {
    if (!r->store) return;
    r->store = NULL;
    r->failed = true;
    gmk_session_stop_saving(r->session); /* the game and the log stay in step in the file */
    snprintf(r->store_msg, sizeof r->store_msg, "room %.15s: %.280s", r->row.code,
             err && *err ? err : "the store failed");
    r->store_msg_pending = true;
}

/* Keeps the recent events in memory (all of them without a store). */
static void log_append(gmk_room *r, const gmk_room_event *ev, int n) {
    if (r->store && r->log_len + n > LOG_KEEP) {
        int drop = r->log_len - LOG_KEEP / 2;
        if (drop > 0) {
            memmove(r->log, r->log + drop, (size_t)(r->log_len - drop) * sizeof *r->log);
            r->log_len -= drop;
        }
    }
    if (r->log_len + n > r->log_cap) {
        int cap = r->log_cap ? r->log_cap * 2 : 16;
        while (cap < r->log_len + n) cap *= 2;
        gmk_room_event *bigger = realloc(r->log, (size_t)cap * sizeof *bigger);
        if (!bigger) { /* keep going: the store has them, or they are lost from memory */
            r->log_len = 0;
            if (n > r->log_cap) return;
        } else {
            r->log = bigger;
            r->log_cap = cap;
        }
    }
    memcpy(r->log + r->log_len, ev, (size_t)n * sizeof *ev);
    r->log_len += n;
}

/* Opens the batch in which a call's writes are committed together. */
static void enter(gmk_room *r) {
    if (!r->store || r->batch) return;
    char err[MSG_LEN];
    if (gmk_store_batch_begin(r->store, err, sizeof err) == GMK_STORE_OK)
        r->batch = r->store;
    else
        store_failed(r, err);
}

/* The writes about accounts in the call's batch: the game linked to the seats' accounts once it
 * is stored, and, when the call ended a game of a rated room, both players' new ratings. */
static void account_writes(gmk_room *r, int64_t now) {
    gmk_session_state st;
    gmk_session_get_state(r->session, &st);
    int b = seat_of_color(r, GMK_BLACK), w = seat_of_color(r, GMK_WHITE);
    if (!r->store || !st.game_id || b < 0 || w < 0) return;
    char err[MSG_LEN];
    /* during a swap opening the colours are not settled: the game is linked once they are */
    if (st.game_id != r->linked_game && room_opening_actor(r) < 0) {
        for (int i = 0; i < 2; i++) {
            const gmk_store_seat *s = &r->row.seat[i];
            if (s->account > 0 &&
                gmk_store_account_link_game(r->store, s->account, st.game_id, s->color, err,
                                            sizeof err) != GMK_STORE_OK) {
                store_failed(r, err);
                return;
            }
        }
        r->linked_game = st.game_id;
    }
    bool ended = false;
    for (int i = 0; i < r->npending; i++) ended |= r->pending[i].kind == GMK_ROOM_EV_OVER;
    int64_t ab = r->row.seat[b].account, aw = r->row.seat[w].account;
    if (!ended || !r->row.rated || ab <= 0 || aw <= 0 || ab == aw || !st.over ||
        board(r)->move_count < GMK_RATING_MIN_MOVES)
        return;
    gmk_store_status rs = gmk_rating_record_game(
        r->store, r->row.rule, gmk_rating_tc_of(r->row.clock_ms, r->row.increment_ms), ab, aw,
        st.game_id, st.result.outcome, now / 1000, NULL, NULL, err, sizeof err);
    if (rs != GMK_STORE_OK && rs != GMK_STORE_INVALID) /* INVALID: rated already, or no result */
        store_failed(r, err);
}

/* Saves the room with the pending events, moves them to the log, and commits the batch: all
 * of the call's writes, or none when one failed (the room then stops saving). */
static void commit(gmk_room *r, int64_t now) {
    char err[MSG_LEN];
    if (gmk_session_take_store_message(r->session, err, sizeof err)) store_failed(r, err);
    if (r->npending > 0) account_writes(r, now);
    if (r->npending > 0) {
        r->row.touched_ms = now;
        gmk_session_state st;
        gmk_session_get_state(r->session, &st);
        if (st.game_id) r->row.game_id = st.game_id;
        if (r->store && gmk_store_room_save(r->store, &r->row, r->pending, r->npending, err,
                                            sizeof err) != GMK_STORE_OK)
            store_failed(r, err);
        log_append(r, r->pending, r->npending);
        r->npending = 0;
    }
    if (r->batch) {
        bool ok = r->store != NULL;
        if (gmk_store_batch_end(r->batch, ok, err, sizeof err) != GMK_STORE_OK && ok)
            store_failed(r, err);
        r->batch = NULL;
    }
}

/* --- clocks and the end of a game ---------------------------------------------------------- */

/* Time left for c at now (the running clock counts down from the turn's start). */
static int64_t left_at(const gmk_room *r, gmk_color c, int64_t now) {
    int64_t left = c == GMK_BLACK ? r->row.black_ms : r->row.white_ms;
    if (has_clock(r) && r->row.phase == GMK_ROOM_PLAYING && c == to_move(r) &&
        now > r->row.turn_start_ms)
        left -= now - r->row.turn_start_ms;
    return left > 0 ? left : 0;
}

/* Stops the running clock at now: charges the turn so far to the side to move. */
static void charge_turn(gmk_room *r, int64_t now) {
    if (!has_clock(r) || r->row.phase != GMK_ROOM_PLAYING) return;
    gmk_color c = to_move(r);
    *left_of(r, c) = left_at(r, c, now);
    r->row.turn_start_ms = now;
}

/* The game has ended in the session: logs OVER with the session's result. */
static void game_over(gmk_room *r, int64_t now, gmk_color loser) {
    charge_turn(r, now);
    gmk_session_state st;
    gmk_session_get_state(r->session, &st);
    if (st.game_id) r->row.game_id = st.game_id;
    r->row.phase = GMK_ROOM_OVER;
    r->row.outcome = st.result.outcome;
    r->row.reason = st.result.reason;
    r->row.draw_by = r->row.undo_by = r->row.rematch_by = GMK_EMPTY;
    gmk_room_event *e = add_event(r, GMK_ROOM_EV_OVER, now);
    e->outcome = st.result.outcome;
    e->reason = st.result.reason;
    e->color = loser;
    if (st.result.point != GMK_POS_NONE) {
        e->x = gmk_pos_x(st.result.point);
        e->y = gmk_pos_y(st.result.point);
    }
}

/* Ends the game with a result decided off the board. */
static void end_game(gmk_room *r, int64_t now, gmk_color loser, gmk_reason reason) {
    gmk_outcome outcome = loser == GMK_BLACK   ? GMK_WHITE_WINS
                          : loser == GMK_WHITE ? GMK_BLACK_WINS
                                               : GMK_DRAW;
    charge_turn(r, now);
    if (!gmk_session_end(r->session, outcome, reason, NULL)) return;
    game_over(r, now, loser);
}

/* Ends the game on time if the flag of the side to move has fallen by now. */
static bool settle(gmk_room *r, int64_t now) {
    if (!has_clock(r) || r->row.phase != GMK_ROOM_PLAYING) return false;
    if (now < r->row.turn_start_ms + *left_of(r, to_move(r))) return false;
    end_game(r, now, to_move(r), GMK_REASON_TIME);
    return true;
}

/* Starts a game between the two seats with their colours. */
static bool start_game(gmk_room *r, int64_t now) {
    int b = seat_of_color(r, GMK_BLACK), w = seat_of_color(r, GMK_WHITE);
    if (b < 0 || w < 0) return false;
    gmk_game_config cfg = gmk_game_config_default();
    cfg.mode = GMK_PLAY_HVH;
    cfg.online = true;
    cfg.rule = r->row.rule;
    cfg.size = r->row.size;
    cfg.black = r->row.seat[b].name;
    cfg.white = r->row.seat[w].name;
    cfg.opening = (gmk_opening)r->row.opening;
    char err[MSG_LEN];
    if (gmk_session_new_game(r->session, &cfg, NULL, err, sizeof err) != GMK_SESSION_OK)
        return false;
    r->row.phase = GMK_ROOM_PLAYING;
    r->row.game_id = 0;
    r->row.game_no++;
    r->row.black_ms = r->row.white_ms = r->row.clock_ms;
    r->row.turn_start_ms = now;
    r->row.draw_by = r->row.undo_by = r->row.rematch_by = GMK_EMPTY;
    r->row.outcome = GMK_ONGOING;
    r->row.reason = GMK_REASON_NONE;
    room_opening_begin(r, b);
    gmk_room_event *e = add_event(r, GMK_ROOM_EV_STARTED, now);
    e->color = r->row.seat[0].color;
    e->count = r->row.game_no;
    return true;
}

/* The seat of token for an action during a game: settles the clock first. */
static gmk_room_status acting_seat(gmk_room *r, const void *token, size_t len, int64_t now,
                                   int *seat) {
    *seat = -1;
    if (!r || !time_ok(now)) return GMK_ROOM_BAD_REQUEST;
    *seat = gmk_room_seat_of(r, token, len);
    if (*seat < 0) return GMK_ROOM_NO_SEAT;
    if (r->failed) return GMK_ROOM_STORE;
    enter(r);
    settle(r, now);
    return GMK_ROOM_OK;
}

/* Every public call that may change the room ends here. A call whose writes the store
 * refused did not happen as far as anyone outside is told: GMK_ROOM_STORE. */
static gmk_room_status done(gmk_room *r, int64_t now, gmk_room_status st) {
    if (r) commit(r, now);
    if (r && r->failed && st == GMK_ROOM_OK) return GMK_ROOM_STORE;
    return st;
}

/* --- creating, loading, freeing --------------------------------------------------------------- */

static gmk_room *room_new(gmk_store *store) {
    if (sodium_init() < 0) return NULL; /* once; later calls return at once */
    gmk_room *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    gmk_session_options opt = {.no_engine = true, .seed = 1};
    if (gmk_session_create(store, &opt, &r->session) != GMK_SESSION_OK) {
        free(r);
        return NULL;
    }
    r->store = store;
    return r;
}

void gmk_room_free(gmk_room *r) {
    if (!r) return;
    if (r->batch) gmk_store_batch_end(r->batch, false, NULL, 0); /* a load that failed */
    gmk_session_free(r->session);
    free(r->log);
    free(r);
}

gmk_room_status gmk_room_create(gmk_store *store, const gmk_room_config *cfg, const char *code,
                                const void *token, size_t token_len, const char *name, int64_t now,
                                gmk_room **out, char *err, size_t errlen) {
    *out = NULL;
    if (!token_ok(token, token_len)) {
        put_err(err, errlen, "the seat token is too short or too long");
        return GMK_ROOM_BAD_REQUEST;
    }
    uint8_t h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, token, token_len);
    return gmk_room_create_hashed(store, cfg, code, h, name, now, out, err, errlen);
}

gmk_room_status gmk_room_create_hashed(gmk_store *store, const gmk_room_config *cfg,
                                       const char *code, const uint8_t token_sha256[32],
                                       const char *name, int64_t now, gmk_room **out, char *err,
                                       size_t errlen) {
    *out = NULL;
    char norm[GMK_ROOM_CODE_LEN + 1];
    if (!gmk_room_config_valid(cfg, err, errlen) || !gmk_room_name_valid(name, err, errlen))
        return GMK_ROOM_BAD_REQUEST;
    if (cfg->rated && cfg->account <= 0) {
        put_err(err, errlen, "a rated room needs an account");
        return GMK_ROOM_BAD_REQUEST;
    }
    if (!code || !gmk_room_code_normalize(code, norm) || strcmp(norm, code) != 0) {
        put_err(err, errlen, "not a room code");
        return GMK_ROOM_BAD_REQUEST;
    }
    if (!time_ok(now)) {
        put_err(err, errlen, "bad time");
        return GMK_ROOM_BAD_REQUEST;
    }
    gmk_room *r = room_new(store);
    if (!r) {
        put_err(err, errlen, "out of memory");
        return GMK_ROOM_NO_MEMORY;
    }
    gmk_store_room *w = &r->row;
    snprintf(w->code, sizeof w->code, "%s", norm);
    w->rule = cfg->rule;
    w->size = cfg->size;
    w->clock_ms = (int64_t)cfg->clock_minutes * 60000;
    w->increment_ms = (int64_t)cfg->increment_s * 1000;
    w->black_ms = w->white_ms = w->clock_ms;
    w->created_ms = w->touched_ms = w->turn_start_ms = now;
    w->phase = GMK_ROOM_WAITING;
    bool creator_black =
        cfg->black == GMK_ROOM_BLACK_ME || (cfg->black == GMK_ROOM_BLACK_RANDOM && cfg->random_bit);
    w->seat[0].taken = true;
    memcpy(w->seat[0].token_sha256, token_sha256, sizeof w->seat[0].token_sha256);
    snprintf(w->seat[0].name, sizeof w->seat[0].name, "%s", name);
    w->seat[0].color = creator_black ? GMK_BLACK : GMK_WHITE;
    w->seat[0].account = cfg->account > 0 ? cfg->account : 0;
    w->rated = cfg->rated;
    w->opening = cfg->opening;
    r->live[0].since_ms = r->live[1].since_ms = now;
    gmk_room_event *e = add_event(r, GMK_ROOM_EV_CREATED, now);
    e->seat = 0;
    e->color = w->seat[0].color;
    snprintf(e->name, sizeof e->name, "%s", name);
    if (store &&
        gmk_store_room_create(store, w, r->pending, r->npending, err, errlen) != GMK_STORE_OK) {
        gmk_room_free(r);
        return GMK_ROOM_STORE;
    }
    log_append(r, r->pending, r->npending);
    r->npending = 0;
    *out = r;
    return GMK_ROOM_OK;
}

gmk_room_status gmk_room_load(gmk_store *store, const char *code, int64_t now, gmk_room **out,
                              char *err, size_t errlen) {
    *out = NULL;
    char norm[GMK_ROOM_CODE_LEN + 1];
    if (!store) {
        put_err(err, errlen, "no store");
        return GMK_ROOM_NOT_FOUND;
    }
    if (!time_ok(now)) {
        put_err(err, errlen, "bad time");
        return GMK_ROOM_BAD_REQUEST;
    }
    if (!gmk_room_code_normalize(code, norm)) {
        put_err(err, errlen, "not a room code");
        return GMK_ROOM_NOT_FOUND;
    }
    gmk_room *r = room_new(store);
    if (!r) {
        put_err(err, errlen, "out of memory");
        return GMK_ROOM_NO_MEMORY;
    }
    gmk_store_status st = gmk_store_room_find(store, norm, &r->row, err, errlen);
    if (st != GMK_STORE_OK) {
        gmk_room_free(r);
        return st == GMK_STORE_NOT_FOUND ? GMK_ROOM_NOT_FOUND : GMK_ROOM_STORE;
    }
    enter(r); /* a damaged record's moves are dropped with the rest of the load's writes */
    if (r->row.game_id > 0) {
        gmk_session_status ss = gmk_session_open(r->session, r->row.game_id, 0, NULL, err, errlen);
        if (ss != GMK_SESSION_OK || !room_opening_resume(r)) {
            if (ss == GMK_SESSION_OK) put_err(err, errlen, "the room's opening is damaged");
            gmk_room_free(r);
            return GMK_ROOM_STORE;
        }
    } else if (r->row.phase != GMK_ROOM_WAITING) { /* no move was saved: a fresh board */
        gmk_store_room saved = r->row;
        bool ok = start_game(r, saved.turn_start_ms);
        r->row = saved; /* that game had started already: nothing changes, nothing is logged */
        r->npending = 0;
        if (!ok) {
            gmk_room_free(r);
            put_err(err, errlen, "the room's seats are damaged");
            return GMK_ROOM_STORE;
        }
    }
    /* nobody is connected yet; nothing is logged for it (a load writes only what the game
     * itself decided meanwhile: a result, a fallen flag) */
    for (int i = 0; i < 2; i++) r->live[i].since_ms = now;
    gmk_session_state ss;
    gmk_session_get_state(r->session, &ss);
    if (r->row.phase == GMK_ROOM_PLAYING && ss.over) /* it ended just before the server did */
        game_over(r, now, ss.result.reason == GMK_REASON_RESIGN ? ss.resigned : GMK_EMPTY);
    /* a flag that fell while the server was down falls now */
    settle(r, now);
    commit(r, now);
    *out = r;
    return GMK_ROOM_OK;
}

/* --- seats ------------------------------------------------------------------------------------ */

gmk_room_status gmk_room_join(gmk_room *r, const void *token, size_t token_len, const char *name,
                              int64_t now, int *seat) {
    return gmk_room_join_as(r, token, token_len, name, 0, now, seat);
}

gmk_room_status gmk_room_join_as(gmk_room *r, const void *token, size_t token_len, const char *name,
                                 int64_t account, int64_t now, int *seat) {
    if (seat) *seat = -1;
    if (!r || !token_ok(token, token_len) || !time_ok(now)) return GMK_ROOM_BAD_REQUEST;
    int held = gmk_room_seat_of(r, token, token_len);
    if (held >= 0) {
        if (seat) *seat = held;
        return r->failed ? GMK_ROOM_STORE : GMK_ROOM_OK;
    }
    if (r->failed) return GMK_ROOM_STORE;
    if (!gmk_room_name_valid(name, NULL, 0)) return GMK_ROOM_BAD_REQUEST;
    if (r->row.seat[1].taken) return GMK_ROOM_FULL;
    if (r->row.rated && (account <= 0 || account == r->row.seat[0].account))
        return GMK_ROOM_BAD_REQUEST;
    enter(r);
    gmk_store_seat *s = &r->row.seat[1];
    s->taken = true;
    s->account = account > 0 ? account : 0;
    crypto_hash_sha256(s->token_sha256, token, token_len);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->color = other(r->row.seat[0].color);
    r->live[1].since_ms = now;
    gmk_room_event *e = add_event(r, GMK_ROOM_EV_JOINED, now);
    e->seat = 1;
    e->color = s->color;
    snprintf(e->name, sizeof e->name, "%s", name);
    start_game(r, now);
    if (seat) *seat = 1;
    return done(r, now, GMK_ROOM_OK);
}

bool gmk_room_claim_seat(gmk_room *r, const void *token, size_t token_len, int64_t account) {
    int i =
        r && account > 0 && token_ok(token, token_len) ? gmk_room_seat_of(r, token, token_len) : -1;
    if (i < 0 || r->row.rated || r->row.seat[i].account != 0) return false;
    r->row.seat[i].account = account;
    return true;
}

void gmk_room_forget_account(gmk_room *r, int64_t account, const char *neutral) {
    for (int i = 0; r && account > 0 && i < 2; i++) {
        gmk_store_seat *s = &r->row.seat[i];
        if (!s->taken || s->account != account) continue;
        snprintf(s->name, sizeof s->name, "%s", neutral);
        s->account = 0;
        for (int k = 0; k < r->log_len; k++) {
            gmk_room_event *e = &r->log[k];
            if (e->seat == i && (e->kind == GMK_ROOM_EV_CREATED || e->kind == GMK_ROOM_EV_JOINED))
                snprintf(e->name, sizeof e->name, "%s", neutral);
        }
    }
}

/* --- playing ---------------------------------------------------------------------------------- */

gmk_room_status gmk_room_play(gmk_room *r, const void *token, size_t token_len, int x, int y,
                              int ply, int64_t now, gmk_forbid_kind *kind) {
    if (kind) *kind = GMK_FORBID_NONE;
    int seat;
    gmk_room_status st = acting_seat(r, token, token_len, now, &seat);
    if (st != GMK_ROOM_OK) return done(r, now, st);
    if (r->row.phase != GMK_ROOM_PLAYING) return done(r, now, GMK_ROOM_NOT_NOW);
    gmk_color me = r->row.seat[seat].color;
    if (me != to_move(r) || (ply >= 0 && ply != board(r)->move_count))
        return done(r, now, GMK_ROOM_NOT_YOUR_TURN);
    if (!gmk_xy_on_board(x, y, r->row.size)) return done(r, now, GMK_ROOM_BAD_REQUEST);
    gmk_color stone = gmk_board_side(board(r)); /* not the seat's colour in a swap opening */
    int ev = 0;
    switch (gmk_session_play(r->session, gmk_pos_xy(x, y), false, kind, &ev)) {
    case GMK_PLAY_OK: break;
    case GMK_PLAY_OCCUPIED:
    case GMK_PLAY_FORBIDDEN: return done(r, now, GMK_ROOM_ILLEGAL);
    case GMK_PLAY_OFF_BOARD: return done(r, now, GMK_ROOM_BAD_REQUEST);
    default: return done(r, now, GMK_ROOM_NOT_NOW);
    }
    room_spend_turn(r, me, now);
    room_opening_after_stone(r);
    gmk_session_state s;
    gmk_session_get_state(r->session, &s);
    if (s.game_id) r->row.game_id = s.game_id;
    gmk_room_event *e = add_event(r, GMK_ROOM_EV_MOVED, now);
    e->color = stone;
    e->x = x;
    e->y = y;
    if (ev & GMK_EV_GAME_OVER) game_over(r, now, GMK_EMPTY);
    return done(r, now, GMK_ROOM_OK);
}

/* The seat of token during a game, with its colour; NO_SEAT or NOT_NOW otherwise. */
static gmk_room_status player(gmk_room *r, const void *token, size_t len, int64_t now,
                              gmk_color *me) {
    int seat;
    gmk_room_status st = acting_seat(r, token, len, now, &seat);
    if (st != GMK_ROOM_OK) return st;
    if (r->row.phase != GMK_ROOM_PLAYING) return GMK_ROOM_NOT_NOW;
    *me = r->row.seat[seat].color;
    return GMK_ROOM_OK;
}

gmk_room_status gmk_room_resign(gmk_room *r, const void *token, size_t token_len, int64_t now) {
    gmk_color me;
    gmk_room_status st = player(r, token, token_len, now, &me);
    if (st == GMK_ROOM_OK) end_game(r, now, me, GMK_REASON_RESIGN);
    return done(r, now, st);
}

gmk_room_status gmk_room_offer_draw(gmk_room *r, const void *token, size_t token_len, int64_t now) {
    gmk_color me;
    gmk_room_status st = player(r, token, token_len, now, &me);
    if (st != GMK_ROOM_OK) return done(r, now, st);
    if (r->row.draw_by == other(me)) {
        end_game(r, now, GMK_EMPTY, GMK_REASON_AGREEMENT);
        return done(r, now, GMK_ROOM_OK);
    }
    if (r->row.draw_by == me) return done(r, now, GMK_ROOM_NOT_NOW);
    r->row.draw_by = me;
    add_event(r, GMK_ROOM_EV_DRAW_OFFERED, now)->color = me;
    return done(r, now, GMK_ROOM_OK);
}

gmk_room_status gmk_room_answer_draw(gmk_room *r, const void *token, size_t token_len, bool accept,
                                     int64_t now) {
    gmk_color me;
    gmk_room_status st = player(r, token, token_len, now, &me);
    if (st != GMK_ROOM_OK) return done(r, now, st);
    if (r->row.draw_by != other(me)) return done(r, now, GMK_ROOM_NOT_NOW);
    if (accept) {
        end_game(r, now, GMK_EMPTY, GMK_REASON_AGREEMENT);
    } else {
        r->row.draw_by = GMK_EMPTY;
        add_event(r, GMK_ROOM_EV_DRAW_DECLINED, now)->color = me;
    }
    return done(r, now, GMK_ROOM_OK);
}

gmk_room_status gmk_room_ask_undo(gmk_room *r, const void *token, size_t token_len, int64_t now) {
    gmk_color me;
    gmk_room_status st = player(r, token, token_len, now, &me);
    if (st != GMK_ROOM_OK) return done(r, now, st);
    if (r->row.undo_by != GMK_EMPTY || !gmk_session_can_undo(r->session))
        return done(r, now, GMK_ROOM_NOT_NOW);
    r->row.undo_by = me;
    add_event(r, GMK_ROOM_EV_UNDO_ASKED, now)->color = me;
    return done(r, now, GMK_ROOM_OK);
}

gmk_room_status gmk_room_answer_undo(gmk_room *r, const void *token, size_t token_len, bool accept,
                                     int64_t now) {
    gmk_color me;
    gmk_room_status st = player(r, token, token_len, now, &me);
    if (st != GMK_ROOM_OK) return done(r, now, st);
    if (r->row.undo_by != other(me)) return done(r, now, GMK_ROOM_NOT_NOW);
    r->row.undo_by = GMK_EMPTY;
    if (!accept) {
        add_event(r, GMK_ROOM_EV_UNDO_DECLINED, now)->color = me;
        return done(r, now, GMK_ROOM_OK);
    }
    int before = board(r)->move_count;
    charge_turn(r, now);
    if (!gmk_session_undo(r->session, NULL)) return done(r, now, GMK_ROOM_NOT_NOW);
    r->row.turn_start_ms = now;
    r->row.draw_by = GMK_EMPTY;
    add_event(r, GMK_ROOM_EV_UNDONE, now)->count = before - board(r)->move_count;
    return done(r, now, GMK_ROOM_OK);
}

/* When the side not to move may claim the win (0: the side to move is connected). */
static int64_t claim_time(const gmk_room *r) {
    if (r->row.phase != GMK_ROOM_PLAYING) return 0;
    int i = seat_of_color(r, to_move(r));
    if (i < 0 || connected(r, i)) return 0;
    int64_t from = r->live[i].since_ms; /* the last stream closed here, or elsewhere */
    if (r->elsewhere[i].since_ms > from) from = r->elsewhere[i].since_ms;
    if (r->row.turn_start_ms > from) from = r->row.turn_start_ms;
    return from + GMK_ROOM_CLAIM_MS;
}

gmk_room_status gmk_room_claim(gmk_room *r, const void *token, size_t token_len, int64_t now) {
    gmk_color me;
    gmk_room_status st = player(r, token, token_len, now, &me);
    if (st != GMK_ROOM_OK) return done(r, now, st);
    int64_t at = claim_time(r);
    if (me == to_move(r) || at == 0 || now < at) return done(r, now, GMK_ROOM_NOT_NOW);
    end_game(r, now, other(me), GMK_REASON_ABANDON);
    return done(r, now, GMK_ROOM_OK);
}

gmk_room_status gmk_room_rematch(gmk_room *r, const void *token, size_t token_len, int64_t now) {
    int seat;
    gmk_room_status st = acting_seat(r, token, token_len, now, &seat);
    if (st != GMK_ROOM_OK) return done(r, now, st);
    if (r->row.phase != GMK_ROOM_OVER) return done(r, now, GMK_ROOM_NOT_NOW);
    gmk_color me = r->row.seat[seat].color;
    if (r->row.rematch_by == me) return done(r, now, GMK_ROOM_NOT_NOW);
    if (r->row.rematch_by == GMK_EMPTY) {
        r->row.rematch_by = me;
        add_event(r, GMK_ROOM_EV_REMATCH_OFFERED, now)->color = me;
        return done(r, now, GMK_ROOM_OK);
    }
    gmk_color before[2] = {r->row.seat[0].color, r->row.seat[1].color};
    for (int i = 0; i < 2; i++) r->row.seat[i].color = other(r->row.seat[i].color);
    room_opening_rematch_colours(r); /* the other seat proposes this time */
    if (!start_game(r, now)) {       /* cannot happen with both seats taken */
        for (int i = 0; i < 2; i++) r->row.seat[i].color = before[i];
        return done(r, now, GMK_ROOM_NOT_NOW);
    }
    return done(r, now, GMK_ROOM_OK);
}

bool gmk_room_tick(gmk_room *r, int64_t now) {
    if (!r || !time_ok(now) || r->failed) return false;
    if (!has_clock(r) || r->row.phase != GMK_ROOM_PLAYING || now < gmk_room_next_deadline(r))
        return false; /* the usual case: nothing to write */
    enter(r);
    bool fell = settle(r, now);
    commit(r, now);
    return fell;
}

int64_t gmk_room_next_deadline(const gmk_room *r) {
    if (!r || !has_clock(r) || r->row.phase != GMK_ROOM_PLAYING) return 0;
    return r->row.turn_start_ms + (to_move(r) == GMK_BLACK ? r->row.black_ms : r->row.white_ms);
}

/* --- closing -------------------------------------------------------------------------------- */

gmk_room_status gmk_room_close_idle(gmk_store *store, int64_t now, int *closed, char *err,
                                    size_t errlen) {
    if (closed) *closed = 0;
    if (!time_ok(now) || now < GMK_ROOM_IDLE_MS) {
        put_err(err, errlen, "bad time");
        return GMK_ROOM_BAD_REQUEST;
    }
    /* touched at or before now - GMK_ROOM_IDLE_MS, as gmk_room_idle says */
    if (gmk_store_room_close_idle(store, now - GMK_ROOM_IDLE_MS + 1, now, closed, err, errlen) !=
        GMK_STORE_OK)
        return GMK_ROOM_STORE;
    return GMK_ROOM_OK;
}

bool gmk_room_keep(gmk_room *r, int64_t now) {
    if (!r || !r->store || r->failed || !time_ok(now)) return false;
    if (now - r->row.touched_ms < GMK_ROOM_IDLE_MS / 2) return true; /* nothing to write yet */
    enter(r);
    if (r->store) {
        char err[MSG_LEN];
        r->row.touched_ms = now;
        if (gmk_store_room_save(r->store, &r->row, NULL, 0, err, sizeof err) != GMK_STORE_OK)
            store_failed(r, err);
    }
    commit(r, now);
    return !r->failed;
}

/* --- for room_chat.c, room_opening.c, room_read.c, room_sync.c (room_internal.h) ------------- */

gmk_room_event *room_add_event(gmk_room *r, int kind, int64_t now) {
    return add_event(r, kind, now);
}

gmk_room_status room_acting_seat(gmk_room *r, const void *token, size_t len, int64_t now,
                                 int *seat) {
    return acting_seat(r, token, len, now, seat);
}

void room_enter(gmk_room *r) {
    enter(r);
}

gmk_room_status room_done(gmk_room *r, int64_t now, gmk_room_status st) {
    return done(r, now, st);
}

bool room_time_ok(int64_t now) {
    return time_ok(now);
}

gmk_color room_to_move(const gmk_room *r) {
    return to_move(r);
}

/* The seat of colour c charges the time it used this turn, gets the increment, and the other
 * turn starts at now; any pending draw or undo offer is withdrawn. */
void room_spend_turn(gmk_room *r, gmk_color c, int64_t now) {
    if (has_clock(r)) {
        int64_t *left = left_of(r, c);
        *left -= now - r->row.turn_start_ms;
        *left += r->row.increment_ms;
        if (*left > LEFT_MAX_MS) *left = LEFT_MAX_MS; /* many moves taken back and played again */
    }
    r->row.turn_start_ms = now;
    r->row.draw_by = r->row.undo_by = GMK_EMPTY;
}

void room_log_append(gmk_room *r, const gmk_room_event *ev, int n) {
    log_append(r, ev, n);
}

bool room_start_game(gmk_room *r, int64_t now) {
    return start_game(r, now);
}

int64_t room_left_at(const gmk_room *r, gmk_color c, int64_t now) {
    return left_at(r, c, now);
}

int64_t room_claim_time(const gmk_room *r) {
    return claim_time(r);
}

bool room_connected(const gmk_room *r, int seat) {
    return connected(r, seat);
}

bool room_settle_flag(gmk_room *r, int64_t now) {
    return settle(r, now);
}
