/* rooms_api.c: the routes of the online rooms (/api/rooms..., docs/http-api.md). Each request
 * becomes one call of game/room.h under the room's lock, with the seat token from the room's
 * cookie and the wall clock; the room's new events then go to every viewer of the room
 * (rooms.c), and the answer is the room's state or {"error"} with the status's HTTP code. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "core/renju.h"
#include "web/web_internal.h"

/* A seat cookie lives a week: longer than a room without activity (a day). */
#define SEAT_COOKIE_AGE 604800

/* The caller's seat token for room code, from its cookie gmk_seat_CODE (32 hex digits). */
static bool read_seat(web_request *rq, const char *code, uint8_t token[GMK_WEB_TOKEN_BYTES]) {
    char name[32];
    snprintf(name, sizeof name, "gmk_seat_%s", code);
    const char *v = MHD_lookup_connection_value(rq->conn, MHD_COOKIE_KIND, name);
    if (!v || strlen(v) != 2 * GMK_WEB_TOKEN_BYTES) return false;
    for (int i = 0; i < GMK_WEB_TOKEN_BYTES; i++) {
        int b = 0;
        for (int k = 0; k < 2; k++) {
            char c = v[2 * i + k];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0) return false;
            b = b << 4 | d;
        }
        token[i] = (uint8_t)b;
    }
    return true;
}

/* Sets the reply's seat cookie for token in room code. */
void room_set_seat_cookie(web_request *rq, const char *code,
                          const uint8_t token[GMK_WEB_TOKEN_BYTES]) {
    static const char digits[] = "0123456789abcdef";
    char hex[2 * GMK_WEB_TOKEN_BYTES + 1];
    for (int i = 0; i < GMK_WEB_TOKEN_BYTES; i++) {
        hex[2 * i] = digits[token[i] >> 4];
        hex[2 * i + 1] = digits[token[i] & 15];
    }
    hex[2 * GMK_WEB_TOKEN_BYTES] = '\0';
    snprintf(rq->seat_cookie, sizeof rq->seat_cookie,
             "gmk_seat_%s=%s; HttpOnly; SameSite=Strict; Path=/; Max-Age=%d%s", code, hex,
             SEAT_COOKIE_AGE, rq->https ? "; Secure" : "");
}

/* Draws a seat token and sets the reply's cookie for it. */
static bool new_seat(web_request *rq, const char *code, uint8_t token[GMK_WEB_TOKEN_BYTES]) {
    if (!web_random(token, GMK_WEB_TOKEN_BYTES)) return false;
    room_set_seat_cookie(rq, code, token);
    return true;
}

static unsigned http_of(gmk_room_status st) {
    switch (st) {
    case GMK_ROOM_OK:
    case GMK_ROOM_FULL: return 200;
    case GMK_ROOM_BAD_REQUEST: return 400;
    case GMK_ROOM_NO_SEAT: return 403;
    case GMK_ROOM_NOT_YOUR_TURN:
    case GMK_ROOM_ILLEGAL:
    case GMK_ROOM_NOT_NOW: return 409;
    case GMK_ROOM_NOT_FOUND: return 404;
    default: return 500;
    }
}

static const char *message_of(gmk_room_status st) {
    switch (st) {
    case GMK_ROOM_BAD_REQUEST: return "bad request";
    case GMK_ROOM_NO_SEAT: return "you hold no seat in this room";
    case GMK_ROOM_NOT_YOUR_TURN: return "it is not your turn";
    case GMK_ROOM_ILLEGAL: return "that move is not allowed";
    case GMK_ROOM_NOT_NOW: return "not possible now";
    case GMK_ROOM_NOT_FOUND: return "no such room";
    case GMK_ROOM_STORE: return "the change could not be saved; the room is read again as stored";
    default: return "the server failed";
    }
}

/* Answers with the room's state (status 200) or an error for st; releases the room. A change
 * (st OK) is answered once it is on disk (group commit, durable.c); its events go out at once. */
