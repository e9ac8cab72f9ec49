/* lobby_api.c: the routes of the lobby (/api/lobby..., docs/http-api.md "Lobby"): its event
 * stream, posting and cancelling a seek, accepting one, and quick pairing ("play now"). A
 * player is its account when signed in, else its browser (the owner cookie); its tag (the
 * first bytes of a SHA-256 of either) marks its seeks and its streams. A seek is posted with
 * its room drawn already (a code, and a seat token whose cookie the poster gets at once), so
 * that whoever takes it, on any server, opens that room with the poster in seat 0 and joins
 * seat 1; the poster's streams are told the code ("paired"). The lobby's chat is posted here
 * too (say), its lines kept and sent by lobby_chat.c. Rules: game/lobby.h. */
#include <stdlib.h>
#include <string.h>

#include "game/lobby.h"
#include "game/rating.h"
#include "web/web_internal.h"

typedef struct {
    uint8_t tag[HUB_TAG_LEN];
    int64_t account; /* 0: a guest */
    char name[GMK_ROOM_NAME_MAX];
    int rating;
} lobby_who;

/* Who asks: its account, else its browser (an owner cookie is made when it has none). The
 * name is the account's, else the body's "name" (body NULL: none needed). */
static bool who_of(web_request *rq, json_t *body, lobby_who *who, unsigned *status, char *err,
                   size_t errlen) {
    memset(who, 0, sizeof *who);
    who->rating = GMK_LOBBY_RATING; /* until ratings: everyone's (docs/lobby.md) */
    uint8_t h[crypto_hash_sha256_BYTES];
    if (web_account(rq)) {
        char key[48];
        snprintf(key, sizeof key, "account:%lld", (long long)rq->account_id);
        crypto_hash_sha256(h, (const uint8_t *)key, strlen(key));
        who->account = rq->account_id;
        snprintf(who->name, sizeof who->name, "%s", rq->account_name);
    } else {
        if (!web_ensure_token(rq)) {
            *status = 500;
            snprintf(err, errlen, "no random numbers");
            return false;
        }
        uint8_t in[6 + GMK_WEB_HASH_LEN];
        memcpy(in, "guest:", 6);
        memcpy(in + 6, rq->token_hash, GMK_WEB_HASH_LEN);
        crypto_hash_sha256(h, in, sizeof in);
        const char *name;
        if (body && !room_read_name(body, &name, err, errlen)) {
            *status = 400;
            return false;
        }
        if (body) snprintf(who->name, sizeof who->name, "%s", name);
    }
    memcpy(who->tag, h, HUB_TAG_LEN);
    return true;
}

/* who's rating for the game of k (its rule and time-control class): its account's Glicko-2
 * rating (game/rating.h), rounded; GMK_LOBBY_RATING for a guest or an account without one. */
static void rate(web_request *rq, lobby_who *who, const gmk_store_seek *k) {
    who->rating = GMK_LOBBY_RATING;
    if (who->account <= 0) return;
    gmk_store_rating r;
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st =
        gmk_store_rating_get(rq->web->store, who->account, k->rule,
                             gmk_rating_tc_of(k->clock_ms, k->increment_ms), &r, NULL, 0);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st == GMK_STORE_OK && r.rating > 0 && r.rating < 10000) who->rating = (int)(r.rating + 0.5);
}

static json_t *you_json(const lobby_who *who) {
    json_t *j = json_object();
    json_object_set_new(j, "name", web_string(who->name));
    json_object_set_new(j, "rating", json_integer(who->rating));
    json_object_set_new(j, "signed_in", json_boolean(who->account > 0));
    return j;
}

/* --- the stream --------------------------------------------------------------------------- */

static enum MHD_Result lobby_events(web_request *rq) {
    if (strcmp(rq->method, "HEAD") == 0) return web_stream_head(rq);
    lobby_who who;
    unsigned status = 500;
    char err[256] = "";
    if (!who_of(rq, NULL, &who, &status, err, sizeof err)) return web_error(rq, status, err);
    char *first = lobby_start_text(rq->web, who.tag, you_json(&who));
    void *ctx = first ? lobby_close_ctx(rq->web, who.tag) : NULL;
    struct MHD_Response *resp = ctx ? hub_attach_tagged(lobby_hub(rq->web), rq->conn, 0, who.tag,
                                                        NULL, first, lobby_stream_closed, ctx)
                                    : NULL;
    free(first);
    if (!resp) {
        free(ctx);
        return web_error(rq, 500, "out of memory");
    }
    lobby_stream_opened(rq->web, who.tag);
    MHD_add_response_header(resp, "Content-Type", "text/event-stream; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Accel-Buffering", "no");
    return web_queue(rq, 200, resp);
}

