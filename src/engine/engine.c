/* engine.c: the facade (see engine.h): one search thread at a time over a searcher. */
#include "engine.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search.h"

typedef struct {
    gmk_searcher *searcher;
    pthread_t thread;
    gmk_search_result result;
} helper;

struct gmk_engine {
    gmk_board board;
    gmk_searcher *searcher;
    /* Lazy SMP helpers, created on first use; they run while the main search does */
    helper helpers[GMK_MAX_THREADS - 1];
    int nhelpers; /* created */
    atomic_bool helper_stop;
    pthread_t thread;
    bool joinable;
    atomic_bool stop;
    atomic_bool thinking;
    gmk_limits limits;
    gmk_listener listener;
    gmk_search_result result;
    /* measured latency: how far past its stop time a timed search handed back its move
     * (thread start, unwinding, a busy machine), the largest of recent searches, decaying */
    int64_t start_ms;
    int64_t lag_ms;
};

static int64_t mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t gmk_engine_margin_ms(const gmk_engine *e) {
    int64_t m = 2 * e->lag_ms + 10;
    return m < 20 ? 20 : m;
}

enum { DEFAULT_MEMORY = 64 << 20 };

gmk_engine *gmk_engine_new(size_t memory_bytes) {
    gmk_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->searcher = gmk_searcher_new(memory_bytes ? memory_bytes : DEFAULT_MEMORY);
    if (!e->searcher) {
        free(e);
        return NULL;
    }
    gmk_board_init(&e->board, GMK_DEFAULT_SIZE, GMK_RULE_FREESTYLE);
    atomic_init(&e->stop, false);
    atomic_init(&e->thinking, false);
    atomic_init(&e->helper_stop, false);
    e->lag_ms = 15; /* until measured: a 40 ms margin */
    return e;
}

void gmk_engine_free(gmk_engine *e) {
    if (!e) return;
    gmk_engine_stop(e);
    gmk_engine_wait(e, NULL);
    for (int i = 0; i < e->nhelpers; i++) gmk_searcher_free(e->helpers[i].searcher);
    gmk_searcher_free(e->searcher);
    free(e);
}

bool gmk_engine_set_memory(gmk_engine *e, size_t memory_bytes) {
    return gmk_searcher_resize(e->searcher, memory_bytes ? memory_bytes : DEFAULT_MEMORY);
}

size_t gmk_engine_memory_bytes(const gmk_engine *e) {
    size_t n = sizeof *e + gmk_searcher_memory_bytes(e->searcher);
    for (int i = 0; i < e->nhelpers; i++) n += gmk_searcher_memory_bytes(e->helpers[i].searcher);
    return n;
}

void gmk_engine_clear(gmk_engine *e) {
    gmk_searcher_clear(e->searcher);
    for (int i = 0; i < e->nhelpers; i++) gmk_searcher_clear(e->helpers[i].searcher);
}

void gmk_engine_set_position(gmk_engine *e, const gmk_board *b) {
    memcpy(&e->board, b, sizeof *b);
}

static void *helper_thread(void *arg) {
    gmk_engine *e = ((void **)arg)[0];
    helper *h = ((void **)arg)[1];
    gmk_searcher_run(h->searcher, &e->board, &e->limits, NULL, &e->helper_stop, &h->result);
    return NULL;
}

/* Starts up to threads-1 helpers (fewer if memory or threads run out); returns how many. */
static int start_helpers(gmk_engine *e, void *args[][2]) {
    int want = e->limits.threads > GMK_MAX_THREADS ? GMK_MAX_THREADS : e->limits.threads;
    int started = 0;
    atomic_store(&e->helper_stop, false);
    for (int i = 0; i + 1 < want; i++) {
        if (i == e->nhelpers) {
            e->helpers[i].searcher = gmk_searcher_new_helper(e->searcher, i + 1);
            if (!e->helpers[i].searcher) break;
            e->nhelpers++;
        }
        args[i][0] = e;
        args[i][1] = &e->helpers[i];
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 16u << 20);
        int rc = pthread_create(&e->helpers[i].thread, &attr, helper_thread, args[i]);
        pthread_attr_destroy(&attr);
        if (rc != 0) break;
        started++;
    }
    return started;
}

