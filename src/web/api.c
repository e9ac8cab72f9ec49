/* api.c: the routes of one game (/api/games/{id}...) of docs/http-api.md. Each turns the
 * request into a call of src/game/session.c under the game's lock, publishes what changed to
 * the game's viewers and answers with the state. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "core/renju.h"
#include "web/web_internal.h"

static bool is_owner(const web_request *rq, const live_game *g) {
    if (!rq->has_token || !g->has_owner) return false;
    return sodium_memcmp(rq->token_hash, g->owner, GMK_WEB_HASH_LEN) == 0;
}

json_t *web_body_json(web_request *rq, enum MHD_Result *result) {
    const char *ct = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "Content-Type");
    if (!ct || strncasecmp(ct, "application/json", 16) != 0 ||
        (ct[16] != '\0' && ct[16] != ';' && ct[16] != ' ')) {
        *result = web_error(rq, 415, "the body must be application/json");
        return NULL;
    }
    json_error_t je;
    json_t *j = rq->body ? json_loadb(rq->body, rq->body_len, JSON_REJECT_DUPLICATES, &je) : NULL;
    if (!j || !json_is_object(j)) { /* in our words: the parser's texts name its internals */
        char msg[128];
        if (!rq->body)
            snprintf(msg, sizeof msg, "the body is empty; it must be a JSON object");
        else if (!j)
            snprintf(msg, sizeof msg, "the body is not valid JSON (near line %d, column %d)",
                     je.line, je.column);
        else
            snprintf(msg, sizeof msg, "the body must be a JSON object");
        json_decref(j);
        *result = web_error(rq, 400, msg);
        return NULL;
    }
    return j;
}

static enum MHD_Result reply_state(web_request *rq, live_game *g, unsigned status) {
    json_t *j = web_state_json(g, is_owner(rq, g));
    live_release(g);
    return web_json(rq, status, j);
}

static enum MHD_Result refuse(web_request *rq, live_game *g, unsigned status, const char *msg) {
    live_release(g);
    return web_error(rq, status, msg);
}

/* Whether the session's next step makes the computer think: then a place in the pool is
 * reserved first, so that a full pool refuses the request (503) before anything changes. */
static bool mode_has_computer(live_game *g) {
    gmk_session_state st;
    gmk_session_get_state(g->session, &st);
    return st.mode != GMK_PLAY_HVH;
}

static enum MHD_Result do_move(web_request *rq, live_game *g) {
    enum MHD_Result res;
    json_t *body = web_body_json(rq, &res);
    if (!body) {
        live_release(g);
        return res;
    }
    const gmk_board *b = gmk_session_board(g->session);
    gmk_pos p;
    if (!web_parse_point(json_object_get(body, "point"), b->size, &p)) {
        json_decref(body);
        return refuse(rq, g, 400, "point must be a point on the board, such as \"h8\"");
    }
    json_t *ply = json_object_get(body, "ply");
    if (ply && !json_is_integer(ply)) {
        json_decref(body);
        return refuse(rq, g, 400, "ply must be a number");
    }
    bool stale = ply && json_integer_value(ply) != b->move_count;
    json_decref(body);
    gmk_forbid_kind kind = GMK_FORBID_NONE;
    gmk_play_verdict v = stale ? GMK_PLAY_NOT_YOUR_TURN : gmk_session_check(g->session, p, &kind);
    if (v != GMK_PLAY_OK) {
        static const char *const reasons[] = {"",          "off-board",     "occupied", "forbidden",
                                              "game-over", "not-your-turn", "choose"};
        static const char *const texts[] = {"",
                                            "the point is off the board",
                                            "the point is taken",
                                            "the move is forbidden for black",
                                            "the game is over",
                                            "it is not your turn",
                                            "choose a colour first"};
        json_t *j = json_object();
        json_object_set_new(j, "error", json_string(stale ? "the game has moved on" : texts[v]));
        json_object_set_new(j, "reason", json_string(stale ? "stale" : reasons[v]));
        if (v == GMK_PLAY_FORBIDDEN)
            json_object_set_new(j, "kind", json_string(gmk_forbid_name(kind)));
        live_release(g);
        return web_json(rq, v == GMK_PLAY_OFF_BOARD ? 400 : 409, j);
    }
    bool reserved = mode_has_computer(g);
    if (reserved && !gmk_pool_reserve(g->web->pool))
        return refuse(rq, g, 503, "the server is busy");
    int before = b->move_count, ev = 0;
    pthread_mutex_lock(&g->web->store_mu);
    gmk_session_play(g->session, p, false, NULL, &ev);
    uint64_t seq = web_wrote(g->web);
    pthread_mutex_unlock(&g->web->store_mu);
    if (!live_saved(g)) {
        if (reserved) gmk_pool_unreserve(g->web->pool);
        return refuse(rq, g, 500, "the move could not be saved; the game is read again as stored");
    }
    live_kick(g, reserved);
    json_t *j = web_state_json(g, true);
    rq->pub_game = g->id; /* shown to the viewers, and answered, once it is on disk */
    rq->pub_before = before;
    rq->pub_ev = ev;
    live_release(g);
    return web_durable_reply(rq, seq, 200, j);
}

