/* live.c: the games in memory (see web_internal.h).
 *
 * A game is loaded from the store the first time a request names it and stays in memory
 * while it is used; past MAX_LIVE games, the least recently used idle one (no viewer, no
 * search) is let go (it is all in the store). Each game's computer moves and hints are jobs
 * for the engine pool (gmk_session_pending_job); the pool's callback hands the result back to the
 * session and publishes what changed to the game's viewers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/presence.h"
#include "web/web_internal.h"

#define MAX_LIVE 512

static live_game *live_find(gmk_web *w, int64_t id, unsigned *status, char *err, size_t errlen);

static void game_free(live_game *g) {
    gmk_session_free(g->session);
    hub_free(g->hub);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

static live_game *game_new(gmk_web *w, char *err, size_t errlen) {
    live_game *g = calloc(1, sizeof *g);
    if (!g) goto oom;
    g->web = w;
    pthread_mutex_init(&g->mu, NULL);
    g->hub = hub_new();
    gmk_session_options so = {.external_engine = true, .threads = w->opt.threads};
    if (!g->hub || gmk_session_create(w->store, &so, &g->session) != GMK_SESSION_OK) {
        hub_free(g->hub);
        pthread_mutex_destroy(&g->mu);
        free(g);
        goto oom;
    }
    return g;
oom:
    snprintf(err, errlen, "out of memory");
    return NULL;
}

static live_game **bucket_of(gmk_web *w, int64_t id) {
    uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ull;
    return &w->live_index[h >> 54 & (GMK_WEB_LIVE_BUCKETS - 1)];
}

/* The game in memory with this id, or NULL (live_mu held). */
static live_game *find(gmk_web *w, int64_t id) {
    live_game *g = *bucket_of(w, id);
    while (g && g->id != id) g = g->hnext;
    return g;
}

/* Takes g out of the list and the index (live_mu held). */
static void unlink_game(gmk_web *w, live_game *g) {
    live_game **pp = &w->live;
    while (*pp != g) pp = &(*pp)->next;
    *pp = g->next;
    pp = bucket_of(w, g->id);
    while (*pp != g) pp = &(*pp)->hnext;
    *pp = g->hnext;
    w->live_count--;
}

/* Lets go of the least recently used idle game past MAX_LIVE (live_mu held). */
static void evict(gmk_web *w) {
    if (w->live_count < MAX_LIVE) return;
    live_game *victim = NULL;
    int64_t oldest = 0;
    for (live_game *g = w->live; g; g = g->next) {
        if (g->refs > 0 || pthread_mutex_trylock(&g->mu) != 0) continue;
        bool idle = g->jobs_out == 0 && hub_viewers(g->hub) == 0;
        int64_t used = g->last_used_ms;
        pthread_mutex_unlock(&g->mu);
        if (idle && (!victim || used < oldest)) {
            victim = g;
            oldest = used;
        }
    }
    if (!victim) return;
    unlink_game(w, victim);
    game_free(victim);
}

/* Adds g to the list and the index (live_mu held). */
static void insert(gmk_web *w, live_game *g) {
    g->next = w->live;
    w->live = g;
    live_game **b = bucket_of(w, g->id);
    g->hnext = *b;
    *b = g;
    w->live_count++;
}

bool live_saved(live_game *g) {
    char msg[320];
    if (!gmk_session_take_store_message(g->session, msg, sizeof msg)) return true;
    fprintf(stderr, "gomoku serve: game %lld: %s\n", (long long)g->id, msg);
    if (!atomic_exchange(&g->stale, true)) hub_close_all(g->hub);
    return false;
}

/* A stale game nobody holds, searches for or watches any more is let go (live_mu held);
 * false while it is still in use. */
static bool let_go_stale(gmk_web *w, live_game *g) {
    if (g->refs > 0 || pthread_mutex_trylock(&g->mu) != 0) return false;
    bool busy = g->jobs_out > 0 || hub_viewers(g->hub) > 0;
    pthread_mutex_unlock(&g->mu);
    if (busy) return false;
    unlink_game(w, g);
    game_free(g);
    return true;
}

/* On a shared database (mu held): has another server changed the game since this one read
 * it (a move, a take-back, a result)? Not while this server searches for it: then its own
 * write, refused if the game moved on, tells. */
