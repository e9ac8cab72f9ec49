/* room.h: an online room, the rules of play between two devices with spectators.
 *
 * A room holds one game at a time (a gmk_session of two humans, recorded as an online game)
 * and two seats: seat 0 is the creator's, seat 1 the first friend's to join. A seat is held by
 * a token the server draws (at least GMK_ROOM_TOKEN_MIN random bytes); the room keeps only its
 * SHA-256 and compares in constant time (libsodium: crypto_hash_sha256, sodium_memcmp). Every
 * action names its seat by token: without a seat, GMK_ROOM_NO_SEAT (403); a move or answer out of
 * turn, GMK_ROOM_NOT_YOUR_TURN (409). A refused call changes nothing and logs nothing. Everyone
 * else watches; the room counts them. A Fischer clock is optional; the room keeps time from the
 * `now` each call is given and tells the server when the next flag falls (gmk_room_next_deadline)
 * so that a timer can end the game on time with no request in flight (gmk_room_tick).
 *
 * Every change of state appends an event to the room's log with the next sequence number
 * (1, 2, 3...); the server sends them to viewers in order and resumes a stream after
 * Last-Event-ID with gmk_room_events_since, with no gap and no duplicate. With a store, each
 * call's writes (the session's move or result, the room with its clocks, the events) are
 * committed in one transaction (gmk_store_batch_begin), so that gmk_room_load continues
 * after a restart from a state the log agrees with. If the store refuses a call's writes, they
 * are all rolled back, the call returns GMK_ROOM_STORE (never OK for a change that is not
 * stored) and so does every later call that would change the room (gmk_room_failed): the
 * server then drops it and loads it again from the store. Watching writes nothing: the
 * spectators are counted in memory only, and a load logs nothing of its own.
 *
 * Time: `now` is Unix milliseconds (CLOCK_REALTIME), given by the caller, so that clocks
 * survive a restart (the time the server was down counts, as for a clock on a table) and
 * tests need no sleeping; a time before 1970 or past the year 2500 is GMK_ROOM_BAD_REQUEST
 * (a bug in the caller, not a player's doing). The room does no other I/O, draws no random numbers
 * and reads no clock. Threads: a room is used by one thread at a time (the server holds a lock per
 * room); two moves sent at once for one turn are then one move and one GMK_ROOM_NOT_YOUR_TURN. The
 * store handle, if any, must only be used by that thread meanwhile.
 *
 * Accounts: a seat may be held by an account (store/accounts.h). Each game of the room is
 * linked to the accounts of its seats, with their colours, in the batch of its first saved
 * call; in a rated room the call that ends a game also records both players' new ratings
 * (game/rating.h, gmk_rating_record_game) in that same batch, so the result and the ratings
 * are committed together or not at all. */
#ifndef GMK_ROOM_H
#define GMK_ROOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/session.h"
#include "store/presence.h"
#include "store/rooms.h"

#define GMK_ROOM_TOKEN_MIN 16          /* seat tokens: at least 128 bits */
#define GMK_ROOM_TOKEN_MAX 256         /* and at most this many bytes */
#define GMK_ROOM_CODE_LEN 12           /* room codes: 12 characters of 32 (60 bits) */
#define GMK_ROOM_CODE_RANDOM 8         /* random bytes a code is made from */
#define GMK_ROOM_NAME_CHARS 24         /* display names: 1..24 characters... */
#define GMK_ROOM_NAME_MAX 64           /* ...and at most 63 bytes of UTF-8 */
#define GMK_ROOM_CLAIM_MS 60000        /* disconnected this long on one's turn: claimable */
#define GMK_ROOM_IDLE_MS 86400000LL    /* untouched this long: closed */
#define GMK_ROOM_CLOCK_MINUTES_MAX 180 /* clock limits */
#define GMK_ROOM_INCREMENT_MAX 60
#define GMK_ROOM_CHAT_CHARS 140              /* a chat line: 1..140 characters... */
#define GMK_ROOM_CHAT_MAX GMK_STORE_CHAT_MAX /* ...and at most 420 bytes (140 CJK characters) */
#define GMK_ROOM_CHAT_RECENT 50 /* chat lines a stream starts with (gmk_room_chat_recent) */