static enum MHD_Result reply(web_request *rq, live_room *lr, gmk_room_status st, int seat,
                             gmk_forbid_kind kind, int64_t now) {
    if (gmk_store_is_shared(rq->web->store) &&
        (st == GMK_ROOM_STORE || !gmk_room_saving(lr->room))) {
        /* not saved (another server saved the room first, or the database is away): nothing
         * happened; room_release reads the room again from the store */
        room_release(lr);
        return web_error(rq, 503, "the room could not be saved; try again");
    }
    uint64_t seq = 0;
    if (st == GMK_ROOM_OK) {
        pthread_mutex_lock(&rq->web->store_mu);
        seq = web_wrote(rq->web); /* counted after the room's commit, before the sync */
        pthread_mutex_unlock(&rq->web->store_mu);
    }
    json_t *j;
    if (st == GMK_ROOM_OK || st == GMK_ROOM_FULL) {
        j = room_state_json(lr, now, seat);
    } else {
        j = json_object();
        json_object_set_new(j, "error", json_string(message_of(st)));
        json_object_set_new(j, "status", json_string(gmk_room_status_name(st)));
        if (st == GMK_ROOM_ILLEGAL && kind != GMK_FORBID_NONE)
            json_object_set_new(j, "foul", json_string(gmk_forbid_name(kind)));
    }
    room_release(lr);
    return seq ? web_durable_reply(rq, seq, http_of(st), j) : web_json(rq, http_of(st), j);
}

/* --- creating and joining ---------------------------------------------------------------- */

bool room_read_name(json_t *body, const char **name, char *err, size_t errlen) {
    json_t *n = json_object_get(body, "name");
    if (!json_is_string(n) || !gmk_room_name_valid(json_string_value(n), err, errlen)) {
        if (json_is_string(n)) return false;
        snprintf(err, errlen, "name must be a display name of 1 to %d characters",
                 GMK_ROOM_NAME_CHARS);
        return false;
    }
    *name = json_string_value(n);
    return true;
}

bool room_read_config(json_t *body, gmk_room_config *cfg, char *err, size_t errlen) {
    memset(cfg, 0, sizeof *cfg);
    cfg->rule = GMK_RULE_FREESTYLE;
    cfg->size = GMK_DEFAULT_SIZE;
    json_t *r = json_object_get(body, "rule");
    if (r && !json_is_null(r) &&
        (!json_is_string(r) || !gmk_rule_parse(json_string_value(r), &cfg->rule))) {
        snprintf(err, errlen, "rule must be freestyle, standard, renju or caro");
        return false;
    }
    json_t *s = json_object_get(body, "size");
    if (s && !json_is_null(s)) {
        if (!json_is_integer(s) || json_integer_value(s) < GMK_MIN_SIZE ||
            json_integer_value(s) > GMK_MAX_SIZE) {
            snprintf(err, errlen, "size must be a number from %d to %d", GMK_MIN_SIZE,
                     GMK_MAX_SIZE);
            return false;
        }
        cfg->size = (int)json_integer_value(s);
    }
    json_t *b = json_object_get(body, "black");
    const char *bs = json_is_string(b) ? json_string_value(b) : b ? "" : "me";
    if (strcmp(bs, "me") == 0)
        cfg->black = GMK_ROOM_BLACK_ME;
    else if (strcmp(bs, "friend") == 0)
        cfg->black = GMK_ROOM_BLACK_FRIEND;
    else if (strcmp(bs, "random") == 0)
        cfg->black = GMK_ROOM_BLACK_RANDOM;
    else {
        snprintf(err, errlen, "black must be me, friend or random");
        return false;
    }
    uint8_t bit = 0;
    if (cfg->black == GMK_ROOM_BLACK_RANDOM && !web_random(&bit, 1)) {
        snprintf(err, errlen, "no random numbers");
        return false;
    }
    cfg->random_bit = bit & 1;
    json_t *c = json_object_get(body, "clock");
    if (c && !json_is_null(c) &&
        (!json_is_string(c) ||
         !gmk_room_clock_parse(json_string_value(c), &cfg->clock_minutes, &cfg->increment_s))) {
        snprintf(err, errlen,
                 "clock must be \"M+S\" (minutes 1 to %d, seconds 0 to %d) or \"none\"",
                 GMK_ROOM_CLOCK_MINUTES_MAX, GMK_ROOM_INCREMENT_MAX);
        return false;
    }
    json_t *o = json_object_get(body, "opening");
    if (o && !json_is_null(o) &&
        (!json_is_string(o) || !gmk_opening_parse(json_string_value(o), &cfg->opening))) {
        snprintf(err, errlen, "opening must be free, swap or swap2");
        return false;
    }
    return gmk_room_config_valid(cfg, err, errlen);
}

