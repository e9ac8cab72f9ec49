/* presence.h: what servers sharing one database learn of each other: who is connected to an
 * online room across them (PostgreSQL; docs/deploy.md, "Presence"), and whether a game
 * changed elsewhere.
 *
 * Each server draws a random id at start and keeps a lease on the database
 * (gmk_store_server_beat, every second, for a few seconds ahead). For each room and seat it
 * holds streams of, a server keeps one row: how many streams of that seat it holds now and
 * when that last changed (gmk_store_presence_set). A server deciding on a seat's presence (a
 * connection event, the 60 s disconnection claim) reads the other servers' rows
 * (gmk_store_presence_others): the streams of servers whose lease holds count; a server whose
 * lease ran out is dead and its streams were cut when its lease ended at the latest. Rows go
 * with their room (foreign key) and with servers dead for two minutes (the beat with gc).
 * The tables (gomoku_servers, gomoku_presence) are working state of the servers, not data:
 * db_pg.c creates them at open, outside the versioned schema, and SQLite (one process) has
 * none: every call here is GMK_STORE_INVALID there. Also here: the mark of a stored game, by
 * which a server notices that another server changed a game it keeps in memory (either
 * backend). Errors as in store.h. */
#ifndef GMK_STORE_PRESENCE_H
#define GMK_STORE_PRESENCE_H

#include "store/store.h"

/* The streams of one seat of a room on the other servers. */
typedef struct {
    int streams;      /* on servers whose lease holds */
    int64_t since_ms; /* when the last of them closed (a dead server's: its lease's end); 0 */
} gmk_store_presence;

/* Renews the lease of server (> 0) until now_ms + lease_ms. With gc, also forgets the servers
 * dead for more than two minutes and their rows. */
gmk_store_status gmk_store_server_beat(gmk_store *s, int64_t server, int64_t now_ms,
                                       int64_t lease_ms, bool gc, char *err, size_t errlen);

/* Ends the lease of server at now_ms (a clean stop: its streams are closed). */
gmk_store_status gmk_store_server_leave(gmk_store *s, int64_t server, int64_t now_ms, char *err,
                                        size_t errlen);

/* Server holds streams (>= 0) of seat (0, 1) of the room with code, since now_ms. */
gmk_store_status gmk_store_presence_set(gmk_store *s, int64_t server, const char *code, int seat,
                                        int streams, int64_t now_ms, char *err, size_t errlen);

/* The streams of each seat of the room with code on the servers other than server, at now_ms,
 * into out[0] and out[1]. */
gmk_store_status gmk_store_presence_others(gmk_store *s, int64_t server, const char *code,
                                           int64_t now_ms, gmk_store_presence out[2], char *err,
                                           size_t errlen);

/* --- games kept in memory by several servers ------------------------------------------- */

/* What a server compares to notice that another server changed a game it keeps in memory (a
 * move, a take-back, a result): the number of moves stored, their checksum (the sum over the
 * moves of (ply + 1) * (x * 64 + y + 1), ply from 0: gmk_store_moves_checksum) and whether the
 * game has a result. */
typedef struct {
    int moves;
    int64_t checksum;
    bool over;
} gmk_store_game_mark;

/* The mark of game id as stored (one round trip). GMK_STORE_NOT_FOUND when there is none. Works
 * on either backend. */
gmk_store_status gmk_store_game_mark_get(gmk_store *s, int64_t id, gmk_store_game_mark *out,
                                         char *err, size_t errlen);

/* The checksum of n moves, as gmk_store_game_mark_get computes it. */
int64_t gmk_store_moves_checksum(const gmk_pos *moves, int n);

#endif
