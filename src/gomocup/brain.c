/* brain.c: the Gomocup protocol loop (see brain.h and docs/protocol.md). */
#include "brain.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/gmk.h"
#include "game/level.h"
#include "protocol.h"

enum {
    MAX_LINE = 1 << 16,   /* longer lines are cut and answered with ERROR */
    DETAIL_RING = 64,     /* MESSAGE lines waiting to be written */
    DETAIL_LEN = 1024,    /* one MESSAGE line */
    END_GRACE_MS = 150,   /* how long END waits for the search to unwind */
    EXIT_GRACE_MS = 50,   /* and how much longer the exit waits before leaving it */
    RESERVE_MB = 40,      /* memory kept outside the engine's tables under max_memory */
    SWAP2_CANDIDATES = 6, /* three-stone proposals evaluated at SWAP2BOARD stage 0 */
};

/* ---- time ---- */

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool match_limited(const gmk_brain_clock *c) {
    return c->timeout_match != 0 && c->time_left < GMK_BRAIN_UNLIMITED;
}

void gmk_brain_plan_time(const gmk_brain_clock *c, gmk_brain_plan *out) {
    memset(out, 0, sizeof *out);
    int64_t turn = c->timeout_turn > 0 ? c->timeout_turn : GMK_BRAIN_FAST_MS;
    int64_t hard = turn;
    out->limits.turn_ms = turn;
    if (match_limited(c)) {
        int64_t left = c->time_left > 0 ? c->time_left : 1;
        out->limits.time_left_ms = left;
        out->limits.increment_ms = c->increment > 0 ? c->increment : 0;
        /* the engine plans to use at most a fifth of it; the watchdog allows a quarter */
        int64_t cap = left / 4;
        if (cap < hard) hard = cap;
    }
    if (hard < 20) hard = 20;
    out->hard_ms = hard;
    out->limits.overhead_ms = 50 + hard / 20;
    out->stop_ms = hard - (35 + hard / 25);
    out->answer_ms = hard - (25 + hard / 50);
    if (out->answer_ms < 1) out->answer_ms = 1;
    if (out->stop_ms > out->answer_ms - 1) out->stop_ms = out->answer_ms - 1;
    if (out->stop_ms < 0) out->stop_ms = 0;
}

/* ---- input queue, filled by the reader thread ---- */

typedef struct line_node {
    struct line_node *next;
    int64_t t_ms; /* when it was read */
    bool eof, too_long, has_nul;
    char text[];
} line_node;

typedef struct {
    gmk_pos pos;
    int field; /* 1 own, 2 opponent; SWAP2BOARD: 0 */
} stone;

typedef enum { COLLECT_NONE, COLLECT_BOARD, COLLECT_YXBOARD, COLLECT_SWAP2 } collect_mode;

typedef struct {
    /* shared with the reader and search threads, under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    line_node *head, *tail;
    bool reader_done;
    bool search_done, discard;
    bool have_latest;
    gmk_search_result latest;
    char detail[DETAIL_RING][DETAIL_LEN];
    int detail_first, detail_count;
    bool want_detail;
    int details_written; /* MESSAGE lines written for the current search */

    /* main thread only */
    int in_fd;
    pthread_t reader;
    FILE *out;
    gmk_engine *engine;
    bool engine_busy;     /* an abandoned search is still unwinding */
    size_t table_request; /* the table size the engine was last given (table_bytes) */
    bool started;
    gmk_board board;
    int size;
    gmk_rule rule;
    gmk_brain_clock clock;
    int64_t max_memory, hash_kb;
    int max_depth, level, show_detail, threads;
    int64_t max_node;
    uint64_t seed;
    char folder[GMK_PROTO_VALUE_MAX];
    bool quit, stop_requested;
    collect_mode collect;
    int64_t collect_t0;
    int nstones;
    stone stones[GMK_MAX_MOVES];
    char collect_err[200];
} brain;

static void reader_cleanup(void *arg) {
    free(*(char **)arg);
}