static bool changed_elsewhere(gmk_web *w, live_game *g) {
    if (!gmk_store_is_shared(w->store) || g->jobs_out > 0) return false;
    const gmk_board *b = gmk_session_board(g->session);
    gmk_session_state st;
    gmk_session_get_state(g->session, &st);
    gmk_store_game_mark m;
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status ss = gmk_store_game_mark_get(w->store, g->id, &m, NULL, 0);
    pthread_mutex_unlock(&w->store_mu);
    if (ss != GMK_STORE_OK) return false; /* the request's own store call will say */
    return m.moves != b->move_count || m.over != st.over ||
           m.checksum != gmk_store_moves_checksum(b->moves, b->move_count);
}

live_game *live_get(gmk_web *w, int64_t id, unsigned *status, char *err, size_t errlen) {
    for (int attempt = 0;; attempt++) {
        live_game *g = live_find(w, id, status, err, errlen);
        if (!g || attempt > 0 || !changed_elsewhere(w, g)) return g;
        /* read it again: its viewers' streams end (their pages reconnect to the new copy) */
        if (!atomic_exchange(&g->stale, true)) hub_close_all(g->hub);
        live_release(g);
    }
}

/* live_get without the check of changes made elsewhere. */
static live_game *live_find(gmk_web *w, int64_t id, unsigned *status, char *err, size_t errlen) {
    pthread_mutex_lock(&w->live_mu);
    live_game *g = find(w, id);
    if (g && atomic_load(&g->stale)) {
        if (!let_go_stale(w, g)) {
            pthread_mutex_unlock(&w->live_mu);
            *status = 503;
            snprintf(err, errlen, "the game is being read again from the store; try again");
            return NULL;
        }
        g = NULL;
    }
    if (g) {
        g->refs++; /* kept in memory while this request waits for it */
        pthread_mutex_unlock(&w->live_mu);
        pthread_mutex_lock(&g->mu);
        if (atomic_load(&g->stale)) { /* it went stale while this request waited */
            live_release(g);
            *status = 503;
            snprintf(err, errlen, "the game is being read again from the store; try again");
            return NULL;
        }
        g->last_used_ms = web_now_ms();
        return g;
    }
    if (id <= 0) {
        pthread_mutex_unlock(&w->live_mu);
        *status = 404;
        snprintf(err, errlen, "there is no game %lld", (long long)id);
        return NULL;
    }
    g = game_new(w, err, errlen);
    if (!g) {
        pthread_mutex_unlock(&w->live_mu);
        *status = 500;
        return NULL;
    }
    pthread_mutex_lock(&w->store_mu);
    gmk_session_status st = gmk_session_open(g->session, id, 0, NULL, err, errlen);
    if (st == GMK_SESSION_OK) {
        gmk_store_status os = gmk_store_owner_get(w->store, id, g->owner, NULL, 0);
        g->has_owner = os == GMK_STORE_OK;
    }
    pthread_mutex_unlock(&w->store_mu);
    if (st != GMK_SESSION_OK) {
        pthread_mutex_unlock(&w->live_mu);
        game_free(g);
        *status = st == GMK_SESSION_NOT_FOUND ? 404 : 500;
        if (st == GMK_SESSION_NOT_FOUND)
            snprintf(err, errlen, "there is no game %lld", (long long)id);
        return NULL;
    }
    g->id = id;
    g->last_used_ms = web_now_ms();
    g->refs = 1;
    g->published = gmk_session_board(g->session)->move_count; /* nobody watches yet */
    evict(w);
    insert(w, g);
    pthread_mutex_lock(&g->mu); /* nobody else has it yet */
    pthread_mutex_unlock(&w->live_mu);
    live_kick(g, false); /* the computer may be to move in a game that was interrupted */
    return g;
}

