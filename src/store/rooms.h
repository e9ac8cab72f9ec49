/* rooms.h: online rooms in the store: the room with its clocks and pending offers, its two
 * seats, and its ordered event log.
 *
 * The store keeps what game/room.c tells it and checks only what keeps the file sound (ranges,
 * the order of the log); the rules of a room are in game/room.h. A room is saved whole with the
 * events that brought it to that state, in one transaction, so the row and the log always
 * agree. The save is a compare-and-set on the room's last event number: a second writer (a
 * second server on one database, later) that saves from a stale copy gets GMK_STORE_BUSY and
 * changes nothing. Events are rows of room_events keyed by (room_id, seq) with plain columns,
 * so any process can read a room's log from a sequence number on. Seat tokens are never
 * stored, only their SHA-256. Times are Unix milliseconds. Errors as in store.h. */
#ifndef GMK_STORE_ROOMS_H
#define GMK_STORE_ROOMS_H

#include "store/store.h"

#define GMK_STORE_HASH_LEN 32      /* SHA-256 */
#define GMK_STORE_ROOM_CODE_MAX 16 /* room codes up to 15 characters, NUL included */
#define GMK_STORE_CHAT_MAX 421     /* a chat line: up to 420 bytes, NUL included */

/* One seat: 0 is the room's creator, 1 the friend who joined. */
typedef struct {
    bool taken;
    uint8_t token_sha256[GMK_STORE_HASH_LEN];
    char name[GMK_STORE_NAME_MAX];
    gmk_color color; /* the colour this seat plays in the current game */
    int64_t account; /* the account that holds it (store/accounts.h); 0: a guest */
} gmk_store_seat;

/* A room as stored. Numbers that game/room.c gives meaning to (phase, offers) are kept as
 * they are given, within the ranges checked by gmk_store_room_save. */
typedef struct {
    int64_t id; /* > 0 once created */
    char code[GMK_STORE_ROOM_CODE_MAX];
    gmk_rule rule;
    int size;
    int64_t clock_ms, increment_ms; /* Fischer clock; clock_ms 0: none */
    int64_t created_ms, touched_ms;
    int phase;       /* 0..3, game/room.h's gmk_room_phase */
    int64_t game_id; /* the current or last game; 0 before the first */
    int game_no;     /* games begun in this room */
    gmk_store_seat seat[2];
    int64_t black_ms, white_ms; /* time left on each clock when the current turn began */
    int64_t turn_start_ms;
    gmk_color draw_by, undo_by, rematch_by; /* a pending offer by that colour; GMK_EMPTY: none */
    gmk_outcome outcome;                    /* the last game's result, once over */
    gmk_reason reason;
    int64_t last_seq; /* the sequence number of the room's last event */
    int muted;        /* bit i: seat i has muted the other seat's chat (0..3) */
    bool rated;       /* its games change the players' ratings (game/rating.h) */
    /* The opening rule (game/swap.h's gmk_opening, 0..2) and, under swap or swap2, where the
     * current game's opening stands: swap_phase (gmk_swap_phase, 0..4; 0 once the colours are
     * settled), swap_first (the seat that proposes, 0 or 1) and swap_settled (the stones on the
     * board when the colours were settled: undo stops there). */
    int opening;
    int swap_phase;
    int swap_first;
    int swap_settled;
} gmk_store_room;

/* One event of a room's log. kind is game/room.h's gmk_room_event_kind; the other fields are
 * what that kind carries (unused ones are 0, seat -1, x and y -1). */
typedef struct {
    int64_t seq; /* 1, 2, 3... within the room */
    int64_t at_ms;
    int kind;
    int seat; /* 0, 1, or -1 */
    gmk_color color;
    int x, y; /* a point, or -1 */
    int ply;  /* moves on the board after the event */
    gmk_outcome outcome;
    gmk_reason reason;
    int count;                  /* spectators; moves taken back; connected (1/0) */
    int64_t black_ms, white_ms; /* time left on each clock */
    int64_t game_id;
    char name[GMK_STORE_NAME_MAX];
    int audience;                  /* who is sent it: game/room.h's gmk_room_audience (0..4) */
    char text[GMK_STORE_CHAT_MAX]; /* a chat line, "" for other kinds */
} gmk_store_room_event;

/* Records a new room with its seats and its first events (n >= 0, seqs 1..n, r->last_seq ==
 * n); sets r->id. GMK_STORE_INVALID when the code is taken (draw another) or a value is out of
 * range. */
gmk_store_status gmk_store_room_create(gmk_store *s, gmk_store_room *r,
                                       const gmk_store_room_event *ev, int n, char *err,
                                       size_t errlen);

/* Saves room r (created before) with the n events that follow its stored state: ev[0].seq
 * must be the stored last_seq + 1, the seqs consecutive, and r->last_seq the last of them.
 * GMK_STORE_BUSY when the stored room has moved on (another writer), changing nothing. */
