/* brain_think.c: the brain's time plan, the engine's memory, and playing a move under the
 * watchdog (see brain.h and brain_internal.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "brain_internal.h"
#include "game/level.h"

int64_t gmk_brain_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- time ---- */

static int64_t clamp_ms(int64_t v) {
    return v < -GMK_BRAIN_MAX_MS ? -GMK_BRAIN_MAX_MS : v > GMK_BRAIN_MAX_MS ? GMK_BRAIN_MAX_MS : v;
}

static bool match_limited(const gmk_brain_clock *c) {
    return c->timeout_match != 0 && c->time_left < GMK_BRAIN_UNLIMITED;
}

void gmk_brain_plan_time(const gmk_brain_clock *clock, gmk_brain_plan *out) {
    gmk_brain_clock c = *clock; /* clamped, so that nothing below can overflow */
    c.timeout_turn = clamp_ms(c.timeout_turn);
    c.timeout_match = clamp_ms(c.timeout_match);
    c.time_left = clamp_ms(c.time_left);
    c.increment = clamp_ms(c.increment);
    memset(out, 0, sizeof *out);
    int64_t turn = c.timeout_turn > 0 ? c.timeout_turn : GMK_BRAIN_FAST_MS;
    int64_t hard = turn;
    out->limits.turn_ms = turn;
    if (match_limited(&c)) {
        int64_t left = c.time_left > 0 ? c.time_left : 1;
        out->limits.time_left_ms = left;
        out->limits.increment_ms = c.increment > 0 ? c.increment : 0;
        /* the engine plans to use at most a fifth of it; the watchdog allows a quarter */
        int64_t cap = left / 4;
        if (cap < hard) hard = cap;
    }
    if (hard < 20) hard = 20;
    out->hard_ms = hard;
    out->limits.overhead_ms = 30 + hard / 50;
    out->stop_ms = hard - (35 + hard / 25);
    out->answer_ms = hard - (25 + hard / 50);
    if (out->answer_ms < 1) out->answer_ms = 1;
    if (out->stop_ms > out->answer_ms - 1) out->stop_ms = out->answer_ms - 1;
    if (out->stop_ms < 0) out->stop_ms = 0;
}

void gmk_brain_account_time(gmk_brain *b, int64_t t0) {
    int64_t spent = gmk_brain_now_ms() - t0;
    if (spent < 0) spent = 0;
    b->game_used = clamp_ms(b->game_used + spent);
    if (match_limited(&b->clock)) b->clock.time_left = clamp_ms(b->clock.time_left - spent);
}

void gmk_brain_move_limits(gmk_brain *b, int64_t t0, int nbest, gmk_limits *lim,
                           gmk_brain_watchdog *w) {
    gmk_brain_clock clock = b->clock;
    if (b->opt.max_think_ms > 0 &&
        (clock.timeout_turn <= 0 || clock.timeout_turn > b->opt.max_think_ms))
        clock.timeout_turn = b->opt.max_think_ms;
    gmk_brain_plan plan;
    gmk_brain_plan_time(&clock, &plan);
    gmk_limits l;
    memset(&l, 0, sizeof l);
    b->seed = b->seed * 6364136223846793005ULL + 1442695040888963407ULL;
    if (b->set.level > 0) gmk_level_limits(b->set.level, plan.limits.turn_ms, b->seed >> 11, &l);
    int64_t spent = gmk_brain_now_ms() - t0;
    if (spent < 0) spent = 0;
    int64_t turn = plan.limits.turn_ms - spent;
    if (turn < 1) turn = 1;
    if (l.turn_ms == 0 || l.turn_ms > turn) l.turn_ms = turn;
    if (plan.limits.time_left_ms > 0) {
        l.time_left_ms = plan.limits.time_left_ms - spent;
        if (l.time_left_ms < 1) l.time_left_ms = 1;
        l.increment_ms = plan.limits.increment_ms;
    }
    l.overhead_ms = plan.limits.overhead_ms;
    if (b->set.max_depth > 0 && (l.depth == 0 || l.depth > b->set.max_depth))
        l.depth = b->set.max_depth;
    if (b->set.max_node > 0) l.nodes = b->set.max_node;
    if (nbest > 1) l.nbest = nbest > GMK_MAX_NBEST ? GMK_MAX_NBEST : nbest;
    /* INFO thread_num: Lazy SMP, 1 by default; no more than the machine's processors, since
     * more threads than cores only starve the main search of its time */
    l.threads = b->set.threads;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus >= 1 && l.threads > cpus) l.threads = (int)cpus;
    *lim = l;
    w->stop_at = t0 + plan.stop_ms;
    w->answer_at = t0 + plan.answer_ms;
}

/* ---- memory ---- */

/* The bytes of RAM, or 0 if unknown. */
static int64_t physical_bytes(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 0;
    if (pages > GMK_BRAIN_MAX_MEMORY / page) return GMK_BRAIN_MAX_MEMORY;
    return (int64_t)pages * page;
}

