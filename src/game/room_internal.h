/* room_internal.h: what room.c shares with room_chat.c (the chat), room_opening.c (swap and
 * swap2), room_read.c (reading), room_presence.c (streams, spectators) and room_sync.c (several
 * servers) (see room.h): the room's state in memory and the steps every call that changes it
 * takes (a seat, a batch, the events, the commit). Nothing outside src/game/room*.c includes this.
 */
#ifndef GMK_ROOM_INTERNAL_H
#define GMK_ROOM_INTERNAL_H

#include "game/room.h"

enum {
    LOG_KEEP = 256, /* events kept in memory with a store; older ones are read from it */
    PENDING_MAX = 8,
    MSG_LEN = 320,
};

struct gmk_room {
    gmk_store *store; /* NULL: not saving */
    gmk_store *batch; /* the store while a batch is open (enter .. commit) */
    bool store_msg_pending;
    bool failed; /* the store refused a write: every later change is GMK_ROOM_STORE */
    char store_msg[MSG_LEN];
    gmk_store_room row; /* the saved state */
    gmk_session *session;
    struct {
        int streams;
        int64_t since_ms;
    } live[2];
    gmk_store_presence
        elsewhere[2]; /* the seats' streams on other servers (gmk_room_set_elsewhere) */
    int spectators;
    gmk_room_event *log; /* the last events, oldest first, consecutive up to row.last_seq */
    int log_len, log_cap;
    gmk_room_event pending[PENDING_MAX];
    int npending;
    int64_t linked_game; /* the game last linked to the seats' accounts */
};

/* Appends an event to the call's pending events with the next number; the caller fills it. */
gmk_room_event *room_add_event(gmk_room *r, int kind, int64_t now);
/* The seat of token (*seat), with the batch opened and the clock settled; NO_SEAT, STORE. */
gmk_room_status room_acting_seat(gmk_room *r, const void *token, size_t len, int64_t now,
                                 int *seat);
/* Opens the call's batch. */
void room_enter(gmk_room *r);
/* Ends a call: commits its writes and events; STORE when the store refused them. */
gmk_room_status room_done(gmk_room *r, int64_t now, gmk_room_status st);
/* Is now a time a caller may give? */
bool room_time_ok(int64_t now);
/* The colour whose turn (and clock) it is: the side to move, or the acting seat's colour
 * during a swap opening. */
gmk_color room_to_move(const gmk_room *r);
/* Ends the turn of colour c at now: its clock is charged (plus the increment), the next turn
 * starts, pending draw and undo offers are withdrawn. */
void room_spend_turn(gmk_room *r, gmk_color c, int64_t now);

/* for room_read.c and room_sync.c */
void room_log_append(gmk_room *r, const gmk_room_event *ev, int n); /* into the log in memory */
bool room_start_game(gmk_room *r, int64_t now); /* a game between the seats, logs STARTED */
int64_t room_left_at(const gmk_room *r, gmk_color c, int64_t now); /* c's time left at now */
int64_t room_claim_time(const gmk_room *r);       /* when the disconnection claim opens; 0: never */
bool room_connected(const gmk_room *r, int seat); /* a stream here or on another server */
bool room_settle_flag(gmk_room *r, int64_t now);  /* ends the game if the flag has fallen */

/* room_opening.c: the swap openings' steps as the room keeps them (row.swap_*) */
/* A game starts: its opening from row.opening, black_seat proposing. */
void room_opening_begin(gmk_room *r, int black_seat);
/* The seat that places or chooses now during a game's swap opening; -1 when none. */
int room_opening_actor(const gmk_room *r);
/* A stone was placed: the step follows the session's. */
void room_opening_after_stone(gmk_room *r);
/* The session was opened from the store: gives it the room's opening and step. False when
 * the stored step does not fit the game (a damaged row). */
bool room_opening_resume(gmk_room *r);
/* A rematch under swap or swap2: the colours are set so that the other seat proposes. */
void room_opening_rematch_colours(gmk_room *r);

#endif