typedef enum {
    GMK_ROOM_OK = 0,
    GMK_ROOM_BAD_REQUEST,   /* 400: a bad name, token, point, config or event number */
    GMK_ROOM_NO_SEAT,       /* 403: the token holds no seat in this room */
    GMK_ROOM_NOT_YOUR_TURN, /* 409: not this seat's turn (or a stale ply) */
    GMK_ROOM_ILLEGAL,       /* 409: the point is taken, or black's foul in renju */
    GMK_ROOM_NOT_NOW,       /* 409: no game on, nothing to answer, not claimable yet... */
    GMK_ROOM_FULL,          /* join: both seats are taken; watch instead */
    GMK_ROOM_NOT_FOUND,     /* 404: no open room with that code */
    GMK_ROOM_STORE,         /* 500: the store failed or refused the call's writes */
    GMK_ROOM_NO_MEMORY,     /* 500 */
} gmk_room_status;

typedef enum {
    GMK_ROOM_WAITING = 0, /* for the friend to join */
    GMK_ROOM_PLAYING = 1,
    GMK_ROOM_OVER = 2, /* the game has ended; a rematch may follow */
} gmk_room_phase;

/* Who plays black in the first game. */
typedef enum {
    GMK_ROOM_BLACK_ME = 0,     /* the creator */
    GMK_ROOM_BLACK_FRIEND = 1, /* the friend */
    GMK_ROOM_BLACK_RANDOM = 2, /* decided by the caller's random bit */
} gmk_room_black;

typedef struct {
    gmk_rule rule;
    int size; /* GMK_MIN_SIZE..GMK_MAX_SIZE */
    gmk_room_black black;
    bool random_bit;     /* with GMK_ROOM_BLACK_RANDOM: true, the creator plays black */
    int clock_minutes;   /* 0: no clock; else 1..GMK_ROOM_CLOCK_MINUTES_MAX */
    int increment_s;     /* seconds added after each move, 0..GMK_ROOM_INCREMENT_MAX */
    bool rated;          /* the games change both players' ratings (game/rating.h): the creator
                            and the friend must hold two different accounts */
    int64_t account;     /* the creator's account (store/accounts.h); 0: a guest */
    gmk_opening opening; /* free, swap or swap2 (game/swap.h; docs/rooms.md "Opening rules"):
                            under swap and swap2 the seat that would play black proposes */
} gmk_room_config;

/* The kinds of events; the numbers are stored and never change meaning. Fields each carries
 * (besides seq, kind, at_ms): */
typedef enum {
    GMK_ROOM_EV_CREATED = 1,          /* seat 0, color, name; black_ms/white_ms: the clock */
    GMK_ROOM_EV_JOINED = 2,           /* seat 1, color, name */
    GMK_ROOM_EV_STARTED = 3,          /* a game begins: color (seat 0's colour), count (game
                                         number in the room), black_ms, white_ms */
    GMK_ROOM_EV_MOVED = 4,            /* color, x, y, ply, black_ms, white_ms, game_id; any
                                         pending draw or undo offer is withdrawn */
    GMK_ROOM_EV_DRAW_OFFERED = 5,     /* color */
    GMK_ROOM_EV_DRAW_DECLINED = 6,    /* color (who declined) */
    GMK_ROOM_EV_UNDO_ASKED = 7,       /* color */
    GMK_ROOM_EV_UNDO_DECLINED = 8,    /* color (who declined) */
    GMK_ROOM_EV_UNDONE = 9,           /* count (moves taken back), ply, black_ms, white_ms */
    GMK_ROOM_EV_OVER = 10,            /* outcome, reason, color (the loser when one lost by
                                         resignation, time or abandonment), x, y (the deciding
                                         move or -1), ply, black_ms, white_ms, game_id */
    GMK_ROOM_EV_CONNECTION = 11,      /* seat, color, count: 1 connected, 0 disconnected */
    GMK_ROOM_EV_SPECTATORS = 12,      /* count (no longer logged: the count is in memory only;
                                         old logs may hold it) */
    GMK_ROOM_EV_REMATCH_OFFERED = 13, /* color (in the finished game) */
    GMK_ROOM_EV_CHAT = 14,            /* seat (-1: a spectator), color (a seat's colour), name,
                                         text, audience */
    GMK_ROOM_EV_MUTE = 15,            /* seat (who mutes the other), count: 1 muted, 0 not;
                                         audience: that seat only */
    GMK_ROOM_EV_CHOSEN = 16           /* swap, swap2: seat (who chose), count (the choice:
                                         gmk_swap_choice, 0 black, 1 white, 2 place two more),
                                         color (seat 0's colour afterwards, as for STARTED), ply,
                                         black_ms, white_ms (the seats' clocks follow them) */
} gmk_room_event_kind;

