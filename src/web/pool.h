/* pool.h: a bounded pool of engine workers for the web server.
 *
 * N worker threads, each with one engine whose tables are allocated once, at creation, so
 * the memory the pool takes is fixed: about N x engine_bytes. Searches are jobs: a position,
 * limits and a callback. A job waits in a bounded queue when every worker is busy; past the
 * queue the pool refuses it (the server answers 503). A caller that must not change anything
 * unless the job will be taken first reserves a place, then submits into it. The workers run
 * under SCHED_IDLE (else nice 10), below every other thread of the process.
 *
 * Threads: every function may be called from any thread. The callback runs on the worker's
 * thread (or on the thread calling gmk_pool_shutdown, for jobs that never ran) without any
 * pool lock held, never inside a submit call (so a caller may hold its own lock around a
 * submit that the callback takes); it may submit new jobs. */
#ifndef GMK_WEB_POOL_H
#define GMK_WEB_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

typedef struct gmk_pool gmk_pool;

/* Called once per job: r is the search result, or NULL when the job was dropped without
 * running (the pool is being freed). */
typedef void (*gmk_pool_done_fn)(void *ctx, uint64_t tag, const gmk_search_result *r);

typedef struct {
    gmk_board board;
    gmk_limits limits;
    gmk_pool_done_fn done;
    void *ctx;    /* the owner of the job (a game, a request); also names it for cancelling */
    uint64_t tag; /* passed back to done */
    bool fresh;   /* forget what the engine learnt before (its table), so that the result
                     depends on the position and limits only (game review) */
} gmk_pool_job;

/* A pool of workers (1..64) engines of engine_bytes each and a queue of queue_cap (0..4096)
 * waiting jobs. NULL, with a message in err, when the threads or the memory cannot be had. */
gmk_pool *gmk_pool_create(int workers, size_t engine_bytes, int queue_cap, char *err,
                          size_t errlen);

/* Stops the running searches, drops the waiting jobs (their callback gets NULL) and joins
 * the threads. Afterwards nothing can be reserved and a job submitted into a reservation is
 * dropped at once (callback with NULL). NULL is fine; a second call does nothing. */
void gmk_pool_shutdown(gmk_pool *p);

/* Shuts the pool down (if not yet) and frees everything. NULL is fine. */
void gmk_pool_free(gmk_pool *p);

/* Reserves a place for one job: false when every worker is busy and the queue is full. */
bool gmk_pool_reserve(gmk_pool *p);
/* Gives back an unused reservation. */
void gmk_pool_unreserve(gmk_pool *p);
/* Submits a job (copied) into a place reserved before. False when it cannot be queued (the
 * pool is shutting down, or out of memory): the place is given back and the callback will
 * never be called. Either way the callback is never called from inside this function. */
bool gmk_pool_submit_reserved(gmk_pool *p, const gmk_pool_job *job);
/* Reserve and submit at once; false (nothing queued, no callback) when the pool is full. */
bool gmk_pool_submit(gmk_pool *p, const gmk_pool_job *job);

/* Asks the running searches of ctx to stop now (their callbacks still come, with the best
 * move so far). Waiting jobs of ctx are not touched. */
void gmk_pool_stop(gmk_pool *p, const void *ctx);

/* Counts for logs and docs: workers, busy workers, waiting jobs, bytes of engine tables. */
typedef struct {
    int workers, busy, queued, capacity;
    size_t engine_bytes;
} gmk_pool_stats;
void gmk_pool_get_stats(gmk_pool *p, gmk_pool_stats *out);

#endif
