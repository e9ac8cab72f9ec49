/* api_players.c: players in public (docs/http-api.md "Ratings and players"): the leaderboard of
 * a rule and time-control class, and a player's page (its ratings with their history, and its
 * recent online games). Read-only routes; names are looked up by their key (game/account.h),
 * so any case or normalisation of a name finds its player. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "game/account.h"
#include "game/rating.h"
#include "store/accounts.h"
#include "store/ratings.h"
#include "web/web_internal.h"

#define BOARD_MAX 100   /* leaderboard lines */
#define HISTORY_MAX 200 /* points of a rating's history */
#define RECENT_MAX 20   /* recent games on a player's page */

static const char *arg(web_request *rq, const char *key) {
    return MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, key);
}

static json_t *rating_json(const gmk_store_rating *r) {
    return json_pack("{s:s,s:s,s:i,s:i,s:b,s:i,s:i,s:i,s:i}", "rule",
                     gmk_rule_name((gmk_rule)r->rule), "tc", gmk_rating_tc_name((gmk_tc)r->tc),
                     "rating", (int)lround(r->rating), "deviation", (int)lround(r->deviation),
                     "provisional", gmk_rating_provisional(r->deviation), "games", r->games, "wins",
                     r->wins, "losses", r->losses, "draws", r->draws);
}

static enum MHD_Result leaderboard(web_request *rq) {
    gmk_rule rule = GMK_RULE_FREESTYLE;
    gmk_tc tc = GMK_TC_BLITZ;
    const char *r = arg(rq, "rule"), *t = arg(rq, "tc"), *p = arg(rq, "provisional");
    if (r && !gmk_rule_parse(r, &rule))
        return web_error(rq, 400, "rule must be freestyle, standard, renju or caro");
    if (t && !gmk_rating_tc_parse(t, &tc))
        return web_error(rq, 400, "tc must be bullet, blitz, rapid, classical or untimed");
    bool with_provisional = p && strcmp(p, "true") == 0;
    gmk_store_rating *rows = malloc(BOARD_MAX * sizeof *rows);
    if (!rows) return web_error(rq, 500, "out of memory");
    int n = 0;
    char err[256];
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_leaderboard(rq->web->store, (int)rule, (int)tc,
                                                with_provisional ? 1000 : GMK_RATING_PROVISIONAL_RD,
                                                rows, BOARD_MAX, &n, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st != GMK_STORE_OK) {
        free(rows);
        return web_error(rq, 500, err);
    }
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        json_t *o = rating_json(&rows[i]);
        json_object_set_new(o, "rank", json_integer(i + 1));
        json_object_set_new(o, "name", web_string(rows[i].name));
        json_array_append_new(list, o);
    }
    free(rows);
    return web_json(rq, 200,
                    json_pack("{s:s,s:s,s:o}", "rule", gmk_rule_name(rule), "tc",
                              gmk_rating_tc_name(tc), "players", list));
}

/* The player's recent online games, from its side. */
static json_t *recent_games(web_request *rq, int64_t account, const char *name, char *err,
                            size_t errlen, gmk_store_status *st) {
    enum { SCAN = 200 };
    gmk_store_game *games = malloc(SCAN * sizeof *games);
    json_t *list = json_array();
    if (!games) {
        *st = GMK_STORE_IO;
        snprintf(err, errlen, "out of memory");
        return list;
    }
    int n = 0;
    gmk_store_whose who = {.account = account};
    pthread_mutex_lock(&rq->web->store_mu);
    *st = gmk_store_game_list_of(rq->web->store, &who, games, SCAN, &n, err, errlen);
    pthread_mutex_unlock(&rq->web->store_mu);
    for (int i = 0, kept = 0; *st == GMK_STORE_OK && i < n && kept < RECENT_MAX; i++) {
        const gmk_store_game *g = &games[i];
        if (g->mode != GMK_STORE_MODE_ONLINE) continue; /* its own games stay its own */
        kept++;
        bool done = g->finished && !g->abandoned;
        json_array_append_new(
            list, json_pack("{s:I,s:s,s:i,s:o,s:o,s:I,s:i,s:o,s:o}", "id", (json_int_t)g->id,
                            "rule", gmk_rule_name(g->rule), "size", g->size, "black",
                            web_string(g->black), "white", web_string(g->white), "started",
                            (json_int_t)g->started_s, "moves", g->move_count, "outcome",
                            done ? json_string(gmk_outcome_name(g->outcome)) : json_null(), "color",
                            strcmp(g->black, name) == 0   ? json_string("black")
                            : strcmp(g->white, name) == 0 ? json_string("white")
                                                          : json_null()));
    }
    free(games);
    return list;
}

