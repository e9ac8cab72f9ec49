/* eval_json.c: an evaluation as JSON for the page (game/evaltext.h): the raw score beside the
 * win rate of the side to move and of black, or who wins in how many moves when proved. The
 * page words it in its language. */
#include "game/evaltext.h"
#include "web_internal.h"

json_t *web_eval_json(gmk_rule rule, gmk_color to_move, int score) {
    gmk_eval_view v;
    gmk_eval_view_of(rule, to_move, score, &v);
    json_t *j = json_object();
    json_object_set_new(j, "score", json_integer(score));
    json_object_set_new(j, "winrate", json_integer(v.percent));
    json_object_set_new(j, "black_winrate", json_integer(v.black_percent));
    json_object_set_new(j, "proved", json_boolean(v.proved));
    json_object_set_new(j, "winner",
                        v.proved ? json_string(v.winner == GMK_BLACK ? "black" : "white")
                                 : json_null());
    json_object_set_new(j, "moves", v.proved ? json_integer(v.moves) : json_null());
    return j;
}
