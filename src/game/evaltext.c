/* evaltext.c: evaluations as text (evaltext.h). */
#include "game/evaltext.h"

#include <stdio.h>

#include "engine/engine.h"
#include "engine/winrate.h"

void gmk_eval_view_of(gmk_rule rule, gmk_color to_move, int score, gmk_eval_view *out) {
    int plies = 0;
    out->proved = gmk_score_is_mate(score, &plies);
    out->percent = gmk_winrate_percent(rule, score);
    out->black_percent = to_move == GMK_WHITE ? 100 - out->percent : out->percent;
    out->winner = GMK_EMPTY;
    out->moves = 0;
    if (out->proved) {
        out->winner = score > 0 ? to_move : gmk_opponent(to_move);
        out->moves = (plies + 1) / 2;
        if (out->moves < 1) out->moves = 1;
    }
}

void gmk_eval_view_text(const gmk_eval_view *v, gmk_color to_move, bool zh, char *buf, size_t cap) {
    if (v->proved) {
        bool black = v->winner == GMK_BLACK;
        if (zh)
            snprintf(buf, cap, "%s %d 手胜", black ? "黑方" : "白方", v->moves);
        else
            snprintf(buf, cap, "%s wins in %d", black ? "Black" : "White", v->moves);
        return;
    }
    bool black = to_move == GMK_BLACK;
    if (zh)
        snprintf(buf, cap, "%s胜率 %d%%", black ? "黑方" : "白方", v->percent);
    else
        snprintf(buf, cap, "%s %d%%", black ? "Black" : "White", v->percent);
}
