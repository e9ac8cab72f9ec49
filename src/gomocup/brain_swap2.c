/* brain_swap2.c: SWAP2BOARD (see docs/protocol.md, "Swap2"). With no stones the brain
 * proposes a three-stone opening; with 3 or 5 it takes black (SWAP) or plays white. */
#include <string.h>

#include "brain_internal.h"

enum { SWAP2_CANDIDATES = 6 };

/* Three-stone openings (black, white, black) as offsets from the centre: the first
 * three-stone lines of Piskvork's opening list (../shared/testdata/openings). */
static const int swap2_openings[SWAP2_CANDIDATES][6] = {
    {0, 0, 1, 0, 1, 3}, {0, 0, 1, 1, 0, 3}, {0, 0, 1, 0, 0, 3},
    {0, 0, 1, 1, 1, 3}, {0, 0, 1, 0, 3, 0}, {0, 0, 1, 1, -1, 3},
};
/* The proposal on boards too small for any of them (5x5, 6x6): three distinct points next to
 * the centre. */
static const int swap2_compact[6] = {0, 0, 1, 0, 0, 1};

static bool fits(const int *o, int c, int size) {
    for (int s = 0; s < 3; s++)
        if (!gmk_xy_on_board(c + o[2 * s], c + o[2 * s + 1], size)) return false;
    return true;
}

/* Stage 0: the candidate the engine finds the most balanced for white to move. */
static void propose(gmk_brain *b, int64_t t0, const gmk_limits *lim, gmk_brain_watchdog w) {
    int c = b->size / 2, best = -1, best_abs = 0;
    int64_t share = (w.stop_at - gmk_brain_now_ms()) / (SWAP2_CANDIDATES + 1);
    gmk_search_result res;
    for (int k = 0; k < SWAP2_CANDIDATES && !b->stop_requested; k++) {
        const int *o = swap2_openings[k];
        if (!fits(o, c, b->size)) continue;
        gmk_board cand;
        gmk_board_init(&cand, b->size, b->rule);
        for (int s = 0; s < 3; s++)
            gmk_board_make(&cand, gmk_pos_xy(c + o[2 * s], c + o[2 * s + 1]));
        gmk_limits sub = *lim;
        sub.turn_ms = share > 1 ? share : 1;
        sub.time_left_ms = 0;
        int64_t now = gmk_brain_now_ms();
        gmk_brain_watchdog sw = {now + share, now + share + (w.answer_at - w.stop_at)};
        if (sw.answer_at > w.answer_at) sw = w;
        if (!gmk_brain_think(b, &cand, &sub, sw, &res)) return;
        int a = res.score < 0 ? -res.score : res.score;
        if (best < 0 || a < best_abs) {
            best = k;
            best_abs = a;
        }
    }
    const int *o = best >= 0 ? swap2_openings[best] : swap2_compact;
    char p[3][8];
    for (int s = 0; s < 3; s++)
        gmk_proto_format_point(gmk_pos_xy(c + o[2 * s], c + o[2 * s + 1]), p[s]);
    gmk_brain_reply(b, "%s %s %s", p[0], p[1], p[2]);
    gmk_brain_account_time(b, t0);
}

void gmk_brain_swap2(gmk_brain *b, int64_t t0) {
    if (!gmk_brain_ensure_engine(b)) return;
    int n = b->nstones;
    if (n != 0 && n != 3 && n != 5) {
        gmk_brain_reply(b, "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got %d", n);
        return;
    }
    gmk_board bd;
    gmk_board_init(&bd, b->size, b->rule);
    for (int i = 0; i < n; i++) gmk_board_make(&bd, b->stones[i].pos);
    gmk_limits lim;
    gmk_brain_watchdog w;
    gmk_brain_move_limits(b, t0, 1, &lim, &w);
    b->stop_requested = false;
    if (n == 0) {
        propose(b, t0, &lim, w);
        return;
    }
    /* 3 or 5 stones, white to move: take black (SWAP) when black is better, else play white */
    gmk_search_result res;
    if (!gmk_brain_think(b, &bd, &lim, w, &res)) return;
    b->board = bd;
    gmk_pos mv = gmk_brain_legal_choice(&b->board, res.best);
    if ((res.best != GMK_POS_NONE && res.score < 0) || mv == GMK_POS_NONE) {
        gmk_brain_reply(b, "SWAP");
    } else {
        char pt[8];
        gmk_proto_format_point(mv, pt);
        gmk_board_make(&b->board, mv);
        gmk_brain_reply(b, "%s", pt);
    }
    gmk_brain_account_time(b, t0);
}
