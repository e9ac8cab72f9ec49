/* reviews.h: what the teaching features keep in the store: reviews of games and the puzzle
 * players' ratings (schema version 5, docs/store.md).
 *
 * A review is the engine's search of every position of a game (game/review.h), kept as the
 * text game/review.c writes, keyed by the game, its move count when reviewed and the node
 * budget of each search; the store does not read the text. A puzzle player is a key ("local"
 * for the terminal, a browser's owner hash in hex for the web) with a Glicko-2 rating and
 * streak (game/puzzle.h decides the numbers; the store keeps them). Errors as in store.h; a
 * handle is used by one thread at a time. */
#ifndef GMK_STORE_REVIEWS_H
#define GMK_STORE_REVIEWS_H

#include "store/store.h"

/* Reviews' text is at most this many bytes (a 484-move game with its lines fits). */
#define GMK_STORE_REVIEW_MAX (1 << 20)

/* Keeps (or replaces) the review of game id at `moves` moves with `nodes` nodes a position. */
gmk_store_status gmk_store_review_put(gmk_store *s, int64_t id, int moves, int64_t nodes,
                                      const char *data, char *err, size_t errlen);

/* The review's text, in a malloc'ed string for the caller to free (*data); NOT_FOUND when
 * there is none for that game, move count and budget. */
gmk_store_status gmk_store_review_get(gmk_store *s, int64_t id, int moves, int64_t nodes,
                                      char **data, char *err, size_t errlen);

#define GMK_STORE_PLAYER_MAX 72

typedef struct {
    char player[GMK_STORE_PLAYER_MAX];
    double rating, deviation, volatility;
    int streak, best_streak, solved, failed;
    int64_t updated_s;
} gmk_store_puzzle_player;

/* A player's rating; NOT_FOUND for a player never seen (the caller starts one). */
gmk_store_status gmk_store_puzzle_player_get(gmk_store *s, const char *player,
                                             gmk_store_puzzle_player *out, char *err,
                                             size_t errlen);

/* Saves (or replaces) a player's rating. Ratings must be finite, deviation and volatility
 * positive. */
gmk_store_status gmk_store_puzzle_player_put(gmk_store *s, const gmk_store_puzzle_player *p,
                                             char *err, size_t errlen);

#endif
