/* fuzz_http.c: libFuzzer target for the HTTP API of `gomoku serve` (src/web/, docs/http-api.md):
 * the request bodies (and some path parts) of every route, sent to the real server.
 *
 * The first input starts gmk_web_serve in-process on a thread (127.0.0.1, a free port, a
 * temporary SQLite file, one engine of 1 MiB, no access log, no join limit and no limit on
 * connections: an event stream the harness has left is noticed only at the server's next
 * ping, 15 s on, so 64 of them would fill the one client's share) and creates one
 * game of each mode and a room with both seats taken, keeping their ids, code and cookies.
 * Then for each input: byte 0 picks the route and method (ROUTES below; its high bit acts on
 * fresh games and a fresh room instead of the shared ones), the rest is the body, or the path
 * part for the routes that take one (percent-encoded where it is not a plain URL character).
 * Each goes as one HTTP/1.1 request over a loopback socket with Content-Type application/json
 * (text/plain for one records route) and Content-Length, with a 3 s receive timeout.
 * Checks, besides ASan/UBSan in the whole server: the reply starts with a well-formed status
 * line `HTTP/1.x NNN ` and NNN is not 5xx, except 503 (the engine queue is full); the server
 * never closes the connection without a reply (MHD does when a handler fails). A reply that
 * does not come in time is accepted (POST /api/analyze may think up to 5 s by design).
 * Every whole reply is also checked answer by answer (check_answers): an error (4xx, 5xx) is
 * the API's JSON {"error": ...}, never a page of libmicrohttpd's, except the few that
 * libmicrohttpd sends before the server sees the request (docs/http-api.md, "What
 * libmicrohttpd answers itself"): a request head over 64 KiB (414, 431), a malformed header
 * or Content-Length (400), an HTTP version other than 1.x (505).
 * The last route, RAW, sends the input's bytes themselves as the request (request line,
 * headers, body, chunks: anything), with "Connection: close" added after the first line and
 * the sending side shut after it, and checks every answer the same way; no answer at all is
 * allowed there (libmicrohttpd hangs up on a request line it cannot read).
 * FUZZ_HTTP_VERBOSE=1 in the environment prints each request's status.
 * Build and run: make fuzz; build/fuzz/fuzz_http -max_total_time=60 fuzz/corpus/http */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_check.h"
#include "web/web.h"

enum { BODY_CAP = 70 * 1024, REPLY_CAP = 16 * 1024 };

static int g_port;
static char g_db[64];

/* The shared objects: two games, a room and the cookies that act in them. */
typedef struct {
    long hvh, hvc;
    char owner[96];    /* "gmk_owner=..." */
    char code[32];     /* room code */
    char seat[2][128]; /* "gmk_seat_CODE=..." of seats 0 and 1 */
} objects;
static objects g_obj;

static void *serve_thread(void *arg) {
    gmk_web_serve(arg);
    return NULL;
}

/* A free loopback port (bound then released; the server binds it right after). */
static int free_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    CHECK(bind(fd, (struct sockaddr *)&a, sizeof a) == 0);
    socklen_t len = sizeof a;
    CHECK(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
    close(fd);
    return ntohs(a.sin_port);
}

static int connect_server(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(fd >= 0);
    struct timeval tv = {.tv_sec = 3};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)g_port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Sends one request and reads the reply into out (NUL-terminated; the status line at least,
 * everything when whole is set). The reply's length, -1 when none came in time, -2 when the
 * server closed the connection without a word. */
static int request(const char *method, const char *path, const char *ctype, const char *cookie,
                   const uint8_t *body, size_t len, bool whole, char *out, size_t cap) {
    int fd = connect_server();
    if (fd < 0) return -1;
    static char head[4096];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     "Content-Type: %s\r\nContent-Length: %zu\r\n%s%s%s\r\n",
                     method, path, ctype, len, cookie ? "Cookie: " : "", cookie ? cookie : "",
                     cookie ? "\r\n" : "");
    CHECK(n > 0 && (size_t)n < sizeof head);
    /* one write: head then body in two would wait for the server's delayed ACK (Nagle) */
    static uint8_t msg[sizeof head + BODY_CAP];
    CHECK(len <= BODY_CAP);
    memcpy(msg, head, (size_t)n);
    if (len) memcpy(msg + n, body, len);
    len += (size_t)n;
    bool sent = true;
    for (size_t off = 0; sent && off < len;) {
        ssize_t k = send(fd, msg + off, len - off, MSG_NOSIGNAL);
        if (k <= 0)
            sent = false;
        else
            off += (size_t)k;
    }
    size_t got = 0;
    bool closed = false;
    while (got + 1 < cap) {
        ssize_t k = recv(fd, out + got, cap - 1 - got, 0);
        closed = k == 0;
        if (k <= 0) break;
        got += (size_t)k;
        out[got] = '\0';
        if (!whole && strstr(out, "\r\n")) break;
    }
    out[got] = '\0';
    close(fd);
    return got ? (int)got : closed && sent ? -2 : -1;
}

