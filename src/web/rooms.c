/* rooms.c: the online rooms in memory (docs/rooms.md, "How the server drives a room"): a
 * table of live rooms by code, each with its lock and its viewers' hub; the timer thread that
 * ends a game on time when a flag falls with nobody sending a request, pings the streams and
 * closes idle rooms; a room and its events as JSON. Every rule of
 * play is game/room.c's: this file only calls it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "core/notation.h"
#include "web/web_internal.h"

/* Every minute (and 2 s after the start) the timer sweeps the rooms: a room a player's stream
 * has open is kept from being closed as idle (gmk_room_keep); a room idle for a day is
 * freed, its watchers' streams closed, and the store closes it; a room nobody has asked for in
 * ROOM_UNUSED_MS and nobody watches leaves memory (the store has it all). */
#define SWEEP_EVERY_MS 60000
#define FIRST_SWEEP_MS 2000
#define ROOM_UNUSED_MS (10 * 60000)
/* MHD does not watch a waiting (suspended) stream's socket, so the timer peeks at each room
 * stream's socket every second to find closed tabs at once (hub_check_closed), and pings every
 * 15 s, as the games' streams. Pinging 3,000 streams every second or five cost more than all the
 * moves: the p99 of a move's arrival went from 12 ms to 300-800 ms (docs/web.md). */
#define PING_EVERY_MS 15000
/* Shared database: a flag fallen this long ago with its room not ended is any server's to end. */
#define OVERDUE_GRACE_MS 1500

int64_t web_wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool web_random(void *buf, size_t n) {
    randombytes_buf(buf, n); /* libsodium's; sodium_init has run (gmk_web_serve) */
    return true;
}

/* --- JSON ------------------------------------------------------------------------------- */

static json_t *color_or_null(gmk_color c) {
    const char *n = web_color_name(c);
    return n ? json_string(n) : json_null();
}

static json_t *outcome_json(gmk_outcome o) {
    return o == GMK_ONGOING ? json_null() : json_string(gmk_outcome_name(o));
}

static json_t *reason_json(gmk_reason r) {
    const char *n = web_reason_name(r);
    return n ? json_string(n) : json_null();
}

/* A chat line or a mute as the "chat" event of docs/http-api.md. */
static char *chat_event_text(const gmk_room_event *e) {
    json_t *j = json_object();
    json_object_set_new(j, "seq", json_integer(e->seq));
    json_object_set_new(j, "kind", json_string(gmk_room_event_name(e->kind)));
    json_object_set_new(j, "at_ms", json_integer(e->at_ms));
    json_object_set_new(j, "seat", e->seat >= 0 ? json_integer(e->seat) : json_null());
    if (e->kind == GMK_ROOM_EV_CHAT) {
        json_object_set_new(j, "color", color_or_null(e->seat >= 0 ? e->color : GMK_EMPTY));
        json_object_set_new(j, "name", web_string(e->name));
        json_object_set_new(j, "text", web_string(e->text));
        json_object_set_new(
            j, "channel",
            json_string(e->audience == GMK_ROOM_TO_SPECTATORS ? "spectators" : "players"));
        /* a muted player's line, sent back to its sender only */
        json_object_set_new(j, "muted", json_boolean(e->audience >= GMK_ROOM_TO_SEAT0));
    } else {
        json_object_set_new(j, "muted", json_boolean(e->count != 0));
    }
    char *data = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!data) return NULL;
    size_t cap = strlen(data) + 64;
    char *text = malloc(cap);
    if (text) snprintf(text, cap, "id: %lld\nevent: chat\ndata: %s\n\n", (long long)e->seq, data);
    free(data);
    return text;
}

unsigned room_event_groups(const gmk_room_event *e) {
    unsigned mask = 0;
    for (int g = 0; g < 3; g++) /* hub groups: 0 spectators, seat + 1 */
        if (gmk_room_event_visible(e, g - 1)) mask |= 1u << g;
    return mask;
}

char *room_event_text(const gmk_room_event *e, int size) {
    if (e->kind == GMK_ROOM_EV_CHAT || e->kind == GMK_ROOM_EV_MUTE) return chat_event_text(e);
    json_t *j = json_object();
    json_object_set_new(j, "seq", json_integer(e->seq));
    const char *kind = gmk_room_event_name(e->kind);
    json_object_set_new(j, "kind", json_string(kind ? kind : "unknown"));
    json_object_set_new(j, "at_ms", json_integer(e->at_ms));
    json_object_set_new(j, "seat", e->seat >= 0 ? json_integer(e->seat) : json_null());
    json_object_set_new(j, "color", color_or_null(e->color));
    bool on_board = e->x >= 0 && e->y >= 0 && e->x < size && e->y < size;
    json_object_set_new(j, "point",
                        on_board ? web_point_json(gmk_pos_xy(e->x, e->y), size) : json_null());
    json_object_set_new(j, "ply", json_integer(e->ply));
    json_object_set_new(j, "outcome", outcome_json(e->outcome));
    json_object_set_new(j, "reason", reason_json(e->reason));
    json_object_set_new(j, "count", json_integer(e->count));
    json_object_set_new(j, "black_ms", json_integer(e->black_ms));
    json_object_set_new(j, "white_ms", json_integer(e->white_ms));
    json_object_set_new(j, "game_id", json_integer(e->game_id));
    json_object_set_new(j, "name", json_string(e->name));
    if (e->kind == GMK_ROOM_EV_CHOSEN)
        json_object_set_new(j, "choice",
                            json_string(gmk_swap_choice_name((gmk_swap_choice)e->count)));
    char *data = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!data) return NULL;
    size_t cap = strlen(data) + 64;
    char *text = malloc(cap);
    if (text) snprintf(text, cap, "id: %lld\nevent: room\ndata: %s\n\n", (long long)e->seq, data);
    free(data);
    return text;
}

