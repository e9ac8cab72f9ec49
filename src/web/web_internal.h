/* web_internal.h: what the files of src/web/ share: the server, a game in memory, a request
 * and the helpers between them. Nothing outside src/web/ includes this.
 *
 * Locks, always taken in this order: live table (web.live_mu) -> a game (game.mu) -> the
 * store (web.store_mu) -> a game's viewers (inside events.c). Nobody waits for a game's lock
 * while holding live_mu (a request takes a reference to the game under live_mu, lets go of
 * it, then locks the game; the ticker only tries), so a busy game never holds up the others.
 * The store handle is used under store_mu only; a game's session under its game.mu only.
 * Online rooms likewise: the rooms' table (web.rooms_mu) -> a room (room.mu) -> the store ->
 * its viewers; web.timer_mu is taken alone. */
#ifndef GMK_WEB_INTERNAL_H
#define GMK_WEB_INTERNAL_H

#include <jansson.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>

#include "game/room.h"
#include "game/session.h"
#include "store/lobby.h"
#include "store/lobby_chat.h"
#include "store/rooms.h"
#include "store/store.h"
#include "web/assets.h"
#include "web/pool.h"
#include "web/web.h"
#include <sodium.h>

/* Sign-ups and log-ins one client may try a minute before the back-off (429), unless
 * --auth-limit says (limits.c, api_account.c). */
#define GMK_WEB_AUTH_LIMIT 10
/* Request bodies are refused past this size (413). */
#define GMK_WEB_MAX_BODY (64 * 1024)
/* Tokens are stored and compared only as their SHA-256 (libsodium's crypto_hash_sha256, the
 * same digest the databases hold from before libsodium). */
#define GMK_WEB_HASH_LEN crypto_hash_sha256_BYTES
/* Owner cookie: 128 random bits as 32 hex digits. */
#define GMK_WEB_TOKEN_BYTES 16

/* Rooms one client may create or join, and wrong room codes it may send, a minute (429 past
 * it), unless --join-limit says. */
#define GMK_WEB_JOIN_LIMIT 30
/* Games one client may create, and puzzle answers it may have stored, a minute (429 past it),
 * unless --write-limit says: each is a database write nobody else asked for. */
#define GMK_WEB_WRITE_LIMIT 60
/* Analyses (POST /api/analyze) one client may have waiting or running at once (429 past it):
 * one client cannot fill the engine queue that every game shares. */
#define GMK_WEB_ANALYSES_PER_CLIENT 2
/* Chat lines one client may send a minute (429 past it), unless --chat-limit says. */
#define GMK_WEB_CHAT_LIMIT 20
/* Connections one client may hold at once, unless --conn-limit says; connections idle this
 * many seconds are closed (event streams are not idle: they are pinged), unless
 * --idle-timeout says. */
#define GMK_WEB_CONN_LIMIT 64
#define GMK_WEB_IDLE_TIMEOUT 30
/* Connections in all. */
#define GMK_WEB_CONNECTIONS 8000
/* Online rooms in memory at once, unless --rooms-max says (rooms.c). */
#define GMK_WEB_ROOMS_MAX 2000
/* A URL (path and query) longer than this is refused (414). */
#define GMK_WEB_MAX_URL 2048
/* Rooms saved by other servers, noted between two turns of the timer (more: check them all). */
#define GMK_WEB_NEWS_MAX 256

typedef struct gmk_hub gmk_hub;
typedef struct gmk_web gmk_web;

/* An online room in memory (rooms.c): the room, its lock and its viewers. */
typedef struct live_room {
    gmk_web *web;
    char code[GMK_ROOM_CODE_LEN + 1];
    pthread_mutex_t mu;
    gmk_room *room;
    gmk_hub *hub;
    int64_t sent_seq;         /* events up to this one have gone to the viewers (mu) */
    _Atomic int64_t deadline; /* gmk_room_next_deadline after the last call; 0: none */
    int streams;              /* event streams open (mu) */
    int64_t used_ms;          /* web_now_ms of the last request that found it (rooms_mu) */
    atomic_bool dropped;      /* its store refused a write: no longer found; freed by the timer
                                 once its streams (closed at once) are gone */
    atomic_bool spectators_changed; /* the timer sends the new count (at most once a second) */
    struct live_room *next;
} live_room;

