/* session.c: a game being played (see session.h). */
#include "session.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/renju.h"
#include "level.h"
#include "session_internal.h"

/* --- small helpers ---------------------------------------------------------------------- */

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void put_err(char *err, size_t errlen, const char *fmt, const char *arg) {
    if (err && errlen) snprintf(err, errlen, fmt, arg);
}

static gmk_store_mode store_mode(const gmk_game_config *cfg) {
    if (cfg->online) return GMK_STORE_MODE_ONLINE;
    switch (cfg->mode) {
    case GMK_PLAY_HVH: return GMK_STORE_MODE_HVH;
    case GMK_PLAY_CVC: return GMK_STORE_MODE_CVC;
    default: return GMK_STORE_MODE_HVC;
    }
}

static gmk_play_mode play_mode(gmk_store_mode m) {
    switch (m) {
    case GMK_STORE_MODE_HVH:
    case GMK_STORE_MODE_ONLINE: return GMK_PLAY_HVH;
    case GMK_STORE_MODE_CVC: return GMK_PLAY_CVC;
    default: return GMK_PLAY_HVC;
    }
}

static gmk_color ply_color(const gmk_board *b, int ply) {
    return (gmk_color)b->stone[b->moves[ply]];
}

static bool computer_to_move(const gmk_session *s) {
    if (s->over) return false;
    if (s->phase != GMK_SWAP_NONE) return session_swap_computer_acts(s);
    switch (s->cfg.mode) {
    case GMK_PLAY_CVC: return true;
    case GMK_PLAY_HVC: return gmk_board_side(&s->board) != s->cfg.human;
    default: return false;
    }
}

static bool human_to_move(const gmk_session *s) {
    return !s->over && !computer_to_move(s) && !session_swap_choosing(s);
}

/* Records the first store failure and stops saving. */
void session_store_failed(gmk_session *s, const char *err) {
    if (!s->store) return;
    s->store = NULL;
    snprintf(s->store_msg, sizeof s->store_msg, "%s", err && *err ? err : "the store failed");
    s->store_msg_pending = true;
}

/* Makes sure the game has a row in the store. */
static bool ensure_saved_game(gmk_session *s) {
    if (!s->store) return false;
    if (s->game_id) return true;
    gmk_store_new_game g = {
        .mode = store_mode(&s->cfg),
        .rule = s->cfg.rule,
        .size = s->cfg.size,
        .level = s->cfg.mode == GMK_PLAY_HVH ? 0 : s->cfg.level,
        .black = s->black,
        .white = s->white,
        .human = s->cfg.mode == GMK_PLAY_HVC ? s->cfg.human : GMK_EMPTY,
        .started_s = s->started_s,
    };
    char err[MSG_LEN];
    if (gmk_store_game_begin(s->store, &g, &s->game_id, err, sizeof err) != GMK_STORE_OK) {
        s->game_id = 0;
        session_store_failed(s, err);
        return false;
    }
    return true;
}

static void save_move(gmk_session *s, gmk_pos p, int64_t time_ms) {
    if (!ensure_saved_game(s)) return;
    char err[MSG_LEN];
    if (gmk_store_game_add_move(s->store, s->game_id, s->board.move_count - 1, gmk_pos_x(p),
                                gmk_pos_y(p), time_ms, err, sizeof err) != GMK_STORE_OK)
        session_store_failed(s, err);
}

static void save_undo(gmk_session *s, int n) {
    if (!s->store || !s->game_id) return;
    char err[MSG_LEN];
    if (gmk_store_game_undo_moves(s->store, s->game_id, n, err, sizeof err) != GMK_STORE_OK)
        session_store_failed(s, err);
}

static void take_back_saved(gmk_session *s, int n) {
    if (!s->store || !s->game_id) return;
    char err[MSG_LEN];
    if (gmk_store_game_take_back(s->store, s->game_id, n, err, sizeof err) != GMK_STORE_OK)
        session_store_failed(s, err);
}

static void save_result(gmk_session *s) {
    if (!ensure_saved_game(s)) return;
    char err[MSG_LEN];
    if (gmk_store_game_finish(s->store, s->game_id, s->result.outcome, s->result.reason, 0, err,
                              sizeof err) != GMK_STORE_OK)
        session_store_failed(s, err);
}

