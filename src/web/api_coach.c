/* api_coach.c: POST /api/coach, the coach's sentences for a position (game/coach.h,
 * docs/http-api.md "Coach"). The threat solvers it runs are bounded by node counts (a few tens
 * of milliseconds), so it answers on the HTTP thread without the engine pool. */
#include <stdlib.h>
#include <string.h>

#include "game/coach.h"
#include "web_internal.h"

enum { COACH_TEXT = 8192 };

static enum MHD_Result post_coach(web_request *rq) {
    enum MHD_Result res;
    json_t *body = web_body_json(rq, &res);
    if (!body) return res;
    char err[256] = "";
    gmk_rule rule = GMK_RULE_FREESTYLE;
    json_int_t size = 15;
    const char *rule_text = json_string_value(json_object_get(body, "rule"));
    const char *lang = json_string_value(json_object_get(body, "lang"));
    const char *what = json_string_value(json_object_get(body, "what"));
    json_t *sz = json_object_get(body, "size");
    bool ok = true;
    if (rule_text && !gmk_rule_parse(rule_text, &rule)) {
        snprintf(err, sizeof err, "unknown rule");
        ok = false;
    }
    if (ok && sz) {
        size = json_is_integer(sz) ? json_integer_value(sz) : 0;
        if (size < GMK_MIN_SIZE || size > GMK_MAX_SIZE) {
            snprintf(err, sizeof err, "size must be %d to %d", GMK_MIN_SIZE, GMK_MAX_SIZE);
            ok = false;
        }
    }
    if (ok && lang && strcmp(lang, "en") != 0 && strcmp(lang, "zh") != 0) {
        snprintf(err, sizeof err, "lang must be en or zh");
        ok = false;
    }
    if (ok && !what) what = "position";
    if (ok && strcmp(what, "position") != 0 && strcmp(what, "last") != 0 &&
        strcmp(what, "forbidden") != 0) {
        snprintf(err, sizeof err, "what must be position, last or forbidden");
        ok = false;
    }
    gmk_board *b = ok ? malloc(sizeof *b) : NULL;
    gmk_pos *moves = ok ? malloc(GMK_MAX_MOVES * sizeof *moves) : NULL;
    int count = 0;
    if (ok && (!b || !moves)) {
        snprintf(err, sizeof err, "out of memory");
        ok = false;
    }
    ok = ok &&
         web_parse_moves(json_object_get(body, "moves"), (int)size, moves, &count, err, sizeof err);
    ok = ok && gmk_board_init(b, (int)size, rule) == GMK_OK;
    for (int i = 0; ok && i < count; i++) {
        gmk_result r;
        if (i > 0) gmk_rules_result_after_last(b, &r);
        gmk_move_verdict v = gmk_rules_check_move(b, moves[i], NULL);
        bool last_foul = v == GMK_MOVE_FORBIDDEN && i == count - 1;
        if ((i > 0 && r.outcome != GMK_ONGOING) || (v != GMK_MOVE_LEGAL && !last_foul)) {
            snprintf(err, sizeof err, "move %d is not a legal move", i + 1);
            ok = false;
        } else {
            gmk_board_make(b, moves[i]);
        }
    }
    gmk_pos p = GMK_POS_NONE;
    if (ok && strcmp(what, "forbidden") == 0 &&
        !web_parse_point(json_object_get(body, "point"), (int)size, &p)) {
        snprintf(err, sizeof err, "point must be a point on the board");
        ok = false;
    }
    bool zh = ok && lang && strcmp(lang, "zh") == 0;
    char *text = ok ? malloc(COACH_TEXT) : NULL;
    if (ok && !text) {
        snprintf(err, sizeof err, "out of memory");
        ok = false;
    }
    json_t *reply = NULL;
    if (ok) {
        if (strcmp(what, "forbidden") == 0)
            gmk_coach_forbidden(b, p, zh, text, COACH_TEXT);
        else if (strcmp(what, "last") == 0)
            gmk_coach_last_move(b, zh, text, COACH_TEXT);
        else
            gmk_coach_position(b, zh, text, COACH_TEXT);
        json_t *lines = json_array();
        for (char *line = text, *nl; *line; line = nl + 1) {
            nl = strchr(line, '\n');
            if (!nl) break;
            *nl = '\0';
            json_array_append_new(lines, json_string(line));
        }
        reply = json_pack("{s:s,s:o}", "what", what, "sentences", lines);
    }
    json_decref(body);
    free(text);
    free(moves);
    free(b);
    if (!ok) return web_error(rq, 400, err);
    return web_json(rq, 200, reply);
}

enum MHD_Result web_coach_api(web_request *rq, bool *handled) {
    *handled = strcmp(rq->path, "/api/coach") == 0;
    if (!*handled) return MHD_NO;
    if (strcmp(rq->method, "POST") != 0) return web_error(rq, 405, "use POST");
    return post_coach(rq);
}