/* An open event stream of a room: who it is, for gmk_room_disconnect when it closes. */
typedef struct room_stream {
    live_room *room;
    bool seat;
    uint8_t token[GMK_WEB_TOKEN_BYTES];
    struct room_stream *next;
} room_stream;

/* A client, as the limits count it: b[0] is 4 with the IPv4 address in b[1..4], or 6 with
 * the /64 prefix of the IPv6 address in b[1..8]; all zero when unknown. */
typedef struct {
    uint8_t b[9];
} web_client;

typedef struct web_limits web_limits;
typedef struct web_lobby web_lobby;
typedef struct web_lobby_chat web_lobby_chat;

/* A game in memory: its session and its viewers. */
typedef struct live_game {
    int64_t id;
    gmk_web *web;
    pthread_mutex_t mu;
    gmk_session *session;
    gmk_hub *hub;
    bool has_owner;
    uint8_t owner[GMK_WEB_HASH_LEN];
    int refs;                /* requests holding it (web.live_mu) */
    int published;           /* moves the viewers have been sent */
    int jobs_out;            /* jobs in the pool for this game */
    uint64_t job_token;      /* the session's job submitted last */
    int64_t last_used_ms;    /* for eviction (mu) */
    atomic_bool stale;       /* its store refused a write: read again from the store once nobody
                                holds it (live_get) */
    struct live_game *next;  /* every game in memory (web.live_mu) */
    struct live_game *hnext; /* the next in its bucket of web.live_index */
} live_game;

/* Buckets of the index of the games in memory by id (a power of two). */
#define GMK_WEB_LIVE_BUCKETS 1024

struct gmk_web {
    gmk_web_options opt;
    struct MHD_Daemon *daemon;
    gmk_store *store;
    pthread_mutex_t store_mu;
    gmk_pool *pool;
    pthread_mutex_t live_mu;
    live_game *live;                             /* every game in memory, in no order */
    live_game *live_index[GMK_WEB_LIVE_BUCKETS]; /* the same games by id, hashed */
    int live_count;
    atomic_bool stopping;
    web_limits *limits;   /* per client: joins, creates, wrong codes, connections (limits.c) */
    web_limits *writes;   /* per client: games created, puzzle answers stored (limits.c) */
    web_limits *analyses; /* per client: analyses waiting or running (limits.c) */
    web_limits *auth;     /* per client: sign-ups and log-ins, with back-off (limits.c) */
    web_limits *chats;    /* per client: chat lines (limits.c) */
    web_lobby *lobby;     /* the lobby (lobby.c) */
    web_lobby_chat *lobby_chat; /* its chat (lobby_chat.c) */
    /* online rooms (rooms.c) */
    pthread_mutex_t rooms_mu;
    live_room *rooms;   /* rooms_mu; freed only on the timer thread */
    int room_count;     /* rooms in the table (at most opt.rooms_max) */
    live_room *evicted; /* rooms_mu: taken out of the table for memory, freed by the timer */
    pthread_t rooms_thread;
    bool rooms_thread_started;
    pthread_mutex_t timer_mu;
    pthread_cond_t timer_cv;
    bool timer_poked, timer_stop; /* timer_mu */
    room_stream *closed;          /* timer_mu: streams closed, to disconnect on the timer */
    /* several servers on one database (rooms.c): rooms saved elsewhere, from the listener */
    pthread_t listen_thread;
    bool listen_started;
    char news[GMK_WEB_NEWS_MAX][GMK_STORE_ROOM_CODE_MAX]; /* timer_mu */
    int64_t news_seq[GMK_WEB_NEWS_MAX]; /* timer_mu: the last event saved of each */
    int news_count;                     /* timer_mu */
    bool news_all;                      /* timer_mu: news was lost; check every room */
    int64_t next_overdue;               /* timer thread: when to look for rooms out of time again */
    /* presence across servers (presence.c) */
    _Atomic int64_t server_id;  /* > 0 on a shared database: this process's lease */
    int64_t next_beat, next_gc; /* timer thread */
    bool beat_failed;           /* timer thread: reported once */
    /* group commit (durable.c) */
    atomic_uint_fast64_t written; /* writes committed so far */
    pthread_mutex_t sync_mu;
    pthread_cond_t sync_cv;
    uint64_t synced; /* writes known durable */
    uint64_t wanted; /* the highest write a blocking waiter waits for */
    bool syncing, sync_failed, syncer_stop, syncer_running;
    struct durable_waiter *waiters; /* requests whose reply waits for the next sync */
    pthread_t syncer_thread;
};

