/* brain.h: the Gomocup engine ("brain"): the protocol loop on a pair of streams.
 *
 * gmk_brain_run reads commands on its own thread, so that YXSTOP, STOP and END are honoured
 * while the engine thinks; every other command that arrives during a search waits until the
 * move has been written. It owns one engine (engine.h), allocated at START and resized at
 * INFO max_memory / hash_size, and one position. All output happens on the calling thread, one
 * flushed line at a time. The search runs under the engine's own time manager and under a
 * watchdog here: past the hard deadline minus a margin the brain stops the search, and if the
 * engine still has not answered just before the deadline, the brain answers for it with the
 * best move seen so far (or any legal move). Every INFO value is range-checked and clamped
 * before any arithmetic. What is supported is described in docs/protocol.md. Called by the CLI
 * (gomoku brain, pbrain-gomoku). The implementation is split by concern: see
 * brain_internal.h. */
#ifndef GMK_BRAIN_H
#define GMK_BRAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"

/* Margins before the hard deadline H (ms): the engine is told to keep 30 + H/50 free; the
 * watchdog stops the search 35 + H/25 before H, and answers without the engine 25 + H/50
 * before H. */
/* The think time for INFO timeout_turn 0 ("as fast as possible"). */
#define GMK_BRAIN_FAST_MS 100
/* INFO time_left at or above this means "no match limit" (the protocol's 2147483647). */
#define GMK_BRAIN_UNLIMITED 2147483647LL

typedef struct {
    int64_t timeout_turn;  /* ms; 0: as fast as possible */
    int64_t timeout_match; /* ms; 0: no limit; negative: never sent */
    int64_t time_left;     /* ms; GMK_BRAIN_UNLIMITED or more: no limit */
    int64_t increment;     /* ms added per move (INFO time_increment) */
} gmk_brain_clock;

typedef struct {
    gmk_limits limits; /* turn_ms, time_left_ms, increment_ms, overhead_ms filled in */
    int64_t hard_ms;   /* the move must be written within this, from receipt of the command */
    int64_t stop_ms;   /* the watchdog stops the search then */
    int64_t answer_ms; /* and answers without the engine then */
} gmk_brain_plan;

/* The time limits of one move. Pure. */
void gmk_brain_plan_time(const gmk_brain_clock *clock, gmk_brain_plan *out);

/* Settings of a run that are not part of the protocol (tests and fuzzing). */
typedef struct {
    int64_t max_think_ms;    /* > 0: no move takes longer than this, whatever INFO says */
    int64_t max_table_bytes; /* > 0: the engine's tables never take more than this */
    bool finish_on_eof;      /* end of input: finish and answer a search in progress first */
    bool free_at_exit;       /* wait for a search that would not stop, and free everything */
} gmk_brain_options;

/* Speaks the protocol: commands from file descriptor in_fd, replies to out. Returns when END
 * arrives or the input ends; the exit status. The end of input during a search stops it, as
 * END does. Frees everything, except when END left a search that would not stop within 200 ms:
 * then the search is left running with its memory, and the caller should end the process. */
int gmk_brain_run(int in_fd, FILE *out);
/* The same with options (NULL: the defaults, all zero). */
int gmk_brain_run_with(int in_fd, FILE *out, const gmk_brain_options *opt);

#endif
