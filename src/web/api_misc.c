/* api_misc.c: the routes of docs/http-api.md that are not about one game: the configuration,
 * creating and listing games, the scoreboard, reading an uploaded record and analysing a
 * position on the engine pool. */
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "core/renju.h"
#include "game/level.h"
#include "game/rating.h"
#include "store/accounts.h"
#include "web/web_internal.h"

static enum MHD_Result get_config(web_request *rq) {
    json_t *j = json_object();
    json_t *rules = json_array();
    for (int r = 0; r < GMK_RULE_COUNT; r++)
        json_array_append_new(rules, json_string(gmk_rule_name((gmk_rule)r)));
    json_object_set_new(j, "rules", rules);
    json_object_set_new(j, "modes", json_pack("[ss]", "hvc", "hvh"));
    json_object_set_new(j, "sizes",
                        json_pack("{s:i,s:i,s:i}", "min", GMK_MIN_SIZE, "max", GMK_MAX_SIZE,
                                  "default", GMK_DEFAULT_SIZE));
    json_t *levels = json_array();
    for (int l = GMK_LEVEL_MIN; l <= gmk_level_count(); l++)
        json_array_append_new(levels, json_pack("{s:i,s:s,s:s,s:i}", "level", l, "name",
                                                gmk_level_name(l), "name_zh", gmk_level_name_zh(l),
                                                "rating", gmk_rating_of_level(l)));
    json_object_set_new(j, "levels", levels);
    gmk_game_config d = gmk_game_config_default();
    json_object_set_new(j, "defaults",
                        json_pack("{s:s,s:s,s:i,s:i,s:s}", "mode", "hvc", "rule",
                                  gmk_rule_name(d.rule), "size", d.size, "level", d.level, "human",
                                  web_color_name(d.human)));
    json_object_set_new(j, "lang", json_string(rq->web->opt.lang));
    json_object_set_new(j, "engines", json_integer(rq->web->opt.engines));
    return web_json(rq, 200, j);
}

/* An optional integer field within lo..hi. */
static bool int_field(json_t *body, const char *key, long lo, long hi, long dflt, long *out,
                      char *err, size_t errlen) {
    json_t *v = json_object_get(body, key);
    *out = dflt;
    if (!v || json_is_null(v)) return true;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        snprintf(err, errlen, "%s must be a number from %ld to %ld", key, lo, hi);
        return false;
    }
    *out = (long)json_integer_value(v);
    return true;
}

/* rule and size of a body (defaults: freestyle, 15). */
static bool rule_size(json_t *body, gmk_rule *rule, int *size, char *err, size_t errlen) {
    json_t *r = json_object_get(body, "rule");
    *rule = GMK_RULE_FREESTYLE;
    if (r && !json_is_null(r) &&
        (!json_is_string(r) || !gmk_rule_parse(json_string_value(r), rule))) {
        snprintf(err, errlen, "rule must be freestyle, standard, renju or caro");
        return false;
    }
    long s;
    if (!int_field(body, "size", GMK_MIN_SIZE, GMK_MAX_SIZE, GMK_DEFAULT_SIZE, &s, err, errlen))
        return false;
    *size = (int)s;
    return true;
}