/* One HTTP request, from its first callback to its end. */
typedef struct {
    gmk_web *web;
    char method[8];
    char path[256];
    bool url_nul, url_long; /* the raw URL holds %00; it is too long (guard.c refuses both) */
    bool started;           /* the first call (the headers) has been answered or let through */
    web_client client;      /* who is asking (guard_client) */
    bool https;             /* the page was served over HTTPS (--trust-proxy only) */
    int64_t start_us;
    unsigned status;
    char *body;
    size_t body_len;
    bool has_token;
    uint8_t token_hash[GMK_WEB_HASH_LEN];
    char new_token[2 * GMK_WEB_TOKEN_BYTES + 1]; /* set when this reply creates the cookie */
    char seat_cookie[160];    /* a room's seat cookie this reply sets (Set-Cookie value) */
    char session_cookie[200]; /* the account session cookie this reply sets or clears */
    int retry_after_s;        /* > 0: the reply says Retry-After (429 of the back-off) */
    int account_state;        /* web_account: 0 not read yet, 1 signed in, 2 not */
    int64_t account_id;       /* the signed-in account (account_state 1) */
    int64_t session_id;
    char account_name[GMK_STORE_NAME_MAX];
    /* an analysis waiting for its engine (the connection is suspended meanwhile) */
    int wait_state;   /* 0 none, 1 waiting, 2 done */
    int64_t pub_game; /* a change to publish once it is on disk (live_publish_later) */
    int pub_before, pub_ev;
    json_t *wait_reply;
    unsigned wait_status;
    struct MHD_Connection *conn;
} web_request;

/* --- server.c ---------------------------------------------------------------------------- */

/* Queues a response with the common headers (CSP, nosniff, the owner cookie if new);
 * takes ownership of resp. Returns MHD's result. */
enum MHD_Result web_queue(web_request *rq, unsigned status, struct MHD_Response *resp);
/* Queues a JSON body (takes the reference of j). */
enum MHD_Result web_json(web_request *rq, unsigned status, json_t *j);
/* msg as a JSON string; text that is not valid UTF-8 (a record's bytes, an error quoting
 * them) has each bad byte replaced by '?'. NULL only when out of memory. */
json_t *web_string(const char *s);
/* The answer to HEAD on an event stream: its headers and no stream (nobody is watching). */
enum MHD_Result web_stream_head(web_request *rq);
/* Queues {"error": msg} (msg made valid UTF-8 as web_string does). */
enum MHD_Result web_error(web_request *rq, unsigned status, const char *msg);
/* Milliseconds of a monotonic clock. */
int64_t web_now_ms(void);
/* Unix milliseconds (CLOCK_REALTIME): the rooms' time. */
int64_t web_wall_ms(void);
/* Fills buf with n random bytes (libsodium's randombytes_buf, which cannot fail once
 * sodium_init has run); true. */
bool web_random(void *buf, size_t n);

/* --- guard.c (docs/http-api.md "Requests and limits") --------------------------------- */

/* Sets rq->client and rq->https: the peer, or what the proxy says with --trust-proxy. */
void guard_client(web_request *rq);
/* May this request change something (every method but GET and HEAD, and a room's event
 * stream)? Those must come from the server's own pages. */
bool guard_changes_state(const web_request *rq);
/* The checks of the headers: a NUL or too long URL, chunks, Content-Length, stopping, the
 * origin, the content type of a POST. Queues the error and sets *refused when one fails. */
enum MHD_Result guard_request(web_request *rq, bool *refused);

/* --- limits.c ---------------------------------------------------------------------------- */

typedef enum { LIMIT_OK, LIMIT_OVER, LIMIT_FULL } limit_verdict;

/* A table of per_minute events and conns_max connections per client; NULL out of memory. */
web_limits *limits_new(int per_minute, int conns_max);
void limits_free(web_limits *l);
/* The client of a socket address (false when it is neither IPv4 nor IPv6). */
bool web_client_of(const struct sockaddr *sa, web_client *out);
/* The client of an address as text (IPv4, IPv6, [IPv6]). */
bool web_client_parse(const char *text, web_client *out);
/* Counts one event for c: LIMIT_OVER past the limit (not counted), LIMIT_FULL when the table
 * has no room for a new client. */