/* --- the engine ------------------------------------------------------------------------- */

static void on_done(const gmk_search_result *r, void *ctx) {
    (void)r;
    gmk_session *s = ctx;
    if (s->opt.notify) s->opt.notify(s->opt.notify_ctx);
}

static void cap_limits(const gmk_session *s, gmk_limits *l) {
    if (s->opt.think_cap_ms > 0 && (l->turn_ms == 0 || l->turn_ms > s->opt.think_cap_ms))
        l->turn_ms = s->opt.think_cap_ms;
    gmk_level_add_threads(l, s->opt.threads);
}

static bool start_engine(gmk_session *s, think_kind kind) {
    if (s->opt.no_engine) return false;
    gmk_limits limits;
    const gmk_board *board = &s->board;
    if (kind == THINK_PROPOSE || kind == THINK_CHOOSE) {
        uint64_t seed = s->seed ^ ((uint64_t)(s->board.move_count + 1) * 0x9E3779B97F4A7C15ull);
        gmk_level_limits(s->cfg.level, s->cfg.top_level_ms, seed, &limits);
        kind = session_swap_search(s, &board, &limits);
    } else if (kind == THINK_MOVE) {
        uint64_t seed = s->seed ^ ((uint64_t)(s->board.move_count + 1) * 0x9E3779B97F4A7C15ull);
        gmk_level_limits(s->cfg.level, s->cfg.top_level_ms, seed, &limits);
    } else {
        gmk_level_hint_limits(s->cfg.level, s->cfg.top_level_ms, &limits);
    }
    cap_limits(s, &limits);
    if (s->opt.external_engine) { /* the caller runs it: see gmk_session_job */
        s->job_limits = limits;
        s->job_token++;
        s->think = kind;
        s->think_start_ms = now_ms();
        return true;
    }
    gmk_listener listener = {.on_iteration = NULL, .on_done = on_done, .ctx = s};
    gmk_engine_set_position(s->engine, board);
    if (!gmk_engine_start(s->engine, &limits, &listener)) return false;
    s->think = kind;
    s->think_start_ms = now_ms();
    return true;
}

/* Stops a search and forgets its result. */
void session_cancel_think(gmk_session *s) {
    if (s->think == THINK_NONE) return;
    if (s->opt.external_engine) {
        s->job_token++; /* a result that comes back now is stale */
        s->think = THINK_NONE;
        return;
    }
    gmk_engine_stop(s->engine);
    gmk_engine_wait(s->engine, NULL);
    s->think = THINK_NONE;
}

static void judge(gmk_session *s, int *ev) {
    gmk_rules_result_after_last(&s->board, &s->result);
    if (s->result.outcome == GMK_ONGOING) return;
    s->over = true;
    *ev |= GMK_EV_GAME_OVER;
}

/* Plays p (legal, or black's insisted foul) for the side to move and records it. */
void session_apply_move(gmk_session *s, gmk_pos p, bool record, int *ev) {
    int64_t t = now_ms();
    gmk_board_make(&s->board, p);
    s->hint = GMK_POS_NONE;
    *ev |= GMK_EV_MOVED;
    if (s->phase != GMK_SWAP_NONE) session_swap_after_stone(s);
    if (record) save_move(s, p, t - s->turn_start_ms);
    s->turn_start_ms = t;
    judge(s, ev);
    if (s->over && record) save_result(s);
}

/* Takes the result r of the finished search. */
static void take_result(gmk_session *s, const gmk_search_result *r, int *ev) {
    think_kind kind = s->think;
    s->think = THINK_NONE;
    if (s->opt.external_engine) s->job_token++;
    if (kind == THINK_PROPOSE || kind == THINK_CHOOSE) {
        session_swap_take(s, kind, r, ev);
        return;
    }
    gmk_pos p = r->best;
    if (p == GMK_POS_NONE || gmk_rules_check_move(&s->board, p, NULL) != GMK_MOVE_LEGAL)
        p = gmk_rules_fallback_move(&s->board);
    if (kind == THINK_HINT) {
        s->hint = p;
        s->hint_score = r->score;
        *ev |= GMK_EV_HINT;
        return;
    }
    /* none is left only when the rules have ended the game (gmk_rules_result: renju black
     * with every empty point forbidden is a draw), so the engine is not asked then */
    if (p != GMK_POS_NONE) session_apply_move(s, p, true, ev);
}

