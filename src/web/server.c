/* server.c: gomoku serve: the listening socket, libmicrohttpd (epoll, a small fixed set of
 * threads), each request's life (body, cookie, access log), the common headers, the embedded
 * page files with their ETags, the once-a-second ticker and a clean stop on SIGINT/SIGTERM. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "web/web_internal.h"

/* HTTP threads: one per two cores (at least 1, at most 8). No thread ever waits on an idle
 * stream or a search (those connections are suspended), and every request that reads or writes
 * the store takes its one handle in turn, so more threads only add switching. Under the move
 * benchmark on 2 cores with every engine busy (docs/web.md, runs G), a move's p99 was 20.4 and
 * 22.7 ms with 2 threads, 15.2 and 15.8 ms with 1. */
enum { HTTP_THREADS_MIN = 1, HTTP_THREADS_MAX = 8 };

static unsigned http_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN) / 2;
    if (n < HTTP_THREADS_MIN) return HTTP_THREADS_MIN;
    return n > HTTP_THREADS_MAX ? HTTP_THREADS_MAX : (unsigned)n;
}
/* The memory libmicrohttpd gives a connection for its request line, headers and buffers.
 * A request head larger than this is refused by libmicrohttpd itself with its own HTML page
 * (414 or 431: it has no hook to replace them); below it, guard.c refuses long URLs (414) with
 * the API's JSON. 64 KiB: the worst case is 8,000 connections x 64 KiB = 512 MiB. */
#define CONNECTION_MEMORY (64 * 1024)
#define DEFAULT_ENGINE_BYTES ((size_t)32 << 20)

static const char CSP[] = "default-src 'self'; script-src 'self'; style-src 'self'; "
                          "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                          "base-uri 'none'; frame-ancestors 'none'";

static volatile sig_atomic_t g_signal;

int64_t web_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* --- responses --------------------------------------------------------------------------- */

enum MHD_Result web_queue(web_request *rq, unsigned status, struct MHD_Response *resp) {
    if (!resp) return MHD_NO;
    MHD_add_response_header(resp, "Content-Security-Policy", CSP);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    if (rq->new_token[0]) {
        char cookie[128];
        snprintf(cookie, sizeof cookie,
                 "gmk_owner=%s; HttpOnly; SameSite=Strict; Path=/; Max-Age=31536000%s",
                 rq->new_token, rq->https ? "; Secure" : "");
        MHD_add_response_header(resp, "Set-Cookie", cookie);
    }
    if (rq->seat_cookie[0]) MHD_add_response_header(resp, "Set-Cookie", rq->seat_cookie);
    if (rq->session_cookie[0]) MHD_add_response_header(resp, "Set-Cookie", rq->session_cookie);
    if (status == 503) MHD_add_response_header(resp, "Retry-After", "2");
    if (status == 429 && rq->retry_after_s > 0) {
        char s[24];
        snprintf(s, sizeof s, "%d", rq->retry_after_s);
        MHD_add_response_header(resp, "Retry-After", s);
    }
    rq->status = status;
    enum MHD_Result r = MHD_queue_response(rq->conn, status, resp);
    MHD_destroy_response(resp);
    return r;
}

enum MHD_Result web_json(web_request *rq, unsigned status, json_t *j) {
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!text) return MHD_NO;
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", "application/json; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    return web_queue(rq, status, resp);
}

/* The length of the valid UTF-8 sequence at s (as jansson accepts it: no overlong form, no
 * surrogate, at most U+10FFFF), or 0 when s does not start one. */
static size_t utf8_len(const unsigned char *s) {
    unsigned c = s[0];
    size_t n = c < 0x80                 ? 1
               : c >= 0xC2 && c <= 0xDF ? 2
               : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4
                                        : 0;
    if (n <= 1) return n;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
        (c == 0xF4 && s[1] > 0x8F))
        return 0;
    return n;
}