/* limits_take with back-off (the sign-up and log-in table): past the limit the client is shut
 * out for a minute, doubling with each return over it; *retry_ms says how long is left. */
limit_verdict limits_take_backoff(web_limits *l, const web_client *c, int64_t now_ms,
                                  int64_t *retry_ms);
limit_verdict limits_take(web_limits *l, const web_client *c, int64_t now_ms);
/* Would one more event of c be allowed? Counts nothing. */
limit_verdict limits_check(web_limits *l, const web_client *c, int64_t now_ms);
/* May c open one more connection? False past the limit (or when the table is full). */
bool limits_conn_allowed(web_limits *l, const web_client *c, int64_t now_ms);
/* Counts a connection of c opened (+1) or closed (-1); false when it could not be counted. */
bool limits_conn_add(web_limits *l, const web_client *c, int64_t now_ms, int delta);
/* Takes one of the conns_max places of client c (an analysis in flight, say): false when the
 * client holds them all or the table is full. limits_conn_add(..., -1) gives it back. */
bool limits_hold(web_limits *l, const web_client *c, int64_t now_ms);
/* Counts one write by rq's client against --write-limit (rq->web->writes): true when it may
 * go on; otherwise false with *res the answer sent (429 past the limit, 503 when the table is
 * full), and nothing was written. */
bool limits_write_take(web_request *rq, enum MHD_Result *res);

/* --- api_account.c (docs/accounts.md) ------------------------------------------------------- */

/* Answers /api/account...; *handled false (MHD_NO) when the path is not one. */
enum MHD_Result web_account_api(web_request *rq, bool *handled);
/* The account signed in on this request (its gmk_session cookie), read once per request:
 * true with rq->account_id and rq->account_name set; false for a guest (or when the store
 * fails: a guest then). Takes store_mu: call it without. */
bool web_account(web_request *rq);

/* Answers /api/leaderboard and /api/player (api_players.c); *handled false (MHD_NO) otherwise. */
enum MHD_Result web_players_api(web_request *rq, bool *handled);

/* --- durable.c --------------------------------------------------------------------------- */

/* Counts a write just committed (store_mu held); returns its number for web_durable. */
uint64_t web_wrote(gmk_web *w);
/* Waits until write seq (and every one before it) is on disk; false when the sync failed. */
bool web_durable(gmk_web *w, uint64_t seq);
/* Sends reply (taking it) once write seq is on disk, without holding the HTTP thread: the
 * connection is suspended until the syncer has synced (500 if that failed). */
enum MHD_Result web_durable_reply(web_request *rq, uint64_t seq, unsigned status, json_t *reply);
/* Starts and stops the syncer thread (stopping syncs and answers what is waiting). */
bool web_durable_start(gmk_web *w);
void web_durable_stop(gmk_web *w);

/* --- api.c / api_misc.c ------------------------------------------------------------------- */

/* Answers an /api/ request whose body (if any) has been read. */
enum MHD_Result web_api(web_request *rq);
/* The routes of api_misc.c: config, stats, records, analyze, the list of games. Returns
 * MHD_NO with *handled false when the route is not one of them. */
enum MHD_Result web_api_misc(web_request *rq, bool *handled);
/* Parses the JSON body; on failure queues 400/415 and returns NULL (*result set). */
json_t *web_body_json(web_request *rq, enum MHD_Result *result);
/* Makes sure the caller has an owner token (creating one, sent as a cookie). */
bool web_ensure_token(web_request *rq);

/* --- api_review.c ------------------------------------------------------------------------ */

/* Answers /api/games/{id}/review and .../review/cancel; *handled false (MHD_NO) otherwise. */
enum MHD_Result web_review_api(web_request *rq, bool *handled);
/* Answers /api/puzzles/... (api_puzzle.c); *handled false (MHD_NO) for other paths. */
enum MHD_Result web_puzzle_api(web_request *rq, bool *handled);
/* Answers POST /api/coach (api_coach.c); *handled false (MHD_NO) for other paths. */
enum MHD_Result web_coach_api(web_request *rq, bool *handled);
/* Lets go of the server's reviews (after the pool has shut down: no job holds them). */
void web_reviews_free(gmk_web *w);

/* --- state.c ----------------------------------------------------------------------------- */