/* A swap opening in progress (docs/http-api.md): its step, the proposing seat, the seat that
 * acts now, the colour of the next stone and the choices open; null outside the opening. */
static json_t *swap_json(const gmk_room_state *st, const gmk_board *b) {
    if (st->swap_actor < 0) return json_null();
    json_t *j = json_object();
    json_object_set_new(j, "phase", json_string(gmk_swap_phase_name(st->swap_phase)));
    json_object_set_new(j, "first", json_integer(st->swap_first));
    json_object_set_new(j, "actor", json_integer(st->swap_actor));
    bool choosing = st->swap_phase == GMK_SWAP_CHOOSE || st->swap_phase == GMK_SWAP_CHOOSE5;
    json_object_set_new(j, "stone", choosing ? json_null() : color_or_null(gmk_board_side(b)));
    json_object_set_new(j, "stones", json_integer(b->move_count));
    json_t *choices = json_array();
    for (int c = GMK_SWAP_TAKE_BLACK; choosing && c <= GMK_SWAP_PLACE_TWO; c++)
        if (gmk_swap_choice_allowed(st->opening, st->swap_phase, (gmk_swap_choice)c))
            json_array_append_new(choices, json_string(gmk_swap_choice_name((gmk_swap_choice)c)));
    json_object_set_new(j, "choices", choices);
    return j;
}

json_t *room_state_json(live_room *lr, int64_t now, int you) {
    gmk_room_state st;
    gmk_room_get_state(lr->room, now, &st);
    const gmk_session *ses = gmk_room_session(lr->room);
    gmk_session_state ss;
    gmk_session_get_state(ses, &ss);
    const gmk_board *b = gmk_session_board(ses);
    static const char *const phases[] = {"waiting", "playing", "over"};
    json_t *j = json_object();
    json_object_set_new(j, "code", json_string(st.code));
    json_object_set_new(j, "phase",
                        json_string(st.phase <= GMK_ROOM_OVER ? phases[st.phase] : "?"));
    json_object_set_new(j, "rule", json_string(gmk_rule_name(st.rule)));
    json_object_set_new(j, "size", json_integer(st.size));
    json_object_set_new(j, "clock_ms", json_integer(st.clock_ms));
    json_object_set_new(j, "increment_ms", json_integer(st.increment_ms));
    json_object_set_new(j, "black_ms", json_integer(st.black_ms));
    json_object_set_new(j, "white_ms", json_integer(st.white_ms));
    json_object_set_new(j, "deadline_ms", json_integer(st.deadline_ms));
    json_object_set_new(j, "now_ms", json_integer(now));
    json_object_set_new(j, "to_move",
                        st.phase == GMK_ROOM_PLAYING ? color_or_null(st.to_move) : json_null());
    json_object_set_new(j, "ply", json_integer(st.ply));
    json_t *moves = json_array();
    for (int i = 0; i < b->move_count; i++)
        json_array_append_new(moves, web_point_json(b->moves[i], b->size));
    json_object_set_new(j, "moves", moves);
    json_t *seats = json_array();
    for (int i = 0; i < 2; i++) {
        json_t *s = json_object();
        json_object_set_new(s, "taken", json_boolean(st.seat[i].taken));
        json_object_set_new(s, "name", json_string(st.seat[i].taken ? st.seat[i].name : ""));
        json_object_set_new(s, "color", color_or_null(st.seat[i].taken ? st.seat[i].color : 0));
        json_object_set_new(s, "connected", json_boolean(st.seat[i].connected));
        json_object_set_new(s, "since_ms", json_integer(st.seat[i].since_ms));
        json_object_set_new(s, "account", json_boolean(st.seat[i].account > 0));
        json_array_append_new(seats, s);
    }
    json_object_set_new(j, "seats", seats);
    json_object_set_new(j, "spectators", json_integer(st.spectators));
    json_object_set_new(j, "rated", json_boolean(st.rated));
    json_object_set_new(j, "draw_by", color_or_null(st.draw_by));
    json_object_set_new(j, "undo_by", color_or_null(st.undo_by));
    json_object_set_new(j, "rematch_by", color_or_null(st.rematch_by));
    json_object_set_new(j, "claim_ms", json_integer(st.claim_ms));
    json_object_set_new(j, "result",
                        st.phase == GMK_ROOM_OVER ? web_result_json(&ss, st.size) : json_null());
    if (st.phase == GMK_ROOM_OVER) { /* the room's reasons (time, agreement...) are its own */
        json_t *res = json_object_get(j, "result");
        if (json_is_object(res)) json_object_set_new(res, "reason", reason_json(st.reason));
    }
    json_object_set_new(j, "game_id", json_integer(st.game_id));
    json_object_set_new(j, "game_no", json_integer(st.game_no));
    json_object_set_new(j, "last_seq", json_integer(st.last_seq));
    json_object_set_new(j, "you", json_integer(you));
    json_object_set_new(j, "muted", json_boolean(you >= 0 && you < 2 && st.seat[you].muted));
    json_object_set_new(j, "opening", json_string(gmk_opening_name(st.opening)));
    json_object_set_new(j, "swap", swap_json(&st, b));
    return j;
}

