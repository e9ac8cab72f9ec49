/* level.h: the difficulty ladder for human play, from Beginner to full strength.
 *
 * A level is a row of a constant table: a name (English and Simplified Chinese) and the
 * engine limits it plays with. Level 1 plays on shape scores with a shallow alpha-beta over a
 * few candidates and picks among near-equal moves; each level above searches deeper and wider
 * and chooses more strictly. Every level but the top is capped at about one second a move; the
 * top level plays at full strength with the time the player sets. The numbers are tuned from
 * measured matches; change the table, not the code. Pure functions, callable from anywhere. */
#ifndef GMK_LEVEL_H
#define GMK_LEVEL_H

#include <stdint.h>

#include "engine/engine.h"

#define GMK_LEVEL_MIN 1
#define GMK_LEVEL_DEFAULT 2
/* Time a move at the top level when the player has not set one. */
#define GMK_LEVEL_TOP_DEFAULT_MS 5000
/* The player may set the top level's time per move within these bounds. */
#define GMK_LEVEL_TOP_MIN_MS 100
#define GMK_LEVEL_TOP_MAX_MS 600000

/* The number of levels; the top level is gmk_level_count(). */
int gmk_level_count(void);

/* True when level is GMK_LEVEL_MIN..gmk_level_count(). */
bool gmk_level_valid(int level);

/* "Beginner" ... "Master"; "?" for an invalid level. */
const char *gmk_level_name(int level);
/* The Simplified Chinese name, UTF-8 ("入门" ...). */
const char *gmk_level_name_zh(int level);

/* Fills *out with the limits level plays a move with. top_ms is the time a move at the top
 * level (0: GMK_LEVEL_TOP_DEFAULT_MS; clamped to the bounds above); seed varies the choice
 * among near-equal moves (use a different one each move). Returns false, leaving *out
 * untouched, for an invalid level. */
bool gmk_level_limits(int level, int64_t top_ms, uint64_t seed, gmk_limits *out);

/* The limits of a hint for a player at this level: a good move within about one second,
 * whatever the level (never weakened by a choice margin). */
void gmk_level_hint_limits(int level, int64_t top_ms, gmk_limits *out);

/* Gives a search threads (Lazy SMP, clamped to 1..GMK_MAX_THREADS) when it is bound only by
 * time, as the top level, hints and analyses are; the levels with a node or depth budget
 * keep one thread, so that they play the same whatever the machine. */
void gmk_level_add_threads(gmk_limits *l, int threads);

#endif
