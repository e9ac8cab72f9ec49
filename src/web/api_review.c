/* api_review.c: game review on the web (docs/http-api.md, "Game review"): the engine goes over
 * a stored game as a background job on the engine pool (game/review.h), one position a pool
 * job, with at most as many positions searched at once as there are workers; the page polls
 * its progress, may cancel it, and reads the result, which is kept in the store so that a game
 * is reviewed once.
 *
 * Bounds: at most REVIEW_RUNNING reviews run at once in the server (503 past them), at most
 * one per owner cookie (429 for a second), and at most REVIEW_SLOTS reviews (running or done)
 * are held in memory, a finished one being let go first (it stays in the store). A review
 * takes about 100 kB. The pool's queue is shared with the games: a review never holds more
 * places than there are workers, and when the pool refuses a job the next poll retries. */
#include <stdlib.h>
#include <string.h>

#include "game/review.h"
#include "game/review_json.h"
#include "store/reviews.h"
#include "web_internal.h"

enum { REVIEW_SLOTS = 16, REVIEW_RUNNING = 4 };

typedef enum { RJ_RUNNING, RJ_DONE, RJ_CANCELLED, RJ_FAILED } rj_status;

typedef struct review_job {
    gmk_web *web;
    int64_t game_id;
    rj_status status;
    bool has_owner;
    uint8_t owner[GMK_WEB_HASH_LEN]; /* who started it: only they may cancel */
    int in_flight;                   /* pool jobs out */
    bool flying[GMK_MAX_MOVES + 1];
    int64_t used_ms;
    gmk_review rv;
} review_job;

static pthread_mutex_t reviews_mu = PTHREAD_MUTEX_INITIALIZER;
static review_job *reviews[REVIEW_SLOTS]; /* reviews_mu */

static void job_done(void *ctx, uint64_t tag, const gmk_search_result *r);

/* Submits the positions not searched nor out, up to the pool's workers (reviews_mu held). */
static void dispatch(review_job *j) {
    gmk_pool_stats ps;
    gmk_pool_get_stats(j->web->pool, &ps);
    int most = ps.workers > 0 ? ps.workers : 1;
    for (int i = 0; i < j->rv.positions && j->in_flight < most; i++) {
        if (j->rv.search[i].done || j->flying[i]) continue;
        gmk_pool_job pj;
        memset(&pj, 0, sizeof pj);
        gmk_review_position(&j->rv, i, &pj.board);
        gmk_review_limits(&j->rv, &pj.limits);
        pj.done = job_done;
        pj.ctx = j;
        pj.tag = (uint64_t)i;
        pj.fresh = true; /* the same review whatever the worker searched before */
        if (!gmk_pool_submit(j->web->pool, &pj)) break; /* full: the next poll tries again */
        j->flying[i] = true;
        j->in_flight++;
    }
}

/* Keeps a complete review in the store (no lock held). */
static void keep(gmk_web *w, int64_t id, const gmk_review *rv) {
    char *text = gmk_review_save_text(rv);
    if (!text) return;
    char err[256];
    pthread_mutex_lock(&w->store_mu);
    if (gmk_store_review_put(w->store, id, rv->count, rv->nodes, text, err, sizeof err) ==
        GMK_STORE_OK)
        web_wrote(w);
    pthread_mutex_unlock(&w->store_mu);
    free(text);
}

static void job_done(void *ctx, uint64_t tag, const gmk_search_result *r) {
    review_job *j = ctx;
    gmk_review *copy = NULL;
    pthread_mutex_lock(&reviews_mu);
    int i = (int)tag;
    j->in_flight--;
    if (i >= 0 && i <= GMK_MAX_MOVES) j->flying[i] = false;
    if (j->status == RJ_RUNNING) {
        if (!r) {
            j->status = RJ_FAILED; /* the server is stopping */
        } else {
            gmk_review_put(&j->rv, i, r);
            if (j->rv.complete) {
                j->status = RJ_DONE;
                copy = malloc(sizeof *copy);
                if (copy) *copy = j->rv;
            } else {
                dispatch(j);
            }
        }
    }
    int64_t id = j->game_id;
    gmk_web *w = j->web;
    pthread_mutex_unlock(&reviews_mu);
    if (copy) keep(w, id, copy);
    free(copy);
}