/* Waits for the engine's search and takes its result. */
static void finish_think(gmk_session *s, int *ev) {
    gmk_search_result r;
    gmk_engine_wait(s->engine, &r);
    take_result(s, &r, ev);
}

void session_maybe_think(gmk_session *s, int *ev) {
    if (s->think != THINK_NONE || !computer_to_move(s)) return;
    think_kind kind = s->phase == GMK_SWAP_PLACE3 ? THINK_PROPOSE
                      : s->phase != GMK_SWAP_NONE ? THINK_CHOOSE
                                                  : THINK_MOVE;
    if (start_engine(s, kind)) *ev |= GMK_EV_THINKING;
}

static void set_events(int *events, int ev) {
    if (events) *events = ev;
}

/* --- creating and configuring --------------------------------------------------------- */

static void copy_name(char *dst, const char *src, const char *dflt) {
    snprintf(dst, GMK_STORE_NAME_MAX, "%s", src ? src : dflt);
}

/* Sets up an empty game from a valid config (no store writes). */
static void reset_game(gmk_session *s, const gmk_game_config *cfg) {
    s->cfg = *cfg;
    if (s->cfg.mode != GMK_PLAY_HVC) s->cfg.human = GMK_EMPTY;
    if (!gmk_level_valid(s->cfg.level)) s->cfg.level = GMK_LEVEL_DEFAULT;
    bool black_human =
        cfg->mode == GMK_PLAY_HVH || (cfg->mode == GMK_PLAY_HVC && cfg->human == GMK_BLACK);
    bool white_human =
        cfg->mode == GMK_PLAY_HVH || (cfg->mode == GMK_PLAY_HVC && cfg->human == GMK_WHITE);
    copy_name(s->black, cfg->black, black_human ? "human" : "computer");
    copy_name(s->white, cfg->white, white_human ? "human" : "computer");
    s->cfg.black = s->black;
    s->cfg.white = s->white;
    gmk_board_init(&s->board, cfg->size, cfg->rule);
    s->over = false;
    memset(&s->result, 0, sizeof s->result);
    s->result.point = GMK_POS_NONE;
    s->resigned = GMK_EMPTY;
    s->game_id = 0;
    s->started_s = (int64_t)time(NULL);
    s->turn_start_ms = now_ms();
    s->redo_len = 0;
    s->redo_groups = 0;
    s->hint = GMK_POS_NONE;
    s->seed = s->opt.seed ? s->opt.seed : (uint64_t)now_ms() * 0x2545F4914F6CDD1Dull;
    session_swap_reset(s);
    s->opt.seed = s->opt.seed ? s->opt.seed + 1 : 0;
}

gmk_session_status gmk_session_create(gmk_store *store, const gmk_session_options *opts,
                                      gmk_session **out) {
    *out = NULL;
    gmk_session *s = calloc(1, sizeof *s);
    if (!s) return GMK_SESSION_NO_MEMORY;
    if (opts) s->opt = *opts;
    if (s->opt.cvc_pace_ms == 0) s->opt.cvc_pace_ms = DEFAULT_CVC_PACE_MS;
    if (!s->opt.no_engine && !s->opt.external_engine) {
        s->engine = gmk_engine_new(s->opt.engine_memory_bytes ? s->opt.engine_memory_bytes
                                                              : DEFAULT_ENGINE_MEMORY);
        if (!s->engine) {
            free(s);
            return GMK_SESSION_NO_MEMORY;
        }
    }
    s->store = store;
    s->store_given = store != NULL;
    gmk_game_config cfg = gmk_game_config_default();
    reset_game(s, &cfg);
    *out = s;
    return GMK_SESSION_OK;
}

void gmk_session_free(gmk_session *s) {
    if (!s) return;
    session_cancel_think(s);
    if (s->engine) gmk_engine_free(s->engine);
    free(s);
}

