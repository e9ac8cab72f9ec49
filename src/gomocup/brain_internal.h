/* brain_internal.h: the state shared by the brain's files (brain.h is the public interface).
 *
 * The brain is split by concern: brain.c (the command loop and positions), brain_input.c (the
 * reader thread and its bounded queue), brain_think.c (time, the watchdog, the engine's
 * memory, playing a move), brain_info.c (INFO keys and the settings they set) and
 * brain_swap2.c (SWAP2BOARD). Only these files include this header. */
#ifndef GMK_BRAIN_INTERNAL_H
#define GMK_BRAIN_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "brain.h"
#include "core/gmk.h"
#include "protocol.h"

enum {
    GMK_BRAIN_MAX_LINE = 1 << 16,        /* longer lines are cut and answered with ERROR */
    GMK_BRAIN_QUEUE_LINES = 4096,        /* the reader waits while this many lines are queued */
    GMK_BRAIN_QUEUE_BYTES = 4 << 20,     /* or while they hold this many bytes */
    GMK_BRAIN_DETAIL_RING = 64,          /* MESSAGE lines waiting to be written */
    GMK_BRAIN_DETAIL_LEN = 1024,         /* one MESSAGE line */
    GMK_BRAIN_END_GRACE_MS = 150,        /* how long END waits for the search to unwind */
    GMK_BRAIN_EXIT_GRACE_MS = 50,        /* and how much longer the exit waits */
    GMK_BRAIN_RESERVE_MB = 40,           /* memory kept outside the engine's tables */
    GMK_BRAIN_MAX_THREADS = 64,          /* INFO thread_num is clamped to 1..this */
    GMK_BRAIN_MAX_DEPTH = 1000,          /* INFO max_depth is clamped to 0..this */
    GMK_BRAIN_STONE_CAP = GMK_MAX_MOVES, /* stones in one BOARD block */
};

/* Every time value from INFO is clamped to [-GMK_BRAIN_MAX_MS, GMK_BRAIN_MAX_MS] (about 24
 * days), so that sums of a few of them never overflow 64 bits. */
#define GMK_BRAIN_MAX_MS 2147483647LL
/* INFO max_memory (bytes) and hash_size (KiB, as bytes) are clamped to this (1 TiB). */
#define GMK_BRAIN_MAX_MEMORY (1LL << 40)

typedef struct gmk_brain_line {
    struct gmk_brain_line *next;
    int64_t t_ms; /* when it was read */
    bool eof, too_long, has_nul;
    size_t len;
    char text[];
} gmk_brain_line;

typedef struct {
    gmk_pos pos;
    int field; /* 1 own, 2 opponent; SWAP2BOARD: 0 */
} gmk_brain_stone;

typedef enum { COLLECT_NONE, COLLECT_BOARD, COLLECT_YXBOARD, COLLECT_SWAP2 } gmk_brain_collect;

/* What INFO sets (besides the clock and the rule). */
typedef struct {
    int64_t max_memory; /* bytes; 0: no limit given */
    int64_t hash_kb;    /* KiB; 0: none given */
    int max_depth, level, show_detail;
    int threads;      /* INFO thread_num, 1..GMK_BRAIN_MAX_THREADS (see gmk_brain_engine_config) */
    int64_t max_node; /* 0: no limit */
    char folder[GMK_PROTO_VALUE_MAX];
} gmk_brain_settings;