static enum MHD_Result post_room(web_request *rq) {
    enum MHD_Result res;
    json_t *body = web_body_json(rq, &res);
    if (!body) return res;
    char err[256] = "";
    gmk_room_config cfg;
    const char *name = NULL;
    /* a signed-in player plays under its account's name; a rated room needs one */
    bool signed_in = web_account(rq);
    json_t *rated = json_object_get(body, "rated");
    if (!room_read_config(body, &cfg, err, sizeof err) ||
        (!signed_in && !room_read_name(body, &name, err, sizeof err))) {
        json_decref(body);
        return web_error(rq, 400, err);
    }
    if (rated && !json_is_boolean(rated)) {
        json_decref(body);
        return web_error(rq, 400, "rated must be true or false");
    }
    cfg.rated = json_is_true(rated);
    if (cfg.rated && !signed_in) {
        json_decref(body);
        return web_error(rq, 401, "log in to create a rated room");
    }
    if (signed_in) {
        cfg.account = rq->account_id;
        name = rq->account_name;
    }
    uint8_t token[GMK_WEB_TOKEN_BYTES];
    if (!web_random(token, sizeof token)) {
        json_decref(body);
        return web_error(rq, 500, "no random numbers");
    }
    unsigned status = 500;
    live_room *lr = room_create(rq->web, &cfg, token, name, &status, err, sizeof err);
    json_decref(body);
    if (!lr) return web_error(rq, status, err);
    room_set_seat_cookie(rq, lr->code, token);
    json_t *j = room_state_json(lr, web_wall_ms(), 0);
    pthread_mutex_lock(&rq->web->store_mu);
    uint64_t seq = web_wrote(rq->web);
    pthread_mutex_unlock(&rq->web->store_mu);
    room_release(lr);
    return web_durable_reply(rq, seq, 201, j); /* the room is on disk before its link is given */
}

/* The answer when the client's limit (limits.c) refuses it. */
static enum MHD_Result limit_error(web_request *rq, limit_verdict v) {
    if (v == LIMIT_FULL)
        return web_error(rq, 503, "the server is serving too many clients; try again in a minute");
    return web_error(rq, 429,
                     "too many new rooms, joins or wrong room codes from your address; wait a "
                     "minute");
}

/* --- the event stream -------------------------------------------------------------------- */

/* Appends text to a growing buffer; false when out of memory. */
static bool grow(char **buf, size_t *len, size_t *cap, const char *text) {
    size_t n = strlen(text);
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap * 2 : 4096;
        while (c < *len + n + 1) c *= 2;
        char *b = realloc(*buf, c);
        if (!b) return false;
        *buf = b;
        *cap = c;
    }
    memcpy(*buf + *len, text, n + 1);
    *len += n;
    return true;
}

/* The events after `after` that the viewer of seat (-1: a spectator) is sent, as SSE text;
 * NULL with *st set when they cannot be given. */
