/* pool.c: the engine worker pool (see pool.h). */
#include "web/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

enum { WORKER_NICE = 10 };

typedef struct job_node {
    gmk_pool_job job;
    struct job_node *next;
} job_node;

typedef struct {
    gmk_pool *pool;
    gmk_engine *engine;
    pthread_t thread;
    bool started;
    const void *running; /* ctx of the running job, NULL when idle */
} worker;

struct gmk_pool {
    pthread_mutex_t mu;
    pthread_cond_t wake;
    pthread_cond_t ready_cv; /* a worker has set its scheduling policy */
    int ready;               /* workers that have */
    bool stopping;
    int nworkers, queue_cap;
    int used; /* reserved + queued + running; at most nworkers + queue_cap */
    int queued, busy;
    job_node *head, *tail;
    size_t engine_bytes;
    worker *workers;
};

static void *work(void *arg) {
    worker *w = arg;
    gmk_pool *p = w->pool;
    /* searches yield the CPU to the HTTP threads: with every engine busy, the requests that
     * need none are still answered at once. SCHED_IDLE runs a thread only on a core nothing
     * else wants (Linux, allowed without privileges); where it is refused, nice 10. Both are
     * per thread, and the search threads the engine starts from this one inherit them. */
    struct sched_param idle = {.sched_priority = 0};
    if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle) != 0)
        setpriority(PRIO_PROCESS, (id_t)gettid(), WORKER_NICE);
    gmk_search_result *r = malloc(sizeof *r);
    pthread_mutex_lock(&p->mu);
    p->ready++;
    pthread_cond_broadcast(&p->ready_cv);
    for (;;) {
        while (!p->head && !p->stopping) pthread_cond_wait(&p->wake, &p->mu);
        if (p->stopping || !r) break;
        job_node *n = p->head;
        p->head = n->next;
        if (!p->head) p->tail = NULL;
        p->queued--;
        p->busy++;
        w->running = n->job.ctx;
        pthread_mutex_unlock(&p->mu);

        if (n->job.fresh) gmk_engine_clear(w->engine);
        gmk_engine_set_position(w->engine, &n->job.board);
        gmk_engine_search(w->engine, &n->job.limits, NULL, r);
        n->job.done(n->job.ctx, n->job.tag, r);
        free(n);

        pthread_mutex_lock(&p->mu);
        w->running = NULL;
        p->busy--;
        p->used--;
    }
    pthread_mutex_unlock(&p->mu);
    free(r);
    return NULL;
}

gmk_pool *gmk_pool_create(int workers, size_t engine_bytes, int queue_cap, char *err,
                          size_t errlen) {
    if (workers < 1 || workers > 64 || queue_cap < 0 || queue_cap > 4096) {
        snprintf(err, errlen, "the pool needs 1 to 64 workers and a queue of 0 to 4096");
        return NULL;
    }
    gmk_pool *p = calloc(1, sizeof *p);
    if (!p) goto oom;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->ready_cv, NULL);
    p->nworkers = workers;
    p->queue_cap = queue_cap;
    p->workers = calloc((size_t)workers, sizeof *p->workers);
    if (!p->workers) goto oom;
    for (int i = 0; i < workers; i++) {
        p->workers[i].pool = p;
        p->workers[i].engine = gmk_engine_new(engine_bytes);
        if (!p->workers[i].engine) goto oom;
        p->engine_bytes += gmk_engine_memory_bytes(p->workers[i].engine);
    }
    for (int i = 0; i < workers; i++) {
        if (pthread_create(&p->workers[i].thread, NULL, work, &p->workers[i]) != 0) {
            snprintf(err, errlen, "cannot start the engine threads");
            gmk_pool_free(p);
            return NULL;
        }
        p->workers[i].started = true;
    }
    /* the pool is ready once every worker runs under its policy (a search never starts at
     * the normal priority, and the policy of a fresh server's threads can be checked) */
    pthread_mutex_lock(&p->mu);
    while (p->ready < workers) pthread_cond_wait(&p->ready_cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return p;
oom:
    snprintf(err, errlen, "not enough memory for %d engines of %zu MB", workers,
             engine_bytes >> 20);
    gmk_pool_free(p);
    return NULL;
}

void gmk_pool_shutdown(gmk_pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    if (p->stopping) {
        pthread_mutex_unlock(&p->mu);
        return;
    }
    p->stopping = true;
    for (int i = 0; p->workers && i < p->nworkers; i++)
        if (p->workers[i].running && p->workers[i].engine) gmk_engine_stop(p->workers[i].engine);
    job_node *n = p->head;
    p->head = p->tail = NULL;
    p->queued = 0;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; p->workers && i < p->nworkers; i++)
        if (p->workers[i].started) pthread_join(p->workers[i].thread, NULL);
    while (n) {
        job_node *next = n->next;
        n->job.done(n->job.ctx, n->job.tag, NULL);
        free(n);
        n = next;
    }
}

void gmk_pool_free(gmk_pool *p) {
    if (!p) return;
    gmk_pool_shutdown(p);
    for (int i = 0; p->workers && i < p->nworkers; i++) gmk_engine_free(p->workers[i].engine);
    free(p->workers);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->ready_cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

bool gmk_pool_reserve(gmk_pool *p) {
    pthread_mutex_lock(&p->mu);
    bool ok = !p->stopping && p->used < p->nworkers + p->queue_cap;
    if (ok) p->used++;
    pthread_mutex_unlock(&p->mu);
    return ok;
}

void gmk_pool_unreserve(gmk_pool *p) {
    pthread_mutex_lock(&p->mu);
    p->used--;
    pthread_mutex_unlock(&p->mu);
}

bool gmk_pool_submit_reserved(gmk_pool *p, const gmk_pool_job *job) {
    job_node *n = malloc(sizeof *n);
    pthread_mutex_lock(&p->mu);
    if (!n || p->stopping) { /* give the place back; the callback is not called */
        p->used--;
        pthread_mutex_unlock(&p->mu);
        free(n);
        return false;
    }
    n->job = *job;
    n->next = NULL;
    if (p->tail)
        p->tail->next = n;
    else
        p->head = n;
    p->tail = n;
    p->queued++;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->mu);
    return true;
}

bool gmk_pool_submit(gmk_pool *p, const gmk_pool_job *job) {
    return gmk_pool_reserve(p) && gmk_pool_submit_reserved(p, job);
}

void gmk_pool_stop(gmk_pool *p, const void *ctx) {
    pthread_mutex_lock(&p->mu);
    for (int i = 0; i < p->nworkers; i++)
        if (p->workers[i].running == ctx) gmk_engine_stop(p->workers[i].engine);
    pthread_mutex_unlock(&p->mu);
}

void gmk_pool_get_stats(gmk_pool *p, gmk_pool_stats *out) {
    pthread_mutex_lock(&p->mu);
    out->workers = p->nworkers;
    out->busy = p->busy;
    out->queued = p->queued;
    out->capacity = p->nworkers + p->queue_cap;
    out->engine_bytes = p->engine_bytes;
    pthread_mutex_unlock(&p->mu);
}