/* The table size the settings ask for (0: the engine's default). Values are clamped by INFO,
 * so nothing here overflows. */
static int64_t table_bytes(const gmk_brain *b) {
    int64_t bytes = 0;
    if (b->set.hash_kb > 0) bytes = b->set.hash_kb * 1024;
    if (b->set.max_memory > 0) {
        int64_t cap = b->set.max_memory - (int64_t)GMK_BRAIN_RESERVE_MB * 1024 * 1024;
        cap = cap / 4 * 3;
        if (cap < (1 << 20)) cap = 1 << 20;
        if (bytes == 0 || bytes > cap) bytes = cap;
    }
    if (b->opt.max_table_bytes > 0 && (bytes == 0 || bytes > b->opt.max_table_bytes))
        bytes = b->opt.max_table_bytes;
    return bytes;
}

/* False (with the reason in why) when bytes cannot be had: more than half the machine's RAM. */
static bool affordable(int64_t bytes, char *why, size_t cap) {
    int64_t ram = physical_bytes();
    if (ram > 0 && bytes > ram / 2) {
        snprintf(why, cap, "%lld bytes is more than half of this machine's memory",
                 (long long)bytes);
        return false;
    }
    return true;
}

void gmk_brain_settle_engine(gmk_brain *b) {
    if (!b->engine_busy) return;
    gmk_engine_stop(b->engine);
    gmk_engine_wait(b->engine, NULL);
    b->engine_busy = false;
}

bool gmk_brain_ensure_engine(gmk_brain *b) {
    if (b->engine) return true;
    int64_t want = table_bytes(b);
    char why[160] = "out of memory";
    gmk_engine *e = NULL;
    if (affordable(want, why, sizeof why)) e = gmk_engine_new((size_t)want);
    if (!e && want != 0) {
        gmk_brain_reply(b, "MESSAGE cannot have tables of %lld bytes (%s); using the default",
                        (long long)want, why);
        want = 0;
        e = gmk_engine_new(0);
    }
    if (!e) {
        gmk_brain_reply(b, "ERROR cannot allocate the engine's tables");
        return false;
    }
    pthread_mutex_lock(&b->mu);
    b->engine = e;
    pthread_mutex_unlock(&b->mu);
    b->table_request = (size_t)want;
    return true;
}

void gmk_brain_apply_memory(gmk_brain *b) {
    int64_t bytes = table_bytes(b);
    if (!b->engine || (size_t)bytes == b->table_request) return; /* no needless reallocation */
    gmk_brain_settle_engine(b);
    char why[160] = "out of memory";
    if (!affordable(bytes, why, sizeof why) || !gmk_engine_set_memory(b->engine, (size_t)bytes)) {
        /* not an ERROR: nothing waits for an answer to INFO, and a manager could take the
         * line for the answer to its next command */
        gmk_brain_reply(b,
                        "MESSAGE cannot resize the engine's tables to %lld bytes (%s); "
                        "keeping the old size",
                        (long long)bytes, why);
        return;
    }
    b->table_request = (size_t)bytes;
}

/* ---- engine listener (search thread) ---- */

/* Writes the queued MESSAGE lines. Called with mu held; releases it while writing. */
static void flush_details_locked(gmk_brain *b) {
    while (b->detail_count > 0) {
        char line[GMK_BRAIN_DETAIL_LEN];
        memcpy(line, b->detail[b->detail_first], GMK_BRAIN_DETAIL_LEN);
        b->detail_first = (b->detail_first + 1) % GMK_BRAIN_DETAIL_RING;
        b->detail_count--;
        b->details_written++;
        pthread_mutex_unlock(&b->mu);
        gmk_brain_reply(b, "%s", line);
        pthread_mutex_lock(&b->mu);
    }
}

static void on_iteration(const gmk_search_result *r, void *ctx) {
    gmk_brain *b = ctx;
    pthread_mutex_lock(&b->mu);
    if (!b->discard) {
        b->latest = *r;
        b->have_latest = true;
        if (b->want_detail) {
            int slot = (b->detail_first + b->detail_count) % GMK_BRAIN_DETAIL_RING;
            if (b->detail_count == GMK_BRAIN_DETAIL_RING) {
                b->detail_first = (b->detail_first + 1) % GMK_BRAIN_DETAIL_RING;
                b->detail_count--;
            }
            if (gmk_proto_format_detail(r, -1, b->detail[slot], GMK_BRAIN_DETAIL_LEN) > 0)
                b->detail_count++;
        }
        pthread_cond_broadcast(&b->cv);
    }
    pthread_mutex_unlock(&b->mu);
}