json_t *web_string(const char *s) {
    json_t *j = json_string(s);
    if (j) return j;
    size_t n = strlen(s);
    char *copy = malloc(n + 1);
    if (!copy) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len((const unsigned char *)s + i);
        if (k == 0) {
            copy[o++] = '?';
            i++;
        } else {
            memcpy(copy + o, s + i, k);
            o += k;
            i += k;
        }
    }
    copy[o] = '\0';
    j = json_string(copy);
    free(copy);
    return j;
}

enum MHD_Result web_stream_head(web_request *rq) {
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!resp) return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", "text/event-stream; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    return web_queue(rq, 200, resp);
}

enum MHD_Result web_error(web_request *rq, unsigned status, const char *msg) {
    if (status == 500 && !gmk_store_reachable(rq->web->store)) { /* PostgreSQL is away */
        status = 503;
        msg = "the database cannot be reached; try again in a moment";
    }
    json_t *j = json_object();
    json_object_set_new(j, "error", web_string(msg));
    return web_json(rq, status, j);
}

/* --- the owner token --------------------------------------------------------------------- */

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Writes the n bytes at in as 2n lowercase hex digits and a NUL into out[2n+1]. */
static void to_hex(const uint8_t *in, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

/* Reads the gmk_owner cookie: 32 lowercase hex digits. */
static void read_token(web_request *rq) {
    const char *v = MHD_lookup_connection_value(rq->conn, MHD_COOKIE_KIND, "gmk_owner");
    if (!v || strlen(v) != 2 * GMK_WEB_TOKEN_BYTES) return;
    uint8_t raw[GMK_WEB_TOKEN_BYTES];
    for (int i = 0; i < GMK_WEB_TOKEN_BYTES; i++) {
        int hi = hex_value(v[2 * i]), lo = hex_value(v[2 * i + 1]);
        if (hi < 0 || lo < 0) return;
        raw[i] = (uint8_t)(hi << 4 | lo);
    }
    crypto_hash_sha256(rq->token_hash, raw, sizeof raw);
    rq->has_token = true;
}

bool web_ensure_token(web_request *rq) {
    if (rq->has_token) return true;
    uint8_t raw[GMK_WEB_TOKEN_BYTES];
    if (!web_random(raw, sizeof raw)) return false;
    to_hex(raw, sizeof raw, rq->new_token);
    crypto_hash_sha256(rq->token_hash, raw, sizeof raw);
    rq->has_token = true;
    return true;
}

/* --- the page's files -------------------------------------------------------------------- */

static const char *mime_of(const char *name) {
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".json", "application/json"},
        {".webmanifest", "application/manifest+json"},
        {".png", "image/png"},
        {".ico", "image/x-icon"},
        {".txt", "text/plain; charset=utf-8"},
    };
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i].ext) == 0) return types[i].type;
    return "application/octet-stream";
}

/* ETags, computed once at start: a quoted prefix of each file's SHA-256. */
static char (*g_etags)[24];

static void make_etags(void) {
    g_etags = calloc(gmk_web_asset_count + 1, sizeof *g_etags);
    for (size_t i = 0; g_etags && i < gmk_web_asset_count; i++) {
        uint8_t d[GMK_WEB_HASH_LEN];
        char hex[2 * GMK_WEB_HASH_LEN + 1];
        crypto_hash_sha256(d, gmk_web_assets[i].data, gmk_web_assets[i].len);
        sodium_bin2hex(hex, sizeof hex, d, sizeof d);
        snprintf(g_etags[i], sizeof g_etags[i], "\"%.16s\"", hex);
    }
}