live_game *live_create(gmk_web *w, const gmk_game_config *cfg, const gmk_pos *moves, int count,
                       const uint8_t owner_hash[GMK_WEB_HASH_LEN], unsigned *status, char *err,
                       size_t errlen) {
    if (!gmk_game_config_valid(cfg, err, errlen)) {
        *status = 400;
        return NULL;
    }
    live_game *g = game_new(w, err, errlen);
    if (!g) {
        *status = 500;
        return NULL;
    }
    /* check the moves on a scratch session first: a bad list must store nothing */
    int ev = 0;
    gmk_session_options so = {.external_engine = true};
    gmk_session *scratch = NULL;
    if (gmk_session_create(NULL, &so, &scratch) != GMK_SESSION_OK) {
        game_free(g);
        *status = 500;
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    gmk_session_status st = gmk_session_new_game(scratch, cfg, NULL, err, errlen);
    if (st == GMK_SESSION_OK) st = gmk_session_setup(scratch, moves, count, NULL, err, errlen);
    gmk_session_job job;
    bool wants_engine = st == GMK_SESSION_OK && gmk_session_pending_job(scratch, &job);
    gmk_session_free(scratch);
    if (st != GMK_SESSION_OK) {
        game_free(g);
        *status = 400;
        return NULL;
    }
    if (wants_engine && !gmk_pool_reserve(w->pool)) {
        game_free(g);
        *status = 503;
        snprintf(err, errlen, "the server is busy");
        return NULL;
    }
    pthread_mutex_lock(&w->store_mu);
    st = gmk_session_new_game(g->session, cfg, NULL, err, errlen);
    int64_t id = 0;
    if (st == GMK_SESSION_OK) st = gmk_session_save(g->session, &id, err, errlen);
    if (st == GMK_SESSION_OK &&
        gmk_store_owner_set(w->store, id, owner_hash, err, errlen) != GMK_STORE_OK)
        st = GMK_SESSION_STORE;
    if (st == GMK_SESSION_OK) st = gmk_session_setup(g->session, moves, count, &ev, err, errlen);
    char msg[256];
    if (st == GMK_SESSION_OK && gmk_session_take_store_message(g->session, msg, sizeof msg)) {
        snprintf(err, errlen, "%s", msg);
        st = GMK_SESSION_STORE;
    }
    uint64_t seq = web_wrote(w);
    pthread_mutex_unlock(&w->store_mu);
    if (st == GMK_SESSION_OK && !web_durable(w, seq)) {
        snprintf(err, errlen, "the game could not be saved to the disk");
        st = GMK_SESSION_STORE;
    }
    if (st != GMK_SESSION_OK) {
        if (wants_engine) gmk_pool_unreserve(w->pool);
        game_free(g);
        *status = 500;
        return NULL;
    }
    g->id = id;
    g->published = gmk_session_board(g->session)->move_count; /* nobody watches yet */
    g->has_owner = true;
    memcpy(g->owner, owner_hash, GMK_WEB_HASH_LEN);
    g->last_used_ms = web_now_ms();
    g->refs = 1;
    pthread_mutex_lock(&w->live_mu);
    evict(w);
    insert(w, g);
    pthread_mutex_lock(&g->mu); /* nobody else has it yet */
    pthread_mutex_unlock(&w->live_mu);
    live_kick(g, wants_engine);
    return g;
}

void live_release(live_game *g) {
    gmk_web *w = g->web;
    pthread_mutex_unlock(&g->mu);
    pthread_mutex_lock(&w->live_mu);
    g->refs--;
    pthread_mutex_unlock(&w->live_mu);
}

static void job_done(void *ctx, uint64_t token, const gmk_search_result *r) {
    live_game *g = ctx;
    pthread_mutex_lock(&g->mu);
    g->jobs_out--;
    if (r && !atomic_load(&g->web->stopping) && !atomic_load(&g->stale)) {
        const gmk_board *b = gmk_session_board(g->session);
        int before = b->move_count;
        pthread_mutex_lock(&g->web->store_mu);
        int ev = gmk_session_job_done(g->session, token, r);
        uint64_t seq = ev ? web_wrote(g->web) : 0;
        pthread_mutex_unlock(&g->web->store_mu);
        if (ev && !live_saved(g)) { /* nobody is told of a move that is not stored */
            pthread_mutex_unlock(&g->mu);
            return;
        }
        if (seq) web_durable(g->web, seq); /* the computer's move is on disk before it is shown */
        if (ev) live_publish(g, before, ev);
        live_kick(g, false);
    }
    pthread_mutex_unlock(&g->mu);
}

void live_kick(live_game *g, bool reserved) {
    if (!gmk_session_pending_job(g->session, NULL)) { /* most requests: no board copied */
        if (reserved) gmk_pool_unreserve(g->web->pool);
        return;
    }
    gmk_session_job *job = malloc(sizeof *job);
    bool wants = job && gmk_session_pending_job(g->session, job);
    if (!wants || (g->jobs_out > 0 && job->token == g->job_token)) { /* none, or sent already */
        if (reserved) gmk_pool_unreserve(g->web->pool);
        free(job);
        return;
    }
    if (g->jobs_out > 0) gmk_pool_stop(g->web->pool, g); /* a stale search: its result is dropped */
    gmk_pool_job *pj = malloc(sizeof *pj);
    if (!pj) {
        if (reserved) gmk_pool_unreserve(g->web->pool);
        free(job);
        return;
    }
    pj->board = job->board;
    pj->limits = job->limits;
    pj->done = job_done;
    pj->ctx = g;
    pj->tag = job->token;
    /* when it cannot be queued (full, or the server is stopping), live_tick tries again */
    bool ok =
        reserved ? gmk_pool_submit_reserved(g->web->pool, pj) : gmk_pool_submit(g->web->pool, pj);
    if (ok) {
        g->jobs_out++;
        g->job_token = job->token;
    }
    free(pj);
    free(job);
}

void live_publish(live_game *g, int moves_before, int ev) {
    const gmk_board *b = gmk_session_board(g->session);
    /* each move is sent once, in order, whoever publishes first (a move waiting for its
     * sync may be overtaken by the computer's reply, which waited for a later sync) */
    (void)moves_before;
    if (g->published > b->move_count) g->published = b->move_count; /* after an undo */
    int from = g->published;
    g->published = b->move_count;
    if (hub_viewers(g->hub) == 0) return; /* nobody to tell */
    for (int i = from; i < b->move_count; i++) {
        json_t *m = json_object();
        json_object_set_new(m, "point", web_point_json(b->moves[i], b->size));
        json_object_set_new(m, "color", json_string(i % 2 == 0 ? "black" : "white"));
        json_object_set_new(m, "ply", json_integer(i + 1));
        char *s = json_dumps(m, JSON_COMPACT);
        if (s) hub_publish(g->hub, "move", s, NULL);
        free(s);
        json_decref(m);
    }
    json_t *so = web_state_json(g, true), *sv = web_state_json(g, false);
    char *a = json_dumps(so, JSON_COMPACT), *c = json_dumps(sv, JSON_COMPACT);
    if (a && c) hub_publish(g->hub, "state", a, c);
    free(a);
    free(c);
    if (ev & GMK_EV_GAME_OVER) {
        json_t *res = json_object_get(so, "result");
        char *r = res ? json_dumps(res, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        if (r) hub_publish(g->hub, "result", r, NULL);
        free(r);
    }
    json_decref(so);
    json_decref(sv);
}

void live_publish_later(web_request *rq) {
    if (!rq->pub_game) return;
    unsigned status;
    char err[128];
    live_game *g = live_get(rq->web, rq->pub_game, &status, err, sizeof err);
    rq->pub_game = 0;
    if (!g) return;
    live_publish(g, rq->pub_before, rq->pub_ev);
    live_release(g);
}

void live_tick(gmk_web *w, bool ping) {
    pthread_mutex_lock(&w->live_mu);
    for (live_game *g = w->live; g; g = g->next) {
        if (atomic_load(&g->stale) || pthread_mutex_trylock(&g->mu) != 0) continue;
        gmk_session_state st;
        gmk_session_get_state(g->session, &st);
        if (st.thinking || st.hinting) {
            live_kick(g, false);
            char data[96];
            snprintf(data, sizeof data, "{\"thinking\":%s,\"thinking_ms\":%lld}",
                     st.thinking ? "true" : "false", (long long)st.thinking_ms);
            hub_publish(g->hub, "thinking", data, NULL);
        }
        if (ping) hub_ping(g->hub);
        pthread_mutex_unlock(&g->mu);
    }
    pthread_mutex_unlock(&w->live_mu);
}

void live_close_streams(gmk_web *w) {
    pthread_mutex_lock(&w->live_mu);
    for (live_game *g = w->live; g; g = g->next) hub_close_all(g->hub);
    pthread_mutex_unlock(&w->live_mu);
}

void live_free_all(gmk_web *w) {
    live_game *g = w->live;
    while (g) {
        live_game *next = g->next;
        game_free(g);
        g = next;
    }
    w->live = NULL;
    memset(w->live_index, 0, sizeof w->live_index);
    w->live_count = 0;
}