/* --- the table of live rooms ------------------------------------------------------------ */

static live_room *room_new(gmk_web *w, gmk_room *room, const char *code) {
    live_room *lr = calloc(1, sizeof *lr);
    if (!lr) return NULL;
    lr->hub = hub_new();
    if (!lr->hub) {
        free(lr);
        return NULL;
    }
    lr->web = w;
    lr->room = room;
    snprintf(lr->code, sizeof lr->code, "%s", code);
    pthread_mutex_init(&lr->mu, NULL);
    lr->sent_seq = gmk_room_last_seq(room);
    atomic_store(&lr->deadline, gmk_room_next_deadline(room));
    return lr;
}

static void room_free(live_room *lr) {
    hub_free(lr->hub);
    gmk_room_free(lr->room);
    pthread_mutex_destroy(&lr->mu);
    free(lr);
}

/* Reports a store failure the room has not reported yet (room mu held). */
static void report_store(live_room *lr) {
    char msg[512];
    if (!gmk_room_take_store_message(lr->room, msg, sizeof msg)) return;
    char *p; /* the code is a secret: the log shows its first four characters */
    while ((p = strstr(msg, lr->code)) != NULL) memset(p + 4, '.', GMK_ROOM_CODE_LEN - 4);
    fprintf(stderr, "gomoku serve: %s\n", msg);
}

/* The store refused the room's writes (mu held): nobody finds it any more, its viewers' streams
 * end (their pages reconnect to it as it is stored) and the timer frees it. */
static void drop(live_room *lr) {
    report_store(lr);
    if (atomic_exchange(&lr->dropped, true)) return;
    hub_close_all(lr->hub);
}

/* On a shared database, a room whose save failed (another server saved it first, or the
 * database was away) is read again from the store, which is the truth (room mu held). */
static void resync(live_room *lr) {
    gmk_web *w = lr->web;
    if (gmk_room_saving(lr->room) && !gmk_room_failed(lr->room)) return;
    report_store(lr);
    pthread_mutex_lock(&w->store_mu);
    gmk_room_refresh(lr->room, w->store, true, NULL);
    pthread_mutex_unlock(&w->store_mu);
}

void room_publish(live_room *lr) {
    if (gmk_store_is_shared(lr->web->store)) { /* several servers: read it again, streams go on */
        resync(lr);
    } else if (gmk_room_failed(lr->room)) { /* what it did last is not stored: nobody is told */
        drop(lr);
        return;
    }
    gmk_room_event ev[64];
    int size = gmk_session_board(gmk_room_session(lr->room))->size;
    for (;;) {
        int n = 0;
        pthread_mutex_lock(&lr->web->store_mu);
        gmk_room_status st = gmk_room_events_since(lr->room, lr->sent_seq, ev, 64, &n);
        pthread_mutex_unlock(&lr->web->store_mu);
        if (st != GMK_ROOM_OK || n == 0) break;
        for (int i = 0; i < n; i++) {
            char *text = room_event_text(&ev[i], size);
            if (text) hub_send_to(lr->hub, text, room_event_groups(&ev[i]));
            free(text);
            lr->sent_seq = ev[i].seq;
        }
        if (n < 64) break;
    }
    report_store(lr);
    int64_t d = gmk_room_next_deadline(lr->room);
    int64_t old = atomic_exchange(&lr->deadline, d);
    if (d != 0 && d != old) { /* the timer may need to wake earlier */
        pthread_mutex_lock(&lr->web->timer_mu);
        lr->web->timer_poked = true;
        pthread_cond_signal(&lr->web->timer_cv);
        pthread_mutex_unlock(&lr->web->timer_mu);
    }
}

void room_release(live_room *lr) {
    room_publish(lr);
    pthread_mutex_unlock(&lr->mu);
}