typedef struct gmk_brain {
    /* shared with the reader and search threads, under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    gmk_brain_line *head, *tail;
    size_t queued_lines, queued_bytes;
    bool reader_done, closing;
    bool searching;          /* a search is running: the reader handles STOP/END itself */
    bool ctl_stop, ctl_quit; /* set by the reader during a search */
    bool search_done, discard;
    bool have_latest;
    gmk_search_result latest;
    char detail[GMK_BRAIN_DETAIL_RING][GMK_BRAIN_DETAIL_LEN];
    int detail_first, detail_count;
    bool want_detail;
    int details_written; /* MESSAGE lines written for the current search */
    gmk_engine *engine;  /* set on the main thread before any search; read by the reader */

    /* main thread only */
    gmk_brain_options opt;
    int in_fd;
    int wake[2]; /* a pipe that wakes the reader when the brain ends */
    pthread_t reader;
    FILE *out;
    bool engine_busy;     /* an abandoned search is still unwinding */
    size_t table_request; /* the table size the engine was last given */
    bool started;
    gmk_board board;
    int size;
    gmk_rule rule;
    gmk_brain_clock clock;
    bool time_left_seen; /* INFO time_left came in this game */
    int64_t game_used;   /* ms this brain spent on its moves in this game */
    gmk_brain_settings set;
    uint64_t seed;
    bool quit, stop_requested;
    gmk_brain_collect collect;
    int64_t collect_t0;
    int nstones;
    gmk_brain_stone stones[GMK_BRAIN_STONE_CAP];
    char collect_err[200];
} gmk_brain;

/* Milliseconds on a monotonic clock. */
int64_t gmk_brain_now_ms(void);
/* Writes one line (with LF) and flushes it. */
void gmk_brain_reply(gmk_brain *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* brain_input.c: starts the reader thread on b->in_fd. False if it cannot. */
bool gmk_brain_input_start(gmk_brain *b);
/* The next queued line (waits for one); the caller frees it. NULL: the input has ended. */
gmk_brain_line *gmk_brain_input_pop(gmk_brain *b);
/* Marks the start of a search: STOP/END lines already queued are taken out and honoured, and
 * later ones are handled by the reader as they arrive. */
void gmk_brain_input_search_begins(gmk_brain *b);
/* Marks its end. */
void gmk_brain_input_search_ends(gmk_brain *b);
/* Stops the reader and frees the queue. */
void gmk_brain_input_stop(gmk_brain *b);

/* brain_think.c: creates the engine if there is none; writes ERROR and returns false if it
 * cannot. */
bool gmk_brain_ensure_engine(gmk_brain *b);
/* Resizes the engine's tables after INFO max_memory / hash_size; on failure keeps the old
 * table and says so in a MESSAGE. */
void gmk_brain_apply_memory(gmk_brain *b);
/* Waits for an abandoned search to finish. */
void gmk_brain_settle_engine(gmk_brain *b);
/* Thinks on the current position from t0 (when the command was read) and plays and writes
 * the move (with nbest > 1: the YXNBEST lines first). */
void gmk_brain_engine_move(gmk_brain *b, int64_t t0, int nbest);
/* When the watchdog steps in, on the gmk_brain_now_ms clock. */
typedef struct {
    int64_t stop_at, answer_at;
} gmk_brain_watchdog;
/* The engine's limits for a move started at t0, and its watchdog. */
void gmk_brain_move_limits(gmk_brain *b, int64_t t0, int nbest, gmk_limits *lim,
                           gmk_brain_watchdog *w);
/* Searches pos within lim under watchdog w; res gets the result. Returns false when END (or
 * the end of input) arrived meanwhile. */
bool gmk_brain_think(gmk_brain *b, const gmk_board *pos, const gmk_limits *lim,
                     gmk_brain_watchdog w, gmk_search_result *res);
/* The engine's move if legal, else any legal move (GMK_POS_NONE on a full board). */
gmk_pos gmk_brain_legal_choice(const gmk_board *bd, gmk_pos p);
/* Charges the time since t0 to this game's clock. */
void gmk_brain_account_time(gmk_brain *b, int64_t t0);

/* brain_info.c: applies one INFO command. */
void gmk_brain_info(gmk_brain *b, const gmk_proto_command *c);

/* brain_swap2.c: answers a SWAP2BOARD block (b->stones) read at t0. */
void gmk_brain_swap2(gmk_brain *b, int64_t t0);

#endif
