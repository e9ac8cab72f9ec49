/* api_account.c: players' accounts over HTTP (/api/account..., docs/http-api.md "Accounts",
 * docs/accounts.md): sign up, log in, log out, the sessions (listed and ended one by one or
 * everywhere else), a new password, deleting the account, and a player's own games and
 * scoreboard (the account's when signed in, else the browser's).
 *
 * A session is a random token of SESSION_BYTES in the cookie gmk_session (HttpOnly,
 * SameSite=Lax, Secure when the page came over HTTPS behind --trust-proxy); the store keeps its
 * SHA-256 only. It lasts SESSION_DAYS from its last use (noted at most once an hour). Sign-ups
 * and log-ins count against the client's --auth-limit with back-off (429 with Retry-After).
 * Log-in answers one message for a name nobody has and a wrong password, after the same
 * Argon2id work (a dummy hash stands in for the missing account's). Password hashing runs
 * with no lock held. Every state-changing route passed guard.c's origin check first (a form
 * posted from another site is refused 403 before it reaches here). The replies to writes wait
 * for the group commit (web_durable_reply). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/account.h"
#include "store/accounts.h"
#include "web/web_internal.h"

#define SESSION_BYTES 32
#define SESSION_DAYS 30
#define SESSION_TOUCH_S 3600
#define COOKIE "gmk_session"

static int64_t now_s(void) {
    return (int64_t)time(NULL);
}

static const char *header(web_request *rq, const char *name) {
    return MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, name);
}

/* Reads the session cookie into raw; false when it is missing or not 64 hex digits. */
static bool read_cookie(web_request *rq, uint8_t raw[SESSION_BYTES]) {
    const char *v = MHD_lookup_connection_value(rq->conn, MHD_COOKIE_KIND, COOKIE);
    if (!v || strlen(v) != 2 * SESSION_BYTES) return false;
    size_t bin_len = 0;
    return sodium_hex2bin(raw, SESSION_BYTES, v, 2 * SESSION_BYTES, NULL, &bin_len, NULL) == 0 &&
           bin_len == SESSION_BYTES;
}

static void set_cookie(web_request *rq, const char *value, int max_age) {
    snprintf(rq->session_cookie, sizeof rq->session_cookie,
             COOKIE "=%s; HttpOnly; SameSite=Lax; Path=/; Max-Age=%d%s", value, max_age,
             rq->https ? "; Secure" : "");
}

bool web_account(web_request *rq) {
    if (rq->account_state) return rq->account_state == 1;
    rq->account_state = 2;
    uint8_t raw[SESSION_BYTES], hash[GMK_STORE_SESSION_HASH];
    if (!read_cookie(rq, raw)) return false;
    crypto_hash_sha256(hash, raw, sizeof raw);
    gmk_store_account a;
    gmk_store_session se;
    int64_t now = now_s();
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_session_find(rq->web->store, hash, now, &a, &se, NULL, 0);
    if (st == GMK_STORE_OK && now - se.seen_s >= SESSION_TOUCH_S &&
        gmk_store_session_touch(rq->web->store, se.id, now, now + SESSION_DAYS * 86400LL, NULL,
                                0) == GMK_STORE_OK)
        web_wrote(rq->web); /* a later sync covers it; nobody waits for it */
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) return false;
    rq->account_state = 1;
    rq->account_id = a.id;
    rq->session_id = se.id;
    snprintf(rq->account_name, sizeof rq->account_name, "%s", a.name);
    return true;
}

static json_t *account_json(int64_t id, const char *name, int64_t created_s) {
    return json_pack("{s:I,s:o,s:I}", "id", (json_int_t)id, "name", web_string(name), "created",
                     (json_int_t)created_s);
}

