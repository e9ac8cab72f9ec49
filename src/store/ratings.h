/* ratings.h: players' Glicko-2 ratings in the store, one per account, rule and time-control
 * class, with a history row per rated game; the leaderboard and a player's history read them.
 *
 * The store keeps what game/rating.c computes and checks only ranges; the rating system, the
 * classes and when a rating is provisional are game/rating.h's. gmk_store_rating_put writes
 * the rating and its history row in one write step: called inside the batch of a room's save
 * (gmk_store_batch_begin), the result of a game, its room's events and both players' new
 * ratings commit together or not at all. Errors as in store.h. */
#ifndef GMK_STORE_RATINGS_H
#define GMK_STORE_RATINGS_H

#include "store/store.h"

typedef struct {
    int64_t account;
    char name[GMK_STORE_NAME_MAX]; /* the account's name (read only) */
    int rule, tc;                  /* gmk_rule; game/rating.h's gmk_tc */
    double rating, deviation, volatility;
    int games, wins, losses, draws;
    int64_t updated_s;
} gmk_store_rating;

typedef struct {
    int64_t game_id;
    int64_t at_s;
    double rating, deviation; /* after the game */
} gmk_store_rating_point;

/* The rating of account in (rule, tc). GMK_STORE_NOT_FOUND when it has none yet. */
gmk_store_status gmk_store_rating_get(gmk_store *s, int64_t account, int rule, int tc,
                                      gmk_store_rating *out, char *err, size_t errlen);

/* Writes r (replacing the account's rating in its rule and class) and its history row for
 * game_id at r->updated_s. GMK_STORE_INVALID for a value out of range or a game already
 * counted for this account and class (a result is never rated twice). */
gmk_store_status gmk_store_rating_put(gmk_store *s, const gmk_store_rating *r, int64_t game_id,
                                      char *err, size_t errlen);

/* Every rating of account, by rule then class; up to cap, *count receives how many. */
gmk_store_status gmk_store_ratings_of(gmk_store *s, int64_t account, gmk_store_rating *out, int cap,
                                      int *count, char *err, size_t errlen);

/* The best ratings of (rule, tc) whose deviation is at most max_deviation (established
 * players), highest first, then by name; up to cap, *count receives how many. */
gmk_store_status gmk_store_leaderboard(gmk_store *s, int rule, int tc, double max_deviation,
                                       gmk_store_rating *out, int cap, int *count, char *err,
                                       size_t errlen);

/* The last cap points of account's history in (rule, tc), oldest first. */
gmk_store_status gmk_store_rating_history(gmk_store *s, int64_t account, int rule, int tc,
                                          gmk_store_rating_point *out, int cap, int *count,
                                          char *err, size_t errlen);

#endif
