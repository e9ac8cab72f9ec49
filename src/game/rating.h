/* rating.h: players' ratings from rated online games: Glicko-2 (game/glicko2.h), one rating
 * per rule and time-control class, and the computer levels placed on the same scale.
 *
 * Constants (docs/accounts.md "Ratings"): a new player 1500, RD 350, volatility 0.06; system
 * constant tau 0.5; each rated game is its own rating period (both players are updated from
 * their ratings before the game, as Lichess does), so a rating moves after every game and RD
 * does not grow with idle time. A rating is provisional while its RD is above
 * GMK_RATING_PROVISIONAL_RD (110, Lichess's mark): shown with a "?" and kept off the
 * leaderboard. A game is rated when both seats are held by two different accounts in a room
 * created rated, it ends with a result (not abandoned by a closed room) and each side has
 * moved at least once (GMK_RATING_MIN_MOVES); against the computer, never.
 *
 * Classes by the estimated game time, minutes * 60 + 40 * increment seconds (Lichess's
 * formula): bullet under 3 minutes, blitz under 8, rapid under 25, classical from 25; a room
 * without a clock is "untimed". game/room.c calls gmk_rating_record_game inside the batch that
 * saves the game's end, so the result and both ratings commit together. */
#ifndef GMK_RATING_H
#define GMK_RATING_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rules.h"
#include "store/ratings.h"

typedef enum {
    GMK_TC_BULLET = 0, /* the numbers are stored */
    GMK_TC_BLITZ = 1,
    GMK_TC_RAPID = 2,
    GMK_TC_CLASSICAL = 3,
    GMK_TC_UNTIMED = 4,
    GMK_TC_COUNT = 5
} gmk_tc;

#define GMK_RATING_TAU 0.5
#define GMK_RATING_PROVISIONAL_RD 110.0
#define GMK_RATING_MIN_MOVES 2

/* The class of a Fischer clock (clock_ms 0: no clock). */
gmk_tc gmk_rating_tc_of(int64_t clock_ms, int64_t increment_ms);

/* "bullet", "blitz", "rapid", "classical", "untimed"; parse is the reverse (false: unknown). */
const char *gmk_rating_tc_name(gmk_tc tc);
bool gmk_rating_tc_parse(const char *name, gmk_tc *out);

/* Is a rating with this deviation still provisional? */
bool gmk_rating_provisional(double deviation);

/* Rates game_id, a game of rule in class tc between the accounts black and white that ended
 * with outcome (GMK_BLACK_WINS, GMK_WHITE_WINS or GMK_DRAW) at now_s: both new ratings and
 * their history rows, written in the store (in the caller's batch, if any). The new ratings go
 * to *black_after and *white_after (may be NULL). GMK_STORE_INVALID for two equal or missing
 * accounts or a game already rated. */
gmk_store_status gmk_rating_record_game(gmk_store *s, gmk_rule rule, gmk_tc tc, int64_t black,
                                        int64_t white, int64_t game_id, gmk_outcome outcome,
                                        int64_t now_s, gmk_store_rating *black_after,
                                        gmk_store_rating *white_after, char *err, size_t errlen);

/* The rating of computer level (game/level.h) on the players' scale, from the ladder's
 * measured steps (docs/engine.md "Figures"); 0 for a level out of range. */
int gmk_rating_of_level(int level);

#endif
