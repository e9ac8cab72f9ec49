/* glicko2.h: the Glicko-2 rating system, for the puzzle rating (game/puzzle.h).
 *
 * Mark E. Glickman, "Example of the Glicko-2 system" (Boston University, 2013): a player's
 * rating r, rating deviation RD and volatility sigma are updated after a rating period from the
 * opponents' ratings and deviations and the scores (1 win, 0 loss, 1/2 draw), with the system
 * constant tau. A solved puzzle is a win against the puzzle (whose own rating is fixed), a
 * failed one a loss; each attempt is one rating period. Pure functions. */
#ifndef GMK_GLICKO2_H
#define GMK_GLICKO2_H

typedef struct {
    double rating;     /* r, on the Glicko scale (1500 for a new player) */
    double deviation;  /* RD (350 for a new player) */
    double volatility; /* sigma (0.06 for a new player) */
} gmk_glicko;

typedef struct {
    double rating, deviation; /* the opponent's */
    double score;             /* 1, 0.5 or 0 */
} gmk_glicko_game;

/* A new player: 1500, 350, 0.06. */
gmk_glicko gmk_glicko_new(void);

/* The player after one rating period with n games (n 0: only the deviation grows), with the
 * system constant tau (0.3..1.2; 0.5 here). */
gmk_glicko gmk_glicko_update(gmk_glicko player, const gmk_glicko_game *games, int n, double tau);

#endif