gmk_session_status gmk_session_new_game(gmk_session *s, const gmk_game_config *cfg, int *events,
                                        char *err, size_t errlen) {
    set_events(events, 0);
    if (!gmk_game_config_valid(cfg, err, errlen)) return GMK_SESSION_BAD_CONFIG;
    session_cancel_think(s);
    if (s->store && s->game_id && !s->over) {
        char e[MSG_LEN];
        if (gmk_store_game_abandon(s->store, s->game_id, 0, e, sizeof e) != GMK_STORE_OK)
            session_store_failed(s, e);
    }
    reset_game(s, cfg);
    int ev = 0;
    session_maybe_think(s, &ev);
    set_events(events, ev);
    return GMK_SESSION_OK;
}

/* --- resuming --------------------------------------------------------------------------- */

gmk_session_status gmk_session_find_unfinished(gmk_session *s, gmk_store_game *out, char *err,
                                               size_t errlen) {
    if (!s->store) {
        put_err(err, errlen, "%s", "no game store");
        return GMK_SESSION_NOT_FOUND;
    }
    gmk_store_status st = gmk_store_game_find_unfinished(s->store, &s->record, err, errlen);
    if (st == GMK_STORE_NOT_FOUND) return GMK_SESSION_NOT_FOUND;
    if (st != GMK_STORE_OK) return GMK_SESSION_STORE;
    if (s->record.game.move_count == 0 && s->record.game.id != s->game_id) {
        /* nothing to resume: forget it quietly */
        gmk_store_game_abandon(s->store, s->record.game.id, 0, NULL, 0);
        return GMK_SESSION_NOT_FOUND;
    }
    if (out) *out = s->record.game;
    return GMK_SESSION_OK;
}

/* Plays the game in s->record (just loaded): an unfinished one goes on (moves the rules refuse
 * are dropped from the store), a finished one is shown over with its stored result. */
static gmk_session_status open_record(gmk_session *s, int64_t top_level_ms, int *events, char *err,
                                      size_t errlen) {
    const gmk_store_game *g = &s->record.game;
    gmk_game_config cfg = {
        .mode = play_mode(g->mode),
        .online = g->mode == GMK_STORE_MODE_ONLINE,
        .human = g->human == GMK_WHITE ? GMK_WHITE : GMK_BLACK,
        .rule = g->rule,
        .size = g->size,
        .level = gmk_level_valid(g->level) ? g->level : GMK_LEVEL_DEFAULT,
        .top_level_ms = top_level_ms,
        .black = g->black,
        .white = g->white,
    };
    if (!gmk_game_config_valid(&cfg, err, errlen)) return GMK_SESSION_BAD_CONFIG;
    session_cancel_think(s);
    /* reset_game copies the names before s->record is used again */
    reset_game(s, &cfg);
    s->game_id = g->id;
    s->started_s = g->started_s;
    int ev = GMK_EV_MOVED, kept = 0;
    for (int i = 0; i < g->move_count && !s->over; i++) {
        const gmk_store_move *m = &s->record.moves[i];
        if (!gmk_xy_on_board(m->x, m->y, s->board.size)) break;
        gmk_pos p = gmk_pos_xy(m->x, m->y);
        gmk_move_verdict v = gmk_rules_check_move(&s->board, p, NULL);
        if (v != GMK_MOVE_LEGAL && v != GMK_MOVE_FORBIDDEN) break;
        gmk_board_make(&s->board, p);
        kept++;
        judge(s, &ev);
    }
    if (g->finished) { /* as stored: nothing is written, and the store's result stands */
        if (!s->over || s->result.outcome != g->outcome || s->result.reason != g->reason) {
            memset(&s->result, 0, sizeof s->result);
            s->result.outcome = g->outcome; /* GMK_ONGOING when abandoned */
            s->result.reason = g->reason;
            s->result.point = GMK_POS_NONE;
        }
        if (g->reason == GMK_REASON_RESIGN) /* the loser resigned */
            s->resigned = g->outcome == GMK_BLACK_WINS ? GMK_WHITE : GMK_BLACK;
        s->over = true;
        set_events(events, ev & ~GMK_EV_GAME_OVER); /* it ended before: not news */
        return GMK_SESSION_OK;
    }
    if (kept < g->move_count) save_undo(s, g->move_count - kept);
    if (s->over) save_result(s);
    s->turn_start_ms = now_ms();
    session_maybe_think(s, &ev);
    set_events(events, ev);
    return GMK_SESSION_OK;
}

