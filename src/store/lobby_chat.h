/* lobby_chat.h: the lobby's chat in the store (docs/lobby.md "Chat"), so that a reload, a
 * restarted server and every other server on one database show the last lines.
 *
 * Only the last `keep` lines are kept: each line added deletes the older ones, so that writers
 * nobody knows (guests) cannot grow the table without bound. A line records who said it (the
 * 16-byte tag of the lobby's player, a digest; its account id or 0 for a guest), the name shown
 * and the text, already checked and cleaned by the caller (game/room.h's gmk_room_name_valid
 * and gmk_room_chat_clean); the store checks only lengths. On a shared database (PostgreSQL)
 * each line added also sends "~C:<id>" on the channel gomoku_rooms (no room code starts with
 * "~"), so that the other servers read the last lines again. Times are Unix ms. Errors as in
 * store.h; called by src/web/lobby_chat.c under the server's store lock. */
#ifndef GMK_STORE_LOBBY_CHAT_H
#define GMK_STORE_LOBBY_CHAT_H

#include "store/lobby.h"
#include "store/rooms.h"
#include "store/store.h"

typedef struct {
    int64_t id; /* > 0 once added; increasing */
    int64_t at_ms;
    uint8_t sender[GMK_STORE_TAG_LEN];
    int64_t account; /* 0: a guest */
    char name[GMK_STORE_NAME_MAX];
    char text[GMK_STORE_CHAT_MAX];
} gmk_store_lobby_line;

/* Adds line (its id is set) and deletes every line but the last keep (keep >= 1). */
gmk_store_status gmk_store_lobby_chat_add(gmk_store *s, gmk_store_lobby_line *line, int keep,
                                          char *err, size_t errlen);

/* The last lines, up to cap, oldest first; *count receives how many. */
gmk_store_status gmk_store_lobby_chat_recent(gmk_store *s, gmk_store_lobby_line *out, int cap,
                                             int *count, char *err, size_t errlen);

#endif
