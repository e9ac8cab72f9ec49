/* tt.c: the transposition table (see tt.h). Buckets of two entries: the first slot keeps the
 * deepest result, the second always takes the newest. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

bool gmk_tt_init(gmk_tt *tt, size_t bytes) {
    size_t n = 1024;
    /* compared by division, so that a huge byte count cannot wrap the product */
    while (n <= bytes / (2 * sizeof(gmk_tt_entry)) && n < GMK_TT_MAX_ENTRIES) n *= 2;
    gmk_tt_entry *e = malloc(n * sizeof *e);
    if (!e) return false;
    memset(e, 0, n * sizeof *e); /* touch every page now, not during the first search */
    free(tt->entries);
    tt->entries = e;
    tt->mask = n - 1;
    tt->generation = 0;
    return true;
}

void gmk_tt_free(gmk_tt *tt) {
    free(tt->entries);
    tt->entries = NULL;
}

void gmk_tt_clear(gmk_tt *tt) {
    memset(tt->entries, 0, (tt->mask + 1) * sizeof *tt->entries);
}

void gmk_tt_new_search(gmk_tt *tt) {
    tt->generation = (uint8_t)((tt->generation + 1) & 63);
}

size_t gmk_tt_bytes(const gmk_tt *tt) {
    return (tt->mask + 1) * sizeof(gmk_tt_entry);
}

const gmk_tt_entry *gmk_tt_probe(const gmk_tt *tt, uint64_t key) {
    size_t i = (size_t)key & tt->mask & ~(size_t)1;
    uint32_t check = (uint32_t)(key >> 32);
    for (int k = 0; k < 2; k++) {
        const gmk_tt_entry *e = &tt->entries[i + k];
        if (e->check == check && (e->bound_gen & 3)) return e;
    }
    return NULL;
}

void gmk_tt_store(gmk_tt *tt, uint64_t key, gmk_pos move, int score, int eval, int depth,
                  gmk_bound bound) {
    size_t i = (size_t)key & tt->mask & ~(size_t)1;
    uint32_t check = (uint32_t)(key >> 32);
    gmk_tt_entry *deep = &tt->entries[i], *recent = &tt->entries[i + 1], *e;
    if (deep->check == check || (deep->bound_gen >> 2) != tt->generation || depth >= deep->depth)
        e = deep;
    else
        e = recent;
    if (e->check == check && move < 0) move = e->move; /* keep a known best move */
    e->check = check;
    e->move = (int16_t)move;
    e->score = (int16_t)score;
    e->eval = (int16_t)eval;
    e->depth = (int8_t)(depth > 127 ? 127 : depth < -127 ? -127 : depth);
    e->bound_gen = (uint8_t)(bound | (tt->generation << 2));
}
