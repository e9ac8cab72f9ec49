/* store.h: games, moves, the scoreboard and settings, kept in one SQLite file or in a
 * PostgreSQL database that several servers share.
 *
 * The store owns the database and hides SQLite and libpq behind an opaque handle (nothing
 * outside src/store/ includes sqlite3.h or libpq-fe.h). gmk_store_open takes a file path or a
 * PostgreSQL connection string (postgresql://..., postgres://... or key=value); with no name it
 * takes $GOMOKU_DB, else the default file. Everything below holds for both backends except
 * where a comment says "SQLite". A password in a connection string is never shown: messages
 * and gmk_store_path carry the string without it. It knows nothing about the rules of play: it
 * records what the game session tells it (a game begins, a move is played, moves are taken back,
 * the game ends) and answers questions about it (the unfinished game to resume, a game with its
 * moves, recent games, the scoreboard). Every write is its own transaction, committed before the
 * function returns, in WAL mode with synchronous=FULL: after a crash or kill -9 every move whose
 * call returned GMK_STORE_OK is there.
 *
 * Coordinates are those of core/defs.h: x is the column from the left, y the row from the
 * top, both 0-based. Times are Unix seconds (UTC) for when a game starts and ends, and
 * milliseconds for how long a move took. A game is unfinished until store_game_finish or
 * store_game_abandon; an abandoned game is kept but neither offered for resuming nor counted.
 *
 * Failures never crash and never destroy data: every fallible function returns a status and,
 * when err is not NULL, writes a one-line message (no trailing newline) into err[errlen]. A
 * file that is not a readable gomoku database (random bytes, truncated, another program's
 * SQLite file, a newer schema) is left untouched and refused; the caller can then play
 * without saving. A handle is used by one thread at a time; two processes may share a file
 * (SQLite locks it; a writer waits up to a few seconds, then gets GMK_STORE_BUSY). */
#ifndef GMK_STORE_H
#define GMK_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/defs.h"
#include "core/rules.h"

/* The schema version this code writes (PRAGMA user_version); older files are migrated. */
#define GMK_STORE_SCHEMA_VERSION 10
/* Player names are kept up to this many bytes, NUL included (longer ones are cut at a UTF-8
 * character boundary when the game begins). */
#define GMK_STORE_NAME_MAX 64
/* Settings: keys and values up to this many bytes, NUL included. */
#define GMK_STORE_KEY_MAX 64
#define GMK_STORE_VALUE_MAX 256

typedef struct gmk_store gmk_store;

typedef enum {
    GMK_STORE_OK = 0,
    GMK_STORE_NOT_FOUND,   /* no such game or setting; no unfinished game; no file (read-only) */
    GMK_STORE_INVALID,     /* bad argument: out-of-range value, ply out of order, game over... */
    GMK_STORE_CANT_OPEN,   /* the file or its folder cannot be created or opened */
    GMK_STORE_READ_ONLY,   /* a write was refused: the file or its folder is not writable */
    GMK_STORE_CORRUPT,     /* not a gomoku database, or a damaged one; left untouched */
    GMK_STORE_TOO_NEW,     /* written by a newer version of gomoku; left untouched */
    GMK_STORE_BUSY,        /* another process holds the lock for too long */
    GMK_STORE_IO,          /* disk full, I/O error or any other failure */
    GMK_STORE_UNAVAILABLE, /* the database server cannot be reached now (PostgreSQL): try
                              again later; nothing of the failed call was saved */
} gmk_store_status;

/* Who plays. The numbers are what the file holds; they never change. */
typedef enum {
    GMK_STORE_MODE_HVC = 0,    /* human vs computer */
    GMK_STORE_MODE_HVH = 1,    /* two humans */
    GMK_STORE_MODE_CVC = 2,    /* computer vs computer */
    GMK_STORE_MODE_ONLINE = 3, /* two humans on two devices (an online room, game/room.h) */
    GMK_STORE_MODE_COUNT = 4
} gmk_store_mode;