gmk_session_status gmk_session_resume(gmk_session *s, int64_t top_level_ms, int *events, char *err,
                                      size_t errlen) {
    set_events(events, 0);
    gmk_session_status st = gmk_session_find_unfinished(s, NULL, err, errlen);
    if (st != GMK_SESSION_OK) return st;
    return open_record(s, top_level_ms, events, err, errlen);
}

gmk_session_status gmk_session_open(gmk_session *s, int64_t id, int64_t top_level_ms, int *events,
                                    char *err, size_t errlen) {
    set_events(events, 0);
    if (!s->store) {
        put_err(err, errlen, "%s", "no game store");
        return GMK_SESSION_STORE;
    }
    gmk_store_status st = gmk_store_game_load(s->store, id, &s->record, err, errlen);
    if (st == GMK_STORE_NOT_FOUND) return GMK_SESSION_NOT_FOUND;
    if (st != GMK_STORE_OK) return GMK_SESSION_STORE;
    return open_record(s, top_level_ms, events, err, errlen);
}

gmk_session_status gmk_session_discard_unfinished(gmk_session *s, char *err, size_t errlen) {
    gmk_session_status st = gmk_session_find_unfinished(s, NULL, err, errlen);
    if (st != GMK_SESSION_OK) return st;
    if (gmk_store_game_abandon(s->store, s->record.game.id, 0, err, errlen) != GMK_STORE_OK)
        return GMK_SESSION_STORE;
    return GMK_SESSION_OK;
}

/* --- playing ---------------------------------------------------------------------------- */

gmk_play_verdict gmk_session_check(const gmk_session *s, gmk_pos p, gmk_forbid_kind *kind) {
    if (kind) *kind = GMK_FORBID_NONE;
    if (s->over) return GMK_PLAY_GAME_OVER;
    if (session_swap_choosing(s) && !computer_to_move(s)) return GMK_PLAY_CHOOSE;
    if (!human_to_move(s)) return GMK_PLAY_NOT_YOUR_TURN;
    switch (gmk_rules_check_move(&s->board, p, kind)) {
    case GMK_MOVE_LEGAL: return GMK_PLAY_OK;
    case GMK_MOVE_OFF_BOARD: return GMK_PLAY_OFF_BOARD;
    case GMK_MOVE_OCCUPIED: return GMK_PLAY_OCCUPIED;
    case GMK_MOVE_FORBIDDEN: return GMK_PLAY_FORBIDDEN;
    default: return GMK_PLAY_GAME_OVER;
    }
}

gmk_play_verdict gmk_session_play(gmk_session *s, gmk_pos p, bool insist, gmk_forbid_kind *kind,
                                  int *events) {
    set_events(events, 0);
    gmk_play_verdict v = gmk_session_check(s, p, kind);
    if (v != GMK_PLAY_OK && !(v == GMK_PLAY_FORBIDDEN && insist)) return v;
    session_cancel_think(s); /* a hint in progress */
    s->redo_len = 0;
    s->redo_groups = 0;
    int ev = 0;
    session_apply_move(s, p, true, &ev);
    session_maybe_think(s, &ev);
    set_events(events, ev);
    return GMK_PLAY_OK;
}

int gmk_session_poll(gmk_session *s) {
    int ev = 0;
    if (s->think != THINK_NONE && !s->opt.external_engine && !gmk_engine_is_thinking(s->engine)) {
        bool wait_pace = s->think == THINK_MOVE && s->cfg.mode == GMK_PLAY_CVC &&
                         s->opt.cvc_pace_ms > 0 &&
                         now_ms() - s->think_start_ms < s->opt.cvc_pace_ms;
        if (!wait_pace) finish_think(s, &ev);
    }
    session_maybe_think(s, &ev);
    return ev;
}

int gmk_session_move_now(gmk_session *s) {
    if (s->think == THINK_NONE || s->opt.external_engine) return 0;
    int ev = 0;
    gmk_engine_stop(s->engine);
    finish_think(s, &ev);
    session_maybe_think(s, &ev);
    return ev;
}