static enum MHD_Result serve_asset(web_request *rq) {
    const char *name = strcmp(rq->path, "/") == 0 ? "index.html" : rq->path + 1;
    for (size_t i = 0; i < gmk_web_asset_count; i++) {
        if (strcmp(gmk_web_assets[i].name, name) != 0) continue;
        const char *etag = g_etags ? g_etags[i] : "";
        const char *inm = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "If-None-Match");
        bool fresh = inm && etag[0] && strcmp(inm, etag) == 0;
        struct MHD_Response *resp =
            fresh ? MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT)
                  : MHD_create_response_from_buffer(gmk_web_assets[i].len,
                                                    (void *)gmk_web_assets[i].data,
                                                    MHD_RESPMEM_PERSISTENT);
        if (!resp) return MHD_NO;
        MHD_add_response_header(resp, "Content-Type", mime_of(name));
        MHD_add_response_header(resp, "Cache-Control", "no-cache");
        if (etag[0]) MHD_add_response_header(resp, "ETag", etag);
        return web_queue(rq, fresh ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK, resp);
    }
    return web_error(rq, MHD_HTTP_NOT_FOUND, "no such page");
}

/* --- requests ---------------------------------------------------------------------------- */

/* A request's record, made as soon as its request line is read (libmicrohttpd's URI log
 * callback), with the raw URL: before it is unescaped, %00 can still be seen. */
static web_request *request_new(gmk_web *w, struct MHD_Connection *conn, const char *raw_url) {
    web_request *rq = calloc(1, sizeof *rq);
    if (!rq) return NULL;
    rq->web = w;
    rq->conn = conn;
    rq->start_us = now_us();
    if (raw_url) {
        rq->url_nul = strstr(raw_url, "%00") != NULL;
        rq->url_long = strlen(raw_url) > GMK_WEB_MAX_URL;
    }
    return rq;
}

static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn) {
    return request_new(cls, conn, uri);
}

/* GET /healthz, for a load balancer: 200 "ok" when the server runs and its database answers
 * (one round trip), else 503 with Retry-After. */
static enum MHD_Result health(web_request *rq) {
    gmk_web *w = rq->web;
    char err[256] = "";
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st = gmk_store_ping(w->store, err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
    const char *text = st == GMK_STORE_OK ? "ok\n" : "the database does not answer\n";
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
    if (!resp) return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", "text/plain; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    return web_queue(rq, st == GMK_STORE_OK ? 200 : 503, resp);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls) {
    (void)version;
    gmk_web *w = cls;
    web_request *rq = *con_cls;
    if (!rq) rq = *con_cls = request_new(w, conn, NULL);
    if (!rq) return MHD_NO;
    if (!rq->started) { /* the headers have arrived: answer now if the request is refused */
        rq->started = true;
        snprintf(rq->method, sizeof rq->method, "%s", method);
        if (strlen(url) >= sizeof rq->path) rq->url_long = true;
        snprintf(rq->path, sizeof rq->path, "%s", url);
        if (strlen(method) >= sizeof rq->method) return web_error(rq, 405, "unknown method");
        guard_client(rq);
        read_token(rq);
        bool refused;
        enum MHD_Result r = guard_request(rq, &refused);
        return r; /* refused: the error is queued before any body is read */
    }
    if (rq->wait_state == 2) { /* an analysis came back while the connection was suspended */
        rq->wait_state = 0;
        json_t *reply = rq->wait_reply;
        rq->wait_reply = NULL;
        if (rq->wait_status < 300) live_publish_later(rq); /* a move now on disk */
        return web_json(rq, rq->wait_status, reply);
    }
    if (*upload_data_size > 0) { /* a piece of the body (its length was checked: guard.c) */
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (rq->body_len + n > GMK_WEB_MAX_BODY) return MHD_NO;
        char *b = realloc(rq->body, rq->body_len + n + 1);
        if (!b) return MHD_NO;
        memcpy(b + rq->body_len, upload_data, n);
        rq->body = b;
        rq->body_len += n;
        rq->body[rq->body_len] = '\0';
        return MHD_YES;
    }
    if (rq->wait_state == 1) return MHD_YES; /* still waiting (should not happen) */
    if (rq->status) return MHD_YES;          /* answered from the headers already */
    if (atomic_load(&w->stopping)) return web_error(rq, 503, "the server is stopping");
    if (strcmp(rq->path, "/healthz") == 0) return health(rq);
    if (strncmp(rq->path, "/api/", 5) == 0) return web_api(rq);
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return web_error(rq, 405, "only GET here");
    return serve_asset(rq);
}

/* The path as the access log shows it: a room's code is a secret (whoever has it may join
 * or watch), so only its first four characters are written. Characters other than printable
 * ASCII are written as '?', so that a line is one line. */
static void log_path(const char *path, char *out, size_t cap) {
    size_t code_len = strncmp(path, "/api/rooms/", 11) == 0 ? strcspn(path + 11, "/") : 0;
    if (code_len > 4)
        snprintf(out, cap, "/api/rooms/%.4s...%s", path + 11, path + 11 + code_len);
    else
        snprintf(out, cap, "%s", path);
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) *p = '?';
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
    (void)conn;
    (void)toe;
    gmk_web *w = cls;
    web_request *rq = *con_cls;
    if (!rq) return;
    if (!w->opt.quiet && rq->started) {
        double ms = (double)(now_us() - rq->start_us) / 1000.0;
        char path[sizeof rq->path];
        log_path(rq->path, path, sizeof path);
        fprintf(stderr, "%s %s %u %.1f ms\n", rq->method, path, rq->status, ms);
    }
    json_decref(rq->wait_reply);
    free(rq->body);
    free(rq);
    *con_cls = NULL;
}