/* The state object of docs/http-api.md for game g (g->mu held). */
json_t *web_state_json(live_game *g, bool owner);
/* The result object, or null when the game is on (g->mu held). */
json_t *web_result_json(const gmk_session_state *st, int size);
/* A point as "h8" (a JSON string), or null. */
json_t *web_point_json(gmk_pos p, int size);
/* An evaluation for the page (eval_json.c): {"score", "winrate" (side to move, percent),
 * "black_winrate", "proved", "winner" (when proved), "moves" (the winner's, when proved)}. */
json_t *web_eval_json(gmk_rule rule, gmk_color to_move, int score);
/* Reads a point: a string "h8" on a size board. */
bool web_parse_point(const json_t *v, int size, gmk_pos *out);
/* Reads moves: a move string or an array of points. */
bool web_parse_moves(const json_t *v, int size, gmk_pos *moves, int *count, char *err,
                     size_t errlen);
const char *web_color_name(gmk_color c);
/* "five", "resign", "time", "agreement", "abandonment"...; NULL for none. */
const char *web_reason_name(gmk_reason r);

/* --- live.c ------------------------------------------------------------------------------ */

/* Finds game id, loading it from the store when it is not in memory; returns it locked
 * (g->mu), or NULL with *status 404 or 500 and a message in err. */
live_game *live_get(gmk_web *w, int64_t id, unsigned *status, char *err, size_t errlen);
/* Creates a game in memory and in the store, owned by owner_hash, set up with cfg and
 * moves; returns it locked, or NULL with *status (400, 503, 500) and err. */
live_game *live_create(gmk_web *w, const gmk_game_config *cfg, const gmk_pos *moves, int count,
                       const uint8_t owner_hash[GMK_WEB_HASH_LEN], unsigned *status, char *err,
                       size_t errlen);
/* After a session call that may have written (g->mu held): true when it was saved; else the
 * game is marked stale (its viewers' streams end, the next request reads it again from the
 * store) and the reason goes to the error log. Nothing is answered 200 that is not stored. */
bool live_saved(live_game *g);
/* Unlocks a game got from live_get or live_create. */
void live_release(live_game *g);
/* Submits the search the session wants, if any and not already submitted; with reserved, a
 * place was reserved in the pool for it (given back when not needed). g->mu held. */
void live_kick(live_game *g, bool reserved);
/* Publishes what changed after a session call: the moves not sent yet (moves_before is
 * what the caller saw before; each move is sent once), the state, and the result when ev
 * says the game ended. g->mu held. */
void live_publish(live_game *g, int moves_before, int ev);
/* Publishes the change rq recorded (pub_game, pub_before, pub_ev), if any, now that it is on
 * disk; takes the game's lock. */
void live_publish_later(web_request *rq);
/* Every second: thinking events, retries of jobs the full pool refused, pings. */
void live_tick(gmk_web *w, bool ping);
/* Ends every game's event streams (the server is stopping). */
void live_close_streams(gmk_web *w);
/* Frees every game (the server has stopped). */
void live_free_all(gmk_web *w);

/* --- events.c ---------------------------------------------------------------------------- */

gmk_hub *hub_new(void);
/* Frees the hub; every viewer's connection must be closed already. */
void hub_free(gmk_hub *h);
/* A response that streams the events of h to connection c, starting with first_event. NULL
 * when out of memory. */
struct MHD_Response *hub_attach(gmk_hub *h, struct MHD_Connection *c, bool owner,
                                const char *first_event, const char *first_data);
/* The same with first_text sent as it is when first_event is NULL (SSE lines already
 * formatted, with their ids), and on_close(close_ctx) called once when MHD closes the stream
 * (from MHD's thread, holding no lock of the hub). group (0..31) is the kind of viewer that
 * hub_send_to picks (1 is an owner for hub_publish). */
struct MHD_Response *hub_attach_text(gmk_hub *h, struct MHD_Connection *c, int group,
                                     const char *first_event, const char *first_text,
                                     void (*on_close)(void *ctx), void *close_ctx);
/* Sends text (SSE lines already formatted) to every viewer alike. */
void hub_send(gmk_hub *h, const char *text);
/* The same for a viewer with a tag (HUB_TAG_LEN bytes; NULL: none) that hub_send_tag picks. */
#define HUB_TAG_LEN 16
struct MHD_Response *hub_attach_tagged(gmk_hub *h, struct MHD_Connection *c, int group,
                                       const uint8_t *tag, const char *first_event,
                                       const char *first_text, void (*on_close)(void *ctx),
                                       void *close_ctx);