bool gmk_session_hint(gmk_session *s, int *events) {
    set_events(events, 0);
    if (s->think == THINK_HINT) return true;
    if (s->think != THINK_NONE || !human_to_move(s)) return false;
    return start_engine(s, THINK_HINT);
}

/* How many moves an undo takes back now (0: none). */
static int undo_count(const gmk_session *s) {
    if (s->cfg.mode == GMK_PLAY_CVC || s->phase != GMK_SWAP_NONE) return 0;
    /* after the end only against the computer, and only a game that ended with a result */
    if (s->over && (s->cfg.mode != GMK_PLAY_HVC || s->result.outcome == GMK_ONGOING)) return 0;
    const gmk_board *b = &s->board;
    /* never back into a swap opening: its colours were chosen on those stones */
    if (s->cfg.mode == GMK_PLAY_HVH) return b->move_count > s->settled_at ? 1 : 0;
    for (int i = b->move_count - 1; i >= s->settled_at; i--)
        if (ply_color(b, i) == s->cfg.human) return b->move_count - i;
    return 0;
}

bool gmk_session_can_undo(const gmk_session *s) {
    return undo_count(s) > 0;
}

bool gmk_session_can_redo(const gmk_session *s) {
    return !s->over && s->cfg.mode != GMK_PLAY_CVC && s->redo_groups > 0;
}

bool gmk_session_undo(gmk_session *s, int *events) {
    set_events(events, 0);
    int n = undo_count(s);
    if (n == 0) return false;
    session_cancel_think(s);
    for (int i = 0; i < n; i++) {
        s->redo[s->redo_len++] = gmk_board_last(&s->board);
        gmk_board_undo(&s->board);
    }
    s->redo_group[s->redo_groups++] = n;
    if (s->over) { /* a take-back after the end: the game is on again, its result withdrawn */
        take_back_saved(s, n);
        s->over = false;
        memset(&s->result, 0, sizeof s->result);
        s->result.point = GMK_POS_NONE;
        s->resigned = GMK_EMPTY;
    } else {
        save_undo(s, n);
    }
    s->hint = GMK_POS_NONE;
    s->turn_start_ms = now_ms();
    int ev = GMK_EV_MOVED;
    session_maybe_think(s, &ev);
    set_events(events, ev);
    return true;
}

bool gmk_session_redo(gmk_session *s, int *events) {
    set_events(events, 0);
    if (!gmk_session_can_redo(s)) return false;
    session_cancel_think(s);
    int n = s->redo_group[--s->redo_groups];
    int ev = 0;
    for (int i = 0; i < n && !s->over; i++) {
        gmk_pos p = s->redo[--s->redo_len];
        if (gmk_rules_check_move(&s->board, p, NULL) == GMK_MOVE_OFF_BOARD ||
            !gmk_board_empty_at(&s->board, p))
            break;
        s->turn_start_ms = now_ms();
        session_apply_move(s, p, true, &ev);
    }
    session_maybe_think(s, &ev);
    set_events(events, ev);
    return true;
}

bool gmk_session_resign(gmk_session *s, int *events) {
    set_events(events, 0);
    if (s->over || s->cfg.mode == GMK_PLAY_CVC || s->phase != GMK_SWAP_NONE) return false;
    session_cancel_think(s);
    gmk_color who = s->cfg.mode == GMK_PLAY_HVC ? s->cfg.human : gmk_board_side(&s->board);
    memset(&s->result, 0, sizeof s->result);
    s->result.outcome = who == GMK_BLACK ? GMK_WHITE_WINS : GMK_BLACK_WINS;
    s->result.reason = GMK_REASON_RESIGN;
    s->result.point = GMK_POS_NONE;
    s->resigned = who;
    s->over = true;
    s->hint = GMK_POS_NONE;
    save_result(s);
    set_events(events, GMK_EV_GAME_OVER);
    return true;
}

/* --- front ends that serve many games ----------------------------------------------------- */

