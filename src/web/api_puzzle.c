/* api_puzzle.c: puzzles on the web (docs/http-api.md "Puzzles"; game/puzzle.h): the shipped
 * set, a puzzle near the player's rating, the puzzle of the day, each move checked with the
 * opponent answering, a hint, and the player's Glicko-2 rating and streak kept in the store
 * under the browser's owner cookie. The server keeps no attempt in memory: each move carries
 * the moves made so far in the puzzle, replayed and checked again. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/puzzle.h"
#include "web_internal.h"

static json_t *puzzle_json(const gmk_puzzle *p) {
    json_t *moves = json_array();
    for (int i = 0; i < p->count; i++)
        json_array_append_new(moves, web_point_json(p->moves[i], 15));
    return json_pack("{s:i,s:s,s:i,s:s,s:i,s:s,s:i,s:o,s:s,s:i}", "id", p->id, "rule",
                     gmk_rule_name(p->rule), "size", 15, "kind", gmk_puzzle_kind_name(p->kind),
                     "length", p->length, "grade", gmk_puzzle_grade(p->length), "rating",
                     gmk_puzzle_rating(p), "moves", moves, "to_move",
                     p->count % 2 ? "white" : "black", "count", gmk_puzzle_count);
}

static void player_key(const web_request *rq, char *key, size_t cap) {
    char hex[2 * GMK_WEB_HASH_LEN + 1];
    sodium_bin2hex(hex, sizeof hex, rq->token_hash, GMK_WEB_HASH_LEN);
    snprintf(key, cap, "web:%.64s", hex);
}

/* The caller's rating (a new player's when it has none or no cookie). */
static void load_player(web_request *rq, gmk_store_puzzle_player *pl) {
    char key[GMK_STORE_PLAYER_MAX], err[256];
    player_key(rq, key, sizeof key);
    gmk_puzzle_player_new(pl, key);
    if (!rq->has_token || !rq->web->store) return;
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_puzzle_player_get(rq->web->store, key, pl, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
}

static json_t *player_json(const gmk_store_puzzle_player *pl) {
    return json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "rating", (int)(pl->rating + 0.5), "deviation",
                     (int)(pl->deviation + 0.5), "streak", pl->streak, "best_streak",
                     pl->best_streak, "solved", pl->solved, "failed", pl->failed);
}

static enum MHD_Result get_next(web_request *rq) {
    const char *kind = MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, "kind");
    const char *rule = MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, "rule");
    gmk_rule r = GMK_RULE_FREESTYLE;
    gmk_puzzle_kind k = GMK_PUZZLE_FOURS;
    bool any_kind = !kind || strcmp(kind, "any") == 0;
    if (!any_kind && !gmk_puzzle_kind_parse(kind, &k))
        return web_error(rq, 400, "kind must be any, fours, threes or defence");
    if (rule && strcmp(rule, "any") != 0 &&
        (!gmk_rule_parse(rule, &r) || (r != GMK_RULE_FREESTYLE && r != GMK_RULE_RENJU)))
        return web_error(rq, 400, "rule must be any, freestyle or renju");
    gmk_store_puzzle_player pl;
    load_player(rq, &pl);
    uint32_t random = 0;
    if (!web_random(&random, sizeof random)) random = (uint32_t)time(NULL);
    int kind_no = any_kind ? -1 : (int)k;
    int rule_no = !rule || strcmp(rule, "any") == 0 ? -1 : (int)r;
    int i = gmk_puzzle_pick(pl.rating, kind_no, rule_no, random);
    int n;
    const gmk_puzzle *all = gmk_puzzle_set(&n);
    if (i < 0 || !all) return web_error(rq, 404, "no puzzle of that kind");
    json_t *j = puzzle_json(&all[i]);
    json_object_set_new(j, "player", player_json(&pl));
    return web_json(rq, 200, j);
}

/* Replays the moves made so far in puzzle p (player's and replies) on b; false when they are
 * not a line of good moves with their replies. */