/* The job of game id at `moves` moves, or NULL (reviews_mu held). */
static review_job *find(gmk_web *w, int64_t id, int moves) {
    for (int i = 0; i < REVIEW_SLOTS; i++)
        if (reviews[i] && reviews[i]->web == w && reviews[i]->game_id == id &&
            reviews[i]->rv.count == moves)
            return reviews[i];
    return NULL;
}

/* A free slot, letting go of the least recently used review that no pool job holds; -1 when
 * there is none (reviews_mu held). */
static int free_slot(void) {
    int best = -1;
    for (int i = 0; i < REVIEW_SLOTS; i++) {
        if (!reviews[i]) return i;
        review_job *j = reviews[i];
        if (j->status != RJ_RUNNING && j->in_flight == 0 &&
            (best < 0 || j->used_ms < reviews[best]->used_ms))
            best = i;
    }
    if (best >= 0) {
        free(reviews[best]);
        reviews[best] = NULL;
    }
    return best;
}

static json_t *job_json(const review_job *j) {
    static const char *const names[] = {"running", "done", "cancelled", "failed"};
    json_t *o = j->status == RJ_DONE ? gmk_review_json(&j->rv) : json_object();
    json_object_set_new(o, "status", json_string(names[j->status]));
    json_object_set_new(o, "game_id", json_integer(j->game_id));
    json_object_set_new(o, "searched", json_integer(j->rv.searched));
    json_object_set_new(o, "positions", json_integer(j->rv.positions));
    return o;
}

/* The game's moves from the store into rv (begun); false with *status and err. */
static bool load_game(gmk_web *w, int64_t id, gmk_review *rv, unsigned *status, char *err,
                      size_t errlen) {
    gmk_store_record *rec = malloc(sizeof *rec);
    if (!rec) {
        *status = 500;
        snprintf(err, errlen, "out of memory");
        return false;
    }
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st =
        w->store ? gmk_store_game_load(w->store, id, rec, err, errlen) : GMK_STORE_NOT_FOUND;
    pthread_mutex_unlock(&w->store_mu);
    bool ok = false;
    if (st == GMK_STORE_NOT_FOUND) {
        *status = 404;
        snprintf(err, errlen, "no such game");
    } else if (st != GMK_STORE_OK) {
        *status = 500;
    } else {
        gmk_pos moves[GMK_MAX_MOVES];
        int n = rec->game.move_count;
        for (int i = 0; i < n; i++) moves[i] = gmk_pos_xy(rec->moves[i].x, rec->moves[i].y);
        ok = gmk_review_begin(rv, rec->game.rule, rec->game.size, moves, n, GMK_REVIEW_NODES, err,
                              errlen);
        if (!ok) *status = 409;
    }
    free(rec);
    return ok;
}

/* A review kept in the store for rv's game (rv begun): true with rv complete. */
static bool stored_review(gmk_web *w, int64_t id, gmk_review *rv) {
    char *text = NULL, err[256];
    pthread_mutex_lock(&w->store_mu);
    gmk_store_status st =
        gmk_store_review_get(w->store, id, rv->count, rv->nodes, &text, err, sizeof err);
    pthread_mutex_unlock(&w->store_mu);
    bool ok = st == GMK_STORE_OK && gmk_review_load_text(rv, text);
    free(text);
    return ok;
}

static int running_reviews(const uint8_t *owner, int *of_owner) {
    int n = 0;
    *of_owner = 0;
    for (int i = 0; i < REVIEW_SLOTS; i++) {
        review_job *j = reviews[i];
        if (!j || j->status != RJ_RUNNING) continue;
        n++;
        if (owner && j->has_owner && (sodium_memcmp(owner, j->owner, GMK_WEB_HASH_LEN) == 0))
            (*of_owner)++;
    }
    return n;
}

