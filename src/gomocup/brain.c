/* brain.c: the Gomocup protocol loop: commands, positions and BOARD blocks (see brain.h,
 * brain_internal.h and docs/protocol.md). */
#include "brain.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "brain_internal.h"
#include "core/pattern.h"

void gmk_brain_reply(gmk_brain *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(b->out, fmt, ap);
    va_end(ap);
    fputc('\n', b->out);
    fflush(b->out);
}

/* ---- positions ---- */

static bool need_game(gmk_brain *b) {
    if (b->started) return true;
    gmk_brain_reply(b, "ERROR no game: send START first");
    return false;
}

static void new_board(gmk_brain *b) {
    gmk_board_init(&b->board, b->size, b->rule);
    b->game_used = 0;
    b->time_left_seen = false;
    if (b->clock.timeout_match > 0) b->clock.time_left = b->clock.timeout_match;
}

/* Sets up *out from the collected BOARD stones: own and opponent colours from the counts (the
 * brain is to move), stones of each colour in the order given, alternating from black. */
static bool board_from_stones(gmk_brain *b, gmk_board *out, char *err, size_t errlen) {
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

static void begin_collect(gmk_brain *b, gmk_brain_collect mode, int64_t t0) {
    b->collect = mode;
    b->collect_t0 = t0;
    b->nstones = 0;
    b->collect_err[0] = '\0';
    if (!b->started) snprintf(b->collect_err, sizeof b->collect_err, "no game: send START first");
}

static void collect_error(gmk_brain *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void collect_error(gmk_brain *b, const char *fmt, ...) {
    if (b->collect_err[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->collect_err, sizeof b->collect_err, fmt, ap);
    va_end(ap);
}

static void finish_collect(gmk_brain *b) {
    gmk_brain_collect mode = b->collect;
    b->collect = COLLECT_NONE;
    if (b->collect_err[0]) {
        gmk_brain_reply(b, "ERROR %s", b->collect_err);
        return;
    }
    if (mode == COLLECT_SWAP2) {
        gmk_brain_swap2(b, b->collect_t0);
        return;
    }
    gmk_board nb;
    char err[200];
    if (!board_from_stones(b, &nb, err, sizeof err)) {
        gmk_brain_reply(b, "ERROR %s", err);
        return;
    }
    b->board = nb;
    if (mode == COLLECT_BOARD) gmk_brain_engine_move(b, b->collect_t0, 1);
}

static void collect_line(gmk_brain *b, const gmk_brain_line *n) {
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

/* ---- commands ---- */

static void takeback(gmk_brain *b, int x, int y) {
    if (!gmk_xy_on_board(x, y, b->size)) {
        gmk_brain_reply(b, "ERROR %d,%d is off the %dx%d board", x, y, b->size, b->size);
        return;
    }
    gmk_pos p = gmk_pos_xy(x, y);
    if (gmk_board_empty_at(&b->board, p)) {
        gmk_brain_reply(b, "ERROR %d,%d holds no stone", x, y);
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
    gmk_brain_reply(b, "OK");
}

/* Checks x,y for a stone of the side to move; writes ERROR and returns false if it cannot go
 * there. */
static bool placeable(gmk_brain *b, int x, int y, gmk_pos *out) {
    if (!gmk_xy_on_board(x, y, b->size)) {
        gmk_brain_reply(b, "ERROR %d,%d is off the %dx%d board", x, y, b->size, b->size);
        return false;
    }
    gmk_pos p = gmk_pos_xy(x, y);
    if (!gmk_board_empty_at(&b->board, p)) {
        gmk_brain_reply(b, "ERROR %d,%d is already taken", x, y);
        return false;
    }
    *out = p;
    return true;
}

static void show_forbid(gmk_brain *b) {
    gmk_pos pts[GMK_MAX_MOVES];
    int n = 0;
    if (b->rule == GMK_RULE_RENJU && gmk_board_side(&b->board) == GMK_BLACK)
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                gmk_pos p = gmk_pos_xy(x, y);
                if (gmk_rules_check_move(&b->board, p, NULL) == GMK_MOVE_FORBIDDEN) pts[n++] = p;
            }
    char line[8 + 4 * GMK_MAX_MOVES + 4];
    if (gmk_proto_format_forbid(pts, n, line, sizeof line) > 0) gmk_brain_reply(b, "%s", line);
}

static void command(gmk_brain *b, const gmk_brain_line *n) {
    gmk_proto_command c;
    char err[200];
    gmk_proto_status st = gmk_proto_parse(n->text, &c, err, sizeof err);
    if (st == GMK_PROTO_EMPTY) return;
    if (st == GMK_PROTO_UNKNOWN) {
        gmk_brain_reply(b, "UNKNOWN %s", err);
        return;
    }
    if (st == GMK_PROTO_MALFORMED) {
        gmk_brain_reply(b, "ERROR %s", err);
        return;
    }
    gmk_pos p;
    switch (c.kind) {
    case GMK_CMD_START:
    case GMK_CMD_RECTSTART: {
        int size = c.kind == GMK_CMD_START ? c.n : c.x;
        if (c.kind == GMK_CMD_RECTSTART && c.x != c.y) {
            gmk_brain_reply(b, "ERROR rectangular boards are not supported");
            return;
        }
        if (size < GMK_MIN_SIZE || size > GMK_MAX_SIZE) {
            gmk_brain_reply(b, "ERROR unsupported board size %d (%d-%d)", size, GMK_MIN_SIZE,
                            GMK_MAX_SIZE);
            return;
        }
        if (!gmk_brain_ensure_engine(b)) return;
        b->size = size;
        b->started = true;
        new_board(b);
        gmk_brain_reply(b, "OK");
        return;
    }
    case GMK_CMD_RESTART:
        if (!need_game(b)) return;
        new_board(b);
        gmk_brain_reply(b, "OK");
        return;
    case GMK_CMD_BEGIN:
        if (!need_game(b)) return;
        if (b->board.move_count != 0) {
            gmk_brain_reply(b, "ERROR BEGIN needs an empty board (%d stones; send RESTART first)",
                            b->board.move_count);
            return;
        }
        gmk_brain_engine_move(b, n->t_ms, 1);
        return;
    case GMK_CMD_TURN:
        if (!need_game(b) || !placeable(b, c.x, c.y, &p)) return;
        gmk_board_make(&b->board, p);
        gmk_brain_engine_move(b, n->t_ms, 1);
        return;
    case GMK_CMD_PLAY: {
        if (!need_game(b) || !placeable(b, c.x, c.y, &p)) return;
        if (gmk_rules_check_move(&b->board, p, NULL) != GMK_MOVE_LEGAL) {
            gmk_brain_reply(b, "ERROR %d,%d is forbidden for black", c.x, c.y);
            return;
        }
        char pt[8];
        gmk_proto_format_point(p, pt);
        gmk_board_make(&b->board, p);
        gmk_brain_reply(b, "%s", pt);
        return;
    }
    case GMK_CMD_BOARD: begin_collect(b, COLLECT_BOARD, n->t_ms); return;
    case GMK_CMD_YXBOARD: begin_collect(b, COLLECT_YXBOARD, n->t_ms); return;
    case GMK_CMD_SWAP2BOARD: begin_collect(b, COLLECT_SWAP2, n->t_ms); return;
    case GMK_CMD_DONE: gmk_brain_reply(b, "ERROR DONE without BOARD"); return;
    case GMK_CMD_END: b->quit = true; return;
    case GMK_CMD_ABOUT: {
        char line[300];
        if (gmk_proto_format_about(line, sizeof line) > 0) gmk_brain_reply(b, "%s", line);
        return;
    }
    case GMK_CMD_TAKEBACK:
        if (need_game(b)) takeback(b, c.x, c.y);
        return;
    case GMK_CMD_INFO: gmk_brain_info(b, &c); return;
    case GMK_CMD_STOP: return; /* nothing to stop */
    case GMK_CMD_SHOWFORBID:
        if (need_game(b)) show_forbid(b);
        return;
    case GMK_CMD_HASHCLEAR:
        if (b->engine) {
            gmk_brain_settle_engine(b);
            gmk_engine_clear(b->engine);
        }
        gmk_brain_reply(b, "MESSAGE hash cleared");
        return;
    case GMK_CMD_NBEST:
        if (need_game(b)) gmk_brain_engine_move(b, n->t_ms, c.n);
        return;
    case GMK_CMD_SHOWINFO:
        gmk_brain_reply(b, "MESSAGE INFO MAX_THREAD_NUM 1");
        gmk_brain_reply(b, "MESSAGE INFO MAX_HASH_SIZE 30");
        return;
    }
}

static void handle(gmk_brain *b, const gmk_brain_line *n) {
    if (b->collect != COLLECT_NONE) {
        collect_line(b, n);
        return;
    }
    if (n->too_long) {
        gmk_brain_reply(b, "ERROR line too long (more than %d bytes)", GMK_BRAIN_MAX_LINE);
        return;
    }
    if (n->has_nul) {
        gmk_brain_reply(b, "ERROR NUL byte in the line");
        return;
    }
    command(b, n);
}

/* Builds the other rules' pattern tables in the background (freestyle's are built at start),
 * so that a rule set just before a move does not spend the move's time on them. The thread
 * runs at the lowest priority, so that it never takes time from a search. */
static void *prebuild_tables(void *arg) {
    (void)arg;
    setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
    for (int r = GMK_RULE_FREESTYLE + 1; r < GMK_RULE_COUNT; r++)
        gmk_pattern_tables_for((gmk_rule)r);
    return NULL;
}

int gmk_brain_run(int in_fd, FILE *out) {
    return gmk_brain_run_with(in_fd, out, NULL);
}

int gmk_brain_run_with(int in_fd, FILE *out, const gmk_brain_options *opt) {
    gmk_brain *b = calloc(1, sizeof *b);
    if (!b) {
        fprintf(out, "ERROR out of memory\n");
        fflush(out);
        return 1;
    }
    if (opt) b->opt = *opt;
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
    b->set.threads = 1;
    b->seed = (uint64_t)gmk_brain_now_ms();
    gmk_board_init(&b->board, b->size, b->rule); /* builds freestyle's tables */
    pthread_t prebuild;
    if (pthread_create(&prebuild, NULL, prebuild_tables, NULL) == 0) pthread_detach(prebuild);
    if (!gmk_brain_input_start(b)) {
        gmk_brain_reply(b, "ERROR cannot start the input thread");
        free(b);
        return 1;
    }
    while (!b->quit) {
        gmk_brain_line *n = gmk_brain_input_pop(b);
        if (!n) break;
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
        int64_t until = gmk_brain_now_ms() + GMK_BRAIN_EXIT_GRACE_MS;
        while (!done && gmk_brain_now_ms() < until) {
            pthread_mutex_lock(&b->mu);
            done = b->search_done;
            pthread_mutex_unlock(&b->mu);
            if (!done) usleep(2000);
        }
        if (!done && !b->opt.free_at_exit) return 0;
        gmk_brain_settle_engine(b);
    }
    gmk_brain_input_stop(b);
    gmk_engine_free(b->engine);
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->mu);
    free(b);
    return 0;
}