typedef enum { ACT_UNDO, ACT_REDO, ACT_RESIGN, ACT_HINT } action;

static enum MHD_Result do_action(web_request *rq, live_game *g, action a) {
    const gmk_board *b = gmk_session_board(g->session);
    int before = b->move_count, ev = 0;
    bool reserved = false;
    if (a == ACT_HINT || (a == ACT_REDO && mode_has_computer(g))) {
        reserved = gmk_pool_reserve(g->web->pool);
        if (!reserved && a == ACT_HINT) return refuse(rq, g, 503, "the server is busy");
    }
    bool ok;
    pthread_mutex_lock(&g->web->store_mu);
    switch (a) {
    case ACT_UNDO: ok = gmk_session_undo(g->session, &ev); break;
    case ACT_REDO: ok = gmk_session_redo(g->session, &ev); break;
    case ACT_RESIGN: ok = gmk_session_resign(g->session, &ev); break;
    default: ok = gmk_session_hint(g->session, &ev); break;
    }
    uint64_t seq = ok && a != ACT_HINT ? web_wrote(g->web) : 0;
    pthread_mutex_unlock(&g->web->store_mu);
    if (!live_saved(g)) {
        if (reserved) gmk_pool_unreserve(g->web->pool);
        return refuse(rq, g, 500,
                      "the change could not be saved; the game is read again as stored");
    }
    if (seq && !web_durable(g->web, seq)) {
        live_kick(g, reserved);
        return refuse(rq, g, 500, "the change could not be saved to the disk");
    }
    live_kick(g, reserved);
    if (!ok) {
        static const char *const msgs[] = {"there is nothing to undo", "there is nothing to redo",
                                           "the game is over", "no human is to move"};
        return refuse(rq, g, 409, msgs[a]);
    }
    if (a == ACT_UNDO) gmk_pool_stop(g->web->pool, g); /* a search it made stale */
    int after = gmk_session_board(g->session)->move_count;
    live_publish(g, after > before ? before : after, ev);
    return reply_state(rq, g, a == ACT_HINT ? 202 : 200);
}

