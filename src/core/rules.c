/* rules.c: legality and results (see rules.h). */
#include "rules.h"

#include <string.h>

bool gmk_rule_parse(const char *text, gmk_rule *out) {
    static const struct {
        const char *name;
        gmk_rule rule;
    } names[] = {
        {"freestyle", GMK_RULE_FREESTYLE},
        {"standard", GMK_RULE_STANDARD},
        {"renju", GMK_RULE_RENJU},
        {"caro", GMK_RULE_CARO},
        {"0", GMK_RULE_FREESTYLE},
        {"1", GMK_RULE_STANDARD},
        {"2", GMK_RULE_RENJU},
        {"4", GMK_RULE_RENJU},
        {"8", GMK_RULE_CARO},
        {"9", GMK_RULE_CARO},
    };
    if (!text) return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(text, names[i].name) == 0) {
            *out = names[i].rule;
            return true;
        }
    return false;
}

const char *gmk_rule_name(gmk_rule rule) {
    static const char *const names[GMK_RULE_COUNT] = {"freestyle", "standard", "renju", "caro"};
    return (unsigned)rule < GMK_RULE_COUNT ? names[rule] : "?";
}

int gmk_rule_gomocup_number(gmk_rule rule) {
    static const int numbers[GMK_RULE_COUNT] = {0, 1, 4, 9};
    return (unsigned)rule < GMK_RULE_COUNT ? numbers[rule] : 0;
}

static bool wins_with(gmk_rule rule, gmk_color c, int len, int left, int right) {
    switch (rule) {
    case GMK_RULE_FREESTYLE: return len >= 5;
    case GMK_RULE_STANDARD: return len == 5;
    case GMK_RULE_RENJU: return c == GMK_BLACK ? len == 5 : len >= 5;
    case GMK_RULE_CARO: {
        int opp = gmk_opponent(c);
        return len == 5 && !(left == opp && right == opp);
    }
    default: return false;
    }
}

bool gmk_rules_five_at(const gmk_board *b, gmk_pos p, gmk_color c, gmk_pos *line, int *line_len) {
    if (b->stone[p] != c) return false;
    for (int d = 0; d < GMK_DIRS; d++) {
        int step = gmk_dir_step[d];
        gmk_pos lo = p, hi = p;
        while (b->stone[lo - step] == c) lo -= step;
        while (b->stone[hi + step] == c) hi += step;
        int len = (hi - lo) / step + 1;
        if (!wins_with(b->rule, c, len, b->stone[lo - step], b->stone[hi + step])) continue;
        if (line) {
            int n = 0;
            for (gmk_pos q = lo; q <= hi && n < GMK_MAX_SIZE; q += step) line[n++] = q;
            if (line_len) *line_len = n;
        }
        return true;
    }
    return false;
}

gmk_move_verdict gmk_rules_check_move(const gmk_board *b, gmk_pos p, gmk_forbid_kind *kind) {
    if (kind) *kind = GMK_FORBID_NONE;
    if (p < 0 || p >= GMK_CELLS || b->stone[p] == GMK_WALL) return GMK_MOVE_OFF_BOARD;
    if (b->stone[p] != GMK_EMPTY) return GMK_MOVE_OCCUPIED;
    if (b->rule == GMK_RULE_RENJU && gmk_board_side(b) == GMK_BLACK) {
        gmk_forbid_kind k = gmk_renju_forbidden(b, p);
        if (gmk_forbid_is_foul(k)) {
            if (kind) *kind = k;
            return GMK_MOVE_FORBIDDEN;
        }
    }
    return GMK_MOVE_LEGAL;
}

bool gmk_rules_has_legal_move(const gmk_board *b) {
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            if (gmk_rules_check_move(b, gmk_pos_xy(x, y), NULL) == GMK_MOVE_LEGAL) return true;
    return false;
}

gmk_pos gmk_rules_fallback_move(const gmk_board *b) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    gmk_pos best = GMK_POS_NONE;
    long best_v = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (gmk_rules_check_move(b, p, NULL) != GMK_MOVE_LEGAL) continue;
            int dx = x - b->size / 2, dy = y - b->size / 2;
            long v =
                ((long)gmk_board_cell_score(b, p, me) + gmk_board_cell_score(b, p, opp)) * 1024 -
                (dx * dx + dy * dy);
            if (best == GMK_POS_NONE || v > best_v) {
                best = p;
                best_v = v;
            }
        }
    return best;
}