static void *search_thread(void *arg) {
    gmk_engine *e = arg;
    void *args[GMK_MAX_THREADS][2];
    int helpers = e->limits.threads > 1 ? start_helpers(e, args) : 0;
    gmk_searcher_run(e->searcher, &e->board, &e->limits, &e->listener, &e->stop, &e->result);
    atomic_store(&e->helper_stop, true);
    int64_t nodes = e->result.nodes;
    for (int i = 0; i < helpers; i++) {
        pthread_join(e->helpers[i].thread, NULL);
        nodes += e->helpers[i].result.nodes;
        if (gmk_engine_prefer_helper(&e->result, &e->helpers[i].result, &e->limits)) {
            int64_t time_ms = e->result.time_ms;
            e->result = e->helpers[i].result;
            e->result.time_ms = time_ms;
        }
    }
    e->result.nodes = nodes;
    int64_t stop_ms = gmk_searcher_stop_ms(e->searcher);
    if (stop_ms > 0) {
        int64_t lag = mono_ms() - e->start_ms - stop_ms;
        if (lag < 0) lag = 0;
        int64_t decayed = e->lag_ms * 3 / 4;
        e->lag_ms = lag > decayed ? lag : decayed;
    }
    atomic_store(&e->thinking, false);
    if (e->listener.on_done) e->listener.on_done(&e->result, e->listener.ctx);
    return NULL;
}

bool gmk_engine_start(gmk_engine *e, const gmk_limits *limits, const gmk_listener *listener) {
    if (atomic_load(&e->thinking)) return false;
    if (e->joinable) gmk_engine_wait(e, NULL);
    e->limits = *limits;
    e->start_ms = mono_ms();
    /* the caller's margin, or more when the engine has measured a larger lag */
    int64_t margin = gmk_engine_margin_ms(e);
    if (e->limits.overhead_ms < margin && (e->limits.overhead_ms <= 0 || e->lag_ms > 15))
        e->limits.overhead_ms = margin;
    if (listener)
        e->listener = *listener;
    else
        memset(&e->listener, 0, sizeof e->listener);
    memset(&e->result, 0, sizeof e->result);
    e->result.best = GMK_POS_NONE;
    atomic_store(&e->stop, false);
    atomic_store(&e->thinking, true);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 16u << 20); /* boards are copied on the stack */
    int rc = pthread_create(&e->thread, &attr, search_thread, e);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        atomic_store(&e->thinking, false);
        return false;
    }
    e->joinable = true;
    return true;
}

void gmk_engine_stop(gmk_engine *e) {
    atomic_store(&e->stop, true);
}

void gmk_engine_wait(gmk_engine *e, gmk_search_result *result) {
    if (e->joinable) {
        pthread_join(e->thread, NULL);
        e->joinable = false;
    }
    if (result) *result = e->result;
}

bool gmk_engine_is_thinking(const gmk_engine *e) {
    return atomic_load(&((gmk_engine *)e)->thinking);
}

void gmk_engine_search(gmk_engine *e, const gmk_limits *limits, const gmk_listener *listener,
                       gmk_search_result *result) {
    if (!gmk_engine_start(e, limits, listener)) {
        if (result) {
            memset(result, 0, sizeof *result);
            result->best = GMK_POS_NONE;
        }
        return;
    }
    gmk_engine_wait(e, result);
}

bool gmk_engine_prefer_helper(const gmk_search_result *m, const gmk_search_result *h,
                              const gmk_limits *limits) {
    if (limits->nbest > 1 || limits->choose_margin > 0) return false;
    if (h->best == GMK_POS_NONE || h->nlines < 1 || h->depth <= m->depth) return false;
    return !(gmk_score_is_mate(m->score, NULL) && m->score > 0);
}

bool gmk_score_is_mate(int score, int *plies) {
    int a = score < 0 ? -score : score;
    if (a < GMK_SCORE_MATE_BOUND) return false;
    if (plies) *plies = GMK_SCORE_WIN - a;
    return true;
}