/* The status of a reply after checking its status line; 0 when none came in time. */
static int status_of(const char *reply, int len) {
    if (len == -2) { /* the server closed the connection without answering */
        fprintf(stderr, "fuzz_http: no reply\n");
        abort();
    }
    if (len <= 0) return 0;
    if (len < 13 && !strstr(reply, "\r\n")) return 0; /* cut off by the timeout */
    CHECK(strncmp(reply, "HTTP/1.", 7) == 0 && (reply[7] == '0' || reply[7] == '1'));
    CHECK(reply[8] == ' ');
    for (int i = 9; i < 12; i++) CHECK(reply[i] >= '0' && reply[i] <= '9');
    CHECK(reply[12] == ' ' || reply[12] == '\r');
    int status = (reply[9] - '0') * 100 + (reply[10] - '0') * 10 + (reply[11] - '0');
    CHECK(status >= 100 && status <= 599);
    if (status >= 500 && status != 503) {
        fprintf(stderr, "fuzz_http: status %d:\n%.2000s\n", status, reply);
        abort();
    }
    return status;
}

/* The value of header name in the head [head, end), or NULL; its length in *len. */
static const char *header_in(const char *head, const char *end, const char *name, size_t *len) {
    size_t n = strlen(name);
    for (const char *p = strstr(head, "\r\n"); p && p + 2 < end; p = strstr(p + 2, "\r\n")) {
        const char *line = p + 2;
        if ((size_t)(end - line) > n && strncasecmp(line, name, n) == 0 && line[n] == ':') {
            const char *v = line + n + 1;
            while (*v == ' ') v++;
            *len = strcspn(v, "\r\n");
            return v;
        }
    }
    return NULL;
}

/* Checks every answer in a whole reply: a valid status line; an error is the API's JSON
 * {"error":...} (Content-Type application/json) but for libmicrohttpd's own answers of the
 * documented kinds (no Content-Type: 400, 414, 431, 505), after which it closes; a stream
 * (text/event-stream) or a reply cut short ends the check. */
static void check_answers(const char *reply, int len) {
    const char *p = reply, *end = reply + (len > 0 ? len : 0);
    while (p < end) {
        CHECK(end - p >= 12 && strncmp(p, "HTTP/1.", 7) == 0);
        int status = atoi(p + 9);
        CHECK(status >= 100 && status <= 599);
        const char *head_end = strstr(p, "\r\n\r\n");
        if (!head_end || head_end >= end) return; /* cut off by the timeout */
        if (status < 200) { /* an interim answer (100 Continue): no body, the real one follows */
            p = head_end + 4;
            continue;
        }
        size_t n;
        const char *ct = header_in(p, head_end, "Content-Type", &n);
        if (ct && n >= 17 && strncmp(ct, "text/event-stream", 17) == 0) return;
        if (status >= 400 && !ct) { /* libmicrohttpd's own page: only the documented ones */
            if (status != 400 && status != 414 && status != 431 && status != 505) {
                fprintf(stderr, "fuzz_http: libmicrohttpd answered %d itself:\n%.600s\n", status,
                        p);
                abort();
            }
            return; /* it closes the connection after it */
        }
        size_t cl_len;
        const char *cl = header_in(p, head_end, "Content-Length", &cl_len);
        CHECK(cl); /* every answer of the API has its length */
        size_t body_len = strtoul(cl, NULL, 10);
        const char *body = head_end + 4;
        if (body + body_len > end) return; /* cut off (the reply buffer is full) */
        if (status >= 400) {
            if (!ct || n < 16 || strncmp(ct, "application/json", 16) != 0 || body_len < 10 ||
                strncmp(body, "{\"error\":\"", 10) != 0) {
                fprintf(stderr, "fuzz_http: an error that is not the API's JSON:\n%.600s\n", p);
                abort();
            }
        }
        p = body + body_len;
    }
}