/* --- seeks -------------------------------------------------------------------------------- */

/* The settings of a seek from the body: rule, size, clock (as a room's), rated, color. */
static bool read_seek(json_t *body, gmk_store_seek *k, gmk_room_config *cfg, char *err,
                      size_t errlen) {
    json_t *copy = json_deep_copy(body);
    json_object_del(copy, "black");   /* a seek says "color", the poster's */
    json_object_del(copy, "opening"); /* a seek's room plays the free opening (not stored) */
    bool ok = room_read_config(copy, cfg, err, errlen);
    json_decref(copy);
    if (!ok) return false;
    json_t *c = json_object_get(body, "color");
    const char *cs = json_is_string(c) ? json_string_value(c) : c ? "" : "random";
    k->color = strcmp(cs, "random") == 0  ? 0
               : strcmp(cs, "black") == 0 ? 1
               : strcmp(cs, "white") == 0 ? 2
                                          : -1;
    if (k->color < 0) {
        snprintf(err, errlen, "color must be black, white or random");
        return false;
    }
    json_t *r = json_object_get(body, "rated");
    if (r && !json_is_boolean(r)) {
        snprintf(err, errlen, "rated must be true or false");
        return false;
    }
    k->rated = json_is_true(r);
    k->rule = cfg->rule;
    k->size = cfg->size;
    k->clock_ms = (int64_t)cfg->clock_minutes * 60000;
    k->increment_ms = (int64_t)cfg->increment_s * 1000;
    return true;
}

/* Posts k for who (kind set by the caller): draws its room's code and the poster's seat token
 * (the cookie goes with this reply), stores it, tells the viewers. 0 or an HTTP status. */
static unsigned post(web_request *rq, const lobby_who *who, gmk_store_seek *k, char *err,
                     size_t errlen) {
    uint8_t rnd[GMK_ROOM_CODE_RANDOM], token[GMK_WEB_TOKEN_BYTES];
    web_random(rnd, sizeof rnd);
    web_random(token, sizeof token);
    char code[GMK_ROOM_CODE_LEN + 1];
    gmk_room_code_make(rnd, code);
    snprintf(k->code, sizeof k->code, "%s", code);
    crypto_hash_sha256(k->token_sha256, token, sizeof token);
    memcpy(k->poster, who->tag, HUB_TAG_LEN);
    memcpy(k->client, rq->client.b, GMK_STORE_CLIENT_LEN);
    snprintf(k->name, sizeof k->name, "%s", who->name);
    k->account = who->account;
    k->rating = who->rating;
    k->created_ms = web_wall_ms();
    k->expires_ms =
        k->created_ms + (k->kind == GMK_SEEK_QUICK ? GMK_LOBBY_QUICK_MS : GMK_LOBBY_SEEK_MS);
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_seek_add(rq->web->store, k, GMK_LOBBY_MAX_OPEN, err, errlen);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st == GMK_STORE_BUSY) {
        snprintf(err, errlen, "you have %d seeks open already; cancel one or wait",
                 GMK_LOBBY_MAX_OPEN);
        return 429;
    }
    if (st != GMK_STORE_OK) return 500;
    room_set_seat_cookie(rq, code, token);
    lobby_seen(rq->web, k->id, k);
    return 0;
}

/* Opens the room of seek k, just taken, with its poster in seat 0 and who joining seat 1 (the
 * seat cookie goes with this reply); the poster's streams are told. Answers the room's state. */
static enum MHD_Result open_room(web_request *rq, const lobby_who *who, const gmk_store_seek *k,
                                 unsigned ok_status) {
    gmk_room_config cfg = {.rule = k->rule,
                           .size = k->size,
                           .clock_minutes = (int)(k->clock_ms / 60000),
                           .increment_s = (int)(k->increment_ms / 1000)};
    cfg.rated = k->rated;
    cfg.account = k->account;
    cfg.black = k->color == 1   ? GMK_ROOM_BLACK_ME
                : k->color == 2 ? GMK_ROOM_BLACK_FRIEND
                                : GMK_ROOM_BLACK_RANDOM;
    uint8_t bit = 0;
    web_random(&bit, 1);
    cfg.random_bit = bit & 1;
    unsigned status = 500;
    char err[256] = "";
    live_room *lr =
        room_create_for(rq->web, &cfg, k->code, k->token_sha256, k->name, &status, err, sizeof err);
    lobby_seen(rq->web, k->id, k); /* taken: gone from the lobby, its poster told */
    if (!lr) return web_error(rq, status, err);
    uint8_t token[GMK_WEB_TOKEN_BYTES];
    web_random(token, sizeof token);
    int64_t now = web_wall_ms();
    int seat = -1;
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_room_status st =
        gmk_room_join_as(lr->room, token, sizeof token, who->name, who->account, now, &seat);
    uint64_t seq = st == GMK_ROOM_OK ? web_wrote(rq->web) : 0;
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_ROOM_OK) {
        room_release(lr);
        return web_error(rq, 500, "the room could not be joined");
    }
    room_set_seat_cookie(rq, lr->code, token);
    json_t *j = room_state_json(lr, now, seat);
    room_release(lr);
    return web_durable_reply(rq, seq, ok_status, j);
}

