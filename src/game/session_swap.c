/* session_swap.c: the swap and swap2 openings of a game session (see session.h,
 * gmk_session_swap_choose, and game/swap.h for the rules). The phase machine: the first
 * player places three stones; the second chooses black, white or (swap2) two more stones,
 * after which the first chooses. Who is "first" is fixed when the game starts: in a game
 * against the computer, cfg.human GMK_BLACK means the human. */
#include <stdio.h>
#include <string.h>

#include "session_internal.h"

/* The phase's actor is the first player (places three stones, chooses at five). */
static bool first_acts(gmk_swap_phase p) {
    return p == GMK_SWAP_PLACE3 || p == GMK_SWAP_CHOOSE5;
}

void session_swap_reset(gmk_session *s) {
    s->phase = gmk_swap_first_phase(s->cfg.opening);
    s->human_first = s->cfg.mode == GMK_PLAY_HVC && s->cfg.human == GMK_BLACK;
    s->settled_at = 0;
    s->ncands = 0;
    s->cands_done = 0;
}

bool session_swap_computer_acts(const gmk_session *s) {
    if (s->phase == GMK_SWAP_NONE) return false;
    switch (s->cfg.mode) {
    case GMK_PLAY_CVC: return true;
    case GMK_PLAY_HVC: return first_acts(s->phase) != s->human_first;
    default: return false;
    }
}

bool session_swap_choosing(const gmk_session *s) {
    return s->phase == GMK_SWAP_CHOOSE || s->phase == GMK_SWAP_CHOOSE5;
}

void session_swap_after_stone(gmk_session *s) {
    s->phase = gmk_swap_after_stone(s->phase, s->board.move_count);
}

/* The colours are settled: the first player takes black or white. The names follow the
 * colours (they were given as if the first player were black), and so does the human's
 * colour against the computer. */
static void settle(gmk_session *s, bool first_takes_black) {
    s->phase = GMK_SWAP_NONE;
    s->settled_at = s->board.move_count;
    if (!first_takes_black) {
        char t[GMK_STORE_NAME_MAX];
        memcpy(t, s->black, sizeof t);
        memcpy(s->black, s->white, sizeof t);
        memcpy(s->white, t, sizeof t);
    }
    if (s->cfg.mode == GMK_PLAY_HVC)
        s->cfg.human = s->human_first == first_takes_black ? GMK_BLACK : GMK_WHITE;
    s->redo_len = 0;
    s->redo_groups = 0;
    if (!s->store || !s->game_id) return;
    char err[MSG_LEN];
    if (gmk_store_game_set_players(s->store, s->game_id, s->cfg.human, s->black, s->white, err,
                                   sizeof err) != GMK_STORE_OK)
        session_store_failed(s, err);
}

/* The side that chooses (first or second player) takes colour c. */
static void take_colour(gmk_session *s, gmk_color c) {
    bool chooser_first = first_acts(s->phase);
    bool first_black = chooser_first ? c == GMK_BLACK : c != GMK_BLACK;
    settle(s, first_black);
}

think_kind session_swap_search(gmk_session *s, const gmk_board **board, gmk_limits *limits) {
    if (s->phase != GMK_SWAP_PLACE3) {
        *board = &s->board;
        return THINK_CHOOSE;
    }
    if (s->cands_done == 0) s->ncands = gmk_swap_candidates(s->board.size, s->cands);
    /* every candidate gets its share of a move's time */
    if (limits->turn_ms > 0) {
        int64_t share = limits->turn_ms / s->ncands;
        limits->turn_ms = share < 50 ? 50 : share;
    }
    if (limits->nodes > 0) limits->nodes = limits->nodes / s->ncands + 1;
    gmk_board_init(&s->search_board, s->board.size, s->board.rule);
    for (int i = 0; i < 3; i++) gmk_board_make(&s->search_board, s->cands[s->cands_done][i]);
    *board = &s->search_board;
    return THINK_PROPOSE;
}

void session_swap_take(gmk_session *s, think_kind kind, const gmk_search_result *r, int *ev) {
    if (kind == THINK_PROPOSE) {
        if (s->phase != GMK_SWAP_PLACE3 || s->board.move_count != 0) return;
        s->cand_scores[s->cands_done++] = r->score;
        if (s->cands_done < s->ncands) return; /* session_maybe_think searches the next */
        int k = gmk_swap_pick(s->cand_scores, s->ncands);
        s->cands_done = 0;
        for (int i = 0; i < 3 && !s->over; i++) session_apply_move(s, s->cands[k][i], true, ev);
        return;
    }
    if (!session_swap_choosing(s)) return;
    if (gmk_swap_takes_black(r->score)) {
        take_colour(s, GMK_BLACK);
        *ev |= GMK_EV_MOVED; /* the colours changed: draw again */
        return;
    }
    /* it plays white, at once, with the move its search found */
    take_colour(s, GMK_WHITE);
    gmk_pos p = r->best;
    if (p == GMK_POS_NONE || gmk_rules_check_move(&s->board, p, NULL) != GMK_MOVE_LEGAL)
        p = gmk_rules_fallback_move(&s->board);
    *ev |= GMK_EV_MOVED;
    if (p != GMK_POS_NONE) session_apply_move(s, p, true, ev);
}

bool gmk_session_swap_choose(gmk_session *s, gmk_swap_choice c, int *events) {
    if (events) *events = 0;
    if (s->over || !session_swap_choosing(s) || session_swap_computer_acts(s)) return false;
    if (!gmk_swap_choice_allowed(s->cfg.opening, s->phase, c)) return false;
    session_cancel_think(s); /* a hint */
    s->hint = GMK_POS_NONE;
    int ev = GMK_EV_MOVED;
    if (c == GMK_SWAP_PLACE_TWO)
        s->phase = GMK_SWAP_PLACE2;
    else
        take_colour(s, c == GMK_SWAP_TAKE_BLACK ? GMK_BLACK : GMK_WHITE);
    session_maybe_think(s, &ev);
    if (events) *events = ev;
    return true;
}

bool gmk_session_swap_resume(gmk_session *s, gmk_opening o, gmk_swap_phase p, int settled_at) {
    int n = s->board.move_count;
    bool fits;
    switch (p) {
    case GMK_SWAP_NONE: fits = settled_at >= 0 && settled_at <= n; break;
    case GMK_SWAP_PLACE3: fits = o != GMK_OPENING_FREE && n < 3; break;
    case GMK_SWAP_CHOOSE: fits = o != GMK_OPENING_FREE && n == 3; break;
    case GMK_SWAP_PLACE2: fits = o == GMK_OPENING_SWAP2 && (n == 3 || n == 4); break;
    case GMK_SWAP_CHOOSE5: fits = o == GMK_OPENING_SWAP2 && n == 5; break;
    default: fits = false;
    }
    if (!fits || s->cfg.mode != GMK_PLAY_HVH || (unsigned)o >= GMK_OPENING_COUNT) return false;
    s->cfg.opening = o;
    s->phase = p;
    s->settled_at = p == GMK_SWAP_NONE ? settled_at : 0;
    s->human_first = false;
    return true;
}