static enum MHD_Result post_game(web_request *rq) {
    enum MHD_Result res;
    if (!limits_write_take(rq, &res)) return res; /* each game is a write (docs "Limits") */
    json_t *body = rq->body_len ? web_body_json(rq, &res) : json_object();
    if (!body) return res;
    char err[256];
    gmk_game_config cfg = gmk_game_config_default();
    int size;
    long level = GMK_LEVEL_DEFAULT;
    json_t *mode = json_object_get(body, "mode"), *human = json_object_get(body, "human");
    json_t *opening = json_object_get(body, "opening");
    bool ok = rule_size(body, &cfg.rule, &size, err, sizeof err) &&
              int_field(body, "level", GMK_LEVEL_MIN, gmk_level_count(), GMK_LEVEL_DEFAULT, &level,
                        err, sizeof err);
    cfg.size = size;
    cfg.level = (int)level;
    if (ok && mode && !json_is_null(mode)) {
        const char *m = json_is_string(mode) ? json_string_value(mode) : "";
        if (strcmp(m, "hvc") == 0) {
            cfg.mode = GMK_PLAY_HVC;
        } else if (strcmp(m, "hvh") == 0) {
            cfg.mode = GMK_PLAY_HVH;
        } else {
            snprintf(err, sizeof err, "mode must be hvc or hvh");
            ok = false;
        }
    }
    if (ok && human && !json_is_null(human)) {
        const char *h = json_is_string(human) ? json_string_value(human) : "";
        if (strcmp(h, "black") == 0) {
            cfg.human = GMK_BLACK;
        } else if (strcmp(h, "white") == 0) {
            cfg.human = GMK_WHITE;
        } else {
            snprintf(err, sizeof err, "human must be black or white");
            ok = false;
        }
    }
    if (ok && opening && !json_is_null(opening) &&
        (!json_is_string(opening) ||
         !gmk_opening_parse(json_string_value(opening), &cfg.opening))) {
        snprintf(err, sizeof err, "opening must be free, swap or swap2");
        ok = false;
    }
    gmk_pos *moves = malloc(GMK_MAX_MOVES * sizeof *moves);
    int count = 0;
    if (!moves) {
        snprintf(err, sizeof err, "out of memory");
        ok = false;
    }
    if (ok)
        ok = web_parse_moves(json_object_get(body, "moves"), size, moves, &count, err, sizeof err);
    json_decref(body);
    if (!ok) {
        free(moves);
        return web_error(rq, 400, err);
    }
    if (!web_ensure_token(rq)) {
        free(moves);
        return web_error(rq, 500, "cannot make an owner token");
    }
    bool signed_in = web_account(rq); /* before any lock: it takes the store's */
    unsigned status = 500;
    live_game *g =
        live_create(rq->web, &cfg, moves, count, rq->token_hash, &status, err, sizeof err);
    free(moves);
    if (!g) return web_error(rq, status, err);
    if (signed_in) { /* the game follows the account too (a guest's follows the browser) */
        pthread_mutex_lock(&rq->web->store_mu);
        if (gmk_store_account_link_game(rq->web->store, rq->account_id, g->id, GMK_EMPTY, NULL,
                                        0) == GMK_STORE_OK)
            web_wrote(rq->web);
        pthread_mutex_unlock(&rq->web->store_mu);
    }
    json_t *j = web_state_json(g, true);
    live_release(g);
    return web_json(rq, 201, j);
}

static json_t *nullable_string(const char *s) {
    return s && *s ? json_string(s) : json_null();
}

static const char *mode_key(gmk_store_mode m) {
    return m == GMK_STORE_MODE_HVH      ? "hvh"
           : m == GMK_STORE_MODE_CVC    ? "cvc"
           : m == GMK_STORE_MODE_ONLINE ? "online"
                                        : "hvc";
}