static char *events_text(live_room *lr, int64_t after, int seat, gmk_room_status *st) {
    gmk_room_event ev[64];
    int size = gmk_session_board(gmk_room_session(lr->room))->size;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!grow(&buf, &len, &cap, "")) {
        *st = GMK_ROOM_NO_MEMORY;
        return NULL;
    }
    for (;;) {
        int n = 0;
        pthread_mutex_lock(&lr->web->store_mu);
        *st = gmk_room_events_since(lr->room, after, ev, 64, &n);
        pthread_mutex_unlock(&lr->web->store_mu);
        if (*st != GMK_ROOM_OK) {
            free(buf);
            return NULL;
        }
        for (int i = 0; i < n; i++) {
            after = ev[i].seq;
            if (!gmk_room_event_visible(&ev[i], seat)) continue;
            char *t = room_event_text(&ev[i], size);
            bool ok = t && grow(&buf, &len, &cap, t);
            free(t);
            if (!ok) {
                free(buf);
                *st = GMK_ROOM_NO_MEMORY;
                return NULL;
            }
        }
        if (n < 64) return buf;
    }
}

/* The start of a stream without Last-Event-ID: the last chat lines the viewer of seat may see
 * (each with its number), then the state (numbered with the last event). NULL when out of
 * memory or the chat cannot be read. */
static char *start_text(live_room *lr, int64_t now, int seat) {
    static __thread gmk_room_event chat[GMK_ROOM_CHAT_RECENT]; /* 21 kB: not on the stack */
    int n = 0;
    pthread_mutex_lock(&lr->web->store_mu);
    gmk_room_status st = gmk_room_chat_recent(lr->room, seat, chat, GMK_ROOM_CHAT_RECENT, &n);
    pthread_mutex_unlock(&lr->web->store_mu);
    if (st != GMK_ROOM_OK) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    bool ok = grow(&buf, &len, &cap, "");
    for (int i = 0; i < n && ok; i++) {
        char *t = room_event_text(&chat[i], 0);
        ok = t && grow(&buf, &len, &cap, t);
        free(t);
    }
    json_t *j = room_state_json(lr, now, seat);
    char *data = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    size_t dcap = data ? strlen(data) + 64 : 0;
    char *state = data ? malloc(dcap) : NULL;
    if (state)
        snprintf(state, dcap, "id: %lld\nevent: state\ndata: %s\n\n",
                 (long long)gmk_room_last_seq(lr->room), data);
    ok = ok && state && grow(&buf, &len, &cap, state);
    free(data);
    free(state);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

static enum MHD_Result room_events(web_request *rq, live_room *lr, const uint8_t *token,
                                   bool has_token) {
    const char *lei = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "Last-Event-ID");
    int64_t after = -1;
    if (lei) {
        char *end;
        long long v = strtoll(lei, &end, 10);
        if (*lei < '0' || *lei > '9' || *end != '\0' || v > gmk_room_last_seq(lr->room)) {
            room_release(lr);
            return web_error(rq, 400, "Last-Event-ID must be the number of an event of this room");
        }
        after = v;
    }
    room_stream *rs = calloc(1, sizeof *rs);
    if (!rs) {
        room_release(lr);
        return MHD_NO;
    }
    rs->room = lr;
    int64_t now = web_wall_ms();
    int seat = has_token ? gmk_room_seat_of(lr->room, token, GMK_WEB_TOKEN_BYTES) : -1;
    rs->seat = seat >= 0;
    if (rs->seat) memcpy(rs->token, token, GMK_WEB_TOKEN_BYTES);
    /* the connection first (its event goes to the others), then this viewer's start */
    pthread_mutex_lock(&lr->web->store_mu);
    if (rs->seat) {
        web_presence_seat(lr->web, lr, seat, 1, now); /* and the other servers' streams */
        gmk_room_connect(lr->room, token, GMK_WEB_TOKEN_BYTES, now);
    } else {
        web_presence_read(lr->web, lr, now);
        gmk_room_spectator_join(lr->room, now); /* in memory: watching writes nothing */
    }
    pthread_mutex_unlock(&lr->web->store_mu);
    if (!rs->seat) atomic_store(&lr->spectators_changed, true);
    room_publish(lr);
    char *first = NULL;
    gmk_room_status st = GMK_ROOM_OK;
    if (after >= 0) {
        first = events_text(lr, after, seat, &st);
    } else {
        first = start_text(lr, now, seat);
        if (!first) st = GMK_ROOM_STORE;
    }
    /* hub group: 0 for a spectator, seat + 1 for a player (room_event_groups) */
    struct MHD_Response *resp =
        first ? hub_attach_text(lr->hub, rq->conn, seat + 1, NULL, first, room_stream_closed, rs)
              : NULL;
    free(first);
    if (!resp) { /* nobody will close this stream: undo its opening now */
        pthread_mutex_lock(&lr->web->store_mu);
        if (rs->seat) {
            web_presence_seat(lr->web, lr, seat, -1, web_wall_ms());
            gmk_room_disconnect(lr->room, rs->token, GMK_WEB_TOKEN_BYTES, web_wall_ms());
        } else
            gmk_room_spectator_leave(lr->room, web_wall_ms());
        pthread_mutex_unlock(&lr->web->store_mu);
        free(rs);
        room_release(lr);
        return st == GMK_ROOM_OK ? MHD_NO : web_error(rq, 500, "the events cannot be read");
    }
    lr->streams++;
    room_release(lr);
    MHD_add_response_header(resp, "Content-Type", "text/event-stream; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Accel-Buffering", "no");
    return web_queue(rq, 200, resp);
}

