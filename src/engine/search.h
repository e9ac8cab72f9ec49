/* search.h: the searcher behind the engine facade: iterative deepening alpha-beta with its
 * transposition table, move ordering tables and time manager. Internal to the core: front ends
 * use engine.h. A searcher is used by one thread at a time; `stop` may be set from any thread. */
#ifndef GMK_SEARCH_H
#define GMK_SEARCH_H

#include <stdatomic.h>

#include "engine.h"

typedef struct gmk_searcher gmk_searcher;

gmk_searcher *gmk_searcher_new(size_t memory_bytes);
void gmk_searcher_free(gmk_searcher *s);

/* Helper k (k >= 1) for Lazy SMP: its own move-ordering and threat tables, the main
 * searcher's transposition table (shared; the main searcher must outlive it, and only the
 * main searcher may resize or clear that table). NULL if out of memory. */
gmk_searcher *gmk_searcher_new_helper(gmk_searcher *main_searcher, int k);

/* Nodes of the last search (search and threat solver). */
int64_t gmk_searcher_nodes(const gmk_searcher *s);
bool gmk_searcher_resize(gmk_searcher *s, size_t memory_bytes);
void gmk_searcher_clear(gmk_searcher *s);
size_t gmk_searcher_memory_bytes(const gmk_searcher *s);

/* Searches b for its side to move within limits; fills out. Reports iterations through the
 * listener. Returns when done or soon after *stop becomes true. */
/* The elapsed ms at which the last search was to stop (0 if it had no time limit). */
int64_t gmk_searcher_stop_ms(const gmk_searcher *s);

void gmk_searcher_run(gmk_searcher *s, const gmk_board *b, const gmk_limits *limits,
                      const gmk_listener *listener, atomic_bool *stop, gmk_search_result *out);

#endif