/* --- connections and libmicrohttpd's messages ----------------------------------------------- */

/* A new connection: refused when its client holds --conn-limit already (with --trust-proxy
 * every connection comes from the proxy, which limits its clients itself). */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t len) {
    (void)len;
    gmk_web *w = cls;
    web_client c;
    if (w->opt.trust_proxy || !web_client_of(addr, &c)) return MHD_YES;
    return limits_conn_allowed(w->limits, &c, web_now_ms()) ? MHD_YES : MHD_NO;
}

/* Counts a client's connections while they are open (on_accept reads the count). */
static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_ctx,
                          enum MHD_ConnectionNotificationCode code) {
    gmk_web *w = cls;
    if (w->opt.trust_proxy) return;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        web_client *c = malloc(sizeof *c);
        if (c && ci && web_client_of(ci->client_addr, c) &&
            limits_conn_add(w->limits, c, web_now_ms(), 1)) {
            *socket_ctx = c;
            return;
        }
        free(c);
        *socket_ctx = NULL;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_ctx) {
        limits_conn_add(w->limits, *socket_ctx, web_now_ms(), -1);
        free(*socket_ctx);
        *socket_ctx = NULL;
    }
}

/* libmicrohttpd's messages go to the error log (stderr, prefixed, one whole line each, even
 * with --quiet); the same text again within a minute is counted, not repeated, so that an
 * attack cannot flood the log. */
static void on_mhd_message(void *cls, const char *fmt, va_list ap) {
    (void)cls;
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static struct {
        char text[160];
        int64_t at;
        int repeats;
    } seen[16];
    static unsigned next;
    char text[160];
    vsnprintf(text, sizeof text, fmt, ap);
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r')) text[--n] = '\0';
    int64_t now = web_now_ms();
    pthread_mutex_lock(&mu);
    int repeats = -1;
    for (unsigned i = 0; i < 16; i++) {
        if (strcmp(seen[i].text, text) != 0) continue;
        if (now - seen[i].at < 60000) {
            seen[i].repeats++;
            pthread_mutex_unlock(&mu);
            return;
        }
        repeats = seen[i].repeats;
        seen[i].at = now;
        seen[i].repeats = 0;
        break;
    }
    if (repeats < 0) {
        unsigned i = next++ % 16;
        snprintf(seen[i].text, sizeof seen[i].text, "%s", text);
        seen[i].at = now;
        seen[i].repeats = 0;
    }
    pthread_mutex_unlock(&mu);
    if (repeats > 0)
        fprintf(stderr, "gomoku serve: libmicrohttpd: %s (and %d times more in the last minute)\n",
                text, repeats);
    else
        fprintf(stderr, "gomoku serve: libmicrohttpd: %s\n", text);
}