/* --- actions ----------------------------------------------------------------------------- */

static enum MHD_Result room_action(web_request *rq, live_room *lr, const char *what, uint8_t *token,
                                   bool has_token) {
    int64_t now = web_wall_ms();
    enum MHD_Result res;
    bool is_join = strcmp(what, "join") == 0;
    bool is_choose = strcmp(what, "choose") == 0;
    bool needs_body = is_join || is_choose || strcmp(what, "move") == 0 ||
                      strcmp(what, "draw-answer") == 0 || strcmp(what, "undo-answer") == 0;
    json_t *body = NULL;
    if (needs_body) {
        body = web_body_json(rq, &res);
        if (!body) {
            room_release(lr);
            return res;
        }
    }
    gmk_room_status st = GMK_ROOM_NO_SEAT;
    gmk_forbid_kind kind = GMK_FORBID_NONE;
    char err[256] = "";
    size_t tl = GMK_WEB_TOKEN_BYTES;
    if (is_join) {
        const char *name = NULL;
        bool signed_in = web_account(rq); /* room -> store: the lock order allows it */
        if (!signed_in && !room_read_name(body, &name, err, sizeof err)) {
            json_decref(body);
            room_release(lr);
            return web_error(rq, 400, err);
        }
        if (signed_in) name = rq->account_name;
        bool fresh = !has_token || gmk_room_seat_of(lr->room, token, tl) < 0;
        gmk_room_state rs;
        gmk_room_get_state(lr->room, now, &rs);
        if (fresh && rs.rated && !rs.seat[1].taken) {
            const char *why = !signed_in ? "log in to play a rated game"
                              : rs.seat[0].account == rq->account_id
                                  ? "you cannot play a rated game against yourself"
                                  : NULL;
            if (why) {
                json_decref(body);
                room_release(lr);
                return web_error(rq, signed_in ? 409 : 401, why);
            }
        }
        if (fresh && !new_seat(rq, lr->code, token)) st = GMK_ROOM_NO_MEMORY;
        int seat = -1;
        pthread_mutex_lock(&rq->web->store_mu);
        if (st != GMK_ROOM_NO_MEMORY)
            st = gmk_room_join_as(lr->room, token, tl, name, signed_in ? rq->account_id : 0, now,
                                  &seat);
        pthread_mutex_unlock(&rq->web->store_mu);
        if (st != GMK_ROOM_OK) rq->seat_cookie[0] = '\0'; /* no seat: no cookie */
        json_decref(body);
        return reply(rq, lr, st, st == GMK_ROOM_OK ? seat : -1, kind, now);
    }
    bool accept = false;
    gmk_pos p = GMK_POS_NONE;
    long long ply = -1;
    gmk_swap_choice choice = GMK_SWAP_TAKE_BLACK;
    if (is_choose) {
        json_t *c = json_object_get(body, "choice");
        if (!json_is_string(c) || !gmk_swap_choice_parse(json_string_value(c), &choice))
            snprintf(err, sizeof err, "choice must be black, white or place2");
    } else if (strcmp(what, "move") == 0) {
        int size = gmk_session_board(gmk_room_session(lr->room))->size;
        json_t *jp = json_object_get(body, "ply");
        if (!web_parse_point(json_object_get(body, "point"), size, &p))
            snprintf(err, sizeof err, "point must be a point on the board, such as \"h8\"");
        else if (jp && (!json_is_integer(jp) || json_integer_value(jp) < 0 ||
                        json_integer_value(jp) > GMK_MAX_MOVES))
            snprintf(err, sizeof err, "ply must be the number of moves on your board");
        else if (jp)
            ply = json_integer_value(jp);
    } else if (body) {
        json_t *a = json_object_get(body, "accept");
        if (!json_is_boolean(a))
            snprintf(err, sizeof err, "accept must be true or false");
        else
            accept = json_is_true(a);
    }
    json_decref(body);
    if (err[0]) {
        room_release(lr);
        return web_error(rq, 400, err);
    }
    enum MHD_Result limited;
    bool counted = strcmp(what, "undo") == 0 || strcmp(what, "draw") == 0 ||
                   strcmp(what, "rematch") == 0; /* the requests that can repeat (see Limits) */
    if (has_token && counted && !limits_write_take(rq, &limited)) {
        room_release(lr);
        return limited;
    }
    if (has_token) {
        pthread_mutex_lock(&rq->web->store_mu);
        gmk_room *r = lr->room;
        if (strcmp(what, "move") == 0)
            st = gmk_room_play(r, token, tl, gmk_pos_x(p), gmk_pos_y(p), (int)ply, now, &kind);
        else if (is_choose)
            st = gmk_room_choose(r, token, tl, choice, now);
        else if (strcmp(what, "resign") == 0)
            st = gmk_room_resign(r, token, tl, now);
        else if (strcmp(what, "draw") == 0)
            st = gmk_room_offer_draw(r, token, tl, now);
        else if (strcmp(what, "draw-answer") == 0)
            st = gmk_room_answer_draw(r, token, tl, accept, now);
        else if (strcmp(what, "undo") == 0)
            st = gmk_room_ask_undo(r, token, tl, now);
        else if (strcmp(what, "undo-answer") == 0)
            st = gmk_room_answer_undo(r, token, tl, accept, now);
        else if (strcmp(what, "claim") == 0) {
            web_presence_read(rq->web, lr, now); /* streams on the other servers count too */
            st = gmk_room_claim(r, token, tl, now);
        } else
            st = gmk_room_rematch(r, token, tl, now);
        pthread_mutex_unlock(&rq->web->store_mu);
    } else {
        pthread_mutex_lock(&rq->web->store_mu);
        gmk_room_tick(lr->room, now); /* as every call of the room does first */
        pthread_mutex_unlock(&rq->web->store_mu);
    }
    int seat = has_token ? gmk_room_seat_of(lr->room, token, tl) : -1;
    const char *why = NULL; /* during a swap opening, say what is awaited */
    if (st == GMK_ROOM_NOT_YOUR_TURN || st == GMK_ROOM_NOT_NOW)
        why = gmk_room_opening_why(lr->room, seat, is_choose);
    if (why) {
        room_release(lr);
        return web_error(rq, 409, why);
    }
    if (is_choose && st == GMK_ROOM_NOT_NOW) {
        room_release(lr);
        return web_error(rq, 409,
                         "that choice is not open now (place2 only in swap2, at three stones)");
    }
    return reply(rq, lr, st, seat, kind, now);
}