static enum MHD_Result list_games(web_request *rq) {
    const char *lim = MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, "limit");
    long limit = 100;
    if (lim) {
        char *end;
        limit = strtol(lim, &end, 10);
        if (*lim == '\0' || *end != '\0' || limit < 1 || limit > 500)
            return web_error(rq, 400, "limit must be a number from 1 to 500");
    }
    /* the caller's own games and the public ones (online games, which anyone may watch),
     * among the most recent LIST_WINDOW: another browser's games are its own (defect 9) */
    enum { LIST_WINDOW = 500 };
    gmk_store_game *games = malloc((size_t)LIST_WINDOW * sizeof *games);
    if (!games) return web_error(rq, 500, "out of memory");
    int n = 0, shown = 0;
    char err[256];
    json_t *list = json_array();
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st =
        gmk_store_game_list(rq->web->store, games, LIST_WINDOW, &n, err, sizeof err);
    for (int i = 0; st == GMK_STORE_OK && i < n && shown < limit; i++) {
        const gmk_store_game *g = &games[i];
        uint8_t owner[GMK_WEB_HASH_LEN];
        bool mine = rq->has_token &&
                    gmk_store_owner_get(rq->web->store, g->id, owner, NULL, 0) == GMK_STORE_OK &&
                    sodium_memcmp(owner, rq->token_hash, GMK_WEB_HASH_LEN) == 0;
        bool public = g->mode == GMK_STORE_MODE_ONLINE;
        if (!mine && !public) continue;
        shown++;
        bool done = g->finished && !g->abandoned;
        json_t *o = json_object();
        json_object_set_new(o, "id", json_integer(g->id));
        json_object_set_new(o, "mode", json_string(mode_key(g->mode)));
        json_object_set_new(o, "rule", json_string(gmk_rule_name(g->rule)));
        json_object_set_new(o, "size", json_integer(g->size));
        json_object_set_new(o, "level", json_integer(g->level));
        json_object_set_new(o, "human",
                            g->mode == GMK_STORE_MODE_HVC ? json_string(web_color_name(g->human))
                                                          : json_null());
        json_object_set_new(o, "black", json_string(g->black));
        json_object_set_new(o, "white", json_string(g->white));
        json_object_set_new(o, "started", json_integer(g->started_s));
        json_object_set_new(o, "ended", g->ended_s ? json_integer(g->ended_s) : json_null());
        json_object_set_new(o, "moves", json_integer(g->move_count));
        json_object_set_new(o, "finished", json_boolean(g->finished));
        json_object_set_new(o, "abandoned", json_boolean(g->abandoned));
        json_object_set_new(o, "outcome",
                            done ? json_string(gmk_outcome_name(g->outcome)) : json_null());
        json_object_set_new(o, "reason",
                            done ? nullable_string(web_reason_name(g->reason)) : json_null());
        json_object_set_new(o, "owner", json_boolean(mine));
        json_object_set_new(o, "public", json_boolean(public));
        json_array_append_new(list, o);
    }
    pthread_mutex_unlock(&rq->web->store_mu);
    free(games);
    if (st != GMK_STORE_OK) {
        json_decref(list);
        return web_error(rq, 500, err);
    }
    return web_json(rq, 200, json_pack("{s:o}", "games", list));
}

static enum MHD_Result get_stats(web_request *rq) {
    gmk_store_score rows[GMK_STORE_SCORE_MAX];
    int n = 0;
    char err[256];
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st =
        gmk_store_scoreboard(rq->web->store, rows, GMK_STORE_SCORE_MAX, &n, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) return web_error(rq, 500, err);
    json_t *lines = json_array();
    int total = 0;
    for (int i = 0; i < n; i++) {
        const gmk_store_score *r = &rows[i];
        total += r->games;
        json_array_append_new(
            lines, json_pack("{s:s,s:i,s:o,s:i,s:i,s:i,s:i,s:i,s:i}", "mode",
                             gmk_store_mode_name(r->mode), "level", r->level, "level_name",
                             gmk_level_valid(r->level) ? json_string(gmk_level_name(r->level))
                                                       : json_null(),
                             "games", r->games, "wins", r->wins, "losses", r->losses, "draws",
                             r->draws, "black_wins", r->black_wins, "white_wins", r->white_wins));
    }
    /* online games by seat: a name proves nothing (anyone may play as "Ann") */
    gmk_store_player_score *ps = malloc(64 * sizeof *ps);
    json_t *players = json_array();
    n = 0;
    if (!ps) snprintf(err, sizeof err, "out of memory");
    pthread_mutex_lock(&rq->web->store_mu);
    st = ps ? gmk_store_seat_scores(rq->web->store, ps, 64, &n, err, sizeof err) : GMK_STORE_IO;
    pthread_mutex_unlock(&rq->web->store_mu);
    for (int i = 0; st == GMK_STORE_OK && i < n; i++)
        json_array_append_new(players, json_pack("{s:s,s:i,s:i,s:i,s:i}", "name", ps[i].name,
                                                 "games", ps[i].games, "wins", ps[i].wins, "losses",
                                                 ps[i].losses, "draws", ps[i].draws));
    free(ps);
    if (st != GMK_STORE_OK) {
        json_decref(lines);
        json_decref(players);
        return web_error(rq, 500, err);
    }
    return web_json(
        rq, 200,
        json_pack("{s:o,s:i,s:o}", "lines", lines, "total", total, "online_players", players));
}