/* Who is sent an event (gmk_room_event.audience; stored, never change meaning). The players'
 * chat is the two seats', the spectators' chat the spectators': neither sees the other's, so
 * that nobody watching can help a player (docs/rooms.md, "Chat"). */
typedef enum {
    GMK_ROOM_TO_ALL = 0,
    GMK_ROOM_TO_PLAYERS = 1,    /* both seats */
    GMK_ROOM_TO_SPECTATORS = 2, /* everyone without a seat */
    GMK_ROOM_TO_SEAT0 = 3,      /* one seat only: a muted player's line goes back to its sender */
    GMK_ROOM_TO_SEAT1 = 4,
} gmk_room_audience;

typedef gmk_store_room_event gmk_room_event;

/* A snapshot of the room at a time, for drawing (the board: gmk_room_session). */
typedef struct {
    char code[GMK_ROOM_CODE_LEN + 1];
    gmk_room_phase phase;
    gmk_rule rule;
    int size;
    int64_t clock_ms, increment_ms; /* clock_ms 0: no clock */
    int64_t black_ms, white_ms;     /* time left now */
    int64_t deadline_ms;            /* when the side to move's flag falls; 0: no clock running */
    gmk_color to_move;              /* while playing */
    int ply;
    struct {
        bool taken;
        char name[GMK_ROOM_NAME_MAX];
        gmk_color color;
        bool connected;
        int64_t since_ms; /* connected or disconnected since */
        bool muted;       /* this seat has muted the other's chat */
        int64_t account;  /* the account holding it; 0: a guest */
    } seat[2];
    bool rated;
    int spectators;
    gmk_color draw_by, undo_by, rematch_by; /* pending offers; GMK_EMPTY: none */
    int64_t claim_ms;    /* when the side not to move may claim the win (0: not counting) */
    gmk_outcome outcome; /* once over */
    gmk_reason reason;
    int64_t game_id; /* in the store; 0 before the first move */
    int game_no;
    int64_t last_seq;
    gmk_opening opening;       /* the room's opening rule */
    gmk_swap_phase swap_phase; /* while playing under swap or swap2: the opening's step;
                                  GMK_SWAP_NONE once the colours are settled */
    int swap_first;            /* the seat that proposes in the current game (swap, swap2) */
    int swap_actor;            /* the seat that places or chooses now; -1 outside the opening */
} gmk_room_state;

typedef struct gmk_room gmk_room;

/* --- names, codes, clocks (room_text.c) -------------------------------------------------- */

/* Is name a valid display name: valid UTF-8 of 1..GMK_ROOM_NAME_CHARS characters and fewer
 * than GMK_ROOM_NAME_MAX bytes, no control or bidirectional-override characters, with at least
 * one visible character (not only spaces, zero-width characters, Hangul fillers, U+2800...)?
 * Writes why not into err. */
bool gmk_room_name_valid(const char *name, char *err, size_t errlen);

/* The room code made from GMK_ROOM_CODE_RANDOM random bytes: GMK_ROOM_CODE_LEN characters of
 * "23456789ABCDEFGHJKLMNPQRSTUVWXYZ" (no 0, 1, I, O), NUL-terminated. */
void gmk_room_code_make(const uint8_t random[GMK_ROOM_CODE_RANDOM],
                        char out[GMK_ROOM_CODE_LEN + 1]);

/* A code as typed (any case, with spaces or dashes) into its stored form; false when it
 * cannot be a code. */
bool gmk_room_code_normalize(const char *typed, char out[GMK_ROOM_CODE_LEN + 1]);

/* Parses a clock "M+S" ("5+3", "10+5", "30+0") or "none"; false when out of range. */
bool gmk_room_clock_parse(const char *text, int *minutes, int *increment_s);

/* The clock presets, "5+3", "10+5", "30+0", NULL-terminated. */
extern const char *const gmk_room_clock_presets[];

/* Checks a config; writes why it is wrong into err. */
bool gmk_room_config_valid(const gmk_room_config *cfg, char *err, size_t errlen);

/* A short name for a status and for an event kind ("moved", "over"...). */
const char *gmk_room_status_name(gmk_room_status st);
const char *gmk_room_event_name(int kind);

