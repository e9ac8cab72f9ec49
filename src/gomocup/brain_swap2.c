/* brain_swap2.c: SWAP2BOARD (see docs/protocol.md, "Swap2"). With no stones the brain
 * proposes a three-stone opening; with 3 or 5 it takes black (SWAP) or plays white. The
 * openings and the rule of the choice are game/swap.c's, which the game session shares. */
#include <string.h>

#include "brain_internal.h"
#include "game/swap.h"

/* Stage 0: the candidate the engine finds the most balanced for white to move. */
static void propose(gmk_brain *b, int64_t t0, const gmk_limits *lim, gmk_brain_watchdog w) {
    gmk_pos cands[GMK_SWAP_CANDIDATES][3];
    int n = gmk_swap_candidates(b->size, cands), scores[GMK_SWAP_CANDIDATES], done = 0;
    int64_t share = (w.stop_at - gmk_brain_now_ms()) / (GMK_SWAP_CANDIDATES + 1);
    gmk_search_result res;
    for (int k = 0; k < n && n > 1 && !b->stop_requested; k++) {
        gmk_board cand;
        gmk_board_init(&cand, b->size, b->rule);
        for (int s = 0; s < 3; s++) gmk_board_make(&cand, cands[k][s]);
        gmk_limits sub = *lim;
        sub.turn_ms = share > 1 ? share : 1;
        sub.time_left_ms = 0;
        int64_t now = gmk_brain_now_ms();
        gmk_brain_watchdog sw = {now + share, now + share + (w.answer_at - w.stop_at)};
        if (sw.answer_at > w.answer_at) sw = w;
        if (!gmk_brain_think(b, &cand, &sub, sw, &res)) return;
        scores[done++] = res.score;
    }
    int best = done > 0 ? gmk_swap_pick(scores, done) : 0;
    char p[3][8];
    for (int s = 0; s < 3; s++) gmk_proto_format_point(cands[best][s], p[s]);
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
    if ((res.best != GMK_POS_NONE && gmk_swap_takes_black(res.score)) || mv == GMK_POS_NONE) {
        gmk_brain_reply(b, "SWAP");
    } else {
        char pt[8];
        gmk_proto_format_point(mv, pt);
        gmk_board_make(&b->board, mv);
        gmk_brain_reply(b, "%s", pt);
    }
    gmk_brain_account_time(b, t0);
}