static void push_line(brain *b, const char *text, size_t len, bool too_long, bool eof) {
    line_node *n = malloc(sizeof *n + len + 1);
    if (!n) return;
    n->next = NULL;
    n->t_ms = now_ms();
    n->eof = eof;
    n->too_long = too_long;
    n->has_nul = memchr(text, '\0', len) != NULL;
    memcpy(n->text, text, len);
    n->text[len] = '\0';
    pthread_mutex_lock(&b->mu);
    if (b->tail)
        b->tail->next = n;
    else
        b->head = n;
    b->tail = n;
    if (eof) b->reader_done = true;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

/* Reads lines ended by LF, CR or CRLF and queues them; queues an end marker at the end. */
static void *reader_main(void *arg) {
    brain *b = arg;
    char *line = malloc(MAX_LINE + 1);
    pthread_cleanup_push(reader_cleanup, &line);
    size_t len = 0;
    bool too_long = false, after_cr = false;
    char buf[4096];
    for (;;) {
        ssize_t n = line ? read(b->in_fd, buf, sizeof buf) : 0;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        for (ssize_t k = 0; k < n; k++) {
            char c = buf[k];
            if (c == '\n' && after_cr) {
                after_cr = false;
                continue;
            }
            after_cr = c == '\r';
            if (c == '\n' || c == '\r') {
                push_line(b, line, len, too_long, false);
                len = 0;
                too_long = false;
                continue;
            }
            if (len < MAX_LINE)
                line[len++] = c;
            else
                too_long = true;
        }
    }
    if (line && len > 0) push_line(b, line, len, too_long, false);
    push_line(b, "", 0, false, true);
    pthread_cleanup_pop(1);
    return NULL;
}

/* ---- output ---- */

static void reply(brain *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply(brain *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(b->out, fmt, ap);
    va_end(ap);
    fputc('\n', b->out);
    fflush(b->out);
}

/* Writes the queued MESSAGE lines. Called with mu held; releases it while writing. */
static void flush_details_locked(brain *b) {
    while (b->detail_count > 0) {
        char line[DETAIL_LEN];
        memcpy(line, b->detail[b->detail_first], DETAIL_LEN);
        b->detail_first = (b->detail_first + 1) % DETAIL_RING;
        b->detail_count--;
        b->details_written++;
        pthread_mutex_unlock(&b->mu);
        reply(b, "%s", line);
        pthread_mutex_lock(&b->mu);
    }
}

/* ---- engine listener (search thread) ---- */

static void on_iteration(const gmk_search_result *r, void *ctx) {
    brain *b = ctx;
    pthread_mutex_lock(&b->mu);
    if (!b->discard) {
        b->latest = *r;
        b->have_latest = true;
        if (b->want_detail) {
            int slot = (b->detail_first + b->detail_count) % DETAIL_RING;
            if (b->detail_count == DETAIL_RING) {
                b->detail_first = (b->detail_first + 1) % DETAIL_RING;
                b->detail_count--;
            }
            if (gmk_proto_format_detail(r, -1, b->detail[slot], DETAIL_LEN) > 0) b->detail_count++;
        }
        pthread_cond_broadcast(&b->cv);
    }
    pthread_mutex_unlock(&b->mu);
}

static void on_done(const gmk_search_result *r, void *ctx) {
    (void)r;
    brain *b = ctx;
    pthread_mutex_lock(&b->mu);
    b->search_done = true;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

/* ---- memory ---- */

static size_t table_bytes(const brain *b) {
    int64_t bytes = 0; /* 0: the engine's default */
    if (b->hash_kb > 0) bytes = b->hash_kb * 1024;
    if (b->max_memory > 0) {
        int64_t cap = b->max_memory - (int64_t)RESERVE_MB * 1024 * 1024;
        cap = cap * 3 / 4;
        if (cap < (1 << 20)) cap = 1 << 20;
        if (bytes == 0 || bytes > cap) bytes = cap;
    }
    return (size_t)bytes;
}

/* Waits for an abandoned search to finish. */
static void settle_engine(brain *b) {
    if (!b->engine_busy) return;
    gmk_engine_stop(b->engine);
    gmk_engine_wait(b->engine, NULL);
    b->engine_busy = false;
}

static bool ensure_engine(brain *b) {
    if (!b->engine) {
        b->table_request = table_bytes(b);
        b->engine = gmk_engine_new(b->table_request);
        if (!b->engine) {
            reply(b, "ERROR cannot allocate the engine's tables (%zu bytes)", table_bytes(b));
            return false;
        }
    }
    return true;
}

static void apply_memory(brain *b) {
    size_t bytes = table_bytes(b);
    if (!b->engine || bytes == b->table_request) return; /* no needless reallocation */
    settle_engine(b);
    if (!gmk_engine_set_memory(b->engine, bytes)) {
        reply(b, "ERROR cannot resize the engine's tables to %zu bytes; keeping the old size",
              bytes);
        return;
    }
    b->table_request = bytes;
}

/* ---- thinking ---- */

/* Handles STOP and END lines waiting in the queue (others stay queued). mu held. */
static void scan_controls_locked(brain *b) {
    line_node **link = &b->head, *prev = NULL;
    while (*link) {
        line_node *n = *link;
        gmk_proto_command cmd;
        bool control = false;
        if (!n->eof && !n->too_long && !n->has_nul &&
            gmk_proto_parse(n->text, &cmd, NULL, 0) == GMK_PROTO_OK &&
            (cmd.kind == GMK_CMD_STOP || cmd.kind == GMK_CMD_END)) {
            control = true;
            if (cmd.kind == GMK_CMD_END) b->quit = true;
            b->stop_requested = true;
            gmk_engine_stop(b->engine);
        }
        if (control) {
            *link = n->next;
            if (b->tail == n) b->tail = prev;
            free(n);
        } else {
            prev = n;
            link = &n->next;
        }
    }
}

/* When the watchdog steps in, on the now_ms clock. */
typedef struct {
    int64_t stop_at, answer_at;
} watchdog;

/* Searches position pos within lim and returns the result. The watchdog stops the search at
 * w.stop_at and answers without the engine at w.answer_at. Handles YXSTOP/STOP/END that arrive
 * meanwhile. Returns false when END arrived (res then undefined). */
static bool think(brain *b, const gmk_board *pos, const gmk_limits *lim, watchdog w,
                  gmk_search_result *res) {
    settle_engine(b);
    memset(res, 0, sizeof *res);
    res->best = GMK_POS_NONE;
    gmk_engine_set_position(b->engine, pos);
    pthread_mutex_lock(&b->mu);
    b->search_done = false;
    b->discard = false;
    b->have_latest = false;
    b->want_detail = b->show_detail > 0;
    b->detail_count = 0;
    b->details_written = 0;
    pthread_mutex_unlock(&b->mu);
    gmk_listener listener = {on_iteration, on_done, b};
    if (!gmk_engine_start(b->engine, lim, &listener)) return !b->quit;

    bool stopped = b->stop_requested;
    if (stopped) gmk_engine_stop(b->engine);
    bool abandoned = false;
    pthread_mutex_lock(&b->mu);
    for (;;) {
        flush_details_locked(b);
        if (b->search_done) break;
        scan_controls_locked(b);
        int64_t now = now_ms();
        if (b->quit) {
            /* END: give the search a moment to unwind, then leave it */
            int64_t until = now + END_GRACE_MS;
            while (!b->search_done && now_ms() < until) {
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                ts.tv_nsec += 10 * 1000000L;
                if (ts.tv_nsec >= 1000000000L) {
                    ts.tv_sec++;
                    ts.tv_nsec -= 1000000000L;
                }
                pthread_cond_timedwait(&b->cv, &b->mu, &ts);
            }
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
        if (wake <= now) wake = now + 1;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        int64_t ns = ts.tv_nsec + (wake - now) * 1000000L;
        ts.tv_sec += ns / 1000000000L;
        ts.tv_nsec = ns % 1000000000L;
        pthread_cond_timedwait(&b->cv, &b->mu, &ts);
    }
    if (!b->quit) flush_details_locked(b);
    int written = b->details_written;
    if (abandoned) {
        b->discard = true;
        if (b->have_latest) *res = b->latest;
        b->engine_busy = true;
    }
    pthread_mutex_unlock(&b->mu);
    if (!abandoned) gmk_engine_wait(b->engine, res);
    if (b->quit) return false;
    if (b->show_detail > 0 && written == 0) { /* no iteration was reported: the result */
        char line[DETAIL_LEN];
        if (gmk_proto_format_detail(res, -1, line, sizeof line) > 0) reply(b, "%s", line);
    }
    return true;
}

/* Any legal move for the side to move: the best shape score, then the nearest to the centre. */
static gmk_pos fallback_move(const gmk_board *bd) {
    gmk_color me = gmk_board_side(bd), opp = gmk_opponent(me);
    gmk_pos best = GMK_POS_NONE;
    long best_v = 0;
    for (int y = 0; y < bd->size; y++)
        for (int x = 0; x < bd->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (gmk_rules_check_move(bd, p, NULL) != GMK_MOVE_LEGAL) continue;
            int dx = x - bd->size / 2, dy = y - bd->size / 2;
            long v =
                ((long)bd->cell[p].score[me] + bd->cell[p].score[opp]) * 1024 - (dx * dx + dy * dy);
            if (best == GMK_POS_NONE || v > best_v) {
                best = p;
                best_v = v;
            }
        }
    return best;
}

/* The move to play: the engine's, if legal, else any legal one. */
static gmk_pos legal_choice(const gmk_board *bd, gmk_pos p) {
    if (p != GMK_POS_NONE && gmk_rules_check_move(bd, p, NULL) == GMK_MOVE_LEGAL) return p;
    return fallback_move(bd);
}

/* The limits of a move started at t0 (now_ms clock) and its watchdog. */
static void move_limits(brain *b, int64_t t0, int nbest, gmk_limits *lim, watchdog *w) {
    gmk_brain_plan plan;
    gmk_brain_plan_time(&b->clock, &plan);
    gmk_limits l;
    memset(&l, 0, sizeof l);
    b->seed = b->seed * 6364136223846793005ULL + 1442695040888963407ULL;
    if (b->level > 0) gmk_level_limits(b->level, plan.limits.turn_ms, b->seed >> 11, &l);
    int64_t spent = now_ms() - t0;
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
    if (b->max_depth > 0 && (l.depth == 0 || l.depth > b->max_depth)) l.depth = b->max_depth;
    if (b->max_node > 0) l.nodes = b->max_node;
    if (nbest > 1) l.nbest = nbest > GMK_MAX_NBEST ? GMK_MAX_NBEST : nbest;
    *lim = l;
    w->stop_at = t0 + plan.stop_ms;
    w->answer_at = t0 + plan.answer_ms;
}

static void account_time(brain *b, int64_t t0) {
    if (!match_limited(&b->clock)) return;
    b->clock.time_left -= now_ms() - t0;
}

static bool has_legal_move(const gmk_board *bd) {
    return fallback_move(bd) != GMK_POS_NONE;
}

/* Thinks on the current position and plays and writes the move. */
static void engine_move(brain *b, int64_t t0, int nbest) {
    if (!has_legal_move(&b->board)) {
        reply(b, "ERROR no legal move: the board is full");
        return;
    }
    if (!ensure_engine(b)) return;
    gmk_limits lim;
    watchdog w;
    move_limits(b, t0, nbest, &lim, &w);
    gmk_search_result res;
    b->stop_requested = false;
    if (!think(b, &b->board, &lim, w, &res)) return;
    if (getenv("GMK_BRAIN_TRACE"))
        fprintf(stderr, "trace: move %d: %lld ms, busy %d, depth %d, search %lld ms\n",
                b->board.move_count, (long long)(now_ms() - t0), b->engine_busy, res.depth,
                (long long)res.time_ms);
    gmk_pos mv = legal_choice(&b->board, res.best);
    if (nbest > 1)
        for (int i = 0; i < res.nlines && i < nbest; i++) {
            char line[DETAIL_LEN];
            if (gmk_proto_format_detail(&res, i, line, sizeof line) > 0) reply(b, "%s", line);
        }
    char pt[8];
    gmk_proto_format_point(mv, pt);
    gmk_board_make(&b->board, mv);
    reply(b, "%s", pt);
    account_time(b, t0);
}

/* ---- positions ---- */

static bool need_game(brain *b) {
    if (b->started) return true;
    reply(b, "ERROR no game: send START first");
    return false;
}

static void new_board(brain *b) {
    gmk_board_init(&b->board, b->size, b->rule);
    if (b->clock.timeout_match > 0) b->clock.time_left = b->clock.timeout_match;
}

/* Sets up *out from the collected BOARD stones: own and opponent colours from the counts (the
 * brain is to move), stones of each colour in the order given, alternating from black. */
static bool board_from_stones(brain *b, gmk_board *out, char *err, size_t errlen) {
    gmk_pos own[GMK_MAX_MOVES], opp[GMK_MAX_MOVES];
    int nown = 0, nopp = 0;
    for (int i = 0; i < b->nstones; i++) {
        if (b->stones[i].field == 1) own[nown++] = b->stones[i].pos;
        if (b->stones[i].field == 2) opp[nopp++] = b->stones[i].pos;
    }
    gmk_color me;
    if (nown == nopp)
        me = GMK_BLACK;
    else if (nopp == nown + 1)
        me = GMK_WHITE;
    else if (b->rule == GMK_RULE_RENJU) {
        snprintf(err, errlen,
                 "%d own and %d opponent stones: in renju the brain must be the side to move", nown,
                 nopp);
        return false;
    } else
        me = nown <= nopp ? GMK_BLACK : GMK_WHITE;
    const gmk_pos *blk = me == GMK_BLACK ? own : opp, *wht = me == GMK_BLACK ? opp : own;
    int nb = me == GMK_BLACK ? nown : nopp, nw = me == GMK_BLACK ? nopp : nown;
    gmk_board_init(out, b->size, b->rule);
    int ib = 0, iw = 0;
    while (ib < nb || iw < nw) {
        if (ib < nb && (ib <= iw || iw >= nw))
            gmk_board_put(out, blk[ib++], GMK_BLACK);
        else
            gmk_board_put(out, wht[iw++], GMK_WHITE);
    }
    if (gmk_board_side(out) != me) out->side = me; /* uneven counts outside renju */
    return true;
}

static void begin_collect(brain *b, collect_mode mode, int64_t t0) {
    b->collect = mode;
    b->collect_t0 = t0;
    b->nstones = 0;
    b->collect_err[0] = '\0';
    if (!b->started) snprintf(b->collect_err, sizeof b->collect_err, "no game: send START first");
}

static void collect_error(brain *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void collect_error(brain *b, const char *fmt, ...) {
    if (b->collect_err[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->collect_err, sizeof b->collect_err, fmt, ap);
    va_end(ap);
}

static void swap2(brain *b, int64_t t0);

static void finish_collect(brain *b) {
    collect_mode mode = b->collect;
    b->collect = COLLECT_NONE;
    if (b->collect_err[0]) {
        reply(b, "ERROR %s", b->collect_err);
        return;
    }
    if (mode == COLLECT_SWAP2) {
        swap2(b, b->collect_t0);
        return;
    }
    gmk_board nb;
    char err[200];
    if (!board_from_stones(b, &nb, err, sizeof err)) {
        reply(b, "ERROR %s", err);
        return;
    }
    b->board = nb;
    if (mode == COLLECT_BOARD) engine_move(b, b->collect_t0, 1);
}

static void collect_line(brain *b, const line_node *n) {
    gmk_proto_command cmd;
    gmk_proto_status st = gmk_proto_parse(n->text, &cmd, NULL, 0);
    if (st == GMK_PROTO_EMPTY) return;
    if (st == GMK_PROTO_OK && cmd.kind == GMK_CMD_DONE) {
        finish_collect(b);
        return;
    }
    if (st == GMK_PROTO_OK && cmd.kind == GMK_CMD_END) {
        b->quit = true;
        return;
    }
    if (n->too_long || n->has_nul) {
        collect_error(b, n->too_long ? "line too long" : "NUL byte in the line");
        return;
    }
    int x, y, field = 0;
    char err[160];
    bool ok = b->collect == COLLECT_SWAP2
                  ? gmk_proto_parse_point(n->text, &x, &y, err, sizeof err)
                  : gmk_proto_parse_stone(n->text, &x, &y, &field, err, sizeof err);
    if (!ok) {
        collect_error(b, "%s", err);
        return;
    }
    if (!b->started) return;
    if (!gmk_xy_on_board(x, y, b->size)) {
        collect_error(b, "%d,%d is off the %dx%d board", x, y, b->size, b->size);
        return;
    }
    if (field == 3) return; /* continuous-game marker */
    gmk_pos p = gmk_pos_xy(x, y);
    for (int i = 0; i < b->nstones; i++)
        if (b->stones[i].pos == p) {
            collect_error(b, "%d,%d is given twice", x, y);
            return;
        }
    if (b->nstones >= b->size * b->size) {
        collect_error(b, "more stones than points");
        return;
    }
    b->stones[b->nstones].pos = p;
    b->stones[b->nstones].field = field;
    b->nstones++;
}

/* ---- SWAP2BOARD ---- */

/* Three-stone openings (black, white, black) as offsets from the centre: the first
 * three-stone lines of Piskvork's opening list (../shared/testdata/openings). */
static const int swap2_openings[SWAP2_CANDIDATES][6] = {
    {0, 0, 1, 0, 1, 3}, {0, 0, 1, 1, 0, 3}, {0, 0, 1, 0, 0, 3},
    {0, 0, 1, 1, 1, 3}, {0, 0, 1, 0, 3, 0}, {0, 0, 1, 1, -1, 3},
};

static void swap2(brain *b, int64_t t0) {
    if (!ensure_engine(b)) return;
    int n = b->nstones;
    if (n != 0 && n != 3 && n != 5) {
        reply(b, "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got %d", n);
        return;
    }
    gmk_board bd;
    gmk_board_init(&bd, b->size, b->rule);
    for (int i = 0; i < n; i++) gmk_board_make(&bd, b->stones[i].pos);
    gmk_limits lim;
    watchdog w;
    move_limits(b, t0, 1, &lim, &w);
    b->stop_requested = false;
    gmk_search_result res;
    if (n == 0) {
        /* propose the candidate that the engine finds the most balanced for white to move */
        int c = b->size / 2, best = -1, best_abs = 0;
        int64_t share = (w.stop_at - now_ms()) / (SWAP2_CANDIDATES + 1);
        for (int k = 0; k < SWAP2_CANDIDATES && !b->stop_requested; k++) {
            const int *o = swap2_openings[k];
            gmk_board cand;
            gmk_board_init(&cand, b->size, b->rule);
            bool fits = true;
            for (int s = 0; s < 3; s++)
                fits = fits && gmk_xy_on_board(c + o[2 * s], c + o[2 * s + 1], b->size);
            if (!fits) continue;
            for (int s = 0; s < 3; s++)
                gmk_board_make(&cand, gmk_pos_xy(c + o[2 * s], c + o[2 * s + 1]));
            gmk_limits sub = lim;
            sub.turn_ms = share > 1 ? share : 1;
            sub.time_left_ms = 0;
            watchdog sw = {now_ms() + share, now_ms() + share + (w.answer_at - w.stop_at)};
            if (sw.answer_at > w.answer_at) sw = w;
            if (!think(b, &cand, &sub, sw, &res)) return;
            int a = res.score < 0 ? -res.score : res.score;
            if (best < 0 || a < best_abs) {
                best = k;
                best_abs = a;
            }
        }
        if (best < 0) best = 0;
        const int *o = swap2_openings[best];
        char p[3][8];
        for (int s = 0; s < 3; s++) {
            int x = c + o[2 * s], y = c + o[2 * s + 1];
            if (!gmk_xy_on_board(x, y, b->size)) x = y = c; /* tiny boards */
            gmk_proto_format_point(gmk_pos_xy(x, y), p[s]);
        }
        reply(b, "%s %s %s", p[0], p[1], p[2]);
        account_time(b, t0);
        return;
    }
    /* 3 or 5 stones, white to move: take black (SWAP) when black is better, else play white */
    if (!think(b, &bd, &lim, w, &res)) return;
    b->board = bd;
    if (res.best != GMK_POS_NONE && res.score < 0) {
        reply(b, "SWAP");
    } else {
        gmk_pos mv = legal_choice(&b->board, res.best);
        char pt[8];
        gmk_proto_format_point(mv, pt);
        gmk_board_make(&b->board, mv);
        reply(b, "%s", pt);
    }
    account_time(b, t0);
}

/* ---- INFO ---- */

static void set_rule(brain *b, gmk_rule rule) {
    if (rule == b->rule) return;
    b->rule = rule;
    if (!b->started) return;
    gmk_board nb;
    gmk_board_init(&nb, b->size, rule);
    for (int i = 0; i < b->board.move_count; i++)
        gmk_board_put(&nb, b->board.moves[i], (gmk_color)b->board.stone[b->board.moves[i]]);
    nb.side = b->board.side;
    b->board = nb;
}

static void info(brain *b, const gmk_proto_command *c) {
    static const char *const numeric[] = {
        "timeout_turn", "timeout_match", "time_left",  "time_increment", "max_memory",
        "game_type",    "rule",          "thread_num", "max_depth",      "max_node",
        "hash_size",    "show_detail",   "level",
    };
    bool known = false;
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0]; i++)
        if (strcmp(c->key, numeric[i]) == 0) known = true;
    if (strcmp(c->key, "folder") == 0) {
        snprintf(b->folder, sizeof b->folder, "%s", c->value);
        return;
    }
    if (!known) return; /* unknown keys are ignored */
    int64_t v;
    if (!gmk_proto_parse_int(c->value, &v)) {
        reply(b, "ERROR INFO %s needs a number, got '%.40s'", c->key, c->value);
        return;
    }
    const char *k = c->key;
    if (strcmp(k, "timeout_turn") == 0) {
        b->clock.timeout_turn = v < 0 ? 0 : v;
    } else if (strcmp(k, "timeout_match") == 0) {
        b->clock.timeout_match = v < 0 ? 0 : v;
    } else if (strcmp(k, "time_left") == 0) {
        b->clock.time_left = v;
    } else if (strcmp(k, "time_increment") == 0) {
        b->clock.increment = v < 0 ? 0 : v;
    } else if (strcmp(k, "max_memory") == 0) {
        b->max_memory = v < 0 ? 0 : v;
        apply_memory(b);
    } else if (strcmp(k, "hash_size") == 0) {
        b->hash_kb = v < 0 ? 0 : v;
        apply_memory(b);
    } else if (strcmp(k, "rule") == 0) {
        gmk_rule r;
        if (!gmk_proto_rule_from_mask(v, &r)) {
            reply(b, "ERROR INFO rule %lld is not a rule number", (long long)v);
            return;
        }
        set_rule(b, r);
    } else if (strcmp(k, "max_depth") == 0) {
        b->max_depth = v < 0 ? 0 : (v > 1000 ? 1000 : (int)v);
    } else if (strcmp(k, "max_node") == 0) {
        b->max_node = v < 0 ? 0 : v;
    } else if (strcmp(k, "show_detail") == 0) {
        b->show_detail = v < 0 ? 0 : (int)(v > 3 ? 3 : v);
    } else if (strcmp(k, "thread_num") == 0) {
        b->threads = v < 1 ? 1 : (int)(v > 256 ? 256 : v);
    } else if (strcmp(k, "level") == 0) {
        if (v != 0 && !gmk_level_valid((int)v)) {
            reply(b, "ERROR INFO level must be 0 (full strength) or 1-%d", gmk_level_count());
            return;
        }
        b->level = (int)v;
    }
    /* game_type: accepted and ignored */
}

/* ---- commands ---- */

static void takeback(brain *b, int x, int y) {
    if (!gmk_xy_on_board(x, y, b->size)) {
        reply(b, "ERROR %d,%d is off the %dx%d board", x, y, b->size, b->size);
        return;
    }
    gmk_pos p = gmk_pos_xy(x, y);
    if (gmk_board_empty_at(&b->board, p)) {
        reply(b, "ERROR %d,%d holds no stone", x, y);
        return;
    }
    if (gmk_board_last(&b->board) == p) {
        gmk_board_undo(&b->board);
    } else {
        gmk_color c = (gmk_color)b->board.stone[p];
        gmk_board nb;
        gmk_board_init(&nb, b->size, b->rule);
        for (int i = 0; i < b->board.move_count; i++) {
            gmk_pos q = b->board.moves[i];
            if (q != p) gmk_board_put(&nb, q, (gmk_color)b->board.stone[q]);
        }
        nb.side = c; /* the owner of the removed stone gets the move back */
        b->board = nb;
    }
    reply(b, "OK");
}

/* Checks x,y for a stone of the side to move; writes ERROR and returns false if it cannot go
 * there. */
static bool placeable(brain *b, int x, int y, gmk_pos *out) {
    if (!gmk_xy_on_board(x, y, b->size)) {
        reply(b, "ERROR %d,%d is off the %dx%d board", x, y, b->size, b->size);
        return false;
    }
    gmk_pos p = gmk_pos_xy(x, y);
    if (!gmk_board_empty_at(&b->board, p)) {
        reply(b, "ERROR %d,%d is already taken", x, y);
        return false;
    }
    *out = p;
    return true;
}

static void show_forbid(brain *b) {
    gmk_pos pts[GMK_MAX_MOVES];
    int n = 0;
    if (b->rule == GMK_RULE_RENJU && gmk_board_side(&b->board) == GMK_BLACK)
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                gmk_pos p = gmk_pos_xy(x, y);
                if (gmk_rules_check_move(&b->board, p, NULL) == GMK_MOVE_FORBIDDEN) pts[n++] = p;
            }
    char line[8 + 4 * GMK_MAX_MOVES + 4];
    if (gmk_proto_format_forbid(pts, n, line, sizeof line) > 0) reply(b, "%s", line);
}

static void command(brain *b, const line_node *n) {
    gmk_proto_command c;
    char err[200];
    gmk_proto_status st = gmk_proto_parse(n->text, &c, err, sizeof err);
    if (st == GMK_PROTO_EMPTY) return;
    if (st == GMK_PROTO_UNKNOWN) {
        reply(b, "UNKNOWN %s", err);
        return;
    }
    if (st == GMK_PROTO_MALFORMED) {
        reply(b, "ERROR %s", err);
        return;
    }
    gmk_pos p;
    switch (c.kind) {
    case GMK_CMD_START:
    case GMK_CMD_RECTSTART: {
        int size = c.kind == GMK_CMD_START ? c.n : c.x;
        if (c.kind == GMK_CMD_RECTSTART && c.x != c.y) {
            reply(b, "ERROR rectangular boards are not supported");
            return;
        }
        if (size < GMK_MIN_SIZE || size > GMK_MAX_SIZE) {
            reply(b, "ERROR unsupported board size %d (%d-%d)", size, GMK_MIN_SIZE, GMK_MAX_SIZE);
            return;
        }
        if (!ensure_engine(b)) return;
        b->size = size;
        b->started = true;
        new_board(b);
        reply(b, "OK");
        return;
    }
    case GMK_CMD_RESTART:
        if (!need_game(b)) return;
        new_board(b);
        reply(b, "OK");
        return;
    case GMK_CMD_BEGIN:
        if (!need_game(b)) return;
        if (b->board.move_count != 0) {
            reply(b, "ERROR BEGIN needs an empty board (%d stones; send RESTART first)",
                  b->board.move_count);
            return;
        }
        engine_move(b, n->t_ms, 1);
        return;
    case GMK_CMD_TURN:
        if (!need_game(b) || !placeable(b, c.x, c.y, &p)) return;
        gmk_board_make(&b->board, p);
        engine_move(b, n->t_ms, 1);
        return;
    case GMK_CMD_PLAY: {
        if (!need_game(b) || !placeable(b, c.x, c.y, &p)) return;
        if (gmk_rules_check_move(&b->board, p, NULL) != GMK_MOVE_LEGAL) {
            reply(b, "ERROR %d,%d is forbidden for black", c.x, c.y);
            return;
        }
        char pt[8];
        gmk_proto_format_point(p, pt);
        gmk_board_make(&b->board, p);
        reply(b, "%s", pt);
        return;
    }
    case GMK_CMD_BOARD: begin_collect(b, COLLECT_BOARD, n->t_ms); return;
    case GMK_CMD_YXBOARD: begin_collect(b, COLLECT_YXBOARD, n->t_ms); return;
    case GMK_CMD_SWAP2BOARD: begin_collect(b, COLLECT_SWAP2, n->t_ms); return;
    case GMK_CMD_DONE: reply(b, "ERROR DONE without BOARD"); return;
    case GMK_CMD_END: b->quit = true; return;
    case GMK_CMD_ABOUT: {
        char line[300];
        if (gmk_proto_format_about(line, sizeof line) > 0) reply(b, "%s", line);
        return;
    }
    case GMK_CMD_TAKEBACK:
        if (need_game(b)) takeback(b, c.x, c.y);
        return;
    case GMK_CMD_INFO: info(b, &c); return;
    case GMK_CMD_STOP: return; /* nothing to stop */
    case GMK_CMD_SHOWFORBID:
        if (need_game(b)) show_forbid(b);
        return;
    case GMK_CMD_HASHCLEAR:
        if (b->engine) {
            settle_engine(b);
            gmk_engine_clear(b->engine);
        }
        reply(b, "MESSAGE hash cleared");
        return;
    case GMK_CMD_NBEST:
        if (need_game(b)) engine_move(b, n->t_ms, c.n);
        return;
    case GMK_CMD_SHOWINFO:
        reply(b, "MESSAGE INFO MAX_THREAD_NUM 1");
        reply(b, "MESSAGE INFO MAX_HASH_SIZE 30");
        return;
    }
}

static void handle(brain *b, const line_node *n) {
    if (b->collect != COLLECT_NONE) {
        collect_line(b, n);
        return;
    }
    if (n->too_long) {
        reply(b, "ERROR line too long (more than %d bytes)", MAX_LINE);
        return;
    }
    if (n->has_nul) {
        reply(b, "ERROR NUL byte in the line");
        return;
    }
    command(b, n);
}

static line_node *pop_line(brain *b) {
    pthread_mutex_lock(&b->mu);
    while (!b->head) pthread_cond_wait(&b->cv, &b->mu);
    line_node *n = b->head;
    b->head = n->next;
    if (!b->head) b->tail = NULL;
    pthread_mutex_unlock(&b->mu);
    return n;
}

int gmk_brain_run(int in_fd, FILE *out) {
    brain *b = calloc(1, sizeof *b);
    if (!b) {
        fprintf(out, "ERROR out of memory\n");
        fflush(out);
        return 1;
    }
    pthread_mutex_init(&b->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&b->cv, &ca);
    pthread_condattr_destroy(&ca);
    b->in_fd = in_fd;
    b->out = out;
    b->size = GMK_DEFAULT_SIZE;
    b->rule = GMK_RULE_FREESTYLE;
    b->clock.timeout_turn = 30000;
    b->clock.timeout_match = -1;
    b->clock.time_left = GMK_BRAIN_UNLIMITED;
    b->threads = 1;
    b->seed = (uint64_t)now_ms();
    gmk_board_init(&b->board, b->size, b->rule);
    if (pthread_create(&b->reader, NULL, reader_main, b) != 0) {
        reply(b, "ERROR cannot start the input thread");
        free(b);
        return 1;
    }
    while (!b->quit) {
        line_node *n = pop_line(b);
        if (n->eof) {
            free(n);
            break;
        }
        handle(b, n);
        free(n);
    }
    fflush(out);
    if (b->engine && b->engine_busy) {
        /* a search that did not stop in time: give it a moment, then leave it running (and
         * everything it uses allocated); the caller is about to exit */
        gmk_engine_stop(b->engine);
        bool done = false;
        int64_t until = now_ms() + EXIT_GRACE_MS;
        while (!done && now_ms() < until) {
            pthread_mutex_lock(&b->mu);
            done = b->search_done;
            pthread_mutex_unlock(&b->mu);
            if (!done) usleep(2000);
        }
        if (!done) return 0;
        settle_engine(b);
    }
    pthread_mutex_lock(&b->mu);
    bool reader_done = b->reader_done;
    pthread_mutex_unlock(&b->mu);
    if (!reader_done) pthread_cancel(b->reader);
    pthread_join(b->reader, NULL);
    while (b->head) {
        line_node *n = b->head;
        b->head = n->next;
        free(n);
    }
    gmk_engine_free(b->engine);
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->mu);
    free(b);
    return 0;
}