/* Cleans a chat line into out: valid UTF-8 is required; control characters (C0, DEL, C1, line
 * and paragraph separators; a new line, a tab) become spaces, the bidirectional formatting
 * characters (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) and U+FEFF are removed
 * so that a line cannot reorder what is shown after it, and spaces at both ends go. False,
 * with why in err, when the input is not UTF-8, is longer than GMK_ROOM_CHAT_CHARS characters
 * or GMK_ROOM_CHAT_MAX - 1 bytes once cleaned, or has no visible character. */
bool gmk_room_chat_clean(const char *text, char out[GMK_ROOM_CHAT_MAX], char *err, size_t errlen);

/* --- rooms (room.c; reading: room_read.c; streams: room_presence.c; servers: room_sync.c) - */

/* Creates a room with code (from gmk_room_code_make), the creator in seat 0 with token and
 * name. store may be NULL (nothing saved); it must outlive the room. Logs CREATED.
 * GMK_ROOM_STORE when the store refuses it (a taken code: draw another). */
gmk_room_status gmk_room_create(gmk_store *store, const gmk_room_config *cfg, const char *code,
                                const void *token, size_t token_len, const char *name, int64_t now,
                                gmk_room **out, char *err, size_t errlen);

/* The same with the SHA-256 of the creator's token given instead of the token (a room opened
 * for a player who is not making the request: the lobby's seeker, whose token was drawn and
 * given to it when it posted the seek). */
gmk_room_status gmk_room_create_hashed(gmk_store *store, const gmk_room_config *cfg,
                                       const char *code, const uint8_t token_sha256[32],
                                       const char *name, int64_t now, gmk_room **out, char *err,
                                       size_t errlen);

/* Loads the open room with code from the store, game and clocks included, as it was saved.
 * Nobody is connected after a load (nothing is logged for that: a load writes only when the
 * game ended meanwhile, by a result saved just before a stop or a flag that fell).
 * GMK_ROOM_NOT_FOUND when there is no such room. */
gmk_room_status gmk_room_load(gmk_store *store, const char *code, int64_t now, gmk_room **out,
                              char *err, size_t errlen);

/* Frees the room (nothing is written; the store has it all). NULL is fine. */
void gmk_room_free(gmk_room *r);

/* Takes the free seat with token and name: logs JOINED and the first game STARTED. The holder
 * of a seat joining again gets OK and its seat. GMK_ROOM_FULL when both are taken. *seat
 * (may be NULL) receives 0 or 1. */
gmk_room_status gmk_room_join(gmk_room *r, const void *token, size_t token_len, const char *name,
                              int64_t now, int *seat);

/* gmk_room_join for a player with an account (0: a guest). A rated room takes only an account
 * other than the creator's: GMK_ROOM_BAD_REQUEST otherwise (the server says why first). */
gmk_room_status gmk_room_join_as(gmk_room *r, const void *token, size_t token_len, const char *name,
                                 int64_t account, int64_t now, int *seat);

/* An account was deleted (store/accounts.h, which renamed its seats in the store): its seats
 * in this room in memory, and their names in the log kept in memory, take the neutral name
 * and no account. Writes nothing. */
void gmk_room_forget_account(gmk_room *r, int64_t account, const char *neutral);

/* A guest who signs up or logs in claims its seat: the seat of token, held by no account,
 * becomes account's (in memory; the store is told by gmk_store_account_claim_seat). False
 * when token holds no seat, the seat has an account, or the room is rated. Writes nothing. */
bool gmk_room_claim_seat(gmk_room *r, const void *token, size_t token_len, int64_t account);

/* The seat token holds: 0, 1, or -1 for none (constant time in the token). */
int gmk_room_seat_of(const gmk_room *r, const void *token, size_t token_len);

/* Plays (x, y) for the seat of token. ply >= 0 is the number of moves the sender saw (a stale
 * one is NOT_YOUR_TURN); -1 skips that check. Renju fouls are refused (ILLEGAL, *kind says
 * which; kind may be NULL). Logs MOVED, and OVER when the move ends the game. */
gmk_room_status gmk_room_play(gmk_room *r, const void *token, size_t token_len, int x, int y,
                              int ply, int64_t now, gmk_forbid_kind *kind);

/* The seat of token resigns the game: logs OVER. */
gmk_room_status gmk_room_resign(gmk_room *r, const void *token, size_t token_len, int64_t now);

/* Offers a draw (if the other side has offered one, this accepts it). Logs DRAW_OFFERED. */
gmk_room_status gmk_room_offer_draw(gmk_room *r, const void *token, size_t token_len, int64_t now);

