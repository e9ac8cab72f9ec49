/* review_json.c: a review as JSON, the same for `gomoku review --json` and the web API
 * (review.h; the fields are described in docs/http-api.md, "Game review"). */
#include <jansson.h>

#include "core/notation.h"
#include "game/review.h"
#include "game/review_json.h"

static json_t *point_json(gmk_pos p, int size) {
    char name[8];
    if (p == GMK_POS_NONE) return json_null();
    gmk_notation_point(p, size, name);
    return json_string(name);
}

json_t *gmk_review_json(const gmk_review *rv) {
    json_t *root = json_object();
    json_object_set_new(root, "rule", json_string(gmk_rule_name(rv->rule)));
    json_object_set_new(root, "size", json_integer(rv->size));
    json_object_set_new(root, "nodes", json_integer(rv->nodes));
    json_object_set_new(root, "complete", json_boolean(rv->complete));
    json_object_set_new(root, "searched", json_integer(rv->searched));
    json_object_set_new(root, "positions", json_integer(rv->positions));
    if (!rv->complete) return root;
    json_t *moves = json_array();
    for (int i = 0; i < rv->count; i++) {
        const gmk_review_move *m = &rv->move[i];
        json_t *pv = json_array();
        for (int k = 0; k < m->pv_len; k++)
            json_array_append_new(pv, point_json(m->pv[k], rv->size));
        json_t *j = json_object();
        json_object_set_new(j, "ply", json_integer(i + 1));
        json_object_set_new(j, "color", json_string(m->color == GMK_BLACK ? "black" : "white"));
        json_object_set_new(j, "move", point_json(m->played, rv->size));
        json_object_set_new(j, "label", json_string(gmk_review_label_name(m->label)));
        json_object_set_new(j, "best", point_json(m->best, rv->size));
        json_object_set_new(j, "line", pv);
        json_object_set_new(j, "before", json_integer(m->before));
        json_object_set_new(j, "after", json_integer(m->after));
        json_object_set_new(j, "lost", json_integer(m->lost));
        json_object_set_new(j, "black_after", json_integer(m->black_after));
        json_object_set_new(j, "score_best", json_integer(m->score_best));
        json_object_set_new(j, "score_played", json_integer(m->score_played));
        json_object_set_new(j, "turning", json_boolean(m->turning));
        json_array_append_new(moves, j);
    }
    json_object_set_new(root, "moves", moves);
    int counts[2][GMK_LABEL_COUNT];
    gmk_review_tally(rv, counts);
    json_t *summary = json_object();
    for (int c = 0; c < 2; c++) {
        json_t *side = json_object();
        for (int l = GMK_LABEL_BEST; l < GMK_LABEL_COUNT; l++)
            json_object_set_new(side, gmk_review_label_name((gmk_review_label)l),
                                json_integer(counts[c][l]));
        json_object_set_new(summary, c ? "white" : "black", side);
    }
    json_object_set_new(root, "summary", summary);
    return root;
}
