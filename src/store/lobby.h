/* lobby.h: the lobby's open seeks in the store (docs/lobby.md), so that every server on one
 * database sees the same seeks and exactly one player takes each.
 *
 * A seek is a player waiting for an opponent: listed (an open seek anyone may accept) or a
 * quick-pairing entry (not listed; matched by gmk_store_seek_match). Each is posted with the
 * room it will open already drawn (its code and the SHA-256 of the poster's seat token, never
 * the token), so that whoever takes it opens that room with the poster in seat 0. Taking is a
 * compare-and-set (state 0 -> 1): of two takers, one gets it, the other GMK_STORE_NOT_FOUND.
 * Taken seeks stay a minute (other servers read what became of them), then go. On a shared
 * database (PostgreSQL) every change also sends "~L<id>" on the channel gomoku_rooms, which
 * no room code can be, so that the other servers read that seek again. Times are Unix ms.
 * Errors as in store.h; called by src/web/lobby.c under the server's store lock. */
#ifndef GMK_STORE_LOBBY_H
#define GMK_STORE_LOBBY_H

#include "store/rooms.h"
#include "store/store.h"

#define GMK_STORE_TAG_LEN 16 /* who posted: a digest of the poster's identity */
#define GMK_STORE_CLIENT_LEN 9

typedef enum { GMK_SEEK_OPEN = 0, GMK_SEEK_QUICK = 1 } gmk_store_seek_kind;

typedef struct {
    int64_t id; /* > 0 once added */
    int kind;   /* gmk_store_seek_kind */
    int state;  /* 0 open, 1 taken */
    uint8_t poster[GMK_STORE_TAG_LEN];
    uint8_t client[GMK_STORE_CLIENT_LEN]; /* the poster's address, for the per-client limit */
    char name[GMK_STORE_NAME_MAX];
    int64_t account; /* 0: a guest */
    int rating;
    gmk_rule rule;
    int size;
    int64_t clock_ms, increment_ms;
    bool rated;
    int color; /* the poster plays 0 at random, 1 black, 2 white */
    char code[GMK_STORE_ROOM_CODE_MAX];
    uint8_t token_sha256[GMK_STORE_HASH_LEN];
    int64_t created_ms, expires_ms;
} gmk_store_seek;

/* Adds seek (its id is set) unless its client already has max_open open seeks
 * (GMK_STORE_BUSY then, nothing added). */
gmk_store_status gmk_store_seek_add(gmk_store *s, gmk_store_seek *seek, int max_open, char *err,
                                    size_t errlen);

/* Seek id as it is now. GMK_STORE_NOT_FOUND when it is gone. */
gmk_store_status gmk_store_seek_get(gmk_store *s, int64_t id, gmk_store_seek *out, char *err,
                                    size_t errlen);

/* The open seeks (listed and quick), oldest first, up to cap; *count receives how many. */
gmk_store_status gmk_store_seeks_open(gmk_store *s, gmk_store_seek *out, int cap, int *count,
                                      char *err, size_t errlen);

/* Takes open seek id (state 0 -> 1) into *out. GMK_STORE_NOT_FOUND when it is taken or gone. */
gmk_store_status gmk_store_seek_take(gmk_store *s, int64_t id, gmk_store_seek *out, char *err,
                                     size_t errlen);

/* Finds and takes the quick-pairing entry that fits want (same rule, size, clock, rated; not
 * the same poster), whose rating is within window_base + waited / window_per_ms of want's
 * (waited: how long that entry has waited at now_ms), the longest waiting first. *found says
 * whether there was one (then in *out). */
gmk_store_status gmk_store_seek_match(gmk_store *s, const gmk_store_seek *want, int64_t now_ms,
                                      int window_base, int window_per_ms, gmk_store_seek *out,
                                      bool *found, char *err, size_t errlen);

/* Deletes open seek id if poster posted it. GMK_STORE_NOT_FOUND otherwise. */
gmk_store_status gmk_store_seek_cancel(gmk_store *s, int64_t id,
                                       const uint8_t poster[GMK_STORE_TAG_LEN], char *err,
                                       size_t errlen);

/* Deletes the open seeks of poster (when the poster has left the lobby), or (poster NULL) the
 * open ones past expires_ms at now_ms and the taken ones older than a minute; up to cap of the
 * deleted open seeks' ids into ids, *count receives how many (more may have gone). */
gmk_store_status gmk_store_seeks_remove(gmk_store *s, const uint8_t *poster, int64_t now_ms,
                                        int64_t *ids, int cap, int *count, char *err,
                                        size_t errlen);

/* A game in progress in an open room, for the lobby's list of games to watch. */
typedef struct {
    char code[GMK_STORE_ROOM_CODE_MAX];
    gmk_rule rule;
    int size;
    int64_t clock_ms, increment_ms;
    char black[GMK_STORE_NAME_MAX], white[GMK_STORE_NAME_MAX];
    int64_t started_ms; /* the room's creation */
} gmk_store_live_game;

/* The rooms whose game is in play, the most recently active first, up to cap; *count receives
 * how many. */
gmk_store_status gmk_store_rooms_playing(gmk_store *s, gmk_store_live_game *out, int cap,
                                         int *count, char *err, size_t errlen);

#endif