/* --- records ----------------------------------------------------------------------------- */

/* Reads and judges a record as gomoku import does: every move legal, none after the end. */
static bool read_record(const char *text, gmk_rule rule, int size, gmk_record *rec,
                        gmk_record_format *fmt, gmk_result *res, char *err, size_t errlen) {
    if (strncmp(text, "\xEF\xBB\xBF", 3) == 0) text += 3;
    while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n') text++;
    *fmt = gmk_record_detect(text);
    bool ok;
    switch (*fmt) {
    case GMK_RECORD_PSQ: ok = gmk_record_read_psq(text, rule, rec, err, errlen); break;
    case GMK_RECORD_SGF: ok = gmk_record_read_sgf(text, rule, NULL, rec, err, errlen); break;
    case GMK_RECORD_MOVES: ok = gmk_record_read_moves(text, size, rule, rec, err, errlen); break;
    default:
        snprintf(err, errlen,
                 "not a game record (PSQ starts with 'Piskvorky', SGF with '(', a "
                 "move string with a point such as h8)");
        return false;
    }
    if (!ok) return false;
    gmk_board *b = malloc(sizeof *b);
    if (!b || gmk_board_init(b, rec->size, rec->rule) != GMK_OK) {
        free(b);
        snprintf(err, errlen, "cannot set up the board");
        return false;
    }
    ok = true;
    for (int i = 0; ok && i < rec->count; i++) {
        char name[4];
        gmk_notation_point(rec->moves[i], rec->size, name);
        gmk_forbid_kind kind;
        gmk_move_verdict v = gmk_rules_check_move(b, rec->moves[i], &kind);
        if (i > 0) {
            gmk_rules_result_after_last(b, res);
            if (res->outcome != GMK_ONGOING) {
                snprintf(err, errlen, "move %d (%s) comes after the end of the game", i + 1, name);
                ok = false;
                break;
            }
        }
        if (v == GMK_MOVE_FORBIDDEN) {
            snprintf(err, errlen, "move %d (%s) is forbidden for black under renju rules (%s)",
                     i + 1, name, gmk_forbid_name(kind));
            ok = false;
        } else if (v != GMK_MOVE_LEGAL) {
            snprintf(err, errlen, "move %d (%s) is not a legal move", i + 1, name);
            ok = false;
        } else {
            gmk_board_make(b, rec->moves[i]);
        }
    }
    if (ok) gmk_rules_result(b, res, NULL);
    free(b);
    return ok;
}

static enum MHD_Result post_record(web_request *rq) {
    const char *ct = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "Content-Type");
    gmk_rule rule = GMK_RULE_FREESTYLE;
    int size = GMK_DEFAULT_SIZE;
    char err[256];
    json_t *body = NULL;
    const char *text;
    if (ct && strncasecmp(ct, "text/plain", 10) == 0) {
        text = rq->body ? rq->body : "";
        if (rq->body && strlen(rq->body) != rq->body_len)
            return web_error(rq, 400, "the record holds a NUL byte");
    } else {
        enum MHD_Result res;
        body = web_body_json(rq, &res);
        if (!body) return res;
        json_t *t = json_object_get(body, "text");
        if (!json_is_string(t) || !rule_size(body, &rule, &size, err, sizeof err)) {
            if (!json_is_string(t)) snprintf(err, sizeof err, "text must be the record");
            json_decref(body);
            return web_error(rq, 400, err);
        }
        text = json_string_value(t);
    }
    gmk_record *rec = malloc(sizeof *rec);
    if (!rec) {
        json_decref(body);
        return web_error(rq, 500, "out of memory");
    }
    gmk_record_format fmt;
    gmk_result res;
    bool ok = read_record(text, rule, size, rec, &fmt, &res, err, sizeof err);
    json_decref(body);
    if (!ok) {
        free(rec);
        return web_error(rq, 400, err);
    }
    json_t *moves = json_array();
    for (int i = 0; i < rec->count; i++)
        json_array_append_new(moves, web_point_json(rec->moves[i], rec->size));
    gmk_session_state st = {.over = res.outcome != GMK_ONGOING, .result = res};
    json_t *j = json_pack("{s:s,s:s,s:i,s:o,s:o,s:o,s:o}", "format",
                          fmt == GMK_RECORD_PSQ   ? "psq"
                          : fmt == GMK_RECORD_SGF ? "sgf"
                                                  : "moves",
                          "rule", gmk_rule_name(rec->rule), "size", rec->size, "moves", moves,
                          "black", web_string(rec->black), "white", web_string(rec->white),
                          "result", web_result_json(&st, rec->size));
    free(rec);
    return web_json(rq, 200, j);
}

