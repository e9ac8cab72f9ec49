/* movegen.h: which moves the search considers, and in what order.
 *
 * Candidates are the empty cells within two cells of a stone, and any cell where either side
 * makes a four. Black's forbidden points in renju are never generated. When the opponent
 * threatens to make an open four (it has an open three) or a double four, only the moves that
 * stop every such threat and the side's own fours are generated. Moves come with an ordering
 * score: threats of the mover first, then blocks of the opponent's threats, then the rule's
 * learned policy (policy.h), which ranks the quiet moves and the threats among themselves. */
#ifndef GMK_MOVEGEN_H
#define GMK_MOVEGEN_H

#include "core/board.h"

typedef struct {
    gmk_pos pos;
    int score;
} gmk_scored_move;

/* The threat colour c really makes at empty p: like cell.threat, but a renju black
 * GMK_TH_FORBID cell is resolved by the exact check (GMK_TH_FORBID if it is a foul). */
gmk_threat gmk_movegen_threat(const gmk_board *b, gmk_pos p, gmk_color c);

/* The empty points where colour c makes a four or a four-three (gmk_movegen_threat: a renju
 * foul is none), in board order; returns how many. The scan stops at the last point the
 * board's threat counts promise. out needs room for GMK_MAX_MOVES. */
int gmk_movegen_fours(const gmk_board *b, gmk_color c, gmk_pos *out);

/* True when the side to move may play p (empty, on board, not a renju foul). */
bool gmk_movegen_legal(const gmk_board *b, gmk_pos p);

/* A hand-set shape score: colour c's pattern weights at empty p plus a bonus for its threat
 * (0 on a renju black point that may be forbidden), apart from the evaluation's fitted weights
 * and the policy. The threat search orders by it, and levels 1-2 evaluate with it. */
int gmk_movegen_shape(const gmk_board *b, gmk_pos p, gmk_color c);

/* Fills out with the moves to search at this node (see above), each with an ordering score;
 * returns how many. out needs room for GMK_MAX_MOVES. b is restored before returning.
 * *forced is set when the list was narrowed to defences. */
int gmk_movegen_generate(gmk_board *b, gmk_scored_move *out, bool *forced);

/* True when the opponent threatens an open four (or a double four) and neither side has a five:
 * then gmk_movegen_generate narrows its list to defences. */
bool gmk_movegen_must_defend(const gmk_board *b);

/* True when gmk_movegen_generate would list p in a node where gmk_movegen_must_defend is false:
 * an empty cell near a stone or where either side makes a four, and legal for the mover. The
 * search tries the table's move before generating the others, so it checks the move first. */
bool gmk_movegen_is_candidate(const gmk_board *b, gmk_pos p);

/* Re-scores a generated list with the hand-set order the search had before the policy: the
 * same bonuses for threats and blocks, then twice the mover's gmk_movegen_shape plus the
 * opponent's. Levels 1 and 2 keep it, so that the policy does not make them stronger. */
void gmk_movegen_order_by_hand(const gmk_board *b, gmk_scored_move *moves, int n);

/* Every legal move of the side to move, ordered (for the root and for analysis). */
int gmk_movegen_all_legal(gmk_board *b, gmk_scored_move *out);

/* Sorts by score, best first (stable for equal scores: by position). */
void gmk_movegen_sort(gmk_scored_move *moves, int n);

#endif