static bool replay(const gmk_puzzle *p, const json_t *made, gmk_board *b, char *err,
                   size_t errlen) {
    gmk_puzzle_board(p, b);
    gmk_pos moves[GMK_PUZZLE_MAX_SOLUTION];
    int count = 0;
    if (made && !json_is_null(made) && !web_parse_moves(made, 15, moves, &count, err, errlen))
        return false;
    if (count > GMK_PUZZLE_MAX_SOLUTION || count % 2) {
        snprintf(err, errlen, "moves must be pairs of the player's move and the reply");
        return false;
    }
    gmk_threat_ctx ctx;
    if (!gmk_threat_ctx_init(&ctx, 1 << 14)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = true;
    for (int i = 0; ok && i < count; i += 2) {
        gmk_pos reply;
        ok = gmk_puzzle_answer(p, b, &ctx, moves[i], &reply) == GMK_PUZZLE_GOOD &&
             reply == moves[i + 1];
    }
    gmk_threat_ctx_free(&ctx);
    if (!ok) snprintf(err, errlen, "moves are not a line of this puzzle");
    return ok;
}

static enum MHD_Result post_move(web_request *rq, const gmk_puzzle *p, bool hint) {
    enum MHD_Result res;
    json_t *body = web_body_json(rq, &res);
    if (!body) return res;
    char err[256];
    gmk_board *b = malloc(sizeof *b);
    if (!b) {
        json_decref(body);
        return web_error(rq, 500, "out of memory");
    }
    if (!replay(p, json_object_get(body, "moves"), b, err, sizeof err)) {
        json_decref(body);
        free(b);
        return web_error(rq, 400, err);
    }
    if (hint) {
        gmk_pos h = gmk_puzzle_hint(p, b);
        json_decref(body);
        free(b);
        return web_json(rq, 200, json_pack("{s:o}", "hint", web_point_json(h, 15)));
    }
    gmk_pos point;
    bool hinted = json_is_true(json_object_get(body, "hinted"));
    bool ok = web_parse_point(json_object_get(body, "point"), 15, &point);
    json_decref(body);
    if (!ok) {
        free(b);
        return web_error(rq, 400, "point must be a point on the board");
    }
    gmk_threat_ctx ctx;
    if (!gmk_threat_ctx_init(&ctx, 1 << 14)) {
        free(b);
        return web_error(rq, 500, "out of memory");
    }
    gmk_pos hint_before = gmk_puzzle_hint(p, b), reply = GMK_POS_NONE;
    gmk_puzzle_verdict v = gmk_puzzle_answer(p, b, &ctx, point, &reply);
    gmk_threat_ctx_free(&ctx);
    free(b);
    if (v == GMK_PUZZLE_ILLEGAL) return web_error(rq, 409, "that point cannot be played");
    static const char *const names[] = {"wrong", "good", "solved"};
    json_t *j = json_pack("{s:s,s:o}", "verdict", names[v], "reply", web_point_json(reply, 15));
    if (v == GMK_PUZZLE_WRONG) json_object_set_new(j, "solution", web_point_json(hint_before, 15));
    if (v != GMK_PUZZLE_GOOD && !hinted && rq->web->store) {
        enum MHD_Result res; /* the answer is stored: a write, counted per client */
        if (!limits_write_take(rq, &res)) {
            json_decref(j);
            return res;
        }
    }
    if (v != GMK_PUZZLE_GOOD && !hinted && rq->web->store && web_ensure_token(rq)) {
        gmk_store_puzzle_player pl;
        load_player(rq, &pl);
        gmk_puzzle_rate(&pl, gmk_puzzle_rating(p), v == GMK_PUZZLE_SOLVED);
        pthread_mutex_lock(&rq->web->store_mu);
        if (gmk_store_puzzle_player_put(rq->web->store, &pl, err, sizeof err) == GMK_STORE_OK)
            web_wrote(rq->web);
        pthread_mutex_unlock(&rq->web->store_mu);
        json_object_set_new(j, "player", player_json(&pl));
    }
    return web_json(rq, 200, j);
}

enum MHD_Result web_puzzle_api(web_request *rq, bool *handled) {
    *handled = strncmp(rq->path, "/api/puzzles/", 13) == 0;
    if (!*handled) return MHD_NO;
    int nall;
    const gmk_puzzle *all = gmk_puzzle_set(&nall);
    if (!all) return web_error(rq, 500, "out of memory");
    const char *rest = rq->path + 13;
    bool get = strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0;
    bool post = strcmp(rq->method, "POST") == 0;
    if (strcmp(rest, "next") == 0) return get ? get_next(rq) : web_error(rq, 405, "use GET");
    if (strcmp(rest, "me") == 0) {
        if (!get) return web_error(rq, 405, "use GET");
        gmk_store_puzzle_player pl;
        load_player(rq, &pl);
        return web_json(rq, 200, player_json(&pl));
    }
    if (strcmp(rest, "daily") == 0) {
        if (!get) return web_error(rq, 405, "use GET");
        int i = gmk_puzzle_of_day((long)(time(NULL) / 86400));
        if (i < 0 || i >= nall) return web_error(rq, 404, "no puzzles");
        json_t *j = puzzle_json(&all[i]);
        json_object_set_new(j, "daily", json_true());
        return web_json(rq, 200, j);
    }
    if (*rest < '1' || *rest > '9') return web_error(rq, 404, "no such puzzle");
    char *end;
    long long id = strtoll(rest, &end, 10);
    const gmk_puzzle *p = id > 0 && id < 1000000000 ? gmk_puzzle_by_id(id) : NULL;
    if (!p) return web_error(rq, 404, "no such puzzle");
    if (*end == '\0')
        return get ? web_json(rq, 200, puzzle_json(p)) : web_error(rq, 405, "use GET");
    if (strcmp(end, "/move") == 0)
        return post ? post_move(rq, p, false) : web_error(rq, 405, "use POST");
    if (strcmp(end, "/hint") == 0)
        return post ? post_move(rq, p, true) : web_error(rq, 405, "use POST");
    return web_error(rq, 404, "no such route");
}