/* --- analysis ------------------------------------------------------------------------------ */

static void format_score(int score, char *buf, size_t cap) {
    int plies;
    if (gmk_score_is_mate(score, &plies))
        snprintf(buf, cap, "%s in %d", score > 0 ? "win" : "loss", (plies + 1) / 2);
    else
        snprintf(buf, cap, "%+.2f", score / 100.0);
}

static json_t *pv_json(const gmk_line *l, int size) {
    json_t *a = json_array();
    for (int i = 0; i < l->pv_len && i < GMK_MAX_PV; i++)
        json_array_append_new(a, web_point_json(l->pv[i], size));
    return a;
}

typedef struct {
    web_request *rq;
    int size;
    gmk_rule rule;
    gmk_color to_move;
} analysis;

static void analysis_done(void *ctx, uint64_t tag, const gmk_search_result *r) {
    (void)tag;
    analysis *a = ctx;
    web_request *rq = a->rq;
    limits_conn_add(rq->web->analyses, &rq->client, web_now_ms(), -1);
    if (!r) {
        rq->wait_status = 503;
        rq->wait_reply = json_pack("{s:s}", "error", "the server is stopping");
    } else {
        char text[32];
        format_score(r->score, text, sizeof text);
        int plies;
        bool mate = gmk_score_is_mate(r->score, &plies);
        json_t *lines = json_array();
        for (int i = 0; i < r->nlines && i < GMK_MAX_NBEST; i++) {
            char t[32];
            format_score(r->lines[i].score, t, sizeof t);
            json_array_append_new(lines,
                                  json_pack("{s:o,s:s,s:i,s:o,s:o}", "move",
                                            web_point_json(r->lines[i].move, a->size), "eval", t,
                                            "score", r->lines[i].score, "pv",
                                            pv_json(&r->lines[i], a->size), "evaluation",
                                            web_eval_json(a->rule, a->to_move, r->lines[i].score)));
        }
        json_t *pv = r->nlines > 0 ? pv_json(&r->lines[0], a->size) : json_array();
        if (json_array_size(pv) == 0) json_array_append_new(pv, web_point_json(r->best, a->size));
        rq->wait_status = 200;
        rq->wait_reply = json_pack(
            "{s:o,s:s,s:i,s:o,s:i,s:I,s:I,s:o,s:o,s:o}", "best", web_point_json(r->best, a->size),
            "eval", text, "score", r->score, "mate_plies", mate ? json_integer(plies) : json_null(),
            "depth", r->depth, "nodes", (json_int_t)r->nodes, "time_ms", (json_int_t)r->time_ms,
            "pv", pv, "lines", lines, "evaluation", web_eval_json(a->rule, a->to_move, r->score));
    }
    free(a);
    rq->wait_state = 2;
    MHD_resume_connection(rq->conn);
}