/* A string field of the body, or NULL. */
static const char *str_field(json_t *body, const char *key) {
    json_t *v = json_object_get(body, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Counts a sign-up or log-in against the client's limit; false with the answer queued. */
static bool auth_take(web_request *rq, enum MHD_Result *res) {
    int64_t retry_ms = 0;
    limit_verdict v = limits_take_backoff(rq->web->auth, &rq->client, web_now_ms(), &retry_ms);
    if (v == LIMIT_OK) return true;
    if (v == LIMIT_FULL) {
        *res = web_error(rq, 503, "the server is serving too many clients; try again in a minute");
        return false;
    }
    rq->retry_after_s = (int)((retry_ms + 999) / 1000);
    *res = web_error(rq, 429, "too many sign-ups or log-ins from your address; wait and try again");
    return false;
}

/* Opens a session for account (store_mu held): the cookie, and the browser's guest games
 * claimed. False when the store failed (err set). */
static bool open_session(web_request *rq, int64_t account, char *err, size_t errlen) {
    uint8_t raw[SESSION_BYTES], hash[GMK_STORE_SESSION_HASH];
    web_random(raw, sizeof raw);
    crypto_hash_sha256(hash, raw, sizeof raw);
    int64_t now = now_s(), id = 0;
    const char *agent = header(rq, "User-Agent");
    if (gmk_store_session_create(rq->web->store, account, hash, now, now + SESSION_DAYS * 86400LL,
                                 agent, &id, err, errlen) != GMK_STORE_OK)
        return false;
    if (rq->has_token)
        gmk_store_account_claim(rq->web->store, account, rq->token_hash, NULL, NULL, 0);
    char hex[2 * SESSION_BYTES + 1];
    sodium_bin2hex(hex, sizeof hex, raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
    set_cookie(rq, hex, SESSION_DAYS * 86400);
    rq->account_state = 1;
    rq->account_id = account;
    rq->session_id = id;
    return true;
}

/* The room seats a guest browser holds (its gmk_seat_CODE cookies), gathered for claiming. */
#define SEATS_MAX 16
typedef struct {
    int n;
    char code[SEATS_MAX][GMK_ROOM_CODE_LEN + 1];
    uint8_t token[SEATS_MAX][GMK_WEB_TOKEN_BYTES];
} seat_cookies;

static enum MHD_Result gather_seat(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value) {
    (void)kind;
    seat_cookies *sc = cls;
    size_t n = 0;
    if (strncmp(key, "gmk_seat_", 9) != 0 || strlen(key + 9) != GMK_ROOM_CODE_LEN || !value ||
        strlen(value) != 2 * GMK_WEB_TOKEN_BYTES)
        return MHD_YES;
    if (sodium_hex2bin(sc->token[sc->n], GMK_WEB_TOKEN_BYTES, value, 2 * GMK_WEB_TOKEN_BYTES, NULL,
                       &n, NULL) != 0 ||
        n != GMK_WEB_TOKEN_BYTES)
        return MHD_YES;
    memcpy(sc->code[sc->n], key + 9, GMK_ROOM_CODE_LEN + 1);
    return ++sc->n < SEATS_MAX ? MHD_YES : MHD_NO;
}

/* Signing up or logging in in a browser that played online as a guest: its seats become the
 * account's (in memory first, so a save meanwhile keeps it), and their games follow it. No
 * lock held; a seat that is not a guest's any more is left alone. */
static void claim_seats(web_request *rq, int64_t account) {
    seat_cookies sc = {0};
    MHD_get_connection_values(rq->conn, MHD_COOKIE_KIND, gather_seat, &sc);
    for (int i = 0; i < sc.n; i++) {
        uint8_t hash[GMK_STORE_SESSION_HASH];
        crypto_hash_sha256(hash, sc.token[i], GMK_WEB_TOKEN_BYTES);
        rooms_claim_seat(rq->web, sc.code[i], sc.token[i], GMK_WEB_TOKEN_BYTES, account);
        pthread_mutex_lock(&rq->web->store_mu);
        if (gmk_store_account_claim_seat(rq->web->store, account, sc.code[i], hash, NULL, NULL,
                                         0) == GMK_STORE_OK)
            web_wrote(rq->web);
        pthread_mutex_unlock(&rq->web->store_mu);
    }
}

static enum MHD_Result sign_up(web_request *rq, json_t *body) {
    enum MHD_Result res;
    if (!auth_take(rq, &res)) return res;
    const char *name = str_field(body, "name"), *pw = str_field(body, "password");
    char key[GMK_ACCOUNT_KEY_MAX], err[256];
    if (!name) return web_error(rq, 400, "name is needed");
    if (!gmk_account_name_key(name, key, err, sizeof err)) return web_error(rq, 400, err);
    if (!gmk_account_password_valid(pw, err, sizeof err)) return web_error(rq, 400, err);
    char hash[GMK_ACCOUNT_PWHASH_MAX];
    if (!gmk_account_password_hash(pw, gmk_account_pwhash_default(), hash))
        return web_error(rq, 500, "cannot hash the password");
    int64_t id = 0, now = now_s();
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st =
        gmk_store_account_create(rq->web->store, name, key, hash, now, &id, err, sizeof err);
    bool ok = st == GMK_STORE_OK && open_session(rq, id, err, sizeof err);
    uint64_t seq = ok ? web_wrote(rq->web) : 0;
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st == GMK_STORE_INVALID) return web_error(rq, 409, "that user name is taken");
    if (!ok) return web_error(rq, 500, err);
    claim_seats(rq, id);
    return web_durable_reply(rq, seq, 201,
                             json_pack("{s:o}", "account", account_json(id, name, now)));
}

static enum MHD_Result log_in(web_request *rq, json_t *body) {
    enum MHD_Result res;
    if (!auth_take(rq, &res)) return res;
    const char *name = str_field(body, "name"), *pw = str_field(body, "password");
    if (!name || !pw) return web_error(rq, 400, "name and password are needed");
    char key[GMK_ACCOUNT_KEY_MAX], hash[GMK_STORE_PWHASH_MAX] = "", err[256];
    gmk_store_account a = {0};
    gmk_store_status st = GMK_STORE_NOT_FOUND;
    if (gmk_account_name_key(name, key, err, sizeof err)) {
        pthread_mutex_lock(&rq->web->store_mu);
        st = gmk_store_account_find(rq->web->store, key, &a, hash, err, sizeof err);
        pthread_mutex_unlock(&rq->web->store_mu);
    }
    if (st != GMK_STORE_OK && st != GMK_STORE_NOT_FOUND) return web_error(rq, 500, err);
    /* the same work and the same answer whether the name or the password was wrong */
    bool match = gmk_account_password_verify(
        st == GMK_STORE_OK ? hash : gmk_account_dummy_hash(gmk_account_pwhash_default()),
        pw ? pw : "");
    if (st != GMK_STORE_OK || !match) return web_error(rq, 401, "wrong user name or password");
    pthread_mutex_lock(&rq->web->store_mu);
    bool ok = open_session(rq, a.id, err, sizeof err);
    uint64_t seq = ok ? web_wrote(rq->web) : 0;
    pthread_mutex_unlock(&rq->web->store_mu);
    if (!ok) return web_error(rq, 500, err);
    claim_seats(rq, a.id);
    return web_durable_reply(
        rq, seq, 200, json_pack("{s:o}", "account", account_json(a.id, a.name, a.created_s)));
}

static enum MHD_Result log_out(web_request *rq) {
    set_cookie(rq, "", 0);
    if (!web_account(rq)) return web_json(rq, 200, json_pack("{s:b}", "signed_in", 0));
    char err[256];
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_session_end(rq->web->store, rq->account_id, rq->session_id, 0,
                                                NULL, err, sizeof err);
    uint64_t seq = st == GMK_STORE_OK ? web_wrote(rq->web) : 0;
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK && st != GMK_STORE_NOT_FOUND) return web_error(rq, 500, err);
    return web_durable_reply(rq, seq, 200, json_pack("{s:b}", "signed_in", 0));
}

static enum MHD_Result me(web_request *rq) {
    if (!web_account(rq)) return web_json(rq, 200, json_pack("{s:n}", "account"));
    gmk_store_account a;
    char err[256];
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st =
        gmk_store_account_get(rq->web->store, rq->account_id, &a, NULL, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) return web_error(rq, 500, err);
    return web_json(rq, 200,
                    json_pack("{s:o}", "account", account_json(a.id, a.name, a.created_s)));
}

static enum MHD_Result sessions(web_request *rq) {
    gmk_store_session list[64];
    int n = 0;
    char err[256];
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_session_list(rq->web->store, rq->account_id, now_s(), list, 64,
                                                 &n, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) return web_error(rq, 500, err);
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(
            a, json_pack("{s:I,s:I,s:I,s:I,s:o,s:b}", "id", (json_int_t)list[i].id, "created",
                         (json_int_t)list[i].created_s, "seen", (json_int_t)list[i].seen_s,
                         "expires", (json_int_t)list[i].expires_s, "agent",
                         web_string(list[i].agent), "current", list[i].id == rq->session_id));
    return web_json(rq, 200, json_pack("{s:o}", "sessions", a));
}

/* {"id": N} ends that session of mine; {"others": true} every other one. */
static enum MHD_Result end_sessions(web_request *rq, json_t *body) {
    json_t *idv = json_object_get(body, "id");
    bool others = json_is_true(json_object_get(body, "others"));
    if (!others && (!json_is_integer(idv) || json_integer_value(idv) <= 0))
        return web_error(rq, 400, "id (a session of yours) or others: true is needed");
    int64_t id = others ? 0 : (int64_t)json_integer_value(idv);
    int ended = 0;
    char err[256];
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_session_end(rq->web->store, rq->account_id, id, rq->session_id,
                                                &ended, err, sizeof err);
    uint64_t seq = st == GMK_STORE_OK ? web_wrote(rq->web) : 0;
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st == GMK_STORE_NOT_FOUND) return web_error(rq, 404, "no such session of yours");
    if (st != GMK_STORE_OK) return web_error(rq, 500, err);
    if (id == rq->session_id) set_cookie(rq, "", 0);
    return web_durable_reply(rq, seq, 200, json_pack("{s:i}", "ended", ended));
}