/* --- starting and stopping --------------------------------------------------------------- */

static void on_signal(int sig) {
    g_signal = sig;
}

/* Opens the listening socket on host:port (port 0: any). -1 with a message when not. */
static int listen_on(const char *host, int port, int *actual_port) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    char portstr[16];
    snprintf(portstr, sizeof portstr, "%d", port);
    struct addrinfo *res = NULL;
    int rc = getaddrinfo(host, portstr, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "gomoku serve: cannot use address '%s': %s\n", host, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 128) != 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        if (err == EADDRINUSE)
            fprintf(stderr,
                    "gomoku serve: port %d on %s is already in use (another server is "
                    "running?); choose another with --listen %s:PORT, or :0 for any free port\n",
                    port, host, host);
        else
            fprintf(stderr, "gomoku serve: cannot listen on %s:%d: %s\n", host, port,
                    strerror(err));
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    *actual_port = port;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
        *actual_port = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                                : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    return fd;
}

static int cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

int gmk_web_serve(const gmk_web_options *opt) {
    gmk_web *w = calloc(1, sizeof *w);
    if (!w) return 1;
    w->opt = *opt;
    if (!w->opt.host) w->opt.host = "127.0.0.1";
    if (!w->opt.lang) w->opt.lang = "en";
    if (w->opt.engines <= 0) w->opt.engines = cores();
    if (w->opt.queue <= 0) w->opt.queue = 4 * w->opt.engines;
    if (!w->opt.engine_bytes) w->opt.engine_bytes = DEFAULT_ENGINE_BYTES;
    if (w->opt.conn_limit <= 0) w->opt.conn_limit = GMK_WEB_CONN_LIMIT;
    if (w->opt.idle_timeout <= 0) w->opt.idle_timeout = GMK_WEB_IDLE_TIMEOUT;
    if (w->opt.rooms_max <= 0) w->opt.rooms_max = GMK_WEB_ROOMS_MAX;
    if (w->opt.join_limit <= 0) w->opt.join_limit = GMK_WEB_JOIN_LIMIT;
    if (w->opt.write_limit <= 0) w->opt.write_limit = GMK_WEB_WRITE_LIMIT;
    if (w->opt.auth_limit <= 0) w->opt.auth_limit = GMK_WEB_AUTH_LIMIT;
    if (w->opt.chat_limit <= 0) w->opt.chat_limit = GMK_WEB_CHAT_LIMIT;
    pthread_mutex_init(&w->store_mu, NULL);
    pthread_mutex_init(&w->live_mu, NULL);
    pthread_mutex_init(&w->sync_mu, NULL);
    pthread_cond_init(&w->sync_cv, NULL);
    int status = 1, fd = -1;
    bool rooms = lobby_start(w) && rooms_start(w); /* the timer thread ticks the lobby */
    char err[512];
    if (!rooms) {
        fprintf(stderr, "gomoku serve: cannot start the rooms' timer\n");
        goto done;
    }
    if (sodium_init() < 0) { /* hashing, comparing and random bytes: libsodium */
        fprintf(stderr, "gomoku serve: libsodium cannot start\n");
        goto done;
    }
    w->limits = limits_new(w->opt.join_limit, w->opt.conn_limit);
    w->writes = limits_new(w->opt.write_limit, 0);            /* counts no connections */
    w->analyses = limits_new(0, GMK_WEB_ANALYSES_PER_CLIENT); /* counts places held only */
    w->auth = limits_new(w->opt.auth_limit, 0);
    w->chats = limits_new(w->opt.chat_limit, 0);
    if (!w->limits || !w->writes || !w->analyses || !w->auth || !w->chats) {
        fprintf(stderr, "gomoku serve: out of memory\n");
        goto done;
    }
    if (gmk_store_open(w->opt.db, GMK_STORE_OPEN_DEFAULT, &w->store, err, sizeof err) !=
        GMK_STORE_OK) {
        fprintf(stderr, "gomoku serve: %s\n", err);
        goto done;
    }
    /* group commit; without it every write syncs on its own (still safe, slower) */
    if (gmk_store_defer_sync(w->store, err, sizeof err) != GMK_STORE_OK)
        fprintf(stderr, "gomoku serve: %s; each move is synced on its own\n", err);
    if (!web_durable_start(w)) {
        fprintf(stderr, "gomoku serve: cannot start the syncer thread\n");
        goto done;
    }
    w->pool = gmk_pool_create(w->opt.engines, w->opt.engine_bytes, w->opt.queue, err, sizeof err);
    if (!w->pool) {
        fprintf(stderr, "gomoku serve: %s\n", err);
        goto done;
    }
    rooms_watch_clocks(w);
    lobby_ready(w);
    int port = 0;
    fd = listen_on(w->opt.host, w->opt.port, &port);
    if (fd < 0) goto done;
    make_etags();

    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct MHD_OptionItem ops[12];
    int k = 0;
    ops[k++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)on_mhd_message, w};
    ops[k++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, fd, NULL};
    if (http_threads() > 1) /* one thread is no pool (libmicrohttpd warns about 1) */
        ops[k++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, http_threads(), NULL};
    ops[k++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)on_uri, w};
    ops[k++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, w};
    ops[k++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)on_connection, w};
    ops[k++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, GMK_WEB_CONNECTIONS, NULL};
    ops[k++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, w->opt.idle_timeout, NULL};
    ops[k++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, CONNECTION_MEMORY, NULL};
    ops[k++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    w->daemon = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, 0, on_accept,
        w, on_request, w, MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
    if (!w->daemon) {
        fprintf(stderr, "gomoku serve: cannot start the HTTP server\n");
        goto done;
    }
    fd = -1; /* MHD owns it now */
    const char *shown = w->opt.host;
    bool v6 = strchr(shown, ':') != NULL;
    gmk_pool_stats ps;
    gmk_pool_get_stats(w->pool, &ps);
    printf("gomoku serve: open http://%s%s%s:%d/ (database %s, %d engines, %zu MB of engine "
           "tables; Ctrl-C stops)\n",
           v6 ? "[" : "", shown, v6 ? "]" : "", port, gmk_store_path(w->store), w->opt.engines,
           ps.engine_bytes >> 20);
    fflush(stdout);

    for (int tick = 1; !g_signal; tick++) {
        struct timespec ts = {.tv_sec = 0, .tv_nsec = 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (tick % 10 == 0) live_tick(w, tick % 150 == 0);
    }
    fprintf(stderr, "gomoku serve: stopping (%s)\n", g_signal == SIGINT ? "SIGINT" : "SIGTERM");
    atomic_store(&w->stopping, true);
    status = 0;
done:
    atomic_store(&w->stopping, true);
    gmk_pool_shutdown(w->pool); /* waiting analyses get their answer and are resumed */
    live_close_streams(w);
    rooms_close_streams(w); /* and the timer thread */
    lobby_close_streams(w);
    web_durable_stop(w); /* moves waiting for their sync are answered */
    if (w->daemon) MHD_stop_daemon(w->daemon);
    if (fd >= 0) close(fd);
    live_free_all(w);
    rooms_free_all(w);
    lobby_free(w);
    web_reviews_free(w);
    gmk_pool_free(w->pool);
    gmk_store_close(w->store);
    limits_free(w->limits);
    limits_free(w->writes);
    limits_free(w->analyses);
    limits_free(w->auth);
    limits_free(w->chats);
    pthread_mutex_destroy(&w->store_mu);
    pthread_mutex_destroy(&w->live_mu);
    pthread_mutex_destroy(&w->sync_mu);
    pthread_cond_destroy(&w->sync_cv);
    free(g_etags);
    g_etags = NULL;
    free(w);
    return status;
}