/* Sends raw bytes as a request: "Connection: close" after the first line, then the sending
 * side is shut, so that the server answers what it has and closes. */
static int raw_request(const uint8_t *data, size_t len, char *out, size_t cap) {
    int fd = connect_server();
    if (fd < 0) return -1;
    /* the server answers a whole request in a few ms; a request it still waits for (a body
     * shorter than its Content-Length, a head cut short) is given up on sooner than 3 s */
    struct timeval tv = {.tv_usec = 300 * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    static uint8_t msg[BODY_CAP + 64];
    const uint8_t *nl = memchr(data, '\n', len);
    size_t first = nl ? (size_t)(nl - data) + 1 : len, n = 0;
    memcpy(msg, data, first);
    n = first;
    if (nl) {
        memcpy(msg + n, "Connection: close\r\n", 19);
        n += 19;
    }
    memcpy(msg + n, data + first, len - first);
    n += len - first;
    for (size_t off = 0; off < n;) {
        ssize_t k = send(fd, msg + off, n - off, MSG_NOSIGNAL);
        if (k <= 0) break;
        off += (size_t)k;
    }
    shutdown(fd, SHUT_WR);
    size_t got = 0;
    while (got + 1 < cap) {
        ssize_t k = recv(fd, out + got, cap - 1 - got, 0);
        if (k <= 0) break;
        got += (size_t)k;
    }
    out[got] = '\0';
    close(fd);
    return (int)got;
}

/* Copies the value of a Set-Cookie whose name starts with prefix, as "name=value". */
static void find_cookie(const char *reply, const char *prefix, char *out, size_t cap) {
    char key[64];
    snprintf(key, sizeof key, "Set-Cookie: %s", prefix);
    const char *s = strcasestr(reply, key);
    CHECK(s);
    s += strlen("Set-Cookie: ");
    size_t n = strcspn(s, ";\r\n");
    CHECK(n < cap);
    memcpy(out, s, n);
    out[n] = '\0';
}

/* A JSON field of the reply's body: the number after "key": or the string's text. */
static long json_long(const char *reply, const char *key) {
    char k[64];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *s = strstr(reply, k);
    CHECK(s);
    return strtol(s + strlen(k), NULL, 10);
}

static void json_string(const char *reply, const char *key, char *out, size_t cap) {
    char k[64];
    snprintf(k, sizeof k, "\"%s\":\"", key);
    const char *s = strstr(reply, k);
    CHECK(s);
    s += strlen(k);
    size_t n = strcspn(s, "\"");
    CHECK(n < cap);
    memcpy(out, s, n);
    out[n] = '\0';
}

static char g_reply[REPLY_CAP];

static long new_game(const char *body, char *owner_out) {
    const char *cookie = owner_out[0] ? owner_out : NULL;
    int n = request("POST", "/api/games", "application/json", cookie, (const uint8_t *)body,
                    strlen(body), true, g_reply, sizeof g_reply);
    int st = status_of(g_reply, n);
    if (st != 201) return -1;
    if (!owner_out[0]) find_cookie(g_reply, "gmk_owner=", owner_out, 96);
    return json_long(g_reply, "id");
}

/* Makes the two games and a room with both seats taken into o (the owner cookie is kept). */
static bool make_objects(objects *o) {
    o->hvh = new_game("{\"mode\":\"hvh\",\"rule\":\"renju\",\"moves\":\"h8i9\"}", o->owner);
    o->hvc = new_game("{\"mode\":\"hvc\",\"level\":1,\"human\":\"black\"}", o->owner);
    if (o->hvh < 0 || o->hvc < 0) return false;
    const char *room = "{\"name\":\"Ann\",\"black\":\"me\",\"clock\":\"none\"}";
    int n = request("POST", "/api/rooms", "application/json", NULL, (const uint8_t *)room,
                    strlen(room), true, g_reply, sizeof g_reply);
    if (status_of(g_reply, n) != 201) return false;
    json_string(g_reply, "code", o->code, sizeof o->code);
    find_cookie(g_reply, "gmk_seat_", o->seat[0], sizeof o->seat[0]);
    char path[96];
    snprintf(path, sizeof path, "/api/rooms/%s/join", o->code);
    const char *join = "{\"name\":\"Bob\"}";
    n = request("POST", path, "application/json", NULL, (const uint8_t *)join, strlen(join), true,
                g_reply, sizeof g_reply);
    if (status_of(g_reply, n) != 200) return false;
    find_cookie(g_reply, "gmk_seat_", o->seat[1], sizeof o->seat[1]);
    return true;
}

static void start(void) {
    snprintf(g_db, sizeof g_db, "%s/fuzz_http_%d.db",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
    unlink(g_db);
    static gmk_web_options opt;
    g_port = free_port();
    opt = (gmk_web_options){.host = "127.0.0.1",
                            .port = g_port,
                            .db = g_db,
                            .engines = 1,
                            .queue = 2,
                            .engine_bytes = 1u << 20,
                            .quiet = true,
                            .join_limit = 1 << 30,
                            .conn_limit = 1 << 20};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, serve_thread, &opt) == 0);
    pthread_detach(t);
    for (int i = 0; i < 200; i++) { /* up to 10 s to listen */
        int fd = connect_server();
        if (fd >= 0) {
            close(fd);
            break;
        }
        usleep(50 * 1000);
    }
    CHECK(make_objects(&g_obj));
}

