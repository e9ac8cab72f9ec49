/* engine.h: the engine facade. Every front end plays through this and nothing else of the
 * search.
 *
 * An engine owns a position (a copy of a board), a transposition table sized from a memory
 * limit, and at most one search at a time, which runs on its own thread. gmk_engine_start
 * returns at once; the listener hears about each finished iteration and, once, about the end
 * of the search (from the search thread). gmk_engine_stop asks the search to finish now with
 * the best move found so far; gmk_engine_wait blocks until it has finished and gives the
 * result. The engine never plays an illegal move: in renju black never plays a forbidden
 * point. Functions other than start/stop/wait/is_thinking must not be called while a search
 * runs. One engine must be used from one controlling thread. */
#ifndef GMK_ENGINE_H
#define GMK_ENGINE_H

#include <stddef.h>

#include "core/board.h"

#define GMK_MAX_PV 64
#define GMK_MAX_NBEST 16
#define GMK_MAX_THREADS 64

/* Scores: centi-stones from the side to move. Proved results use mate scores:
 * GMK_SCORE_WIN - n is a win in n plies (the side to move plays the last stone), and its
 * negation a loss. */
#define GMK_SCORE_WIN 30000
#define GMK_SCORE_MATE_BOUND (GMK_SCORE_WIN - 1000)

typedef struct {
    /* Time. 0 means no limit of that kind. */
    int64_t turn_ms;      /* hard limit for this move */
    int64_t time_left_ms; /* whole-game time left, before this move */
    int64_t increment_ms; /* added after each move */
    int64_t overhead_ms;  /* safety margin for I/O and process overhead; 0: sized by the
                           * engine from its measured latency (gmk_engine_margin_ms), which
                           * also replaces a smaller one once a lag over 15 ms is measured */
    /* Fixed limits: 0 = none. With a fixed depth or node limit and no time limit the search
     * is deterministic. */
    int depth;
    int64_t nodes;
    /* Play style, for the difficulty ladder. 0 means the engine's full-strength default. */
    int nbest;          /* report this many best lines (multi-PV), 1 if 0 */
    int max_candidates; /* try at most this many moves per node */
    int choose_margin;  /* pick among root moves within this many centi-stones of the best */
    uint64_t seed;      /* for the choice above; same seed, same choice */
    bool shape_only;    /* level 1: shape scores and plain alpha-beta, no threat solver */
    /* Search threads (Lazy SMP: helpers share the transposition table; the main thread's
     * result is reported, or a helper's that completed a deeper iteration: see
     * gmk_engine_prefer_helper). 0 or 1: one thread, deterministic under fixed limits; at
     * most GMK_MAX_THREADS. More than one thread is not deterministic. */
    int threads;
} gmk_limits;

typedef struct {
    gmk_pos move;
    int score;
    int pv_len;
    gmk_pos pv[GMK_MAX_PV];
} gmk_line;

typedef struct {
    gmk_pos best; /* GMK_POS_NONE only when the board has no legal move */
    int score;    /* of best */
    int depth;    /* deepest completed iteration */
    int seldepth;
    int64_t nodes;
    int64_t time_ms;
    int nlines; /* multi-PV: lines[0] is the best */
    gmk_line lines[GMK_MAX_NBEST];
} gmk_search_result;

typedef struct {
    /* Each completed iteration (may be NULL). Called on the search thread. */
    void (*on_iteration)(const gmk_search_result *r, void *ctx);
    /* Once, when the search has finished (may be NULL). Called on the search thread. */
    void (*on_done)(const gmk_search_result *r, void *ctx);
    void *ctx;
} gmk_listener;

typedef struct gmk_engine gmk_engine;

/* A new engine whose tables fit in memory_bytes (0: a 64 MB default). NULL if out of memory. */
gmk_engine *gmk_engine_new(size_t memory_bytes);
void gmk_engine_free(gmk_engine *e);

/* Resizes the tables to fit memory_bytes. Returns false (keeping the old size) if the
 * memory cannot be had. */
bool gmk_engine_set_memory(gmk_engine *e, size_t memory_bytes);

/* Bytes the engine's tables take now (the engine struct, its searcher and tables). */
size_t gmk_engine_memory_bytes(const gmk_engine *e);

/* Forgets what earlier searches learnt (hash, history). */
void gmk_engine_clear(gmk_engine *e);

/* Copies the position to search. */
void gmk_engine_set_position(gmk_engine *e, const gmk_board *b);

/* Starts searching the position for its side to move. Returns false if a search is already
 * running. */
bool gmk_engine_start(gmk_engine *e, const gmk_limits *limits, const gmk_listener *listener);

/* Asks the running search to stop as soon as possible (safe from any thread, also from a
 * listener or a signal-free watcher). Does nothing when idle. */
void gmk_engine_stop(gmk_engine *e);

/* Waits for the running search to end and copies its result (result may be NULL). */
void gmk_engine_wait(gmk_engine *e, gmk_search_result *result);

bool gmk_engine_is_thinking(const gmk_engine *e);

/* The safety margin the engine keeps when limits.overhead_ms is 0: twice the largest recent
 * lag (how late a timed search handed back its move after its stop time) plus 10 ms, at
 * least 20 ms (40 ms before anything is measured). */
int64_t gmk_engine_margin_ms(const gmk_engine *e);

/* start + wait. */
void gmk_engine_search(gmk_engine *e, const gmk_limits *limits, const gmk_listener *listener,
                       gmk_search_result *result);

/* Lazy SMP: whether to report helper result h instead of the main thread's result m: when
 * the helper completed a deeper iteration, the search gives one line and no choice among
 * near-equal moves (limits), and m is not a proved win. */
bool gmk_engine_prefer_helper(const gmk_search_result *m, const gmk_search_result *h,
                              const gmk_limits *limits);

/* True when score is a proved win or loss; *plies gets the distance in plies. */
bool gmk_score_is_mate(int score, int *plies);

#endif