static enum MHD_Result review_route(web_request *rq, int64_t id, const char *action) {
    gmk_web *w = rq->web;
    bool get = strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0;
    bool post = strcmp(rq->method, "POST") == 0;
    bool cancel = strcmp(action, "cancel") == 0;
    if (cancel ? !post : !(get || post))
        return web_error(rq, 405, cancel ? "use POST" : "use GET or POST");
    char err[256];
    unsigned status = 500;
    gmk_review *rv = malloc(sizeof *rv);
    if (!rv) return web_error(rq, 500, "out of memory");
    if (!load_game(w, id, rv, &status, err, sizeof err)) {
        free(rv);
        return web_error(rq, status, err);
    }
    pthread_mutex_lock(&reviews_mu);
    review_job *j = find(w, id, rv->count);
    if (j) {
        j->used_ms = web_now_ms();
        if (cancel) {
            if (j->status == RJ_RUNNING) {
                if (!rq->has_token || !j->has_owner ||
                    !(sodium_memcmp(rq->token_hash, j->owner, GMK_WEB_HASH_LEN) == 0)) {
                    pthread_mutex_unlock(&reviews_mu);
                    free(rv);
                    return web_error(rq, 403, "this review was started by another browser");
                }
                j->status = RJ_CANCELLED;
                gmk_pool_stop(w->pool, j);
            }
        } else if (j->status == RJ_RUNNING) {
            dispatch(j); /* retries what a full pool refused */
        } else if (post && (j->status == RJ_CANCELLED || j->status == RJ_FAILED)) {
            j->status = RJ_RUNNING; /* started again: what was searched is kept */
            j->has_owner = rq->has_token;
            if (rq->has_token) memcpy(j->owner, rq->token_hash, GMK_WEB_HASH_LEN);
            dispatch(j);
        }
        json_t *o = job_json(j);
        unsigned code = j->status == RJ_RUNNING ? 202 : 200;
        pthread_mutex_unlock(&reviews_mu);
        free(rv);
        return web_json(rq, code, o);
    }
    pthread_mutex_unlock(&reviews_mu);
    if (cancel) {
        free(rv);
        return web_error(rq, 404, "no review of this game is running");
    }
    if (stored_review(w, id, rv)) {
        json_t *o = gmk_review_json(rv);
        json_object_set_new(o, "status", json_string("done"));
        json_object_set_new(o, "game_id", json_integer(id));
        free(rv);
        return web_json(rq, 200, o);
    }
    if (get) {
        free(rv);
        json_t *o = json_pack("{s:s,s:s,s:I}", "error", "this game has not been reviewed yet",
                              "status", "none", "game_id", (json_int_t)id);
        return web_json(rq, 404, o);
    }
    if (!web_ensure_token(rq)) {
        free(rv);
        return web_error(rq, 500, "cannot make an owner token");
    }
    pthread_mutex_lock(&reviews_mu);
    j = find(w, id, rv->count); /* started meanwhile by another request */
    int mine = 0, running = running_reviews(rq->token_hash, &mine);
    int slot = j ? -1 : free_slot();
    if (!j && (mine > 0 || running >= REVIEW_RUNNING || slot < 0)) {
        pthread_mutex_unlock(&reviews_mu);
        free(rv);
        if (mine > 0) return web_error(rq, 429, "you already have a review running");
        return web_error(rq, 503, "the server is busy");
    }
    if (!j) {
        j = calloc(1, sizeof *j);
        if (!j) {
            pthread_mutex_unlock(&reviews_mu);
            free(rv);
            return web_error(rq, 500, "out of memory");
        }
        j->web = w;
        j->game_id = id;
        j->status = RJ_RUNNING;
        j->has_owner = true;
        memcpy(j->owner, rq->token_hash, GMK_WEB_HASH_LEN);
        j->rv = *rv;
        j->used_ms = web_now_ms();
        reviews[slot] = j;
        dispatch(j);
    }
    json_t *o = job_json(j);
    pthread_mutex_unlock(&reviews_mu);
    free(rv);
    return web_json(rq, 202, o);
}

enum MHD_Result web_review_api(web_request *rq, bool *handled) {
    *handled = false;
    if (strncmp(rq->path, "/api/games/", 11) != 0) return MHD_NO;
    const char *rest = rq->path + 11;
    if (*rest < '1' || *rest > '9') return MHD_NO;
    char *end;
    long long id = strtoll(rest, &end, 10);
    if (strncmp(end, "/review", 7) != 0) return MHD_NO;
    const char *tail = end + 7;
    if (*tail != '\0' && strcmp(tail, "/cancel") != 0) return MHD_NO;
    *handled = true;
    if (id <= 0 || id > INT64_MAX / 2) return web_error(rq, 404, "no such game");
    return review_route(rq, (int64_t)id, *tail ? "cancel" : "");
}

void web_reviews_free(gmk_web *w) {
    pthread_mutex_lock(&reviews_mu);
    for (int i = 0; i < REVIEW_SLOTS; i++)
        if (reviews[i] && reviews[i]->web == w) {
            free(reviews[i]);
            reviews[i] = NULL;
        }
    pthread_mutex_unlock(&reviews_mu);
}
