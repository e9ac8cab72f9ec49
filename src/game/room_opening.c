/* room_opening.c: the opening rules swap and swap2 in an online room (see room.h,
 * docs/rooms.md "Opening rules"). The steps are game/swap.c's and the board's are the
 * session's (session_swap.c, for two humans): this file only says which seat acts at each
 * step, keeps the step in the room's row (rooms.swap_phase, swap_first, swap_settled) so that a
 * restarted server resumes mid-opening, and turns a choice into the seats' colours and clocks.
 *
 * The seat that would play black proposes (swap_first): it is provisionally black, the other
 * provisionally white, and each seat's clock runs while it places or chooses. When a colour is
 * taken the seats get their colours for the game, each keeping its own time. */
#include "game/room_internal.h"

#include <stdio.h>

/* Does the proposer act at this step (place three, choose at five)? */
static bool proposer_acts(gmk_swap_phase p) {
    return p == GMK_SWAP_PLACE3 || p == GMK_SWAP_CHOOSE5;
}

static bool choosing(gmk_swap_phase p) {
    return p == GMK_SWAP_CHOOSE || p == GMK_SWAP_CHOOSE5;
}

void room_opening_begin(gmk_room *r, int black_seat) {
    r->row.swap_phase = gmk_swap_first_phase((gmk_opening)r->row.opening);
    r->row.swap_first = black_seat;
    r->row.swap_settled = 0;
}

int room_opening_actor(const gmk_room *r) {
    gmk_swap_phase p = (gmk_swap_phase)r->row.swap_phase;
    if (r->row.phase != GMK_ROOM_PLAYING || p == GMK_SWAP_NONE) return -1;
    return proposer_acts(p) ? r->row.swap_first : 1 - r->row.swap_first;
}

void room_opening_after_stone(gmk_room *r) {
    if (r->row.swap_phase == GMK_SWAP_NONE) return;
    gmk_session_state st;
    gmk_session_get_state(gmk_room_session(r), &st);
    r->row.swap_phase = st.phase;
}

bool room_opening_resume(gmk_room *r) {
    if (r->row.opening == GMK_OPENING_FREE && r->row.swap_phase == GMK_SWAP_NONE &&
        r->row.swap_settled == 0)
        return true; /* a free room (every room before schema 9): nothing to give */
    return gmk_session_swap_resume(r->session, (gmk_opening)r->row.opening,
                                   (gmk_swap_phase)r->row.swap_phase, r->row.swap_settled);
}

void room_opening_rematch_colours(gmk_room *r) {
    if (r->row.opening == GMK_OPENING_FREE) return;
    int next = 1 - r->row.swap_first;
    r->row.seat[next].color = GMK_BLACK;
    r->row.seat[1 - next].color = GMK_WHITE;
}

gmk_room_status gmk_room_choose(gmk_room *r, const void *token, size_t token_len, gmk_swap_choice c,
                                int64_t now) {
    int seat;
    gmk_room_status st = room_acting_seat(r, token, token_len, now, &seat);
    if (st != GMK_ROOM_OK) return room_done(r, now, st);
    gmk_swap_phase p = (gmk_swap_phase)r->row.swap_phase;
    int actor = room_opening_actor(r);
    if (actor < 0 || !choosing(p)) return room_done(r, now, GMK_ROOM_NOT_NOW);
    if (seat != actor) return room_done(r, now, GMK_ROOM_NOT_YOUR_TURN);
    if (!gmk_swap_choice_allowed((gmk_opening)r->row.opening, p, c))
        return room_done(r, now, GMK_ROOM_NOT_NOW);
    int ev = 0;
    if (!gmk_session_swap_choose(r->session, c, &ev)) return room_done(r, now, GMK_ROOM_NOT_NOW);
    gmk_color mine = r->row.seat[seat].color;
    room_spend_turn(r, mine, now); /* the choice is a turn of the chooser's, as a move is */
    if (c == GMK_SWAP_PLACE_TWO) {
        r->row.swap_phase = GMK_SWAP_PLACE2; /* the same seat places stones 4 and 5 */
    } else {
        gmk_color taken = c == GMK_SWAP_TAKE_BLACK ? GMK_BLACK : GMK_WHITE;
        if (taken != mine) { /* the seats change colours, each keeping its own clock */
            int64_t t = r->row.black_ms;
            r->row.black_ms = r->row.white_ms;
            r->row.white_ms = t;
            r->row.seat[seat].color = taken;
            r->row.seat[1 - seat].color = mine;
        }
        r->row.swap_phase = GMK_SWAP_NONE;
        r->row.swap_settled = gmk_session_board(r->session)->move_count;
    }
    gmk_room_event *e = room_add_event(r, GMK_ROOM_EV_CHOSEN, now);
    e->seat = seat;
    e->count = (int)c;
    e->color = r->row.seat[0].color;
    return room_done(r, now, GMK_ROOM_OK);
}

const char *gmk_room_opening_why(const gmk_room *r, int seat, bool choose) {
    int actor = r ? room_opening_actor(r) : -1;
    if (actor < 0) return choose ? "there is no colour to choose in this game now" : NULL;
    gmk_swap_phase p = (gmk_swap_phase)r->row.swap_phase;
    if (seat < 0) return NULL;
    if (seat != actor)
        return choosing(p) ? "the other player is choosing the colours now"
                           : "the other player is placing the opening stones";
    if (choose && !choosing(p)) return "place the opening stones first";
    if (!choose && choosing(p))
        return p == GMK_SWAP_CHOOSE && r->row.opening == GMK_OPENING_SWAP2
                   ? "choose first: black, white, or place two more stones"
                   : "choose your colour first: black or white";
    return NULL;
}
