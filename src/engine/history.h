/* history.h: what the running search learns about moves, for its move order and its
 * reductions. Two tables by colour and cell, one for the mover's threats (a move that makes an
 * open three or more: an attack) and one for the other moves. When a move cuts, its entry
 * gains by the depth, and the moves of its kind tried before it at that node lose as much
 * (quiet moves only at a node not narrowed to defences). Each entry stays within
 * +-GMK_HISTORY_RANGE: a gain g moves it by g - h x |g| / range (the usual "gravity" form), so
 * old news fades as new arrives. */
#ifndef GMK_HISTORY_H
#define GMK_HISTORY_H

#include "core/board.h"

enum { GMK_HISTORY_RANGE = 12000, GMK_HISTORY_TRIED = 64 };

typedef struct {
    int16_t attack[3][GMK_CELLS];
    int16_t quiet[3][GMK_CELLS];
} gmk_history;

/* The moves of one node searched before its cut (at most GMK_HISTORY_TRIED of each kind). */
typedef struct {
    gmk_pos attack[GMK_HISTORY_TRIED], quiet[GMK_HISTORY_TRIED];
    int nattack, nquiet;
} gmk_history_tried;

void gmk_history_clear(gmk_history *h);

/* True when p makes an open three or more for the side to move. (Inline, as the next: the
 * search calls them for every move it generates.) */
static inline bool gmk_history_is_attack(const gmk_board *b, gmk_pos p) {
    gmk_threat t = (gmk_threat)b->cell[p].threat[gmk_board_side(b)];
    return t >= GMK_TH_THREE && t != GMK_TH_FORBID;
}

/* What the move order adds for p (side to move of b): an eighth of its attack entry for an
 * attack, a sixteenth of its quiet entry otherwise. */
static inline int gmk_history_order(const gmk_history *h, const gmk_board *b, gmk_pos p) {
    gmk_color me = gmk_board_side(b);
    return gmk_history_is_attack(b, p) ? h->attack[me][p] / 8 : h->quiet[me][p] / 16;
}

/* The stat score of p for colour c, for the reductions: attack entry + 3/4 of quiet entry. */
int gmk_history_stat(const gmk_history *h, gmk_color c, gmk_pos p);

/* Notes a move searched at a node (side to move of b) that did not cut. */
void gmk_history_note_tried(gmk_history_tried *t, const gmk_board *b, gmk_pos p, bool forced);

/* A cut by p at a node of this depth (side to move of b): p gains; the moves of t lose. */
void gmk_history_cut(gmk_history *h, const gmk_board *b, gmk_pos p, bool forced, int depth,
                     const gmk_history_tried *t);

#endif