/* Flags for gmk_store_open. */
enum {
    GMK_STORE_OPEN_DEFAULT = 0,  /* read-write; creates the file and its folders if missing */
    GMK_STORE_OPEN_READONLY = 1, /* the file must exist (else GMK_STORE_NOT_FOUND) and be at
                                    the current version; nothing is ever written */
    GMK_STORE_OPEN_EXISTING = 2, /* read-write, but the file must exist (else
                                    GMK_STORE_NOT_FOUND): for readers such as `gomoku stats` */
};

/* One game, without its moves. */
typedef struct {
    int64_t id;
    gmk_store_mode mode;
    gmk_rule rule;
    int size;                       /* GMK_MIN_SIZE..GMK_MAX_SIZE */
    int level;                      /* engine level; 0 when no computer plays */
    char black[GMK_STORE_NAME_MAX]; /* player names, "" when not given */
    char white[GMK_STORE_NAME_MAX];
    gmk_color human;     /* HVC: GMK_BLACK or GMK_WHITE; otherwise GMK_EMPTY */
    int64_t started_s;   /* Unix seconds */
    int64_t ended_s;     /* Unix seconds; 0 while unfinished */
    bool finished;       /* finished or abandoned */
    bool abandoned;      /* ended without a result (not counted on the scoreboard) */
    gmk_outcome outcome; /* GMK_ONGOING while unfinished or when abandoned */
    gmk_reason reason;   /* GMK_REASON_NONE while unfinished or when abandoned */
    int move_count;      /* moves stored now */
} gmk_store_game;

typedef struct {
    int x, y;        /* 0-based, x from the left, y from the top */
    int64_t time_ms; /* how long the move took; 0 when unknown */
} gmk_store_move;

/* A game with every move, in order (moves[i] is ply i; black plays the even plies). */
typedef struct {
    gmk_store_game game;
    gmk_store_move moves[GMK_MAX_MOVES];
} gmk_store_record;

/* The parameters of a new game (gmk_store_game_begin). */
typedef struct {
    gmk_store_mode mode;
    gmk_rule rule;
    int size;          /* GMK_MIN_SIZE..GMK_MAX_SIZE */
    int level;         /* >= 0; 0 when no computer plays */
    const char *black; /* player names; NULL means "" */
    const char *white;
    gmk_color human;   /* HVC: GMK_BLACK or GMK_WHITE; ignored (stored as GMK_EMPTY) otherwise */
    int64_t started_s; /* Unix seconds; 0 means now */
} gmk_store_new_game;

/* One line of the scoreboard: the finished games of one mode and level (abandoned games are
 * not counted). games = black_wins + white_wins + draws. */
typedef struct {
    gmk_store_mode mode;
    int level; /* 0 for two humans */
    int games;
    int wins, losses; /* HVC only, from the human's point of view; 0 in the other modes */
    int draws;
    int black_wins, white_wins; /* every mode (the per-side count for HVH and CVC) */
} gmk_store_score;

/* The most scoreboard lines gmk_store_scoreboard returns (3 modes x levels). */
#define GMK_STORE_SCORE_MAX 64

/* --- opening --------------------------------------------------------------------------- */

/* The default database path: $XDG_DATA_HOME/gomoku/gomoku.db when XDG_DATA_HOME is set to an
 * absolute path, else $HOME/.local/share/gomoku/gomoku.db. Creates nothing. Fails
 * (GMK_STORE_CANT_OPEN) when neither variable helps or the path does not fit in buf. */
gmk_store_status gmk_store_default_path(char *buf, size_t buflen, char *err, size_t errlen);

/* Opens (or creates) the database at path (a file or a connection string), or at $GOMOKU_DB
 * or the default path when path is NULL, creating missing folders (mode 0700). PostgreSQL:
 * the database must exist; its tables are created or migrated under an advisory lock, so that
 * servers starting together migrate once. Migrates an older schema in one transaction. On success
 * *out is a handle to close with gmk_store_close; on failure *out is NULL and the file is
 * unchanged. */
gmk_store_status gmk_store_open(const char *path, int flags, gmk_store **out, char *err,
                                size_t errlen);

/* Closes the handle (NULL is fine). Every committed write is already on disk. */
void gmk_store_close(gmk_store *s);

/* The file the handle was opened on, or the PostgreSQL connection string without its
 * password (never the password: this is what messages show). */