/* Checks the current password of the signed-in account; false with the answer queued. */
static bool check_password(web_request *rq, const char *pw, enum MHD_Result *res) {
    char hash[GMK_STORE_PWHASH_MAX], err[256];
    gmk_store_account a;
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st =
        gmk_store_account_get(rq->web->store, rq->account_id, &a, hash, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) {
        *res = web_error(rq, 500, err);
        return false;
    }
    if (!pw || !gmk_account_password_verify(hash, pw)) {
        *res = web_error(rq, 403, "the password is wrong");
        return false;
    }
    return true;
}

static enum MHD_Result new_password(web_request *rq, json_t *body) {
    enum MHD_Result res;
    if (!auth_take(rq, &res)) return res; /* a password guess like a log-in */
    const char *pw = str_field(body, "password"), *next = str_field(body, "new_password");
    char err[256], hash[GMK_ACCOUNT_PWHASH_MAX];
    if (!gmk_account_password_valid(next, err, sizeof err)) return web_error(rq, 400, err);
    if (!check_password(rq, pw, &res)) return res;
    if (!gmk_account_password_hash(next, gmk_account_pwhash_default(), hash))
        return web_error(rq, 500, "cannot hash the password");
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_account_set_password(rq->web->store, rq->account_id, hash,
                                                         rq->session_id, err, sizeof err);
    uint64_t seq = st == GMK_STORE_OK ? web_wrote(rq->web) : 0;
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) return web_error(rq, 500, err);
    return web_durable_reply(rq, seq, 200, json_pack("{s:b}", "changed", 1));
}