/* Answers the other side's draw offer: accept ends the game drawn (OVER), decline logs
 * DRAW_DECLINED. NOT_NOW when there is no offer from the other side. */
gmk_room_status gmk_room_answer_draw(gmk_room *r, const void *token, size_t token_len, bool accept,
                                     int64_t now);

/* Asks to take back the last move (as two people at one board: one move, whoever played it).
 * Logs UNDO_ASKED; NOT_NOW when there is nothing to undo or a request is pending. */
gmk_room_status gmk_room_ask_undo(gmk_room *r, const void *token, size_t token_len, int64_t now);

/* Answers the other side's undo request: accept takes the move back (UNDONE; the time used so
 * far this turn is charged to the side that was to move, and the other side's clock starts),
 * decline logs UNDO_DECLINED. */
gmk_room_status gmk_room_answer_undo(gmk_room *r, const void *token, size_t token_len, bool accept,
                                     int64_t now);

/* The seat of token claims the win because the side to move (the other) has stayed
 * disconnected for GMK_ROOM_CLAIM_MS of its turn. Logs OVER (abandonment); NOT_NOW before. */
gmk_room_status gmk_room_claim(gmk_room *r, const void *token, size_t token_len, int64_t now);

/* After a game: asks for a rematch with colours swapped; when the other seat has asked too,
 * the new game starts (STARTED). Logs REMATCH_OFFERED for the first ask. */
gmk_room_status gmk_room_rematch(gmk_room *r, const void *token, size_t token_len, int64_t now);

/* A seat's event stream opened or closed (a seat may have several). The seat shows connected
 * while it has one; CONNECTION is logged when that changes. Closing is not resigning. */
gmk_room_status gmk_room_connect(gmk_room *r, const void *token, size_t token_len, int64_t now);
gmk_room_status gmk_room_disconnect(gmk_room *r, const void *token, size_t token_len, int64_t now);

/* Several servers on one database (store/presence.h): how many streams each seat has open on
 * the other servers, and since when the last of them closed, as the server last read them.
 * A seat is connected while it has a stream here or there; the disconnection claim counts
 * from the latest close, here or there. Before a connect or disconnect the server sets them
 * fresh, so that CONNECTION is logged only when the seat's state changes on all servers. */
void gmk_room_set_elsewhere(gmk_room *r, const gmk_store_presence elsewhere[2]);

/* The streams of seat (0, 1) open on this server. */
int gmk_room_streams_here(const gmk_room *r, int seat);

/* A spectator's stream opened or closed: the count changes in memory; nothing is logged or
 * stored (anyone may watch, so watching must not write). */
void gmk_room_spectator_join(gmk_room *r, int64_t now);
void gmk_room_spectator_leave(gmk_room *r, int64_t now);

/* Ends the game on time if the side to move's flag has fallen by now (at the exact
 * millisecond of the deadline). True when it did. The server calls it from a timer set to
 * gmk_room_next_deadline; every other call does it first too. */
bool gmk_room_tick(gmk_room *r, int64_t now);

/* When the next flag falls if nobody moves (Unix ms); 0 when no clock is running. */
int64_t gmk_room_next_deadline(const gmk_room *r);

/* The state at now (clocks read at now; nothing changes). */
void gmk_room_get_state(const gmk_room *r, int64_t now, gmk_room_state *out);

/* The room's game, for the board, result and winning line (gmk_session_board,
 * gmk_session_get_state). Never play through it: the room would not know. */
const gmk_session *gmk_room_session(const gmk_room *r);

/* The sequence number of the last event (0 before any). */
int64_t gmk_room_last_seq(const gmk_room *r);

/* Up to cap events with seq > after, in order (older ones read from the store); *count
 * receives how many: call again after the last one given while *count == cap. BAD_REQUEST
 * when after is negative or beyond the last event; STORE when they cannot be read. */
gmk_room_status gmk_room_events_since(gmk_room *r, int64_t after, gmk_room_event *out, int cap,
                                      int *count);

/* Has nothing happened in the room for GMK_ROOM_IDLE_MS by now? The server then frees it. */
bool gmk_room_idle(const gmk_room *r, int64_t now);

/* Closes in the store every room untouched for GMK_ROOM_IDLE_MS by now (their games stay);
 * *closed (may be NULL) receives how many. */
gmk_room_status gmk_room_close_idle(gmk_store *store, int64_t now, int *closed, char *err,
                                    size_t errlen);

