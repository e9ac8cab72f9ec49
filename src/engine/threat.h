/* threat.h: the threat-space solver: VCF (victory by continuous fours) and VCT (victory by
 * continuous threats: fours and open threes).
 *
 * Both prove a forced win for the side to move, or give up; they never claim a win that does
 * not exist (every defence the rules allow is tried, and renju black's forbidden points are
 * respected on both sides). A failure table of board keys, owned by the caller, avoids
 * proving the same dead end twice. The board is restored on return. */
#ifndef GMK_THREAT_H
#define GMK_THREAT_H

#include <stdatomic.h>
#include <stddef.h>

#include "core/board.h"

typedef struct {
    uint64_t *fail; /* keys of positions known to fail at some depth */
    uint8_t *fail_depth;
    size_t mask;        /* table size - 1 (power of two) */
    int64_t nodes;      /* counted up */
    int64_t node_limit; /* 0: none */
    atomic_bool *stop;  /* may be NULL */
    double deadline_s;  /* CLOCK_MONOTONIC seconds after which to give up; 0: none */
} gmk_threat_ctx;

bool gmk_threat_ctx_init(gmk_threat_ctx *ctx, size_t entries);
void gmk_threat_ctx_free(gmk_threat_ctx *ctx);
void gmk_threat_ctx_clear(gmk_threat_ctx *ctx);

enum { GMK_THREAT_MAX_SEQ = 256 };

/* VCF for the side to move, at most max_fours attacking fours deep. On success fills seq with
 * the winning sequence (attacker and defender moves alternating; it ends with the move that
 * makes five or an open four) and returns true. seq needs room for GMK_THREAT_MAX_SEQ moves. */
bool gmk_vcf(gmk_board *b, gmk_threat_ctx *ctx, int max_fours, gmk_pos *seq, int *seq_len);

/* VCT for the side to move, at most max_threats attacking moves deep; same conventions. The
 * sequence follows the first defence at each step. */
bool gmk_vct(gmk_board *b, gmk_threat_ctx *ctx, int max_threats, gmk_pos *seq, int *seq_len);

#endif
