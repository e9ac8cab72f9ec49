/* state.c: a game as the JSON state object of docs/http-api.md, and reading points. */
#include <string.h>

#include "core/notation.h"
#include "core/renju.h"
#include "game/level.h"
#include "web/web_internal.h"

const char *web_color_name(gmk_color c) {
    return c == GMK_BLACK ? "black" : c == GMK_WHITE ? "white" : NULL;
}

static json_t *color_json(gmk_color c) {
    const char *n = web_color_name(c);
    return n ? json_string(n) : json_null();
}

json_t *web_point_json(gmk_pos p, int size) {
    if (p == GMK_POS_NONE) return json_null();
    char name[4];
    gmk_notation_point(p, size, name);
    return json_string(name);
}

const char *web_reason_name(gmk_reason r) {
    switch (r) {
    case GMK_REASON_FIVE: return "five";
    case GMK_REASON_FORBIDDEN: return "forbidden";
    case GMK_REASON_RESIGN: return "resign";
    case GMK_REASON_TIME: return "time";
    case GMK_REASON_FULL_BOARD: return "full-board";
    case GMK_REASON_AGREEMENT: return "agreement";
    case GMK_REASON_ABANDON: return "abandonment";
    case GMK_REASON_NO_LEGAL_POINT: return "no-legal-point";
    default: return NULL;
    }
}

json_t *web_result_json(const gmk_session_state *st, int size) {
    if (!st->over) return json_null();
    const gmk_result *r = &st->result;
    json_t *j = json_object();
    gmk_color winner = r->outcome == GMK_BLACK_WINS   ? GMK_BLACK
                       : r->outcome == GMK_WHITE_WINS ? GMK_WHITE
                                                      : GMK_EMPTY;
    json_object_set_new(j, "winner", color_json(winner));
    json_object_set_new(
        j, "outcome",
        json_string(r->outcome == GMK_ONGOING ? "abandoned" : gmk_outcome_name(r->outcome)));
    const char *reason = web_reason_name(r->reason);
    json_object_set_new(j, "reason", reason ? json_string(reason) : json_null());
    json_object_set_new(j, "foul",
                        r->reason == GMK_REASON_FORBIDDEN && gmk_forbid_is_foul(r->forbid)
                            ? json_string(gmk_forbid_name(r->forbid))
                            : json_null());
    json_object_set_new(j, "point", web_point_json(r->point, size));
    json_t *line = json_array();
    for (int i = 0; r->reason == GMK_REASON_FIVE && i < r->line_len && i < GMK_MAX_SIZE; i++)
        json_array_append_new(line, web_point_json(r->line[i], size));
    json_object_set_new(j, "line", line);
    return j;
}

json_t *web_state_json(live_game *g, bool owner) {
    gmk_session_state st;
    gmk_session_get_state(g->session, &st);
    const gmk_board *b = gmk_session_board(g->session);
    json_t *j = json_object();
    json_object_set_new(j, "id", json_integer(g->id));
    json_object_set_new(j, "mode", json_string(st.mode == GMK_PLAY_HVH ? "hvh" : "hvc"));
    json_object_set_new(j, "rule", json_string(gmk_rule_name(st.rule)));
    json_object_set_new(j, "size", json_integer(st.size));
    bool computer = st.mode != GMK_PLAY_HVH;
    json_object_set_new(j, "level", computer ? json_integer(st.level) : json_null());
    json_object_set_new(j, "level_name",
                        computer ? json_string(gmk_level_name(st.level)) : json_null());
    json_object_set_new(j, "human", color_json(st.human));
    json_t *moves = json_array();
    for (int i = 0; i < b->move_count; i++)
        json_array_append_new(moves, web_point_json(b->moves[i], st.size));
    json_object_set_new(j, "moves", moves);
    json_object_set_new(j, "to_move", color_json(st.to_move));
    json_object_set_new(j, "your_turn", json_boolean(st.human_to_move));
    json_object_set_new(j, "thinking", json_boolean(st.thinking));
    json_object_set_new(j, "thinking_ms", json_integer(st.thinking ? st.thinking_ms : 0));
    json_object_set_new(j, "hint", web_point_json(st.hint, st.size));
    json_object_set_new(j, "hint_eval",
                        st.hint != GMK_POS_NONE ? web_eval_json(st.rule, st.to_move, st.hint_score)
                                                : json_null());
    json_object_set_new(j, "over", json_boolean(st.over));
    json_object_set_new(j, "result", web_result_json(&st, st.size));
    json_t *forb = json_array();
    if (st.mode == GMK_PLAY_HVH || st.human == GMK_BLACK) {
        gmk_pos pts[GMK_MAX_MOVES];
        gmk_forbid_kind kinds[GMK_MAX_MOVES];
        int n = gmk_session_forbidden_points(g->session, pts, kinds, GMK_MAX_MOVES);
        for (int i = 0; i < n; i++) {
            json_t *f = json_object();
            json_object_set_new(f, "point", web_point_json(pts[i], st.size));
            json_object_set_new(f, "kind", json_string(gmk_forbid_name(kinds[i])));
            json_array_append_new(forb, f);
        }
    }
    json_object_set_new(j, "forbidden", forb);
    json_object_set_new(j, "can_undo", json_boolean(st.can_undo));
    json_object_set_new(j, "can_redo", json_boolean(st.can_redo));
    json_object_set_new(j, "opening", json_string(gmk_opening_name(st.opening)));
    json_object_set_new(j, "phase",
                        st.phase != GMK_SWAP_NONE ? json_string(gmk_swap_phase_name(st.phase))
                                                  : json_null());
    json_object_set_new(j, "you_choose", json_boolean(st.human_chooses));
    json_t *choices = json_array();
    for (int c = GMK_SWAP_TAKE_BLACK; st.human_chooses && c <= GMK_SWAP_PLACE_TWO; c++)
        if (gmk_swap_choice_allowed(st.opening, st.phase, (gmk_swap_choice)c))
            json_array_append_new(choices, json_string(gmk_swap_choice_name((gmk_swap_choice)c)));
    json_object_set_new(j, "choices", choices);
    json_object_set_new(j, "you_first", json_boolean(st.human_first));
    json_object_set_new(j, "owner", json_boolean(owner));
    return j;
}

bool web_parse_point(const json_t *v, int size, gmk_pos *out) {
    if (!json_is_string(v)) return false;
    return gmk_notation_parse_point(json_string_value(v), size, out, NULL, 0);
}

bool web_parse_moves(const json_t *v, int size, gmk_pos *moves, int *count, char *err,
                     size_t errlen) {
    *count = 0;
    if (!v || json_is_null(v)) return true;
    if (json_is_string(v)) {
        gmk_move_list *list = malloc(sizeof *list);
        if (!list) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        bool ok = gmk_notation_parse_moves(json_string_value(v), size, list, err, errlen);
        if (ok) {
            for (int i = 0; i < list->count; i++) moves[i] = list->pos[i];
            *count = list->count;
        }
        free(list);
        return ok;
    }
    if (!json_is_array(v) || json_array_size(v) > (size_t)size * (size_t)size) {
        snprintf(err, errlen, "moves must be a move string or an array of points");
        return false;
    }
    size_t i;
    json_t *p;
    json_array_foreach(v, i, p) {
        if (!web_parse_point(p, size, &moves[i])) {
            snprintf(err, errlen, "move %zu is not a point on the %dx%d board", i + 1, size, size);
            return false;
        }
    }
    *count = (int)json_array_size(v);
    return true;
}
