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

/* The elapsed time at which a running search stops: 95% of the hard limit (slack for a busy
 * machine), or twice the soft target when that is sooner (a game clock gives a generous hard
 * limit). 0 = no time limit. */
int64_t gmk_timeman_stop_ms(const gmk_time_budget *t);

/* Whether to start another iteration at elapsed ms, when the last one took last_ms and the
 * one before prev_ms (0 if none): the next is predicted at last_ms times their ratio
 * (clamped to 1.5..5), and it is started while at least half of it fits in the soft target
 * scaled by factor_percent (an unfinished iteration still improves the move). */
bool gmk_timeman_next_fits(const gmk_time_budget *t, int factor_percent, int64_t elapsed,
                           int64_t last_ms, int64_t prev_ms);

/* Scales a soft target: factor_percent 100 leaves it unchanged; never past the hard limit. */
int64_t gmk_timeman_scale(const gmk_time_budget *t, int factor_percent);

#endif