/* Sends text to the viewers with this tag. */
void hub_send_tag(gmk_hub *h, const char *text, const uint8_t tag[HUB_TAG_LEN]);
/* Sends text to the viewers whose group g has bit (1 << g) set in mask. */
void hub_send_to(gmk_hub *h, const char *text, unsigned mask);
/* Sends an event to every viewer: data_owner to owners, data_other to the others. */
void hub_publish(gmk_hub *h, const char *event, const char *data_owner, const char *data_other);
/* Sends a comment line to keep the connections open. */
void hub_ping(gmk_hub *h);
/* Ends the streams whose client has gone (its socket at end of file or failed), found without
 * waking MHD: a peek at each waiting stream's socket. Returns how many. */
int hub_check_closed(gmk_hub *h);
/* Ends every stream (the server is stopping). */
void hub_close_all(gmk_hub *h);
/* Viewers connected now. */
int hub_viewers(gmk_hub *h);

/* --- rooms.c, rooms_api.c ----------------------------------------------------------------- */

/* Answers /api/rooms and /api/rooms/...; *handled false (MHD_NO) when the path is not one. */
enum MHD_Result web_rooms_api(web_request *rq, bool *handled);
/* Starts the rooms' timer thread (flags, pings, idle rooms, closed streams). */
bool rooms_start(gmk_web *w);
/* Loads every room whose game is in play with a clock, so that the timer ends it when a flag
 * falls (also one that fell while the server was down) without waiting for a request. */
void rooms_watch_clocks(gmk_web *w);
/* Stops the timer thread and ends every room's event streams (the server is stopping). */
void rooms_close_streams(gmk_web *w);
/* Frees every room (the HTTP server has stopped). */
void rooms_free_all(gmk_web *w);
/* Finds the room with code (as typed), loading it from the store when it is not in memory;
 * returns it locked, or NULL with *status 404 or 500 and err. */
live_room *room_get(gmk_web *w, const char *code, unsigned *status, char *err, size_t errlen);
/* Creates a room with a fresh code, the creator in seat 0 with token; returns it locked, or
 * NULL with *status (400, 500) and err. */
live_room *room_create(gmk_web *w, const gmk_room_config *cfg, const uint8_t *token,
                       const char *name, unsigned *status, char *err, size_t errlen);
/* A guest's seat, held by token in the room with code, becomes account's in memory if the room
 * is there (none held; gmk_room_claim_seat). */
void rooms_claim_seat(gmk_web *w, const char *code, const uint8_t *token, size_t len,
                      int64_t account);
/* A deleted account's seats in the rooms in memory take the neutral name (none held). */
void rooms_forget_account(gmk_web *w, int64_t account, const char *neutral);
/* Creates the room with the given code for a creator known by its token's SHA-256 (the
 * lobby's seeker); returns it locked, or NULL with *status (400, 503, 500) and err. */
live_room *room_create_for(gmk_web *w, const gmk_room_config *cfg, const char *code,
                           const uint8_t token_sha256[GMK_WEB_HASH_LEN], const char *name,
                           unsigned *status, char *err, size_t errlen);
/* Sends the room's new events to its viewers and re-arms the timer (mu held). */
void room_publish(live_room *lr);
/* room_publish, then unlocks the room. */
void room_release(live_room *lr);
/* The room's state as JSON at now, for the holder of seat you (-1: a spectator); mu held. */
json_t *room_state_json(live_room *lr, int64_t now, int you);
/* One event as SSE text ("id: N", "event: room" or "chat", "data: {...}"); NULL when out of
 * memory. */
char *room_event_text(const gmk_room_event *e, int size);
/* The hub groups (bit 0 the spectators, bit 1 + seat a seat) that are sent event e. */
unsigned room_event_groups(const gmk_room_event *e);
/* Sets the reply's seat cookie for token in room code (rooms_api.c). */
void room_set_seat_cookie(web_request *rq, const char *code,
                          const uint8_t token[GMK_WEB_TOKEN_BYTES]);
