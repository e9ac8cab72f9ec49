/* timeman.h: how long to think. From the per-move limit, the game time left and the increment
 * it derives a hard deadline, which the search never passes, and a soft target, which it
 * stretches when the best move is unstable and shortens when the choice is forced. Pure. */
#ifndef GMK_TIMEMAN_H
#define GMK_TIMEMAN_H

#include "engine.h"

typedef struct {
    int64_t hard_ms; /* stop searching at this elapsed time; 0 = no time limit */
    int64_t soft_ms; /* do not start a new iteration after this; 0 = no time limit */
} gmk_time_budget;

/* moves_played: stones on the board, to guess how many moves are left. */
gmk_time_budget gmk_timeman_budget(const gmk_limits *limits, int moves_played);

/* Scales a soft target: factor_percent 100 leaves it unchanged; never past the hard limit. */
int64_t gmk_timeman_scale(const gmk_time_budget *t, int factor_percent);

#endif