/* --- chat -------------------------------------------------------------------------------- */

/* POST .../chat {"text", "name" (a spectator's)} and .../mute {"mute": true|false}. A holder
 * of a seat speaks in the players' chat, anyone else in the spectators' chat; each line counts
 * against the client's --chat-limit (429 past it, nothing stored). */
static enum MHD_Result room_chat_action(web_request *rq, live_room *lr, bool is_mute,
                                        const uint8_t *token, bool has_token) {
    enum MHD_Result res;
    json_t *body = web_body_json(rq, &res);
    if (!body) {
        room_release(lr);
        return res;
    }
    int64_t now = web_wall_ms();
    size_t tl = GMK_WEB_TOKEN_BYTES;
    int seat = has_token ? gmk_room_seat_of(lr->room, token, tl) : -1;
    char err[256] = "";
    gmk_room_status st;
    if (is_mute) {
        json_t *m = json_object_get(body, "mute");
        bool mute = json_is_true(m), is_boolean = json_is_boolean(m);
        json_decref(body); /* m goes with it */
        if (!is_boolean) {
            room_release(lr);
            return web_error(rq, 400, "mute must be true or false");
        }
        if (seat < 0) {
            room_release(lr);
            return web_error(rq, 403, "only a player can mute the other player");
        }
        pthread_mutex_lock(&rq->web->store_mu);
        st = gmk_room_mute(lr->room, token, tl, mute, now);
        pthread_mutex_unlock(&rq->web->store_mu);
        return reply(rq, lr, st, seat, GMK_FORBID_NONE, now);
    }
    json_t *t = json_object_get(body, "text");
    json_t *n = json_object_get(body, "name");
    char line[GMK_ROOM_CHAT_MAX];
    if (!json_is_string(t))
        snprintf(err, sizeof err, "text must be a chat line of 1 to %d characters",
                 GMK_ROOM_CHAT_CHARS);
    else if (json_string_length(t) != strlen(json_string_value(t)))
        snprintf(err, sizeof err, "the chat line holds a NUL character");
    else if (!gmk_room_chat_clean(json_string_value(t), line, err, sizeof err))
        ; /* err says why */
    else if (seat < 0 &&
             (!json_is_string(n) || !gmk_room_name_valid(json_string_value(n), err, sizeof err)) &&
             !err[0])
        snprintf(err, sizeof err, "a spectator's line needs a name of 1 to %d characters",
                 GMK_ROOM_NAME_CHARS);
    if (err[0]) {
        json_decref(body);
        room_release(lr);
        return web_error(rq, 400, err);
    }
    limit_verdict v = limits_take(rq->web->chats, &rq->client, web_now_ms());
    if (v != LIMIT_OK) {
        json_decref(body);
        room_release(lr);
        return v == LIMIT_FULL ? web_error(rq, 503,
                                           "the server is serving too many clients; "
                                           "try again in a minute")
                               : web_error(rq, 429,
                                           "too many chat lines from your address; wait "
                                           "a minute");
    }
    pthread_mutex_lock(&rq->web->store_mu);
    if (seat >= 0)
        st = gmk_room_chat(lr->room, token, tl, line, now);
    else
        st = gmk_room_spectator_chat(lr->room, json_string_value(n), line, now);
    pthread_mutex_unlock(&rq->web->store_mu);
    json_decref(body);
    return reply(rq, lr, st, seat, GMK_FORBID_NONE, now);
}