/* Swap openings: the human's choice, {"choice": "black" | "white" | "place2"}. */
static enum MHD_Result do_choose(web_request *rq, live_game *g) {
    enum MHD_Result res;
    json_t *body = web_body_json(rq, &res);
    if (!body) {
        live_release(g);
        return res;
    }
    gmk_swap_choice c;
    json_t *v = json_object_get(body, "choice");
    bool parsed = json_is_string(v) && gmk_swap_choice_parse(json_string_value(v), &c);
    json_decref(body);
    if (!parsed) return refuse(rq, g, 400, "choice must be black, white or place2");
    bool reserved = mode_has_computer(g);
    if (reserved && !gmk_pool_reserve(g->web->pool))
        return refuse(rq, g, 503, "the server is busy");
    int before = gmk_session_board(g->session)->move_count, ev = 0;
    pthread_mutex_lock(&g->web->store_mu);
    bool ok = gmk_session_swap_choose(g->session, c, &ev);
    uint64_t seq = ok ? web_wrote(g->web) : 0;
    pthread_mutex_unlock(&g->web->store_mu);
    if (!live_saved(g)) {
        if (reserved) gmk_pool_unreserve(g->web->pool);
        return refuse(rq, g, 500,
                      "the choice could not be saved; the game is read again as stored");
    }
    if (seq && !web_durable(g->web, seq)) {
        live_kick(g, reserved);
        return refuse(rq, g, 500, "the choice could not be saved to the disk");
    }
    live_kick(g, reserved);
    if (!ok) return refuse(rq, g, 409, "there is no such choice to make now");
    live_publish(g, before, ev);
    return reply_state(rq, g, 200);
}

static enum MHD_Result do_events(web_request *rq, live_game *g) {
    bool owner = is_owner(rq, g);
    json_t *j = web_state_json(g, owner);
    char *first = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    struct MHD_Response *resp = first ? hub_attach(g->hub, rq->conn, owner, "state", first) : NULL;
    free(first);
    live_release(g);
    if (!resp) return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", "text/event-stream; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Accel-Buffering", "no");
    return web_queue(rq, 200, resp);
}

static enum MHD_Result do_record(web_request *rq, live_game *g) {
    const char *fmt = MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, "format");
    if (!fmt) fmt = "psq";
    if (strcmp(fmt, "psq") != 0 && strcmp(fmt, "sgf") != 0 && strcmp(fmt, "moves") != 0)
        return refuse(rq, g, 400, "format must be psq, sgf or moves");
    gmk_store_record *sr = malloc(sizeof *sr);
    gmk_record *rec = malloc(sizeof *rec);
    char *text = malloc(64 * 1024);
    char err[256] = "out of memory";
    int len = -1;
    if (sr && rec && text) {
        pthread_mutex_lock(&g->web->store_mu);
        gmk_store_status st = gmk_store_game_load(g->web->store, g->id, sr, err, sizeof err);
        pthread_mutex_unlock(&g->web->store_mu);
        if (st == GMK_STORE_OK) {
            const gmk_store_game *sg = &sr->game;
            gmk_record_init(rec, sg->size, sg->rule);
            for (int i = 0; i < sg->move_count; i++) {
                int64_t t = sr->moves[i].time_ms;
                gmk_record_add(rec, gmk_pos_xy(sr->moves[i].x, sr->moves[i].y),
                               (int32_t)(t < 0           ? 0
                                         : t > INT32_MAX ? INT32_MAX
                                                         : t));
            }
            snprintf(rec->black, sizeof rec->black, "%s", sg->black);
            snprintf(rec->white, sizeof rec->white, "%s", sg->white);
            if (sg->finished && !sg->abandoned) {
                rec->outcome = sg->outcome;
                rec->reason = sg->reason;
            }
            len = strcmp(fmt, "psq") == 0   ? gmk_record_write_psq(rec, text, 64 * 1024)
                  : strcmp(fmt, "sgf") == 0 ? gmk_record_write_sgf(rec, text, 64 * 1024)
                                            : gmk_record_write_moves(rec, text, 64 * 1024);
        }
    }
    int64_t id = g->id;
    live_release(g);
    free(sr);
    free(rec);
    if (len < 0) {
        free(text);
        return web_error(rq, 500, err);
    }
    if (strcmp(fmt, "moves") == 0) text[len++] = '\n';
    struct MHD_Response *resp =
        MHD_create_response_from_buffer((size_t)len, text, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(text);
        return MHD_NO;
    }
    char cd[96];
    snprintf(cd, sizeof cd, "attachment; filename=\"gomoku-%lld.%s\"", (long long)id,
             strcmp(fmt, "moves") == 0 ? "txt" : fmt);
    MHD_add_response_header(resp, "Content-Disposition", cd);
    MHD_add_response_header(resp, "Content-Type",
                            strcmp(fmt, "sgf") == 0 ? "application/x-go-sgf"
                                                    : "text/plain; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    return web_queue(rq, 200, resp);
}

