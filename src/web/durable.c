/* durable.c: group commit. The server's store handle defers syncing (gmk_store_defer_sync):
 * each write commits at once under store_mu, and nothing is reported saved until one
 * fdatasync of the WAL made after that commit has returned. One syncer thread does the syncs:
 * each covers every commit counted when it starts, so 100 clients moving at once share a few
 * syncs instead of queueing behind 100. A request waiting for its sync does not hold an HTTP
 * thread: its reply is ready and its connection suspended until the sync has returned.
 * Before each sync the syncer waits SYNC_GATHER_US for more commits to join it (PostgreSQL's
 * commit_delay): under load that makes fewer, fuller syncs, and each sync on a VM's disk
 * costs a trap to the host; alone, a player waits a third of a millisecond more. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "web/web_internal.h"

/* The gathering wait before a sync. On 2 cores with 100 clients moving and every engine busy
 * (docs/web.md, runs G), a move's p99 was 20.4 and 22.7 ms without it, 18.1 and 17.4 with it. */
#define SYNC_GATHER_US 300

typedef struct durable_waiter {
    web_request *rq;
    struct durable_waiter *next;
} durable_waiter;

uint64_t web_wrote(gmk_web *w) {
    return atomic_fetch_add(&w->written, 1) + 1;
}

/* One sync of everything written so far (sync_mu held on entry and on return). */
static bool sync_now(gmk_web *w) {
    uint64_t target = atomic_load(&w->written);
    w->syncing = true;
    pthread_mutex_unlock(&w->sync_mu);
    char err[256];
    bool ok = gmk_store_sync(w->store, err, sizeof err) == GMK_STORE_OK;
    if (!ok) fprintf(stderr, "gomoku serve: %s\n", err);
    pthread_mutex_lock(&w->sync_mu);
    w->syncing = false;
    if (ok && target > w->synced) w->synced = target;
    pthread_cond_broadcast(&w->sync_cv);
    return ok;
}

static void *syncer(void *arg) {
    gmk_web *w = arg;
    pthread_mutex_lock(&w->sync_mu);
    for (;;) {
        while (!w->waiters && w->wanted <= w->synced && !w->syncer_stop)
            pthread_cond_wait(&w->sync_cv, &w->sync_mu);
        if (!w->waiters && w->wanted <= w->synced) break; /* stopping, nothing left */
        pthread_mutex_unlock(&w->sync_mu);
        nanosleep(&(struct timespec){.tv_nsec = SYNC_GATHER_US * 1000L}, NULL);
        pthread_mutex_lock(&w->sync_mu);
        durable_waiter *list = w->waiters; /* each was counted before it was queued */
        w->waiters = NULL;
        bool ok = sync_now(w);
        if (!ok) w->wanted = w->synced; /* blocking waiters see the failure below */
        pthread_mutex_unlock(&w->sync_mu);
        while (list) {
            durable_waiter *next = list->next;
            web_request *rq = list->rq;
            if (!ok) {
                json_decref(rq->wait_reply);
                rq->wait_status = 500;
                rq->wait_reply = json_pack("{s:s}", "error", "it could not be saved to the disk");
            }
            rq->wait_state = 2;
            MHD_resume_connection(rq->conn);
            free(list);
            list = next;
        }
        pthread_mutex_lock(&w->sync_mu);
        if (!ok) w->sync_failed = true;
        pthread_cond_broadcast(&w->sync_cv);
    }
    pthread_mutex_unlock(&w->sync_mu);
    return NULL;
}

bool web_durable_start(gmk_web *w) {
    if (pthread_create(&w->syncer_thread, NULL, syncer, w) != 0) return false;
    w->syncer_running = true;
    return true;
}

void web_durable_stop(gmk_web *w) {
    if (!w->syncer_running) return;
    pthread_mutex_lock(&w->sync_mu);
    w->syncer_stop = true;
    pthread_cond_broadcast(&w->sync_cv);
    pthread_mutex_unlock(&w->sync_mu);
    pthread_join(w->syncer_thread, NULL);
    w->syncer_running = false;
}

bool web_durable(gmk_web *w, uint64_t seq) {
    pthread_mutex_lock(&w->sync_mu);
    bool ok = true;
    while (w->synced < seq) {
        if (w->syncer_stop) { /* no syncer any more: sync here */
            if (w->syncing) {
                pthread_cond_wait(&w->sync_cv, &w->sync_mu);
                continue;
            }
            if (!sync_now(w)) {
                ok = false;
                break;
            }
            continue;
        }
        w->sync_failed = false;
        if (seq > w->wanted) w->wanted = seq;
        pthread_cond_broadcast(&w->sync_cv);
        pthread_cond_wait(&w->sync_cv, &w->sync_mu);
        if (w->sync_failed && w->synced < seq) {
            ok = false;
            break;
        }
    }
    pthread_mutex_unlock(&w->sync_mu);
    return ok;
}

enum MHD_Result web_durable_reply(web_request *rq, uint64_t seq, unsigned status, json_t *reply) {
    gmk_web *w = rq->web;
    pthread_mutex_lock(&w->sync_mu);
    bool queued = !w->syncer_stop && w->synced < seq;
    durable_waiter *d = queued ? malloc(sizeof *d) : NULL;
    if (d) {
        rq->wait_reply = reply;
        rq->wait_status = status;
        rq->wait_state = 1;
        MHD_suspend_connection(rq->conn); /* the syncer resumes it */
        d->rq = rq;
        d->next = w->waiters;
        w->waiters = d;
        pthread_cond_broadcast(&w->sync_cv);
    }
    pthread_mutex_unlock(&w->sync_mu);
    if (d) return MHD_YES;
    if (!web_durable(w, seq)) {
        json_decref(reply);
        return web_error(rq, 500, "it could not be saved to the disk");
    }
    live_publish_later(rq);
    return web_json(rq, status, reply);
}