/* /api/rooms/{code}[/{what}] */
static enum MHD_Result room_route(web_request *rq, const char *rest) {
    char code[32];
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *what = slash ? slash + 1 : "";
    if (n == 0 || n >= sizeof code) return web_error(rq, 404, "no such room");
    memcpy(code, rest, n);
    code[n] = '\0';
    static const char *const posts[] = {"join",        "move",        "resign", "draw",
                                        "draw-answer", "undo-answer", "undo",   "claim",
                                        "rematch",     "chat",        "mute",   "choose"};
    bool is_get = strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0;
    bool is_post = strcmp(rq->method, "POST") == 0;
    bool post = false;
    for (size_t i = 0; i < sizeof posts / sizeof posts[0]; i++)
        if (strcmp(what, posts[i]) == 0) post = true;
    bool known_get = *what == '\0' || strcmp(what, "events") == 0;
    if (!post && !known_get) return web_error(rq, 404, "no such route");
    if ((post && !is_post) || (known_get && !is_get))
        return web_error(rq, 405, post ? "use POST" : "use GET");
    /* Joins count against the client's limit, and so does every wrong code on any room route
     * (docs/rooms.md "Limits"). Past the limit only the holder of a seat of the room gets an
     * answer; anyone else gets 429 whether the room exists or not, so probing learns nothing. */
    gmk_web *w = rq->web;
    bool is_join = post && strcmp(what, "join") == 0;
    limit_verdict v = is_join ? limits_take(w->limits, &rq->client, web_now_ms())
                              : limits_check(w->limits, &rq->client, web_now_ms());
    if (is_join && v != LIMIT_OK) return limit_error(rq, v);
    bool over = v != LIMIT_OK;
    char norm[GMK_ROOM_CODE_LEN + 1];
    uint8_t token[GMK_WEB_TOKEN_BYTES];
    bool has_token = gmk_room_code_normalize(code, norm) && read_seat(rq, norm, token);
    if (over && !has_token) return limit_error(rq, v);
    unsigned status = 500;
    char err[256] = "";
    live_room *lr = room_get(w, code, &status, err, sizeof err);
    if (!lr && status == 404 && !over && !is_join) { /* a wrong code counts */
        v = limits_take(w->limits, &rq->client, web_now_ms());
        if (v == LIMIT_FULL) return limit_error(rq, v);
    }
    if (!lr) return over ? limit_error(rq, v) : web_error(rq, status, err);
    if (over && gmk_room_seat_of(lr->room, token, GMK_WEB_TOKEN_BYTES) < 0) {
        room_release(lr);
        return limit_error(rq, v);
    }
    if (*what == '\0') {
        int64_t now = web_wall_ms();
        pthread_mutex_lock(&rq->web->store_mu);
        gmk_room_tick(lr->room, now);
        web_presence_read(rq->web, lr, now);
        pthread_mutex_unlock(&rq->web->store_mu);
        int seat = has_token ? gmk_room_seat_of(lr->room, token, GMK_WEB_TOKEN_BYTES) : -1;
        json_t *j = room_state_json(lr, now, seat);
        room_release(lr);
        return web_json(rq, 200, j); /* reading: nothing to wait for */
    }
    if (strcmp(what, "events") == 0 && strcmp(rq->method, "HEAD") == 0) {
        room_release(lr);
        return web_stream_head(rq);
    }
    if (strcmp(what, "events") == 0) return room_events(rq, lr, token, has_token);
    if (strcmp(what, "chat") == 0 || strcmp(what, "mute") == 0)
        return room_chat_action(rq, lr, strcmp(what, "mute") == 0, token, has_token);
    return room_action(rq, lr, what, token, has_token);
}

enum MHD_Result web_rooms_api(web_request *rq, bool *handled) {
    *handled = true;
    if (strcmp(rq->path, "/api/rooms") == 0) {
        if (strcmp(rq->method, "POST") != 0) return web_error(rq, 405, "use POST");
        limit_verdict v = limits_take(rq->web->limits, &rq->client, web_now_ms());
        if (v != LIMIT_OK) return limit_error(rq, v); /* creating counts as joining */
        return post_room(rq);
    }
    if (strncmp(rq->path, "/api/rooms/", 11) == 0) return room_route(rq, rq->path + 11);
    *handled = false;
    return MHD_NO;
}