static enum MHD_Result post_seek(web_request *rq, json_t *body) {
    lobby_who who;
    unsigned status = 400;
    char err[256] = "";
    gmk_store_seek k;
    memset(&k, 0, sizeof k);
    gmk_room_config cfg;
    if (!who_of(rq, body, &who, &status, err, sizeof err) ||
        !read_seek(body, &k, &cfg, err, sizeof err))
        return web_error(rq, status, err);
    if (k.rated && who.account == 0) return web_error(rq, 403, "sign in to post a rated seek");
    rate(rq, &who, &k);
    enum MHD_Result res;
    if (!limits_write_take(rq, &res)) return res; /* a write nobody else asked for */
    k.kind = GMK_SEEK_OPEN;
    status = post(rq, &who, &k, err, sizeof err);
    if (status) return web_error(rq, status, err[0] ? err : "the seek could not be posted");
    return web_json(rq, 201, lobby_seek_json(&k));
}

static enum MHD_Result accept_seek(web_request *rq, int64_t id, json_t *body) {
    lobby_who who;
    unsigned status = 400;
    char err[256] = "";
    if (!who_of(rq, body, &who, &status, err, sizeof err)) return web_error(rq, status, err);
    gmk_store_seek k;
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_seek_get(rq->web->store, id, &k, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st == GMK_STORE_NOT_FOUND ||
        (st == GMK_STORE_OK && (k.state != 0 || k.kind != GMK_SEEK_OPEN)))
        return web_error(rq, 409, "that seek is no longer open");
    if (st != GMK_STORE_OK) return web_error(rq, 500, "the seek could not be read");
    if (memcmp(k.poster, who.tag, HUB_TAG_LEN) == 0)
        return web_error(rq, 409, "that is your own seek");
    if (k.rated && who.account == 0) return web_error(rq, 403, "sign in to play a rated game");
    pthread_mutex_lock(&rq->web->store_mu);
    st = gmk_store_seek_take(rq->web->store, id, &k, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st == GMK_STORE_NOT_FOUND) return web_error(rq, 409, "that seek is no longer open");
    if (st != GMK_STORE_OK) return web_error(rq, 500, "the seek could not be taken");
    return open_room(rq, &who, &k, 200);
}

static enum MHD_Result cancel_seek(web_request *rq, int64_t id) {
    lobby_who who;
    unsigned status = 500;
    char err[256] = "";
    if (!who_of(rq, NULL, &who, &status, err, sizeof err)) return web_error(rq, status, err);
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_seek_cancel(rq->web->store, id, who.tag, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st == GMK_STORE_NOT_FOUND) return web_error(rq, 404, "you have no such open seek");
    if (st != GMK_STORE_OK) return web_error(rq, 500, "the seek could not be cancelled");
    lobby_seen(rq->web, id, NULL);
    json_t *j = json_object();
    json_object_set_new(j, "cancelled", json_integer(id));
    return web_json(rq, 200, j);
}

/* POST /api/lobby/play: pairs the caller with a waiting player of close rating for the same
 * game (200, the room, as an accepted seek), or has it wait (202, {"waiting": id}). */
