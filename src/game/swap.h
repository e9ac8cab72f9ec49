/* swap.h: the opening rules swap and swap2, for people and for the Gomocup brain.
 *
 * Swap: the first player places three stones (black, white, black); the second player then
 * chooses a colour: black (the first player, now white, plays the fourth stone) or white (the
 * second player plays it). Swap2 adds a third choice: the second player places two more
 * stones (white, black) and the first player chooses a colour, white to play the sixth stone.
 * (The rules as Gomocup's SWAP2BOARD and the RIF describe them; docs/protocol.md, "Swap2".)
 *
 * This module owns the pure parts that the game session (session_swap.c) and the brain
 * (gomocup/brain_swap2.c) share: the names, the phases, the three-stone openings the engine
 * proposes, and the rule by which a side that chooses after a search takes black. No I/O, no
 * state. */
#ifndef GMK_SWAP_H
#define GMK_SWAP_H

#include <stdbool.h>

#include "core/defs.h"

typedef enum {
    GMK_OPENING_FREE = 0, /* black plays first, colours as chosen before the game */
    GMK_OPENING_SWAP = 1,
    GMK_OPENING_SWAP2 = 2,
    GMK_OPENING_COUNT = 3
} gmk_opening;

/* Where a game under swap or swap2 stands; GMK_SWAP_NONE once the colours are settled (and
 * always under the free opening). */
typedef enum {
    GMK_SWAP_NONE = 0,
    GMK_SWAP_PLACE3,  /* the first player places stones 1-3 */
    GMK_SWAP_CHOOSE,  /* three stones: the second player chooses */
    GMK_SWAP_PLACE2,  /* swap2: the second player places stones 4-5 */
    GMK_SWAP_CHOOSE5, /* swap2, five stones: the first player chooses */
} gmk_swap_phase;

typedef enum {
    GMK_SWAP_TAKE_BLACK = 0,
    GMK_SWAP_TAKE_WHITE = 1,
    GMK_SWAP_PLACE_TWO = 2, /* swap2, at three stones only */
} gmk_swap_choice;

/* At most this many three-stone openings are proposed. */
#define GMK_SWAP_CANDIDATES 6

/* "free", "swap", "swap2"; parse also takes "swap1" and "none". */
const char *gmk_opening_name(gmk_opening o);
bool gmk_opening_parse(const char *text, gmk_opening *out);

/* "place3", "choose", "place2", "choose5" ("" for NONE). */
const char *gmk_swap_phase_name(gmk_swap_phase p);

/* "black", "white", "place2". */
const char *gmk_swap_choice_name(gmk_swap_choice c);
bool gmk_swap_choice_parse(const char *text, gmk_swap_choice *out);

/* Whether choice c may be made in phase p under opening o. */
bool gmk_swap_choice_allowed(gmk_opening o, gmk_swap_phase p, gmk_swap_choice c);

/* The phase a game starts in. */
gmk_swap_phase gmk_swap_first_phase(gmk_opening o);

/* The phase after a stone is placed in phase p, the board now holding `stones` stones. */
gmk_swap_phase gmk_swap_after_stone(gmk_swap_phase p, int stones);

/* The three-stone openings (black, white, black) that fit a size x size board, into out (at
 * most GMK_SWAP_CANDIDATES); returns how many. On boards too small for any of them, one
 * compact opening of three points next to the centre. */
int gmk_swap_candidates(int size, gmk_pos out[][3]);

/* Which candidate to propose, from each one's search score for white to move: the most
 * balanced (the smallest absolute score; the first on ties). -1 when n is 0. */
int gmk_swap_pick(const int *scores, int n);

/* A side choosing at three or five stones, white to move, with the search's score for white:
 * it takes black when black is better (score < 0), else it plays white. */
bool gmk_swap_takes_black(int score_for_white);

#endif