/* The room is in use (a seat's stream is open): keeps it from being closed as idle by
 * refreshing its touched time in the store once it is half a day old (a write at most twice a
 * day). False when the store failed. */
bool gmk_room_keep(gmk_room *r, int64_t now);

/* Has the store refused a write of this room? Every change then answers GMK_ROOM_STORE. */
bool gmk_room_failed(const gmk_room *r);

/* A store failure the server has not reported yet (after which the room goes on without
 * saving); copies it into buf and forgets it. False when none. */
bool gmk_room_take_store_message(gmk_room *r, char *buf, size_t buflen);

/* Is the room saving (its store has not failed)? */
bool gmk_room_saving(const gmk_room *r);

/* For a server of several on one database (store/store.h, gmk_store_is_shared): brings the room
 * up to what the store holds when another server changed it (its last event number differs,
 * one round trip to find out), or always when force is set (after its own save failed; it
 * saves again afterwards). The row, the game and the log are read again; the connections and
 * spectators counted by this process stay. *changed (may be NULL) says whether anything was
 * read. GMK_ROOM_NOT_FOUND when the room was closed; GMK_ROOM_STORE when the store failed (the
 * room is then unchanged). Not inside another call of the room. */
gmk_room_status gmk_room_refresh(gmk_room *r, gmk_store *store, bool force, bool *changed);

/* --- opening rules (room_opening.c) ------------------------------------------------------ */

/* Swap and swap2: the seat of token chooses at three stones (the second seat: black, white or,
 * swap2, place two more) or at five (the proposer: black or white). Taking a colour settles
 * both seats' colours (each seat keeps its own clock) and white plays next. Logs CHOSEN.
 * NO_SEAT without a seat; NOT_NOW when no choice is due (no game, a free opening, stones still
 * to place) or c is not allowed at this step (place two more under swap or at five);
 * NOT_YOUR_TURN when the other seat is to choose. */
gmk_room_status gmk_room_choose(gmk_room *r, const void *token, size_t token_len, gmk_swap_choice c,
                                int64_t now);

/* Why the seat (0, 1; -1 for none) cannot place a stone (choosing false) or choose (true) now
 * during a swap opening, in a sentence for the player ("the other player chooses the colours
 * now"); NULL when the opening is not the reason (no opening on, or the seat may act). */
const char *gmk_room_opening_why(const gmk_room *r, int seat, bool choosing);

/* --- chat (room_chat.c) ------------------------------------------------------------------ */

/* The seat of token says text (cleaned by gmk_room_chat_clean) in the players' chat, in any
 * phase: logs CHAT to both seats, or to the sender only while the other seat has muted it.
 * BAD_REQUEST for a text that cannot be cleaned; NO_SEAT without a seat. */
gmk_room_status gmk_room_chat(gmk_room *r, const void *token, size_t token_len, const char *text,
                              int64_t now);

/* A spectator (no seat: the caller has checked it is none) named name says text in the
 * spectators' chat: logs CHAT to the spectators. BAD_REQUEST for a bad name or text. */
gmk_room_status gmk_room_spectator_chat(gmk_room *r, const char *name, const char *text,
                                        int64_t now);

/* The seat of token mutes (or unmutes) the other seat's chat: its later lines reach only their
 * sender. Kept with the room; logs MUTE to that seat. NOT_NOW when it is so already. */
gmk_room_status gmk_room_mute(gmk_room *r, const void *token, size_t token_len, bool mute,
                              int64_t now);

/* Is event e sent to a viewer holding seat (0, 1; -1 for a spectator)? */
bool gmk_room_event_visible(const gmk_room_event *e, int seat);

/* The last (up to cap) CHAT events the viewer of seat (-1: a spectator) may see, oldest first,
 * read from memory or the store; *count receives how many. STORE when they cannot be read. */
gmk_room_status gmk_room_chat_recent(gmk_room *r, int seat, gmk_room_event *out, int cap,
                                     int *count);

/* For a server of several: another server saved the room up to event seq (the news of the
 * store's listener). Nothing when the room has that event already (its own save, or older
 * news: no round trip); else as gmk_room_refresh. When only moves of the current game and
 * connection changes followed, gmk_room_refresh and this read just those events (one query)
 * and apply them, the log in memory included; otherwise the whole room. */
gmk_room_status gmk_room_catch_up(gmk_room *r, gmk_store *store, int64_t seq, bool *changed);

#endif
