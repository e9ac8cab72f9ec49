/* web.h: `gomoku serve`, the game in a web page, served by GNU libmicrohttpd.
 *
 * The server embeds the page's files (the files of web/, built into the binary), answers the JSON
 * API of docs/http-api.md, streams each game's events to every viewer (server-sent events), and
 * runs the computer's moves and analyses on a bounded pool of engines. Every rule of play goes
 * through src/game/session.c and every game lives in the SQLite store, as in the terminal
 * game. The files of src/web/: server.c (HTTP, headers, assets, logs), api.c and api_misc.c
 * (routes and JSON), state.c (a game as JSON), live.c (the games in memory), events.c (the
 * event streams), pool.c (engines). Owner tokens and ETags are hashed with libsodium. */
#ifndef GMK_WEB_H
#define GMK_WEB_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *host;    /* "127.0.0.1" by default; "0.0.0.0" or "::" for every interface */
    int port;            /* 0: any free port */
    const char *db;      /* NULL: the default store path */
    int engines;         /* engine workers (0: the number of cores) */
    int queue;           /* jobs that may wait for an engine (0: 4 per engine) */
    size_t engine_bytes; /* tables per engine (0: 32 MB) */
    int threads;         /* search threads per engine, for the searches bound only by time
                            (the top level, hints, analyses; 0: one) */
    const char *lang;    /* "en" or "zh": the page's default language */
    bool quiet;          /* no access log */
    int join_limit;      /* online rooms created or joined, and wrong room codes sent, per
                            client a minute (0: 30) */
    int conn_limit;      /* connections per client at once (0: 64) */
    int write_limit;     /* games created and puzzle answers stored, per client a minute
                            (0: 60) */
    int auth_limit;      /* sign-ups and log-ins per client a minute before the back-off
                            (0: 10) */
    int chat_limit;      /* chat lines sent, per client a minute (0: 20) */
    int idle_timeout;    /* seconds before an idle connection is closed (0: 30) */
    int rooms_max;       /* online rooms in memory at once (0: 2000) */
    bool trust_proxy;    /* the client is the last X-Forwarded-For entry, the scheme
                            X-Forwarded-Proto's (only behind a proxy that sets them) */
} gmk_web_options;

/* Runs the server until SIGINT or SIGTERM; prints the URL on stdout once it listens and
 * every problem on stderr. Returns 0 after a clean stop, 1 when it cannot start (the port is
 * taken, the store cannot be opened, ...). */
int gmk_web_serve(const gmk_web_options *opt);

#endif