bool gmk_session_pending_job(const gmk_session *s, gmk_session_job *out) {
    if (!s->opt.external_engine || s->think == THINK_NONE) return false;
    if (!out) return true;
    out->token = s->job_token;
    out->hint = s->think == THINK_HINT;
    out->board = s->think == THINK_PROPOSE ? s->search_board : s->board;
    out->limits = s->job_limits;
    return true;
}

int gmk_session_job_done(gmk_session *s, uint64_t token, const gmk_search_result *r) {
    if (!s->opt.external_engine || s->think == THINK_NONE || token != s->job_token) return 0;
    int ev = 0;
    take_result(s, r, &ev);
    session_maybe_think(s, &ev);
    return ev;
}

gmk_session_status gmk_session_save(gmk_session *s, int64_t *id, char *err, size_t errlen) {
    if (!ensure_saved_game(s)) {
        put_err(err, errlen, "%s", s->store_msg[0] ? s->store_msg : "no game store");
        return GMK_SESSION_STORE;
    }
    if (id) *id = s->game_id;
    return GMK_SESSION_OK;
}

gmk_session_status gmk_session_setup(gmk_session *s, const gmk_pos *moves, int count, int *events,
                                     char *err, size_t errlen) {
    set_events(events, 0);
    if (s->board.move_count != 0 || count < 0 || count > s->board.size * s->board.size) {
        put_err(err, errlen, "%s", "a position can only be set up on an empty board");
        return GMK_SESSION_BAD_CONFIG;
    }
    if (count > 0 && s->phase != GMK_SWAP_NONE) {
        put_err(err, errlen, "%s", "a swap opening starts from an empty board");
        return GMK_SESSION_BAD_CONFIG;
    }
    /* check everything on a copy first, so that a bad list plays nothing */
    gmk_board *b = malloc(sizeof *b);
    if (!b) return GMK_SESSION_NO_MEMORY;
    *b = s->board;
    for (int i = 0; i < count; i++) {
        gmk_result r;
        gmk_move_verdict v = gmk_rules_check_move(b, moves[i], NULL);
        if (i > 0) gmk_rules_result_after_last(b, &r);
        if (i > 0 && r.outcome != GMK_ONGOING) {
            if (err && errlen)
                snprintf(err, errlen, "move %d comes after the end of the game", i + 1);
            free(b);
            return GMK_SESSION_BAD_CONFIG;
        }
        if (v != GMK_MOVE_LEGAL && v != GMK_MOVE_FORBIDDEN) {
            if (err && errlen) snprintf(err, errlen, "move %d is not a legal move", i + 1);
            free(b);
            return GMK_SESSION_BAD_CONFIG;
        }
        gmk_board_make(b, moves[i]);
    }
    free(b);
    session_cancel_think(s);
    int ev = 0;
    for (int i = 0; i < count && !s->over; i++) session_apply_move(s, moves[i], true, &ev);
    session_maybe_think(s, &ev);
    set_events(events, ev);
    return GMK_SESSION_OK;
}

bool gmk_session_end(gmk_session *s, gmk_outcome outcome, gmk_reason reason, int *events) {
    set_events(events, 0);
    if (s->over) return false;
    if (outcome != GMK_BLACK_WINS && outcome != GMK_WHITE_WINS && outcome != GMK_DRAW) return false;
    if (reason != GMK_REASON_TIME && reason != GMK_REASON_AGREEMENT &&
        reason != GMK_REASON_ABANDON && reason != GMK_REASON_RESIGN)
        return false;
    if (reason == GMK_REASON_AGREEMENT ? outcome != GMK_DRAW : outcome == GMK_DRAW) return false;
    session_cancel_think(s);
    memset(&s->result, 0, sizeof s->result);
    s->result.outcome = outcome;
    s->result.reason = reason;
    s->result.point = GMK_POS_NONE;
    if (reason == GMK_REASON_RESIGN)
        s->resigned = outcome == GMK_BLACK_WINS ? GMK_WHITE : GMK_BLACK;
    s->over = true;
    s->hint = GMK_POS_NONE;
    save_result(s);
    set_events(events, GMK_EV_GAME_OVER);
    return true;
}

/* --- reading the state ------------------------------------------------------------------ */