static enum MHD_Result play_now(web_request *rq, json_t *body) {
    lobby_who who;
    unsigned status = 400;
    char err[256] = "";
    gmk_store_seek k;
    memset(&k, 0, sizeof k);
    gmk_room_config cfg;
    if (!who_of(rq, body, &who, &status, err, sizeof err) ||
        !read_seek(body, &k, &cfg, err, sizeof err))
        return web_error(rq, status, err);
    if (k.rated && who.account == 0) return web_error(rq, 403, "sign in to play a rated game");
    k.kind = GMK_SEEK_QUICK;
    k.color = 0; /* quick pairing: colours at random */
    rate(rq, &who, &k);
    k.rating = who.rating;
    memcpy(k.poster, who.tag, HUB_TAG_LEN);
    gmk_store_seek found;
    bool hit = false;
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st =
        gmk_store_seek_match(rq->web->store, &k, web_wall_ms(), GMK_LOBBY_WINDOW,
                             GMK_LOBBY_WINDOW_PER_MS, &found, &hit, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) return web_error(rq, 500, "the lobby could not be read");
    if (hit) return open_room(rq, &who, &found, 200);
    enum MHD_Result res;
    if (!limits_write_take(rq, &res)) return res;
    status = post(rq, &who, &k, err, sizeof err);
    if (status) return web_error(rq, status, err[0] ? err : "could not wait for an opponent");
    json_t *j = json_object();
    json_object_set_new(j, "waiting", json_integer(k.id));
    json_object_set_new(j, "expires_ms", json_integer(k.expires_ms));
    return web_json(rq, 202, j);
}

/* --- chat --------------------------------------------------------------------------------- */

/* POST /api/lobby/chat {"text", "name" (a guest's)}: a line in the lobby's chat, checked and
 * cleaned as a room's (game/room.h), counted against the client's --chat-limit (429 past it,
 * nothing stored), stored, and sent to every lobby viewer (lobby_chat.c). */
static enum MHD_Result say(web_request *rq, json_t *body) {
    json_t *t = json_object_get(body, "text");
    char line[GMK_ROOM_CHAT_MAX];
    char err[256] = "";
    if (!json_is_string(t))
        return web_error(rq, 400, "text must be a chat line of 1 to 140 characters");
    if (json_string_length(t) != strlen(json_string_value(t)))
        return web_error(rq, 400, "the chat line holds a NUL character");
    if (!gmk_room_chat_clean(json_string_value(t), line, err, sizeof err))
        return web_error(rq, 400, err);
    lobby_who who;
    unsigned status = 400;
    if (!who_of(rq, body, &who, &status, err, sizeof err)) return web_error(rq, status, err);
    limit_verdict v = limits_take(rq->web->chats, &rq->client, web_now_ms());
    if (v == LIMIT_FULL)
        return web_error(rq, 503, "the server is serving too many clients; try again in a minute");
    if (v != LIMIT_OK)
        return web_error(rq, 429, "too many chat lines from your address; wait a minute");
    json_t *said = NULL;
    uint64_t seq = 0;
    status =
        lobby_chat_say(rq->web, who.tag, who.account, who.name, line, &said, &seq, err, sizeof err);
    if (status) return web_error(rq, status, "the chat line could not be saved; try again");
    return web_durable_reply(rq, seq, 201, said);
}

enum MHD_Result web_lobby_api(web_request *rq, bool *handled) {
    *handled = true;
    const char *p = rq->path;
    if (strncmp(p, "/api/lobby", 10) != 0 || (p[10] != '\0' && p[10] != '/')) {
        *handled = false;
        return MHD_NO;
    }
    bool get = strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0;
    bool is_post = strcmp(rq->method, "POST") == 0;
    if (strcmp(p, "/api/lobby/events") == 0)
        return get ? lobby_events(rq) : web_error(rq, 405, "use GET");
    int64_t id = 0;
    const char *what = NULL;
    if (strncmp(p, "/api/lobby/seeks/", 17) == 0) {
        char *end;
        long long v = strtoll(p + 17, &end, 10);
        if (p[17] < '1' || p[17] > '9' || v <= 0 || *end != '/')
            return web_error(rq, 404, "no such seek");
        id = v;
        what = end + 1;
        if (strcmp(what, "accept") != 0 && strcmp(what, "cancel") != 0)
            return web_error(rq, 404, "no such route");
    } else if (strcmp(p, "/api/lobby/seeks") != 0 && strcmp(p, "/api/lobby/play") != 0 &&
               strcmp(p, "/api/lobby/chat") != 0) {
        return web_error(rq, 404, "no such route");
    }
    if (!is_post) return web_error(rq, 405, "use POST");
    enum MHD_Result res;
    json_t *body = web_body_json(rq, &res);
    if (!body) return res;
    if (what && strcmp(what, "cancel") == 0)
        res = cancel_seek(rq, id);
    else if (what)
        res = accept_seek(rq, id, body);
    else if (strcmp(p, "/api/lobby/play") == 0)
        res = play_now(rq, body);
    else if (strcmp(p, "/api/lobby/chat") == 0)
        res = say(rq, body);
    else
        res = post_seek(rq, body);
    json_decref(body);
    return res;
}