const char *gmk_store_path(const gmk_store *s);

/* Is the database a server that other processes share as peers (PostgreSQL)? Servers then
 * coordinate through it (docs/deploy.md). */
bool gmk_store_is_shared(const gmk_store *s);

/* Could the database be reached at the last call? False after a call failed with
 * GMK_STORE_UNAVAILABLE, until a call reaches the server again (always true for SQLite). Safe
 * from any thread, also while another uses the handle: for a server deciding between 500 and
 * 503 with Retry-After. */
bool gmk_store_reachable(const gmk_store *s);

/* One round trip to the database (SQLite: nothing): GMK_STORE_OK when it answers, for a
 * health check. Reconnects a lost connection as any call does. */
gmk_store_status gmk_store_ping(gmk_store *s, char *err, size_t errlen);

/* Does name (a --db value) name a PostgreSQL server: postgresql://..., postgres://... or
 * libpq's keyword=value form (host=... dbname=...)? Anything else is a file path. */
bool gmk_store_names_server(const char *name);

/* The schema version of the open file (GMK_STORE_SCHEMA_VERSION after a successful open). */
int gmk_store_schema_version(const gmk_store *s);

/* A short name for a status ("ok", "not found", "corrupt", ...). */
const char *gmk_store_status_name(gmk_store_status st);

/* Names of the modes as the file and `gomoku stats` show them: "human-computer",
 * "human-human", "computer-computer", "online". */
const char *gmk_store_mode_name(gmk_store_mode m);

/* Groups every write until gmk_store_batch_end into one transaction (one commit, all or
 * nothing), e.g. a move of an online game with the room's event. Reads see the batch's
 * writes. A failing write inside spoils the batch: ending it with commit then saves nothing
 * and fails. One batch at a time per handle. */
gmk_store_status gmk_store_batch_begin(gmk_store *s, char *err, size_t errlen);

/* Ends the batch: commit saves it all (on failure nothing is saved), else nothing is. */
gmk_store_status gmk_store_batch_end(gmk_store *s, bool commit, char *err, size_t errlen);

/* --- games as they are played ---------------------------------------------------------- */

/* Records a new, unfinished game with no moves; *id receives its id (> 0). */
gmk_store_status gmk_store_game_begin(gmk_store *s, const gmk_store_new_game *g, int64_t *id,
                                      char *err, size_t errlen);

/* Appends a move and commits it. ply must equal the number of moves stored (0 for the first
 * move), x and y must be on the board; the game must be unfinished. GMK_STORE_INVALID
 * otherwise. The store does not check the rules (occupied points, forbidden moves). */
gmk_store_status gmk_store_game_add_move(gmk_store *s, int64_t id, int ply, int x, int y,
                                         int64_t time_ms, char *err, size_t errlen);

/* Removes the last n moves (n >= 0, at most the number stored) of an unfinished game and
 * commits. Redo is simply gmk_store_game_add_move again. */
gmk_store_status gmk_store_game_undo_moves(gmk_store *s, int64_t id, int n, char *err,
                                           size_t errlen);

/* Takes back the last n moves (1 <= n <= the number stored) of a game that has ended with a
 * result, which becomes unfinished again (the scoreboard no longer counts it) and loses its
 * kept reviews, in one transaction. GMK_STORE_INVALID for an unfinished game; an abandoned
 * game only loses the moves. */
gmk_store_status gmk_store_game_take_back(gmk_store *s, int64_t id, int n, char *err,
                                          size_t errlen);

/* Changes the players of game id (a swap opening settles the colours after the first
 * stones): the names, and in a game against the computer the human's colour (GMK_BLACK or
 * GMK_WHITE; ignored in the other modes). Commits. */
gmk_store_status gmk_store_game_set_players(gmk_store *s, int64_t id, gmk_color human,
                                            const char *black, const char *white, char *err,
                                            size_t errlen);

/* Ends an unfinished game with its result: outcome GMK_BLACK_WINS, GMK_WHITE_WINS or
 * GMK_DRAW, and its reason. ended_s 0 means now. The scoreboard counts it from then on. */