static void on_done(const gmk_search_result *r, void *ctx) {
    (void)r;
    gmk_brain *b = ctx;
    pthread_mutex_lock(&b->mu);
    b->search_done = true;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

/* ---- thinking ---- */

static void wait_until(gmk_brain *b, int64_t wake_ms) {
    int64_t now = gmk_brain_now_ms();
    if (wake_ms <= now) wake_ms = now + 1;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t ns = ts.tv_nsec + (wake_ms - now) * 1000000L;
    ts.tv_sec += ns / 1000000000L;
    ts.tv_nsec = ns % 1000000000L;
    pthread_cond_timedwait(&b->cv, &b->mu, &ts);
}

/* Takes in STOP/END seen by the reader. mu held. */
static void take_controls_locked(gmk_brain *b) {
    if (b->ctl_stop) b->stop_requested = true;
    if (b->ctl_quit) b->quit = true;
}

bool gmk_brain_think(gmk_brain *b, const gmk_board *pos, const gmk_limits *lim,
                     gmk_brain_watchdog w, gmk_search_result *res) {
    gmk_brain_settle_engine(b);
    memset(res, 0, sizeof *res);
    res->best = GMK_POS_NONE;
    gmk_engine_set_position(b->engine, pos);
    pthread_mutex_lock(&b->mu);
    b->search_done = false;
    b->discard = false;
    b->have_latest = false;
    b->want_detail = b->set.show_detail > 0;
    b->detail_count = 0;
    b->details_written = 0;
    pthread_mutex_unlock(&b->mu);
    gmk_listener listener = {on_iteration, on_done, b};
    if (!gmk_engine_start(b->engine, lim, &listener)) return !b->quit;
    gmk_brain_input_search_begins(b);

    bool stopped = false, abandoned = false;
    pthread_mutex_lock(&b->mu);
    for (;;) {
        flush_details_locked(b);
        take_controls_locked(b);
        if (b->search_done) break;
        int64_t now = gmk_brain_now_ms();
        if (b->quit) {
            /* END: give the search a moment to unwind, then leave it */
            gmk_engine_stop(b->engine);
            int64_t until = now + GMK_BRAIN_END_GRACE_MS;
            while (!b->search_done && gmk_brain_now_ms() < until) wait_until(b, now + 10);
            if (!b->search_done) abandoned = true;
            break;
        }
        if (!stopped && (now >= w.stop_at || b->stop_requested)) {
            gmk_engine_stop(b->engine);
            stopped = true;
        }
        if (now >= w.answer_at) {
            abandoned = true;
            break;
        }
        int64_t wake = stopped ? w.answer_at : w.stop_at;
        if (wake - now > 50) wake = now + 50;
        wait_until(b, wake);
    }
    if (!b->quit) flush_details_locked(b);
    int written = b->details_written;
    if (abandoned) {
        b->discard = true;
        if (b->have_latest) *res = b->latest;
        b->engine_busy = true;
    }
    pthread_mutex_unlock(&b->mu);
    gmk_brain_input_search_ends(b);
    if (!abandoned) gmk_engine_wait(b->engine, res);
    if (b->quit) return false;
    if (b->set.show_detail > 0 && written == 0) { /* no iteration was reported: the result */
        char line[GMK_BRAIN_DETAIL_LEN];
        if (gmk_proto_format_detail(res, -1, line, sizeof line) > 0) gmk_brain_reply(b, "%s", line);
    }
    return true;
}

/* p when it is legal, else the rules' fallback point (gmk_rules_fallback_move). */
gmk_pos gmk_brain_legal_choice(const gmk_board *bd, gmk_pos p) {
    if (p != GMK_POS_NONE && gmk_rules_check_move(bd, p, NULL) == GMK_MOVE_LEGAL) return p;
    return gmk_rules_fallback_move(bd);
}

void gmk_brain_engine_move(gmk_brain *b, int64_t t0, int nbest) {
    if (!gmk_rules_has_legal_move(&b->board)) {
        gmk_brain_reply(b, gmk_board_full(&b->board)
                               ? "ERROR no legal move: the board is full"
                               : "ERROR no legal move: every empty point is forbidden for black");
        return;
    }
    if (!gmk_brain_ensure_engine(b)) return;
    gmk_limits lim;
    gmk_brain_watchdog w;
    gmk_brain_move_limits(b, t0, nbest, &lim, &w);
    gmk_search_result res;
    b->stop_requested = false;
    if (!gmk_brain_think(b, &b->board, &lim, w, &res)) return;
    if (getenv("GMK_BRAIN_TRACE"))
        fprintf(stderr, "trace: move %d: %lld ms, busy %d, depth %d, search %lld ms\n",
                b->board.move_count, (long long)(gmk_brain_now_ms() - t0), b->engine_busy,
                res.depth, (long long)res.time_ms);
    gmk_pos mv = gmk_brain_legal_choice(&b->board, res.best);
    if (nbest > 1)
        for (int i = 0; i < res.nlines && i < nbest; i++) {
            char line[GMK_BRAIN_DETAIL_LEN];
            if (gmk_proto_format_detail(&res, i, line, sizeof line) > 0)
                gmk_brain_reply(b, "%s", line);
        }
    char pt[8];
    gmk_proto_format_point(mv, pt);
    gmk_board_make(&b->board, mv);
    gmk_brain_reply(b, "%s", pt);
    gmk_brain_account_time(b, t0);
}
