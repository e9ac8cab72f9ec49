/* history.c: the search's move history (see history.h). */
#include "history.h"

#include <stdlib.h>
#include <string.h>

/* the gain of a cut at a node of this depth */
static int cut_bonus(int depth) {
    int v = 24 * depth * depth + 100 * depth - 150;
    return v > 9000 ? 9000 : v < 0 ? 0 : v;
}

static void add(int16_t *h, int bonus) {
    int v = *h;
    v += bonus - v * abs(bonus) / GMK_HISTORY_RANGE;
    *h = (int16_t)v;
}

void gmk_history_clear(gmk_history *h) {
    memset(h, 0, sizeof *h);
}

int gmk_history_stat(const gmk_history *h, gmk_color c, gmk_pos p) {
    return h->attack[c][p] + h->quiet[c][p] * 3 / 4;
}

void gmk_history_note_tried(gmk_history_tried *t, const gmk_board *b, gmk_pos p, bool forced) {
    if (gmk_history_is_attack(b, p)) {
        if (t->nattack < GMK_HISTORY_TRIED) t->attack[t->nattack++] = p;
    } else if (!forced && t->nquiet < GMK_HISTORY_TRIED) {
        t->quiet[t->nquiet++] = p;
    }
}

void gmk_history_cut(gmk_history *h, const gmk_board *b, gmk_pos p, bool forced, int depth,
                     const gmk_history_tried *t) {
    gmk_color me = gmk_board_side(b);
    int bonus = cut_bonus(depth);
    if (gmk_history_is_attack(b, p)) {
        add(&h->attack[me][p], bonus);
    } else if (!forced) {
        add(&h->quiet[me][p], bonus);
        for (int i = 0; i < t->nquiet; i++) add(&h->quiet[me][t->quiet[i]], -bonus);
    }
    for (int i = 0; i < t->nattack; i++) add(&h->attack[me][t->attack[i]], -bonus);
}