gmk_store_status gmk_store_game_finish(gmk_store *s, int64_t id, gmk_outcome outcome,
                                       gmk_reason reason, int64_t ended_s, char *err,
                                       size_t errlen);

/* Ends an unfinished game without a result (the player declined to resume it, or started
 * another). It is kept, but not counted and not offered for resuming. ended_s 0 means now. */
gmk_store_status gmk_store_game_abandon(gmk_store *s, int64_t id, int64_t ended_s, char *err,
                                        size_t errlen);

/* --- reading games --------------------------------------------------------------------- */

/* The most recent unfinished game (highest id) with every move, for resuming after a crash.
 * Games owned by a web browser (gmk_store_owner_set) and online games (their room resumes them)
 * are not offered. GMK_STORE_NOT_FOUND when there is none. */
gmk_store_status gmk_store_game_find_unfinished(gmk_store *s, gmk_store_record *out, char *err,
                                                size_t errlen);

/* A game and its moves. GMK_STORE_NOT_FOUND when there is no game with that id. */
gmk_store_status gmk_store_game_load(gmk_store *s, int64_t id, gmk_store_record *out, char *err,
                                     size_t errlen);

/* Up to cap games, most recent first (finished, abandoned and unfinished alike), without
 * their moves; *count receives how many were written. */
gmk_store_status gmk_store_game_list(gmk_store *s, gmk_store_game *out, int cap, int *count,
                                     char *err, size_t errlen);

/* --- group commit --------------------------------------------------------------------- */

/* Switches this handle to deferred syncing, for a server that commits for many clients at
 * once: each write still commits before it returns (other processes see it, and it survives
 * a crash or kill -9 of this program), but the WAL is no longer synced to the disk inside
 * each commit; gmk_store_sync does it for every commit made so far, so that one sync serves
 * all the clients waiting for it. A caller must call gmk_store_sync after its writes and
 * before it tells anyone they are saved. Fails (changing nothing) on a read-only handle or
 * when the WAL file cannot be opened. */
gmk_store_status gmk_store_defer_sync(gmk_store *s, char *err, size_t errlen);

/* Makes every commit made so far on this handle durable (fdatasync of the WAL). Does nothing
 * without gmk_store_defer_sync. Safe from any thread, also while another uses the handle. */
gmk_store_status gmk_store_sync(gmk_store *s, char *err, size_t errlen);

/* --- web owners ------------------------------------------------------------------------ */

/* The size of an owner's token hash (SHA-256). */
#define GMK_STORE_OWNER_HASH 32

/* Marks game id as owned by the browser whose token hashes to hash (replacing any owner). */
gmk_store_status gmk_store_owner_set(gmk_store *s, int64_t id,
                                     const uint8_t hash[GMK_STORE_OWNER_HASH], char *err,
                                     size_t errlen);

/* The owner hash of game id into hash; GMK_STORE_NOT_FOUND when the game has no web owner. */
gmk_store_status gmk_store_owner_get(gmk_store *s, int64_t id, uint8_t hash[GMK_STORE_OWNER_HASH],
                                     char *err, size_t errlen);

/* --- scoreboard ------------------------------------------------------------------------ */

/* The scoreboard, computed from the finished games: one line per (mode, level) that has at
 * least one finished game, ordered by mode then level; up to cap lines (use
 * GMK_STORE_SCORE_MAX). *count receives how many were written. */
gmk_store_status gmk_store_scoreboard(gmk_store *s, gmk_store_score *out, int cap, int *count,
                                      char *err, size_t errlen);

/* --- settings -------------------------------------------------------------------------- */

/* Reads a setting into value[valuelen]. GMK_STORE_NOT_FOUND when it was never set. Keys the
 * front ends use: "lang", "mode", "rule", "size", "level", "human" (free-form text values). */
gmk_store_status gmk_store_setting_get(gmk_store *s, const char *key, char *value, size_t valuelen,
                                       char *err, size_t errlen);

/* Sets (or replaces) a setting; key 1..GMK_STORE_KEY_MAX-1 bytes, value up to
 * GMK_STORE_VALUE_MAX-1 bytes. */
gmk_store_status gmk_store_setting_set(gmk_store *s, const char *key, const char *value, char *err,
                                       size_t errlen);

#endif
