/* tt.h: the transposition table: a fixed-size array of 16-byte entries indexed by Zobrist key,
 * sized to fit a memory limit. Scores are stored relative to the node (mate distances are
 * adjusted by the caller's ply). One thread writes it at a time. */
#ifndef GMK_TT_H
#define GMK_TT_H

#include <stddef.h>

#include "core/defs.h"

typedef enum {
    GMK_BOUND_NONE = 0,
    GMK_BOUND_UPPER = 1,
    GMK_BOUND_LOWER = 2,
    GMK_BOUND_EXACT = 3
} gmk_bound;

typedef struct {
    uint32_t check; /* upper bits of the key */
    int16_t move;   /* gmk_pos or -1 */
    int16_t score;
    int16_t eval;
    int8_t depth;
    uint8_t bound_gen; /* bound in the low 2 bits, generation above */
    uint32_t spare;
} gmk_tt_entry;

typedef struct {
    gmk_tt_entry *entries;
    size_t mask; /* entries - 1; a power of two */
    uint8_t generation;
} gmk_tt;

/* The largest table: 2^36 entries (1 TiB). */
#define GMK_TT_MAX_ENTRIES ((size_t)1 << 36)

/* Allocates the largest power-of-two table that fits bytes (at least 1024 entries, at most
 * GMK_TT_MAX_ENTRIES). On allocation failure returns false and keeps the current table. */
bool gmk_tt_init(gmk_tt *tt, size_t bytes);
void gmk_tt_free(gmk_tt *tt);
void gmk_tt_clear(gmk_tt *tt);
/* Marks the start of a new search, so older entries are replaced first. */
void gmk_tt_new_search(gmk_tt *tt);
/* Asks the processor to bring key's bucket into the cache: called with the key of a position
 * about to be made, the bucket arrives while the board updates its patterns. */
static inline void gmk_tt_prefetch(const gmk_tt *tt, uint64_t key) {
    __builtin_prefetch(&tt->entries[(size_t)key & tt->mask & ~(size_t)1]);
}

/* The entry for key, or NULL. */
const gmk_tt_entry *gmk_tt_probe(const gmk_tt *tt, uint64_t key);
void gmk_tt_store(gmk_tt *tt, uint64_t key, gmk_pos move, int score, int eval, int depth,
                  gmk_bound bound);
size_t gmk_tt_bytes(const gmk_tt *tt);

#endif