static void cleanup(void) {
    char p[80];
    unlink(g_db);
    snprintf(p, sizeof p, "%s-wal", g_db);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", g_db);
    unlink(p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    start();
    atexit(cleanup);
    return 0;
}

/* Appends s to the path, percent-encoding every byte that is not a plain URL character. */
static void append_encoded(char *path, size_t cap, const uint8_t *s, size_t n) {
    size_t len = strlen(path);
    for (size_t i = 0; i < n && len + 4 < cap; i++) {
        uint8_t c = s[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            strchr("-._~/?=&%", c))
            path[len++] = (char)c;
        else
            len += (size_t)snprintf(path + len, cap - len, "%%%02X", c);
    }
    path[len] = '\0';
}

enum { GAME_HVH, GAME_HVC, ROOM0, ROOM1, NONE };
typedef struct {
    const char *method;
    const char *path; /* %s: the body as a path part; {G}/{R}: the object's id/code */
    int target;
    bool body_in_path, stream, plain;
} route;

static const route ROUTES[] = {
    {"POST", "/api/games", NONE, 0, 0, 0},
    {"POST", "/api/games/{G}/move", GAME_HVH, 0, 0, 0},
    {"POST", "/api/games/{G}/move", GAME_HVC, 0, 0, 0},
    {"POST", "/api/games/{G}/undo", GAME_HVH, 0, 0, 0},
    {"POST", "/api/games/{G}/redo", GAME_HVH, 0, 0, 0},
    {"POST", "/api/games/{G}/resign", GAME_HVH, 0, 0, 0},
    {"POST", "/api/games/{G}/hint", GAME_HVC, 0, 0, 0},
    {"POST", "/api/games/{G}/undo", GAME_HVC, 0, 0, 0},
    {"POST", "/api/records", NONE, 0, 0, 0},
    {"POST", "/api/records", NONE, 0, 0, 1},
    {"POST", "/api/analyze", NONE, 0, 0, 0},
    {"POST", "/api/rooms", NONE, 0, 0, 0},
    {"POST", "/api/rooms/{R}/join", NONE, 0, 0, 0},
    {"POST", "/api/rooms/{R}/move", ROOM0, 0, 0, 0},
    {"POST", "/api/rooms/{R}/move", ROOM1, 0, 0, 0},
    {"POST", "/api/rooms/{R}/resign", ROOM0, 0, 0, 0},
    {"POST", "/api/rooms/{R}/draw", ROOM1, 0, 0, 0},
    {"POST", "/api/rooms/{R}/draw-answer", ROOM0, 0, 0, 0},
    {"POST", "/api/rooms/{R}/undo", ROOM0, 0, 0, 0},
    {"POST", "/api/rooms/{R}/undo-answer", ROOM1, 0, 0, 0},
    {"POST", "/api/rooms/{R}/claim", ROOM1, 0, 0, 0},
    {"POST", "/api/rooms/{R}/rematch", ROOM0, 0, 0, 0},
    {"POST", "/api/rooms/{R}/rematch", ROOM1, 0, 0, 0},
    {"GET", "/api/games/%s", NONE, 1, 0, 0},
    {"GET", "/api/games/{G}/record?format=%s", GAME_HVH, 1, 0, 0},
    {"GET", "/api/games?limit=%s", NONE, 1, 0, 0},
    {"GET", "/api/rooms/%s", NONE, 1, 0, 0},
    {"POST", "/api/games/%s", GAME_HVH, 1, 0, 0},
    {"POST", "/api/rooms/%s", ROOM0, 1, 0, 0},
    {"GET", "/%s", NONE, 1, 0, 0},
    {"GET", "/api/config", NONE, 0, 0, 0},
    {"GET", "/api/stats", NONE, 0, 0, 0},
    {"GET", "/api/games/{G}/events", GAME_HVC, 0, 1, 0},
    {"GET", "/api/rooms/{R}/events", ROOM1, 0, 1, 0},
    {"GET", "/api/games/{G}", GAME_HVH, 0, 0, 0},
    {"GET", "/api/rooms/{R}", ROOM0, 0, 0, 0},
    {"RAW", "", NONE, 0, 0, 0}, /* the input is the request itself (request line and all) */
    {"POST", "/api/rooms/{R}/chat", ROOM0, 0, 0, 0},
    {"POST", "/api/rooms/{R}/mute", ROOM1, 0, 0, 0},
    {"POST", "/api/rooms/{R}/choose", ROOM1, 0, 0, 0},
    {"POST", "/api/puzzles/200000/move", NONE, 0, 0, 0}, /* the first threes puzzle */
    {"POST", "/api/puzzles/300000/move", NONE, 0, 0, 0}, /* renju's */
    {"POST", "/api/puzzles/%s/hint", NONE, 1, 0, 0},
    {"POST", "/api/lobby/chat", NONE, 0, 0, 0},
};
enum { NROUTES = sizeof ROUTES / sizeof ROUTES[0] };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > BODY_CAP) return 0;
    const route *r = &ROUTES[(data[0] & 0x7F) % NROUTES];
    objects fresh = g_obj, *o = &g_obj;
    if (data[0] & 0x80) { /* fresh games and room, same owner */
        if (!make_objects(&fresh)) return 0;
        o = &fresh;
    }
    const uint8_t *body = data + 1;
    size_t len = size - 1;
    static char reply[REPLY_CAP];
    if (strcmp(r->method, "RAW") == 0) {
        int n = raw_request(body, len, reply, sizeof reply);
        if (n > 0) {
            check_answers(reply, n);
            int status = atoi(reply + 9);
            if (status >= 500 && status != 503 && status != 505) {
                fprintf(stderr, "fuzz_http: status %d:\n%.2000s\n", status, reply);
                abort();
            }
        }
        if (getenv("FUZZ_HTTP_VERBOSE"))
            fprintf(stderr, "fuzz_http: RAW %.*s -> %.12s\n", (int)(len < 40 ? len : 40),
                    (const char *)body, reply);
        return 0;
    }
    char path[4096] = "";
    for (const char *p = r->path; *p && strlen(path) + 64 < sizeof path; p++) {
        size_t at = strlen(path);
        if (strncmp(p, "{G}", 3) == 0) {
            snprintf(path + at, sizeof path - at, "%ld", r->target == GAME_HVC ? o->hvc : o->hvh);
            p += 2;
        } else if (strncmp(p, "{R}", 3) == 0) {
            snprintf(path + at, sizeof path - at, "%s", o->code);
            p += 2;
        } else if (strncmp(p, "%s", 2) == 0) {
            append_encoded(path, sizeof path - 64, body, len < 1024 ? len : 1024);
            p += 1;
        } else {
            path[at] = *p;
            path[at + 1] = '\0';
        }
    }
    if (r->body_in_path) len = 0;
    const char *cookie = r->target == ROOM0   ? o->seat[0]
                         : r->target == ROOM1 ? o->seat[1]
                         : r->target == NONE  ? NULL
                                              : o->owner;
    if (r->target == NONE && strncmp(r->path, "/api/games", 10) == 0) cookie = o->owner;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int n = request(r->method, path, r->plain ? "text/plain" : "application/json", cookie, body,
                    len, !r->stream, reply, sizeof reply);
    int status = status_of(reply, n);
    if (!r->stream) check_answers(reply, n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (getenv("FUZZ_HTTP_VERBOSE"))
        fprintf(stderr, "fuzz_http: %s %s -> %d (%.1f ms)\n", r->method, path, status,
                (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    return 0;
}