static enum MHD_Result player(web_request *rq) {
    const char *name = arg(rq, "name");
    char key[GMK_ACCOUNT_KEY_MAX], err[256];
    if (!name || !gmk_account_name_key(name, key, err, sizeof err))
        return web_error(rq, 404, "no such player");
    gmk_store_account a;
    gmk_store_rating ratings[GMK_RULE_COUNT * GMK_TC_COUNT];
    int n = 0;
    pthread_mutex_lock(&rq->web->store_mu);
    gmk_store_status st = gmk_store_account_find(rq->web->store, key, &a, NULL, err, sizeof err);
    if (st == GMK_STORE_OK)
        st = gmk_store_ratings_of(rq->web->store, a.id, ratings,
                                  (int)(sizeof ratings / sizeof ratings[0]), &n, err, sizeof err);
    pthread_mutex_unlock(&rq->web->store_mu);
    if (st == GMK_STORE_NOT_FOUND) return web_error(rq, 404, "no such player");
    if (st != GMK_STORE_OK) return web_error(rq, 500, err);
    gmk_store_rating_point *pts = malloc(HISTORY_MAX * sizeof *pts);
    if (!pts) return web_error(rq, 500, "out of memory");
    json_t *list = json_array();
    for (int i = 0; st == GMK_STORE_OK && i < n; i++) {
        int np = 0;
        pthread_mutex_lock(&rq->web->store_mu);
        st = gmk_store_rating_history(rq->web->store, a.id, ratings[i].rule, ratings[i].tc, pts,
                                      HISTORY_MAX, &np, err, sizeof err);
        pthread_mutex_unlock(&rq->web->store_mu);
        json_t *o = rating_json(&ratings[i]), *h = json_array();
        for (int k = 0; k < np; k++)
            json_array_append_new(
                h, json_pack("{s:I,s:I,s:i,s:i}", "game", (json_int_t)pts[k].game_id, "at",
                             (json_int_t)pts[k].at_s, "rating", (int)lround(pts[k].rating),
                             "deviation", (int)lround(pts[k].deviation)));
        json_object_set_new(o, "history", h);
        json_array_append_new(list, o);
    }
    free(pts);
    json_t *games =
        st == GMK_STORE_OK ? recent_games(rq, a.id, a.name, err, sizeof err, &st) : json_array();
    if (st != GMK_STORE_OK) {
        json_decref(list);
        json_decref(games);
        return web_error(rq, 500, err);
    }
    return web_json(rq, 200,
                    json_pack("{s:o,s:I,s:o,s:o}", "name", web_string(a.name), "created",
                              (json_int_t)a.created_s, "ratings", list, "games", games));
}

enum MHD_Result web_players_api(web_request *rq, bool *handled) {
    *handled = false;
    bool board = strcmp(rq->path, "/api/leaderboard") == 0;
    if (!board && strcmp(rq->path, "/api/player") != 0) return MHD_NO;
    *handled = true;
    if (strcmp(rq->method, "GET") != 0 && strcmp(rq->method, "HEAD") != 0)
        return web_error(rq, 405, "method not allowed on this route");
    return board ? leaderboard(rq) : player(rq);
}