static enum MHD_Result post_analyze(web_request *rq) {
    enum MHD_Result res;
    json_t *body = web_body_json(rq, &res);
    if (!body) return res;
    char err[256];
    gmk_rule rule;
    int size, count = 0;
    long nbest, time_ms;
    gmk_pos *moves = malloc(GMK_MAX_MOVES * sizeof *moves);
    bool ok = moves && rule_size(body, &rule, &size, err, sizeof err) &&
              int_field(body, "nbest", 1, 8, 1, &nbest, err, sizeof err) &&
              int_field(body, "time_ms", 50, 5000, 1000, &time_ms, err, sizeof err) &&
              web_parse_moves(json_object_get(body, "moves"), size, moves, &count, err, sizeof err);
    json_decref(body);
    if (!moves) return web_error(rq, 500, "out of memory");
    gmk_pool_job *job = ok ? calloc(1, sizeof *job) : NULL;
    if (ok && !job) snprintf(err, sizeof err, "out of memory");
    ok = ok && job && gmk_board_init(&job->board, size, rule) == GMK_OK;
    for (int i = 0; ok && i < count; i++) {
        gmk_result r;
        if (i > 0) gmk_rules_result_after_last(&job->board, &r);
        if ((i > 0 && r.outcome != GMK_ONGOING) ||
            gmk_rules_check_move(&job->board, moves[i], NULL) != GMK_MOVE_LEGAL) {
            snprintf(err, sizeof err, "move %d is not a legal move", i + 1);
            ok = false;
        } else {
            gmk_board_make(&job->board, moves[i]);
        }
    }
    free(moves);
    if (ok) {
        gmk_result r;
        gmk_rules_result(&job->board, &r, NULL);
        if (r.outcome != GMK_ONGOING) {
            snprintf(err, sizeof err, "the game is over");
            ok = false;
        }
    }
    analysis *a = ok ? malloc(sizeof *a) : NULL;
    if (!ok || !a) {
        free(job);
        free(a);
        return web_error(rq, ok ? 500 : 400, ok ? "out of memory" : err);
    }
    if (!limits_hold(rq->web->analyses, &rq->client, web_now_ms())) {
        free(job);
        free(a);
        return web_error(rq, 429,
                         "you have as many analyses running as one client may; wait for one "
                         "to finish");
    }
    if (!gmk_pool_reserve(rq->web->pool)) {
        limits_conn_add(rq->web->analyses, &rq->client, web_now_ms(), -1);
        free(job);
        free(a);
        return web_error(rq, 503, "the server is busy");
    }
    a->rq = rq;
    a->size = size;
    a->rule = rule;
    a->to_move = gmk_board_side(&job->board);
    job->limits.turn_ms = time_ms;
    job->limits.nbest = (int)nbest;
    gmk_level_add_threads(&job->limits, rq->web->opt.threads);
    job->done = analysis_done;
    job->ctx = a;
    rq->wait_state = 1;
    MHD_suspend_connection(rq->conn); /* analysis_done resumes it */
    if (!gmk_pool_submit_reserved(rq->web->pool, job)) {
        limits_conn_add(rq->web->analyses, &rq->client, web_now_ms(), -1);
        free(a);
        rq->wait_status = 503;
        rq->wait_reply = json_pack("{s:s}", "error", "the server is stopping");
        rq->wait_state = 2;
        MHD_resume_connection(rq->conn);
    }
    free(job);
    return MHD_YES;
}

enum MHD_Result web_api_misc(web_request *rq, bool *handled) {
    static const struct {
        const char *path, *method;
        enum MHD_Result (*fn)(web_request *);
    } routes[] = {
        {"/api/config", "GET", get_config},    {"/api/games", "GET", list_games},
        {"/api/games", "POST", post_game},     {"/api/stats", "GET", get_stats},
        {"/api/records", "POST", post_record}, {"/api/analyze", "POST", post_analyze},
    };
    bool path_known = false;
    *handled = true;
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (strcmp(rq->path, routes[i].path) != 0) continue;
        path_known = true;
        if (strcmp(rq->method, routes[i].method) == 0) return routes[i].fn(rq);
    }
    if (path_known) return web_error(rq, 405, "method not allowed on this route");
    *handled = false;
    return MHD_NO;
}