static void result_clear(gmk_result *out) {
    memset(out, 0, sizeof *out);
    out->point = GMK_POS_NONE;
}

/* The result of the last move of `b`, with `before` the verdict of that move computed on the
 * board before it (only used for renju black). */
static void judge_last(const gmk_board *b, gmk_forbid_kind before, gmk_result *out) {
    result_clear(out);
    gmk_pos p = gmk_board_last(b);
    if (p == GMK_POS_NONE) return;
    gmk_color c = (gmk_color)b->stone[p];
    if (gmk_rules_five_at(b, p, c, out->line, &out->line_len)) {
        out->outcome = c == GMK_BLACK ? GMK_BLACK_WINS : GMK_WHITE_WINS;
        out->reason = GMK_REASON_FIVE;
        out->point = p;
        return;
    }
    out->line_len = 0;
    if (gmk_forbid_is_foul(before)) {
        out->outcome = GMK_WHITE_WINS;
        out->reason = GMK_REASON_FORBIDDEN;
        out->forbid = before;
        out->point = p;
        return;
    }
    /* a full board, or (renju) black to move with every empty point forbidden: nothing is
     * left to play, since Gomocup has no pass */
    if (gmk_board_full(b)) {
        out->outcome = GMK_DRAW;
        out->reason = GMK_REASON_FULL_BOARD;
    } else if (b->rule == GMK_RULE_RENJU && c == GMK_WHITE && !gmk_rules_has_legal_move(b)) {
        out->outcome = GMK_DRAW;
        out->reason = GMK_REASON_NO_LEGAL_POINT;
    }
}

void gmk_rules_result_after_last(const gmk_board *b, gmk_result *out) {
    gmk_forbid_kind before = GMK_FORBID_NONE;
    gmk_pos p = gmk_board_last(b);
    if (p != GMK_POS_NONE && b->rule == GMK_RULE_RENJU && b->stone[p] == GMK_BLACK) {
        /* judge the foul on the board without the stone */
        gmk_board tmp;
        memcpy(&tmp, b, sizeof tmp);
        gmk_board_undo(&tmp);
        before = gmk_renju_forbidden(&tmp, p);
    }
    judge_last(b, before, out);
}

void gmk_rules_result(const gmk_board *b, gmk_result *out, int *moves_after_end) {
    gmk_board local;
    gmk_board *r = &local;
    gmk_board_init(r, b->size, b->rule);
    result_clear(out);
    if (moves_after_end) *moves_after_end = 0;
    for (int i = 0; i < b->move_count; i++) {
        gmk_pos p = b->moves[i];
        gmk_color c = (gmk_color)b->stone[p];
        if (out->outcome != GMK_ONGOING) {
            if (moves_after_end) (*moves_after_end)++;
            gmk_board_put(r, p, c);
            continue;
        }
        gmk_forbid_kind before = GMK_FORBID_NONE;
        if (r->rule == GMK_RULE_RENJU && c == GMK_BLACK) before = gmk_renju_forbidden(r, p);
        gmk_board_put(r, p, c);
        judge_last(r, before, out);
    }
}

const char *gmk_outcome_name(gmk_outcome o) {
    switch (o) {
    case GMK_BLACK_WINS: return "black wins";
    case GMK_WHITE_WINS: return "white wins";
    case GMK_DRAW: return "draw";
    default: return "game on";
    }
}

const char *gmk_reason_name(gmk_reason r) {
    switch (r) {
    case GMK_REASON_FIVE: return "five in a row";
    case GMK_REASON_FORBIDDEN: return "forbidden move";
    case GMK_REASON_RESIGN: return "resignation";
    case GMK_REASON_TIME: return "time";
    case GMK_REASON_FULL_BOARD: return "full board";
    case GMK_REASON_AGREEMENT: return "agreement";
    case GMK_REASON_ABANDON: return "abandonment";
    case GMK_REASON_NO_LEGAL_POINT: return "no legal point for black";
    default: return "";
    }
}