void gmk_session_get_state(const gmk_session *s, gmk_session_state *out) {
    memset(out, 0, sizeof *out);
    out->mode = s->cfg.mode;
    out->human = s->cfg.mode == GMK_PLAY_HVC ? s->cfg.human : GMK_EMPTY;
    out->rule = s->cfg.rule;
    out->size = s->cfg.size;
    out->level = s->cfg.level;
    out->to_move = gmk_board_side(&s->board);
    out->human_to_move = human_to_move(s);
    out->thinking = s->think != THINK_NONE && s->think != THINK_HINT;
    out->opening = s->cfg.opening;
    out->phase = s->phase;
    out->human_chooses = !s->over && session_swap_choosing(s) && !computer_to_move(s);
    out->human_first = s->cfg.mode == GMK_PLAY_HVC && s->phase != GMK_SWAP_NONE && s->human_first;
    out->hinting = s->think == THINK_HINT;
    out->thinking_ms = s->think != THINK_NONE ? now_ms() - s->think_start_ms : 0;
    out->hint = s->hint;
    out->hint_score = s->hint_score;
    out->over = s->over;
    out->result = s->result;
    out->resigned = s->resigned;
    out->can_undo = gmk_session_can_undo(s);
    out->can_redo = gmk_session_can_redo(s);
    out->game_id = s->game_id;
    out->saving = s->store != NULL;
}

const gmk_board *gmk_session_board(const gmk_session *s) {
    return &s->board;
}

int gmk_session_forbidden_points(const gmk_session *s, gmk_pos *points, gmk_forbid_kind *kinds,
                                 int cap) {
    const gmk_board *b = &s->board;
    if (b->rule != GMK_RULE_RENJU || gmk_board_side(b) != GMK_BLACK || !human_to_move(s)) return 0;
    int n = 0;
    for (int y = 0; y < b->size && n < cap; y++)
        for (int x = 0; x < b->size && n < cap; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (!gmk_board_empty_at(b, p)) continue;
            gmk_forbid_kind k = gmk_renju_forbidden(b, p);
            if (!gmk_forbid_is_foul(k)) continue;
            points[n] = p;
            if (kinds) kinds[n] = k;
            n++;
        }
    return n;
}

gmk_session_status gmk_session_scoreboard(gmk_session *s, gmk_store_score *out, int cap, int *count,
                                          char *err, size_t errlen) {
    *count = 0;
    if (!s->store) {
        put_err(err, errlen, "%s", s->store_given ? "the game store failed" : "no game store");
        return GMK_SESSION_STORE;
    }
    if (gmk_store_scoreboard(s->store, out, cap, count, err, errlen) != GMK_STORE_OK)
        return GMK_SESSION_STORE;
    return GMK_SESSION_OK;
}

bool gmk_session_setting_get(gmk_session *s, const char *key, char *value, size_t valuelen) {
    if (!s->store) return false;
    return gmk_store_setting_get(s->store, key, value, valuelen, NULL, 0) == GMK_STORE_OK;
}

bool gmk_session_setting_set(gmk_session *s, const char *key, const char *value) {
    if (!s->store) return false;
    char err[MSG_LEN];
    gmk_store_status st = gmk_store_setting_set(s->store, key, value, err, sizeof err);
    if (st == GMK_STORE_OK) return true;
    if (st != GMK_STORE_INVALID) session_store_failed(s, err);
    return false;
}

bool gmk_session_take_store_message(gmk_session *s, char *buf, size_t buflen) {
    if (!s->store_msg_pending) return false;
    s->store_msg_pending = false;
    snprintf(buf, buflen, "%s", s->store_msg);
    return true;
}

void gmk_session_stop_saving(gmk_session *s) {
    s->store = NULL;
}

gmk_play_verdict gmk_session_play_stored(gmk_session *s, gmk_pos p, int *events) {
    set_events(events, 0);
    gmk_play_verdict v = gmk_session_check(s, p, NULL);
    if (v != GMK_PLAY_OK && v != GMK_PLAY_FORBIDDEN) return v;
    session_cancel_think(s);
    s->redo_len = 0;
    s->redo_groups = 0;
    int ev = 0;
    session_apply_move(s, p, false, &ev);
    set_events(events, ev);
    return GMK_PLAY_OK;
}
