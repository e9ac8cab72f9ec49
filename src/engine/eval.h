/* eval.h: static evaluation, in integers, from the side to move's point of view.
 *
 * It sums the shape scores the board keeps for every empty cell (five, open four 活四, four 冲四,
 * open three 活三, closed three 眠三, twos, and the four-three and double-three combinations)
 * for both sides, and adds a bonus for the side to move, whose threats come first. Its weights
 * are fitted to self-play (core/weights.h), and a small network (evalnet.h) adds what the counts
 * of both sides' threats and combinations say together. gmk_eval_linear is the sum without the
 * network (what the network was fitted on top of). gmk_eval_hand is the first, hand-set evaluation,
 * which the two weakest levels keep (from the move ordering's shape scores, recounted over the
 * board: slow, but those levels search a few hundred nodes). Pure. */
#ifndef GMK_EVAL_H
#define GMK_EVAL_H

#include "core/board.h"

#define GMK_EVAL_LIMIT 20000

int gmk_eval(const gmk_board *b);
int gmk_eval_linear(const gmk_board *b);
int gmk_eval_hand(const gmk_board *b);

#endif