gmk_store_status gmk_store_room_save(gmk_store *s, const gmk_store_room *r,
                                     const gmk_store_room_event *ev, int n, char *err,
                                     size_t errlen);

/* The open room with this code (exact, as game/room.c normalises it). GMK_STORE_NOT_FOUND
 * when there is none. */
gmk_store_status gmk_store_room_find(gmk_store *s, const char *code, gmk_store_room *out, char *err,
                                     size_t errlen);

/* The codes of the rooms whose game is in play with a clock running (phase 1, clock_ms > 0),
 * at most cap of them, for a server that must watch their flags from its start. */
gmk_store_status gmk_store_rooms_clocked(gmk_store *s, char (*codes)[GMK_STORE_ROOM_CODE_MAX],
                                         int cap, int *count, char *err, size_t errlen);

/* The last event number of the open room with this code (one round trip): a server that keeps
 * the room in memory compares it with its own to notice another server's changes.
 * GMK_STORE_NOT_FOUND when there is no such room (any more). */
gmk_store_status gmk_store_room_seq(gmk_store *s, const char *code, int64_t *last_seq, char *err,
                                    size_t errlen);

/* The codes of the rooms in play whose running clock ran out more than grace_ms before now_ms
 * (the clock of the side to move counts from turn_start_ms; the lower of the two clocks is
 * used, so a room may be listed a little early, never late), at most cap of them: what a server
 * of several checks so that a flag falls even when the server watching it died. */
gmk_store_status gmk_store_rooms_overdue(gmk_store *s, int64_t now_ms, int64_t grace_ms,
                                         char (*codes)[GMK_STORE_ROOM_CODE_MAX], int cap,
                                         int *count, char *err, size_t errlen);

/* --- news of rooms between servers (PostgreSQL) ----------------------------------------- */

/* Every save of a room on a shared database (PostgreSQL) also sends its code and last event
 * number on the channel "gomoku_rooms" ("CODE:SEQ", NOTIFY, delivered when the save commits).
 * A listener is a connection of its own that receives them; it belongs to one thread. */
typedef struct gmk_store_listener gmk_store_listener;

/* Opens a listener on the database of s (GMK_STORE_INVALID for SQLite: one process, no news). */
gmk_store_status gmk_store_listener_open(const gmk_store *s, gmk_store_listener **out, char *err,
                                         size_t errlen);

/* Waits up to timeout_ms for saved rooms: up to cap distinct codes into codes, and the
 * highest last event number saved for each into seqs, *count of them. *lost is set when the
 * connection was lost (and is made again at the next call): news may have been missed, so the
 * caller checks every room it keeps. Never waits longer. */
gmk_store_status gmk_store_listener_wait(gmk_store_listener *l, int timeout_ms,
                                         char (*codes)[GMK_STORE_ROOM_CODE_MAX], int64_t *seqs,
                                         int cap, int *count, bool *lost);

void gmk_store_listener_close(gmk_store_listener *l);

/* Up to cap events of room id with seq > after, in order; *count receives how many. */
gmk_store_status gmk_store_room_events(gmk_store *s, int64_t room_id, int64_t after,
                                       gmk_store_room_event *out, int cap, int *count, char *err,
                                       size_t errlen);

/* The last (up to cap) events of room id of the given kind with seq < before, oldest first;
 * *count receives how many (a room's chat, without reading its whole log). */
gmk_store_status gmk_store_room_events_of_kind(gmk_store *s, int64_t room_id, int kind,
                                               int64_t before, gmk_store_room_event *out, int cap,
                                               int *count, char *err, size_t errlen);

/* Closes every room last touched before before_ms: its seats, log and row are deleted; its
 * games stay (an unfinished one is abandoned at now_ms). *closed (may be NULL) receives how
 * many rooms were closed. */
gmk_store_status gmk_store_room_close_idle(gmk_store *s, int64_t before_ms, int64_t now_ms,
                                           int *closed, char *err, size_t errlen);

/* One line of the per-player scoreboard (gmk_store_player_scores). */
typedef struct {
    char name[GMK_STORE_NAME_MAX];
    int games, wins, losses, draws;
} gmk_store_player_score;

/* The finished games of the open rooms by seat (a seat is held by one token: a name proves
 * nothing, so two seats of one name are two lines), most wins first, then most games, then by
 * name; up to cap lines, *count receives how many. A game's result comes from the room's log
 * (its OVER event, and the colours of the STARTED event before it), so a closed room's games
 * count no more here. */
gmk_store_status gmk_store_seat_scores(gmk_store *s, gmk_store_player_score *out, int cap,
                                       int *count, char *err, size_t errlen);

/* The finished games of one mode by player name (online rooms: GMK_STORE_MODE_ONLINE), most
 * wins first, then most games, then by name; up to cap lines, *count receives how many. */
gmk_store_status gmk_store_player_scores(gmk_store *s, gmk_store_mode mode,
                                         gmk_store_player_score *out, int cap, int *count,
                                         char *err, size_t errlen);

#endif