/* Reads the body's display name ("name"); false with why in err. */
bool room_read_name(json_t *body, const char **name, char *err, size_t errlen);
/* Reads a room's settings from a body (rule, size, black, clock); false with why in err. */
bool room_read_config(json_t *body, gmk_room_config *cfg, char *err, size_t errlen);
/* A room's event stream closed (MHD's thread): the timer thread disconnects it. */
void room_stream_closed(void *ctx);

/* Presence across servers (presence.c; store/presence.h). Nothing on one server with SQLite.
 * web_presence_start draws this server's id and takes its lease (before serving rooms);
 * web_presence_beat renews it (timer thread, each call: once a second); web_presence_stop
 * ends it. web_presence_seat records that this server's streams of seat change by delta (about
 * to call gmk_room_connect or disconnect) and reads the other servers'; web_presence_read only
 * reads them (before a claim or a state). Both with the room's mu and store_mu held. */
void web_presence_start(gmk_web *w);
void web_presence_beat(gmk_web *w, int64_t now);
void web_presence_stop(gmk_web *w);
void web_presence_seat(gmk_web *w, live_room *lr, int seat, int delta, int64_t now);
void web_presence_read(gmk_web *w, live_room *lr, int64_t now);

/* --- lobby.c, lobby_api.c (docs/lobby.md) ------------------------------------------------ */

/* Answers /api/lobby...; *handled false (MHD_NO) when the path is not one. */
enum MHD_Result web_lobby_api(web_request *rq, bool *handled);
/* Starts, stops and frees the lobby (its streams end with the server's). */
bool lobby_start(gmk_web *w);
/* The store is open and set up: from now on the timer thread may tick the lobby. */
void lobby_ready(gmk_web *w);
void lobby_close_streams(gmk_web *w);
void lobby_free(gmk_web *w);
/* Every turn of the rooms' timer thread: closed streams, expired seeks, games, pings;
 * check_closed: peek at the streams' sockets (once a second). */
void lobby_tick(gmk_web *w, int64_t now, bool check_closed);
/* News from another server: "~L<id>" (seek id changed; "~L0": read them all), "~C" (a chat
 * line said), or news lost. */
void lobby_news(gmk_web *w, const char *news);
void lobby_news_lost(gmk_web *w);
/* What the store says of seek id now (k; NULL: gone): tells the viewers, once. */
void lobby_seen(gmk_web *w, int64_t id, const gmk_store_seek *k);
/* A seek as the lobby shows it. */
json_t *lobby_seek_json(const gmk_store_seek *k);
/* The first event of a lobby stream for the player of tag (the seeks, the games, and you,
 * which it takes, with the player's own open seeks added); NULL when out of memory. */
char *lobby_start_text(gmk_web *w, const uint8_t tag[HUB_TAG_LEN], json_t *you);
/* The lobby's hub, and the bookkeeping of a player's streams (the close context for
 * hub_attach_tagged, NULL when out of memory, and lobby_stream_closed as its callback). */
gmk_hub *lobby_hub(gmk_web *w);
void lobby_stream_opened(gmk_web *w, const uint8_t tag[HUB_TAG_LEN]);
void *lobby_close_ctx(gmk_web *w, const uint8_t tag[HUB_TAG_LEN]);
void lobby_stream_closed(void *ctx);

/* --- lobby_chat.c: the lobby's chat (docs/lobby.md "Chat") ------------------------------- */

/* Starts and frees the chat's memory (lobby_start and lobby_free call them). */
bool lobby_chat_start(gmk_web *w);
void lobby_chat_free(gmk_web *w);
/* Reads the last lines from the store and sends the viewers those new here (at start, and on
 * the timer thread after news). */
void lobby_chat_load(gmk_web *w);
/* Another server said something, or news was lost: the next lobby_chat_tick reads again. */
void lobby_chat_news(gmk_web *w);
void lobby_chat_tick(gmk_web *w);
/* Stores a line (name and text checked and cleaned already) of the player of tag, sends it to
 * every lobby viewer: 0 with *line (the line's JSON) and *seq (the write, for
 * web_durable_reply), or an HTTP status (500, 503) with err. */
unsigned lobby_chat_say(gmk_web *w, const uint8_t tag[HUB_TAG_LEN], int64_t account,
                        const char *name, const char *text, json_t **line, uint64_t *seq, char *err,
                        size_t errlen);
/* The lines kept, oldest first, as a JSON array; NULL when out of memory. */
char *lobby_chat_array(gmk_web *w);

#endif