/* Makes space for one more room in memory (rooms_mu held): past --rooms-max, the room that no
 * stream watches and was asked for least recently leaves memory, one without a running clock
 * first (all of a room is in the store; it is loaded again when asked for). It goes to the
 * evicted list, which the timer frees: the timer may be following the table without rooms_mu,
 * and only it frees. False when every room in memory is watched. */
static bool make_room(gmk_web *w) {
    while (w->room_count >= w->opt.rooms_max) {
        live_room **victim = NULL;
        bool victim_clocked = true;
        for (live_room **pp = &w->rooms; *pp; pp = &(*pp)->next) {
            live_room *lr = *pp;
            if (pthread_mutex_trylock(&lr->mu) != 0) continue; /* in use right now */
            bool unwatched = lr->streams == 0;
            pthread_mutex_unlock(&lr->mu);
            bool clocked = atomic_load(&lr->deadline) != 0;
            if (!unwatched) continue;
            if (!victim || (victim_clocked && !clocked) ||
                (clocked == victim_clocked && lr->used_ms < (*victim)->used_ms)) {
                victim = pp;
                victim_clocked = clocked;
            }
        }
        if (!victim) return false;
        live_room *lr = *victim;
        *victim = lr->next;
        w->room_count--;
        lr->next = w->evicted;
        w->evicted = lr;
    }
    return true;
}

/* Frees the rooms evicted from memory (timer thread, following no list). */
static void free_evicted(gmk_web *w) {
    pthread_mutex_lock(&w->rooms_mu);
    live_room *lr = w->evicted;
    w->evicted = NULL;
    pthread_mutex_unlock(&w->rooms_mu);
    while (lr) {
        live_room *next = lr->next;
        room_free(lr);
        lr = next;
    }
}

/* Adds a room to the server's list (rooms_mu held). */
static void room_insert(gmk_web *w, live_room *lr) {
    lr->next = w->rooms;
    w->rooms = lr;
    w->room_count++;
}

void rooms_claim_seat(gmk_web *w, const char *code, const uint8_t *token, size_t len,
                      int64_t account) {
    pthread_mutex_lock(&w->rooms_mu);
    for (live_room *lr = w->rooms; lr; lr = lr->next) {
        if (strcmp(lr->code, code) != 0 || atomic_load(&lr->dropped)) continue;
        pthread_mutex_lock(&lr->mu);
        gmk_room_claim_seat(lr->room, token, len, account);
        pthread_mutex_unlock(&lr->mu);
    }
    pthread_mutex_unlock(&w->rooms_mu);
}

void rooms_forget_account(gmk_web *w, int64_t account, const char *neutral) {
    pthread_mutex_lock(&w->rooms_mu);
    for (live_room *lr = w->rooms; lr; lr = lr->next) {
        pthread_mutex_lock(&lr->mu);
        gmk_room_forget_account(lr->room, account, neutral);
        pthread_mutex_unlock(&lr->mu);
    }
    pthread_mutex_unlock(&w->rooms_mu);
}