static enum MHD_Result delete_account(web_request *rq, json_t *body) {
    enum MHD_Result res;
    if (!auth_take(rq, &res)) return res;
    if (!check_password(rq, str_field(body, "password"), &res)) return res;
    char err[256];
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_account_delete(rq->web->store, rq->account_id,
                                                   GMK_ACCOUNT_NEUTRAL_NAME, err, sizeof err);
    uint64_t seq = st == GMK_STORE_OK ? web_wrote(rq->web) : 0;
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) return web_error(rq, 500, err);
    rooms_forget_account(rq->web, rq->account_id, GMK_ACCOUNT_NEUTRAL_NAME);
    set_cookie(rq, "", 0);
    return web_durable_reply(rq, seq, 200, json_pack("{s:b}", "deleted", 1));
}

/* --- my games and scoreboard ------------------------------------------------------------- */

static const char *mode_key(gmk_store_mode m) {
    return m == GMK_STORE_MODE_HVH      ? "hvh"
           : m == GMK_STORE_MODE_CVC    ? "cvc"
           : m == GMK_STORE_MODE_ONLINE ? "online"
                                        : "hvc";
}

static enum MHD_Result my_games(web_request *rq) {
    bool signed_in = web_account(rq);
    json_t *list = json_array();
    if (!signed_in && !rq->has_token)
        return web_json(rq, 200, json_pack("{s:o,s:s}", "games", list, "whose", "browser"));
    gmk_store_whose who = {.account = signed_in ? rq->account_id : 0,
                           .owner = signed_in ? NULL : rq->token_hash};
    enum { CAP = 200 };
    gmk_store_game *games = malloc(CAP * sizeof *games);
    if (!games) {
        json_decref(list);
        return web_error(rq, 500, "out of memory");
    }
    int n = 0;
    char err[256];
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st =
        gmk_store_game_list_of(rq->web->store, &who, games, CAP, &n, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    for (int i = 0; st == GMK_STORE_OK && i < n; i++) {
        const gmk_store_game *g = &games[i];
        bool done = g->finished && !g->abandoned;
        json_array_append_new(
            list,
            json_pack("{s:I,s:s,s:s,s:i,s:i,s:o,s:o,s:I,s:i,s:b,s:o,s:o}", "id", (json_int_t)g->id,
                      "mode", mode_key(g->mode), "rule", gmk_rule_name(g->rule), "size", g->size,
                      "level", g->level, "black", web_string(g->black), "white",
                      web_string(g->white), "started", (json_int_t)g->started_s, "moves",
                      g->move_count, "finished", g->finished, "outcome",
                      done ? json_string(gmk_outcome_name(g->outcome)) : json_null(), "human",
                      g->mode == GMK_STORE_MODE_HVC ? json_string(web_color_name(g->human))
                                                    : json_null()));
    }
    free(games);
    if (st != GMK_STORE_OK) {
        json_decref(list);
        return web_error(rq, 500, err);
    }
    return web_json(
        rq, 200, json_pack("{s:o,s:s}", "games", list, "whose", signed_in ? "account" : "browser"));
}

static enum MHD_Result my_stats(web_request *rq) {
    bool signed_in = web_account(rq);
    json_t *lines = json_array();
    if (!signed_in && !rq->has_token)
        return web_json(rq, 200, json_pack("{s:o,s:s}", "lines", lines, "whose", "browser"));
    gmk_store_whose who = {.account = signed_in ? rq->account_id : 0,
                           .owner = signed_in ? NULL : rq->token_hash};
    gmk_store_score rows[GMK_STORE_SCORE_MAX];
    int n = 0;
    char err[256];
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_scoreboard_of(rq->web->store, &who, rows, GMK_STORE_SCORE_MAX,
                                                  &n, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) {
        json_decref(lines);
        return web_error(rq, 500, err);
    }
    for (int i = 0; i < n; i++)
        json_array_append_new(lines,
                              json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "mode",
                                        gmk_store_mode_name(rows[i].mode), "level", rows[i].level,
                                        "games", rows[i].games, "wins", rows[i].wins, "losses",
                                        rows[i].losses, "draws", rows[i].draws, "black_wins",
                                        rows[i].black_wins, "white_wins", rows[i].white_wins));
    return web_json(
        rq, 200,
        json_pack("{s:o,s:s}", "lines", lines, "whose", signed_in ? "account" : "browser"));
}