/* /api/games/{id}[/{what}] */
static enum MHD_Result game_route(web_request *rq, const char *rest) {
    char *end;
    if (*rest < '1' || *rest > '9') return web_error(rq, 404, "no such game");
    errno = 0;
    long long id = strtoll(rest, &end, 10);
    if (errno == ERANGE) return web_error(rq, 404, "no such game: the id is out of range");
    const char *what = *end == '/' ? end + 1 : end;
    if (*end != '\0' && *end != '/') return web_error(rq, 404, "no such game");
    static const char *const posts[] = {"move", "undo", "redo", "resign", "hint", "choose"};
    bool is_get = strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0;
    bool is_post = strcmp(rq->method, "POST") == 0;
    int post = -1;
    for (int i = 0; i < 6; i++)
        if (strcmp(what, posts[i]) == 0) post = i;
    bool known_get = *what == '\0' || strcmp(what, "events") == 0 || strcmp(what, "record") == 0;
    if (post < 0 && !known_get) return web_error(rq, 404, "no such route");
    if ((post >= 0 && !is_post) || (known_get && !is_get))
        return web_error(rq, 405, post >= 0 ? "use POST" : "use GET");
    unsigned status = 500;
    char err[256];
    live_game *g = live_get(rq->web, id, &status, err, sizeof err);
    if (!g) return web_error(rq, status, err);
    if (*what == '\0') return reply_state(rq, g, 200);
    if (strcmp(what, "events") == 0 && strcmp(rq->method, "HEAD") == 0) {
        live_release(g);
        return web_stream_head(rq);
    }
    if (strcmp(what, "events") == 0) return do_events(rq, g);
    if (strcmp(what, "record") == 0) return do_record(rq, g);
    if (!is_owner(rq, g)) return refuse(rq, g, 403, "this game belongs to another browser");
    enum MHD_Result limited;
    if ((post == 1 || post == 2 || post == 5) && !limits_write_take(rq, &limited)) {
        /* undo, redo, choose: see Limits */
        live_release(g);
        return limited;
    }
    switch (post) {
    case 0: return do_move(rq, g);
    case 1: return do_action(rq, g, ACT_UNDO);
    case 2: return do_action(rq, g, ACT_REDO);
    case 3: return do_action(rq, g, ACT_RESIGN);
    case 5: return do_choose(rq, g);
    default: return do_action(rq, g, ACT_HINT);
    }
}

enum MHD_Result web_api(web_request *rq) {
    bool handled = false;
    enum MHD_Result r = web_review_api(rq, &handled);
    if (handled) return r;
    r = web_coach_api(rq, &handled);
    if (handled) return r;
    r = web_puzzle_api(rq, &handled);
    if (handled) return r;
    if (strncmp(rq->path, "/api/games/", 11) == 0) return game_route(rq, rq->path + 11);
    r = web_rooms_api(rq, &handled);
    if (handled) return r;
    r = web_account_api(rq, &handled);
    if (handled) return r;
    r = web_players_api(rq, &handled);
    if (handled) return r;
    r = web_lobby_api(rq, &handled);
    if (handled) return r;
    r = web_api_misc(rq, &handled);
    if (handled) return r;
    return web_error(rq, 404, "no such route");
}