live_room *room_get(gmk_web *w, const char *typed, unsigned *status, char *err, size_t errlen) {
    char code[GMK_ROOM_CODE_LEN + 1];
    if (!gmk_room_code_normalize(typed, code)) {
        *status = 404;
        snprintf(err, errlen, "no such room");
        return NULL;
    }
    pthread_mutex_lock(&w->rooms_mu);
    live_room *lr = w->rooms;
    while (lr && (strcmp(lr->code, code) != 0 || atomic_load(&lr->dropped))) lr = lr->next;
    if (!lr && !make_room(w)) {
        pthread_mutex_unlock(&w->rooms_mu);
        *status = 503;
        snprintf(err, errlen, "too many rooms are in use; try again later");
        return NULL;
    }
    if (!lr) {
        gmk_room *room = NULL;
        pthread_mutex_lock(&w->store_mu);
        gmk_room_status st = gmk_room_load(w->store, code, web_wall_ms(), &room, err, errlen);
        pthread_mutex_unlock(&w->store_mu);
        if (st != GMK_ROOM_OK) {
            pthread_mutex_unlock(&w->rooms_mu);
            *status = st == GMK_ROOM_NOT_FOUND ? 404 : 500;
            if (st == GMK_ROOM_NOT_FOUND) snprintf(err, errlen, "no such room");
            return NULL;
        }
        lr = room_new(w, room, code);
        if (!lr) {
            gmk_room_free(room);
            pthread_mutex_unlock(&w->rooms_mu);
            *status = 500;
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        room_insert(w, lr);
        pthread_mutex_lock(&lr->mu);
        pthread_mutex_unlock(&w->rooms_mu);
        return lr;
    }
    lr->used_ms = web_now_ms();
    pthread_mutex_lock(&lr->mu);
    pthread_mutex_unlock(&w->rooms_mu);
    if (gmk_store_is_shared(w->store)) { /* another server may have changed it */
        pthread_mutex_lock(&w->store_mu);
        gmk_room_status st = gmk_room_refresh(lr->room, w->store, false, NULL);
        pthread_mutex_unlock(&w->store_mu);
        if (st != GMK_ROOM_OK) {
            pthread_mutex_unlock(&lr->mu);
            *status = st == GMK_ROOM_NOT_FOUND ? 404 : 500; /* 503 while the database is away */
            snprintf(err, errlen,
                     st == GMK_ROOM_NOT_FOUND ? "no such room" : "the database failed");
            return NULL;
        }
    }
    return lr;
}

live_room *room_create(gmk_web *w, const gmk_room_config *cfg, const uint8_t *token,
                       const char *name, unsigned *status, char *err, size_t errlen) {
    for (int attempt = 0; attempt < 5; attempt++) {
        uint8_t rnd[GMK_ROOM_CODE_RANDOM];
        char code[GMK_ROOM_CODE_LEN + 1];
        if (!web_random(rnd, sizeof rnd)) break;
        gmk_room_code_make(rnd, code);
        gmk_room *room = NULL;
        pthread_mutex_lock(&w->rooms_mu);
        if (!make_room(w)) {
            pthread_mutex_unlock(&w->rooms_mu);
            *status = 503;
            snprintf(err, errlen, "too many rooms are in use; try again later");
            return NULL;
        }
        pthread_mutex_lock(&w->store_mu);
        gmk_room_status st = gmk_room_create(w->store, cfg, code, token, GMK_WEB_TOKEN_BYTES, name,
                                             web_wall_ms(), &room, err, errlen);
        pthread_mutex_unlock(&w->store_mu);
        if (st == GMK_ROOM_STORE) { /* most likely a taken code: draw another */
            pthread_mutex_unlock(&w->rooms_mu);
            continue;
        }
        if (st != GMK_ROOM_OK) {
            pthread_mutex_unlock(&w->rooms_mu);
            *status = st == GMK_ROOM_BAD_REQUEST ? 400 : 500;
            return NULL;
        }
        live_room *lr = room_new(w, room, code);
        if (!lr) {
            gmk_room_free(room);
            pthread_mutex_unlock(&w->rooms_mu);
            break;
        }
        room_insert(w, lr);
        lr->used_ms = web_now_ms();
        pthread_mutex_lock(&lr->mu);
        pthread_mutex_unlock(&w->rooms_mu);
        return lr;
    }
    *status = 500;
    if (!err[0]) snprintf(err, errlen, "could not create a room");
    return NULL;
}

live_room *room_create_for(gmk_web *w, const gmk_room_config *cfg, const char *code,
                           const uint8_t token_sha256[GMK_WEB_HASH_LEN], const char *name,
                           unsigned *status, char *err, size_t errlen) {
    gmk_room *room = NULL;
    pthread_mutex_lock(&w->rooms_mu);
    if (!make_room(w)) {
        pthread_mutex_unlock(&w->rooms_mu);
        *status = 503;
        snprintf(err, errlen, "too many rooms are in use; try again later");
        return NULL;
    }
    pthread_mutex_lock(&w->store_mu);
    gmk_room_status st = gmk_room_create_hashed(w->store, cfg, code, token_sha256, name,
                                                web_wall_ms(), &room, err, errlen);
    pthread_mutex_unlock(&w->store_mu);
    live_room *lr = st == GMK_ROOM_OK ? room_new(w, room, code) : NULL;
    if (!lr) {
        gmk_room_free(room);
        pthread_mutex_unlock(&w->rooms_mu);
        *status = st == GMK_ROOM_BAD_REQUEST ? 400 : 500;
        if (!err[0]) snprintf(err, errlen, "could not open the room");
        return NULL;
    }
    room_insert(w, lr);
    lr->used_ms = web_now_ms();
    pthread_mutex_lock(&lr->mu);
    pthread_mutex_unlock(&w->rooms_mu);
    return lr;
}

/* --- closed streams -------------------------------------------------------------------- */

void room_stream_closed(void *ctx) {
    room_stream *rs = ctx;
    gmk_web *w = rs->room->web;
    pthread_mutex_lock(&w->timer_mu);
    rs->next = w->closed;
    w->closed = rs;
    w->timer_poked = true;
    pthread_cond_signal(&w->timer_cv);
    pthread_mutex_unlock(&w->timer_mu);
}

/* Disconnects the streams closed since last time (timer thread; no lock held). */
static void disconnect_closed(gmk_web *w) {
    pthread_mutex_lock(&w->timer_mu);
    room_stream *rs = w->closed;
    w->closed = NULL;
    pthread_mutex_unlock(&w->timer_mu);
    while (rs) {
        room_stream *next = rs->next;
        live_room *lr = rs->room;
        pthread_mutex_lock(&lr->mu);
        int64_t now = web_wall_ms();
        pthread_mutex_lock(&w->store_mu);
        if (rs->seat) {
            int seat = gmk_room_seat_of(lr->room, rs->token, GMK_WEB_TOKEN_BYTES);
            web_presence_seat(w, lr, seat, -1, now);
            gmk_room_disconnect(lr->room, rs->token, GMK_WEB_TOKEN_BYTES, now);
        } else
            gmk_room_spectator_leave(lr->room, now);
        pthread_mutex_unlock(&w->store_mu);
        if (!rs->seat) atomic_store(&lr->spectators_changed, true);
        lr->streams--;
        room_release(lr);
        free(rs);
        rs = next;
    }
}

/* --- the timer thread ------------------------------------------------------------------- */

/* The sweep (rooms_mu held; see SWEEP_EVERY_MS), then the store closes the rooms idle for a
 * day: none of them is in use, since a room in use has just been kept. */
static void sweep_idle(gmk_web *w, int64_t now) {
    int64_t mono = web_now_ms();
    live_room **pp = &w->rooms;
    while (*pp) {
        live_room *lr = *pp;
        pthread_mutex_lock(&lr->mu);
        gmk_room_state st;
        gmk_room_get_state(lr->room, now, &st);
        bool played = st.seat[0].connected || st.seat[1].connected;
        if (played && !atomic_load(&lr->dropped)) {
            pthread_mutex_lock(&w->store_mu);
            gmk_room_keep(lr->room, now);
            pthread_mutex_unlock(&w->store_mu);
            if (gmk_room_failed(lr->room)) drop(lr);
        }
        bool idle = !played && gmk_room_idle(lr->room, now);
        if (idle && lr->streams > 0) drop(lr); /* only watchers left: the room closes */
        bool unused = mono - lr->used_ms >= ROOM_UNUSED_MS && atomic_load(&lr->deadline) == 0;
        bool gone = lr->streams == 0 && (idle || unused || atomic_load(&lr->dropped));
        pthread_mutex_unlock(&lr->mu);
        if (gone) {
            *pp = lr->next;
            w->room_count--;
            room_free(lr);
        } else {
            pp = &lr->next;
        }
    }
    char err[256];
    int closed = 0;
    pthread_mutex_lock(&w->store_mu);
    if (gmk_room_close_idle(w->store, now, &closed, err, sizeof err) != GMK_ROOM_OK)
        fprintf(stderr, "gomoku serve: closing idle rooms: %s\n", err);
    pthread_mutex_unlock(&w->store_mu);
}

/* Tells the room's viewers how many watch it: an event of no number (the count is not in the
 * room's log), sent by the timer at most once a second whatever the churn. */
static void send_spectators(live_room *lr) {
    pthread_mutex_lock(&lr->mu);
    gmk_room_state st;
    gmk_room_get_state(lr->room, web_wall_ms(), &st);
    char text[96];
    snprintf(text, sizeof text, "event: spectators\ndata: {\"count\":%d}\n\n", st.spectators);
    if (!atomic_load(&lr->dropped)) hub_send(lr->hub, text);
    pthread_mutex_unlock(&lr->mu);
}

/* The first live room. Rooms are added at the head and freed only by sweep_idle, on the timer
 * thread, so that thread may follow the list without rooms_mu. */
static live_room *first_room(gmk_web *w) {
    pthread_mutex_lock(&w->rooms_mu);
    live_room *lr = w->rooms;
    pthread_mutex_unlock(&w->rooms_mu);
    return lr;
}

/* --- several servers on one database ---------------------------------------------------- */

/* The listener thread: receives the codes of the rooms any server saved (NOTIFY) and hands
 * them to the timer thread, which alone may free rooms. */
static void *listen_main(void *arg) {
    gmk_web *w = arg;
    gmk_store_listener *l = NULL;
    char err[256];
    char(*codes)[GMK_STORE_ROOM_CODE_MAX] = calloc(GMK_WEB_NEWS_MAX, sizeof *codes);
    int64_t *seqs = calloc(GMK_WEB_NEWS_MAX, sizeof *seqs);
    if (!codes || !seqs) {
        free(codes);
        free(seqs);
        return NULL;
    }
    bool warned = false;
    for (;;) {
        pthread_mutex_lock(&w->timer_mu);
        bool stop = w->timer_stop;
        pthread_mutex_unlock(&w->timer_mu);
        if (stop) break;
        int n = 0;
        bool lost = false, fresh = !l;
        if (!l && gmk_store_listener_open(w->store, &l, err, sizeof err) != GMK_STORE_OK) {
            if (!warned) fprintf(stderr, "gomoku serve: %s; retrying\n", err);
            warned = true;
            struct timespec ts = {.tv_sec = 1};
            nanosleep(&ts, NULL);
            continue;
        }
        /* listening (again): what was saved before is unknown, check every room and seek (a
         * seek posted elsewhere before this server listened would never be shown) */
        bool relisten = warned || fresh;
        warned = false;
        gmk_store_listener_wait(l, 500, codes, seqs, GMK_WEB_NEWS_MAX, &n, &lost);
        if (relisten) lost = true; /* after the wait, which starts by clearing it */
        if (n == 0 && !lost) continue;
        pthread_mutex_lock(&w->timer_mu);
        for (int i = 0; i < n; i++) {
            int k = 0;
            while (k < w->news_count && strcmp(w->news[k], codes[i]) != 0) k++;
            if (k < w->news_count) {
                if (seqs[i] > w->news_seq[k]) w->news_seq[k] = seqs[i];
            } else if (w->news_count < GMK_WEB_NEWS_MAX) {
                snprintf(w->news[k], GMK_STORE_ROOM_CODE_MAX, "%s", codes[i]);
                w->news_seq[k] = seqs[i];
                w->news_count++;
            } else {
                w->news_all = true;
            }
        }
        if (lost) w->news_all = true;
        w->timer_poked = true;
        pthread_cond_signal(&w->timer_cv);
        pthread_mutex_unlock(&w->timer_mu);
    }
    gmk_store_listener_close(l);
    free(codes);
    free(seqs);
    return NULL;
}

/* Brings a room kept here up to event seq, saved by some server (0: unknown, ask the store),
 * and sends the news to its viewers (timer thread). A server's own saves cost nothing. */
static void refresh_room(gmk_web *w, live_room *lr, int64_t seq) {
    pthread_mutex_lock(&lr->mu);
    pthread_mutex_lock(&w->store_mu);
    if (seq > 0)
        gmk_room_catch_up(lr->room, w->store, seq, NULL);
    else
        gmk_room_refresh(lr->room, w->store, false, NULL);
    pthread_mutex_unlock(&w->store_mu);
    room_release(lr);
}

/* Timer thread, shared database: the rooms other servers changed, and every second the rooms
 * whose flag fell more than a moment ago without their server acting (it may be dead): this
 * server loads them and ends the game on time. Two servers doing it at once are ordered by the
 * room's compare-and-set save; one of them acts. */
static void shared_rooms(gmk_web *w, int64_t now) {
    pthread_mutex_lock(&w->timer_mu);
    int n = w->news_count;
    bool all = w->news_all;
    static char news[GMK_WEB_NEWS_MAX][GMK_STORE_ROOM_CODE_MAX];
    static int64_t seqs[GMK_WEB_NEWS_MAX];
    memcpy(news, w->news, (size_t)n * sizeof news[0]);
    memcpy(seqs, w->news_seq, (size_t)n * sizeof seqs[0]);
    w->news_count = 0;
    w->news_all = false;
    pthread_mutex_unlock(&w->timer_mu);
    for (int i = 0; i < n; i++) /* the lobby's news: a seek changed, a chat line was said */
        if (news[i][0] == '~') lobby_news(w, news[i]);
    if (all) lobby_news_lost(w);
    for (live_room *lr = first_room(w); lr; lr = lr->next) {
        int i = 0;
        while (i < n && strcmp(news[i], lr->code) != 0) i++;
        if (all)
            refresh_room(w, lr, 0); /* news was lost: ask the store */
        else if (i < n)
            refresh_room(w, lr, seqs[i]);
    }
    if (now < w->next_overdue) return;
    w->next_overdue = now + 1000;
    char err[256];
    int count = 0;
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st = gmk_store_rooms_overdue(w->store, now, OVERDUE_GRACE_MS, news,
                                                  GMK_WEB_NEWS_MAX, &count, err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
    if (st != GMK_STORE_OK) return;
    for (int i = 0; i < count; i++) {
        unsigned status = 0;
        live_room *lr = room_get(w, news[i], &status, err, sizeof err);
        if (!lr) continue;
        pthread_mutex_lock(&w->store_mu);
        gmk_room_refresh(lr->room, w->store, true, NULL); /* the stored clocks, whatever we had */
        bool ended = gmk_room_tick(lr->room, web_wall_ms());
        uint64_t seq = ended ? web_wrote(w) : 0;
        pthread_mutex_unlock(&w->store_mu);
        room_release(lr);
        if (seq) web_durable(w, seq);
    }
}

static void *timer_main(void *arg) {
    gmk_web *w = arg;
    int64_t next_sweep = web_wall_ms() + FIRST_SWEEP_MS, next_ping = web_wall_ms() + PING_EVERY_MS;
    int64_t next_check = web_wall_ms() + 1000;
    for (;;) {
        disconnect_closed(w);
        free_evicted(w);
        int64_t now = web_wall_ms();
        int64_t wake = now + 1000;
        for (live_room *lr = first_room(w); lr; lr = lr->next) {
            if (atomic_exchange(&lr->spectators_changed, false)) send_spectators(lr);
            int64_t d = atomic_load(&lr->deadline);
            if (d != 0 && d <= now) { /* a flag has fallen: end the game now */
                pthread_mutex_lock(&lr->mu);
                pthread_mutex_lock(&w->store_mu);
                if (gmk_store_is_shared(w->store)) /* the other servers' moves first */
                    gmk_room_refresh(lr->room, w->store, false, NULL);
                bool ended = gmk_room_tick(lr->room, web_wall_ms());
                uint64_t seq = ended ? web_wrote(w) : 0;
                pthread_mutex_unlock(&w->store_mu);
                room_release(lr);
                if (seq) web_durable(w, seq); /* the result on disk, as a move's */
                d = atomic_load(&lr->deadline);
            }
            if (d != 0 && d < wake) wake = d;
        }
        if (gmk_store_is_shared(w->store)) {
            web_presence_beat(w, now);
            shared_rooms(w, now);
        }
        bool check = now >= next_check;
        if (check) { /* closed tabs, without waking MHD */
            for (live_room *lr = first_room(w); lr; lr = lr->next) hub_check_closed(lr->hub);
            next_check = now + 1000;
        }
        lobby_tick(w, now, check);
        if (now >= next_ping) {
            for (live_room *lr = first_room(w); lr; lr = lr->next) hub_ping(lr->hub);
            next_ping = now + PING_EVERY_MS;
        }
        if (now >= next_sweep) {
            pthread_mutex_lock(&w->rooms_mu);
            sweep_idle(w, now);
            pthread_mutex_unlock(&w->rooms_mu);
            next_sweep = now + SWEEP_EVERY_MS;
        }
        pthread_mutex_lock(&w->timer_mu);
        struct timespec ts = {.tv_sec = wake / 1000, .tv_nsec = (wake % 1000) * 1000000};
        while (!w->timer_poked && !w->timer_stop)
            if (pthread_cond_timedwait(&w->timer_cv, &w->timer_mu, &ts) == ETIMEDOUT) break;
        bool stop = w->timer_stop;
        w->timer_poked = false;
        pthread_mutex_unlock(&w->timer_mu);
        if (stop) break;
    }
    return NULL;
}

bool rooms_start(gmk_web *w) {
    pthread_mutex_init(&w->rooms_mu, NULL);
    pthread_mutex_init(&w->timer_mu, NULL);
    pthread_cond_init(&w->timer_cv, NULL); /* CLOCK_REALTIME, as the rooms' deadlines */
    w->rooms_thread_started = pthread_create(&w->rooms_thread, NULL, timer_main, w) == 0;
    return w->rooms_thread_started;
}

void rooms_watch_clocks(gmk_web *w) {
    web_presence_start(w); /* the store is open now */
    if (gmk_store_is_shared(w->store) && !w->listen_started)
        w->listen_started = pthread_create(&w->listen_thread, NULL, listen_main, w) == 0;
    enum { MAX_WATCHED = 100000 };
    char err[256];
    int count = 0;
    char(*codes)[GMK_STORE_ROOM_CODE_MAX] = calloc(MAX_WATCHED, sizeof *codes);
    if (!codes) return;
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st =
        gmk_store_rooms_clocked(w->store, codes, MAX_WATCHED, &count, err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
    if (st != GMK_STORE_OK) fprintf(stderr, "gomoku serve: %s\n", err);
    for (int i = 0; i < count; i++) {
        unsigned status = 0;
        live_room *lr = room_get(w, codes[i], &status, err, sizeof err);
        if (lr) {
            room_release(lr);
        } else if (status == 503) { /* --rooms-max: the others' flags fall when they are read */
            fprintf(stderr, "gomoku serve: %d rooms with a clock running are not watched: %s\n",
                    count - i, err);
            break;
        } else {
            fprintf(stderr, "gomoku serve: room %.4s...: %s\n", codes[i], err);
        }
    }
    free(codes);
    pthread_mutex_lock(&w->timer_mu); /* the timer looks at the rooms' deadlines now */
    w->timer_poked = true;
    pthread_cond_signal(&w->timer_cv);
    pthread_mutex_unlock(&w->timer_mu);
}

void rooms_close_streams(gmk_web *w) {
    pthread_mutex_lock(&w->timer_mu);
    w->timer_stop = true;
    pthread_cond_signal(&w->timer_cv);
    pthread_mutex_unlock(&w->timer_mu);
    if (w->rooms_thread_started) pthread_join(w->rooms_thread, NULL);
    w->rooms_thread_started = false;
    if (w->listen_started) pthread_join(w->listen_thread, NULL);
    w->listen_started = false;
    web_presence_stop(w); /* its streams close now */
    pthread_mutex_lock(&w->rooms_mu);
    for (live_room *lr = w->rooms; lr; lr = lr->next) hub_close_all(lr->hub);
    pthread_mutex_unlock(&w->rooms_mu);
}

void rooms_free_all(gmk_web *w) {
    room_stream *rs = w->closed; /* closed after the timer stopped: nothing more to tell */
    while (rs) {
        room_stream *next = rs->next;
        free(rs);
        rs = next;
    }
    w->closed = NULL;
    free_evicted(w);
    live_room *lr = w->rooms;
    while (lr) {
        live_room *next = lr->next;
        room_free(lr);
        lr = next;
    }
    w->rooms = NULL;
    w->room_count = 0;
    pthread_cond_destroy(&w->timer_cv);
    pthread_mutex_destroy(&w->timer_mu);
    pthread_mutex_destroy(&w->rooms_mu);
}