/* --- routes ------------------------------------------------------------------------------ */

enum MHD_Result web_account_api(web_request *rq, bool *handled) {
    static const struct {
        const char *path;
        bool post, needs_account;
        int id;
    } routes[] = {
        {"/api/account", false, false, 0},         {"/api/account/signup", true, false, 1},
        {"/api/account/login", true, false, 2},    {"/api/account/logout", true, false, 3},
        {"/api/account/sessions", false, true, 4}, {"/api/account/sessions/end", true, true, 5},
        {"/api/account/password", true, true, 6},  {"/api/account/delete", true, true, 7},
        {"/api/account/games", false, false, 8},   {"/api/account/stats", false, false, 9},
    };
    *handled = false;
    if (strncmp(rq->path, "/api/account", 12) != 0) return MHD_NO;
    int found = -1;
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (strcmp(rq->path, routes[i].path) == 0) found = (int)i;
    if (found < 0) return MHD_NO;
    *handled = true;
    bool post = strcmp(rq->method, "POST") == 0;
    bool get = strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0;
    if (routes[found].post ? !post : !get)
        return web_error(rq, 405, "method not allowed on this route");
    if (routes[found].needs_account && !web_account(rq)) return web_error(rq, 401, "log in first");
    json_t *body = NULL;
    enum MHD_Result res = MHD_NO;
    if (post && (body = web_body_json(rq, &res)) == NULL) return res;
    switch (routes[found].id) {
    case 0: res = me(rq); break;
    case 1: res = sign_up(rq, body); break;
    case 2: res = log_in(rq, body); break;
    case 3: res = log_out(rq); break;
    case 4: res = sessions(rq); break;
    case 5: res = end_sessions(rq, body); break;
    case 6: res = new_password(rq, body); break;
    case 7: res = delete_account(rq, body); break;
    case 8: res = my_games(rq); break;
    default: res = my_stats(rq); break;
    }
    json_decref(body);
    return res;
}
