/* search.c: PLACEHOLDER one-ply searcher, replaced by the real search. */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "renju.h"

struct gmk_searcher {
    size_t bytes;
};

gmk_searcher *gmk_searcher_new(size_t memory_bytes) {
    gmk_searcher *s = calloc(1, sizeof *s);
    if (s) s->bytes = memory_bytes;
    return s;
}
void gmk_searcher_free(gmk_searcher *s) {
    free(s);
}
bool gmk_searcher_resize(gmk_searcher *s, size_t memory_bytes) {
    s->bytes = memory_bytes;
    return true;
}
void gmk_searcher_clear(gmk_searcher *s) {
    (void)s;
}

void gmk_searcher_run(gmk_searcher *s, const gmk_board *b, const gmk_limits *limits,
                      const gmk_listener *listener, atomic_bool *stop, gmk_search_result *out) {
    (void)s;
    (void)limits;
    (void)stop;
    memset(out, 0, sizeof *out);
    out->best = GMK_POS_NONE;
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    int best = -1;
    for (gmk_pos p = 0; p < GMK_CELLS; p++) {
        if (!gmk_board_empty_at(b, p)) continue;
        if (b->rule == GMK_RULE_RENJU && me == GMK_BLACK &&
            gmk_forbid_is_foul(gmk_renju_forbidden(b, p)))
            continue;
        int v = b->cell[p].score[me] * 2 + b->cell[p].score[opp];
        if (b->cell[p].threat[me] == GMK_TH_FIVE) v += 100000;
        if (b->cell[p].threat[opp] == GMK_TH_FIVE) v += 50000;
        int dx = gmk_pos_x(p) - b->size / 2, dy = gmk_pos_y(p) - b->size / 2;
        v = v * 64 - (dx * dx + dy * dy);
        if (best < 0 || v > best) {
            best = v;
            out->best = p;
        }
    }
    out->depth = 1;
    out->nlines = 1;
    out->lines[0].move = out->best;
    out->lines[0].pv_len = 1;
    out->lines[0].pv[0] = out->best;
    if (listener && listener->on_iteration) listener->on_iteration(out, listener->ctx);
}
