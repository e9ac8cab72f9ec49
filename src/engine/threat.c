/* threat.c: VCF and VCT (see threat.h). */
#include "threat.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/renju.h"
#include "movegen.h"

enum { MAX_SEQ = GMK_THREAT_MAX_SEQ };

bool gmk_threat_ctx_init(gmk_threat_ctx *ctx, size_t entries) {
    size_t n = 1;
    while (n < entries) n *= 2;
    memset(ctx, 0, sizeof *ctx);
    ctx->fail = calloc(n, sizeof *ctx->fail);
    ctx->fail_depth = calloc(n, 1);
    if (!ctx->fail || !ctx->fail_depth) {
        gmk_threat_ctx_free(ctx);
        return false;
    }
    ctx->mask = n - 1;
    return true;
}

void gmk_threat_ctx_free(gmk_threat_ctx *ctx) {
    free(ctx->fail);
    free(ctx->fail_depth);
    ctx->fail = NULL;
    ctx->fail_depth = NULL;
}

void gmk_threat_ctx_clear(gmk_threat_ctx *ctx) {
    memset(ctx->fail, 0, (ctx->mask + 1) * sizeof *ctx->fail);
    memset(ctx->fail_depth, 0, ctx->mask + 1);
}

/* Key of a proof attempt: the position, what is being tried, by whom. */
static uint64_t attempt_key(const gmk_board *b, uint64_t kind) {
    return (b->hash ^ (kind * 0x9E3779B97F4A7C15ull)) + (uint64_t)b->side;
}

static bool known_fail(const gmk_threat_ctx *ctx, uint64_t key, int depth) {
    size_t i = (size_t)key & ctx->mask;
    return ctx->fail[i] == key && ctx->fail_depth[i] >= depth;
}

static void note_fail(gmk_threat_ctx *ctx, uint64_t key, int depth) {
    size_t i = (size_t)key & ctx->mask;
    ctx->fail[i] = key;
    ctx->fail_depth[i] = (uint8_t)depth;
}

static bool out_of_budget(gmk_threat_ctx *ctx) {
    if (ctx->node_limit && ctx->nodes >= ctx->node_limit) return true;
    if ((ctx->nodes & 255) != 0) return false;
    if (ctx->stop && atomic_load(ctx->stop)) return true;
    if (ctx->deadline_s > 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        if ((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 >= ctx->deadline_s) return true;
    }
    return false;
}

/* First empty cell where colour c makes a five, scanning the lines through p (or the whole
 * board when p is GMK_POS_NONE). */
static gmk_pos find_five(const gmk_board *b, gmk_color c, gmk_pos p) {
    if (p != GMK_POS_NONE) {
        for (int d = 0; d < GMK_DIRS; d++)
            for (int k = -4; k <= 4; k++) {
                gmk_pos q = p + k * gmk_dir_step[d];
                if (b->stone[q] == GMK_EMPTY && b->cell[q].threat[c] == GMK_TH_FIVE) return q;
            }
    }
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos q = gmk_pos_xy(x, y);
            if (b->stone[q] == GMK_EMPTY && b->cell[q].threat[c] == GMK_TH_FIVE) return q;
        }
    return GMK_POS_NONE;
}

static gmk_pos find_threat(const gmk_board *b, gmk_color c, gmk_threat t) {
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos q = gmk_pos_xy(x, y);
            if (b->stone[q] == GMK_EMPTY && b->cell[q].threat[c] == t) return q;
        }
    return GMK_POS_NONE;
}

/* Can colour c, which is to move, not play q because it is a renju foul? */
static bool is_foul_for(const gmk_board *b, gmk_pos q, gmk_color c) {
    return b->rule == GMK_RULE_RENJU && c == GMK_BLACK && b->cell[q].threat[c] == GMK_TH_FORBID &&
           gmk_forbid_is_foul(gmk_renju_classify(b, q));
}

/* Attacking moves of the side to move: fours, plus threes when with_threes. Ordered. */
static int attacks(gmk_board *b, gmk_pos *out, bool with_threes) {
    gmk_color me = gmk_board_side(b);
    gmk_scored_move m[GMK_MAX_MOVES];
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos q = gmk_pos_xy(x, y);
            if (b->stone[q] != GMK_EMPTY) continue;
            gmk_threat t = (gmk_threat)b->cell[q].threat[me];
            if (t == GMK_TH_NONE) continue;
            if (t == GMK_TH_FORBID) t = gmk_movegen_threat(b, q, me);
            int rank;
            switch (t) {
            case GMK_TH_FOUR_THREE: rank = 4; break;
            case GMK_TH_FOUR: rank = 3; break;
            case GMK_TH_DOUBLE_THREE: rank = with_threes ? 2 : 0; break;
            case GMK_TH_THREE: rank = with_threes ? 1 : 0; break;
            default: rank = 0; break;
            }
            if (!rank) continue;
            m[n].pos = q;
            m[n].score = rank * 10000 + gmk_movegen_shape(b, q, me);
            n++;
        }
    gmk_movegen_sort(m, n);
    for (int i = 0; i < n; i++) out[i] = m[i].pos;
    return n;
}

/* Immediate outcomes for the side to move. Returns 1 (win, seq filled), -1 (cannot go on:
 * the opponent threatens five and our block is no four), 0 (nothing immediate), and sets
 * *only to the forced block when there is one that is also our four. */
static int immediate(gmk_board *b, gmk_pos *seq, int *len, gmk_pos *only) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    *only = GMK_POS_NONE;
    if (b->count[me][GMK_TH_FIVE] > 0) {
        seq[0] = find_five(b, me, GMK_POS_NONE);
        *len = 1;
        return 1;
    }
    if (b->count[opp][GMK_TH_FIVE] > 0) {
        if (b->count[opp][GMK_TH_FIVE] > 1) return -1;
        gmk_pos q = find_five(b, opp, GMK_POS_NONE);
        gmk_threat t = gmk_movegen_threat(b, q, me);
        if (t != GMK_TH_FOUR && t != GMK_TH_FOUR_THREE && t != GMK_TH_OPEN_FOUR) return -1;
        *only = q;
        return 0;
    }
    if (b->count[me][GMK_TH_OPEN_FOUR] > 0) {
        gmk_pos q = find_threat(b, me, GMK_TH_OPEN_FOUR);
        if (q != GMK_POS_NONE && !is_foul_for(b, q, me)) {
            seq[0] = q;
            *len = 1;
            return 1;
        }
    }
    return 0;
}

/* After the attacker's four at q: the defender's forced block, or GMK_POS_NONE when the
 * defender cannot block (two five points, or a renju foul), i.e. the attacker wins. */
static gmk_pos forced_block(const gmk_board *b, gmk_pos q, bool *attacker_wins) {
    gmk_color def = gmk_board_side(b), att = gmk_opponent(def);
    *attacker_wins = false;
    if (b->count[att][GMK_TH_FIVE] >= 2) {
        *attacker_wins = true;
        return GMK_POS_NONE;
    }
    gmk_pos f = find_five(b, att, q);
    if (f == GMK_POS_NONE) return GMK_POS_NONE;
    if (is_foul_for(b, f, def)) {
        *attacker_wins = true;
        return GMK_POS_NONE;
    }
    return f;
}

static bool vcf(gmk_board *b, gmk_threat_ctx *ctx, int depth, gmk_pos *seq, int *len) {
    ctx->nodes++;
    gmk_pos only;
    int im = immediate(b, seq, len, &only);
    if (im) return im > 0;
    if (depth <= 0 || out_of_budget(ctx)) return false;
    uint64_t key = attempt_key(b, 1);
    if (known_fail(ctx, key, depth)) return false;
    gmk_pos moves[GMK_MAX_MOVES];
    int n;
    if (only != GMK_POS_NONE) {
        moves[0] = only;
        n = 1;
    } else {
        n = attacks(b, moves, false);
    }
    for (int i = 0; i < n; i++) {
        gmk_pos q = moves[i];
        gmk_board_make(b, q);
        bool wins;
        gmk_pos f = forced_block(b, q, &wins);
        bool ok = wins;
        int sub = 0;
        if (!wins && f != GMK_POS_NONE) {
            gmk_board_make(b, f);
            ok = vcf(b, ctx, depth - 1, seq + 2, &sub);
            gmk_board_undo(b);
        }
        gmk_board_undo(b);
        if (ok) {
            seq[0] = q;
            if (wins) {
                *len = 1;
            } else {
                seq[1] = f;
                *len = sub + 2;
            }
            return true;
        }
        if (out_of_budget(ctx)) return false;
    }
    note_fail(ctx, key, depth);
    return false;
}

bool gmk_vcf(gmk_board *b, gmk_threat_ctx *ctx, int max_fours, gmk_pos *seq, int *seq_len) {
    *seq_len = 0;
    return vcf(b, ctx, max_fours, seq, seq_len);
}

static bool vct(gmk_board *b, gmk_threat_ctx *ctx, int depth, gmk_pos *seq, int *len);

/* The defender (to move) answers the attacker's threat; true when every answer still loses.
 * seq gets the line after the first defence (for the principal variation). */
static bool all_defences_lose(gmk_board *b, gmk_threat_ctx *ctx, int depth, gmk_pos *seq,
                              int *len) {
    gmk_scored_move def[GMK_MAX_MOVES];
    bool forced;
    /* an open four of the defender's own would be quicker than our three, and movegen does not
     * list it (vct tries no three against an open three, so this is a safeguard) */
    if (b->count[gmk_board_side(b)][GMK_TH_OPEN_FOUR] > 0) return false;
    int n = gmk_movegen_generate(b, def, &forced);
    if (!forced) {
        /* no open-four threat (the threat is not real), or no move stops it and the defender
         * has no four: then any move loses to the open four, shown after the first one */
        gmk_color d = gmk_board_side(b), a = gmk_opponent(d);
        if (n == 0 || b->count[a][GMK_TH_OPEN_FOUR] == 0 || b->count[a][GMK_TH_FIVE] > 0 ||
            b->count[d][GMK_TH_FIVE] > 0)
            return false;
        gmk_board_make(b, def[0].pos);
        int sub_len = 0;
        bool lost = vct(b, ctx, depth, seq + 1, &sub_len);
        gmk_board_undo(b);
        if (lost) {
            seq[0] = def[0].pos;
            *len = sub_len + 1;
        }
        return lost;
    }
    gmk_movegen_sort(def, n);
    int first_len = 0;
    for (int i = 0; i < n; i++) {
        gmk_board_make(b, def[i].pos);
        gmk_pos sub[MAX_SEQ];
        int sub_len = 0;
        bool lost = vct(b, ctx, depth, sub, &sub_len);
        gmk_board_undo(b);
        if (!lost) return false;
        if (i == 0 && sub_len + 1 < MAX_SEQ - 4) {
            seq[0] = def[i].pos;
            memcpy(seq + 1, sub, (size_t)sub_len * sizeof *sub);
            first_len = sub_len + 1;
        }
        if (out_of_budget(ctx)) return false;
    }
    *len = first_len;
    return true;
}

static bool vct(gmk_board *b, gmk_threat_ctx *ctx, int depth, gmk_pos *seq, int *len) {
    ctx->nodes++;
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    if (vcf(b, ctx, depth + 6, seq, len)) return true;
    if (depth <= 0 || out_of_budget(ctx)) return false;
    gmk_pos only;
    int dummy;
    if (immediate(b, seq, &dummy, &only) != 0 || only != GMK_POS_NONE) return false;
    /* against an open three of the opponent, threes are too slow; fours were tried (VCF) */
    if (b->count[opp][GMK_TH_OPEN_FOUR] > 0) return false;
    uint64_t key = attempt_key(b, 2);
    if (known_fail(ctx, key, depth)) return false;
    gmk_pos moves[GMK_MAX_MOVES];
    int n = attacks(b, moves, true);
    for (int i = 0; i < n; i++) {
        gmk_pos q = moves[i];
        gmk_threat t = gmk_movegen_threat(b, q, me);
        bool four = t == GMK_TH_FOUR || t == GMK_TH_FOUR_THREE;
        gmk_board_make(b, q);
        int sub = 0;
        bool ok;
        if (four) { /* the block is forced; then threats go on */
            bool wins;
            gmk_pos f = forced_block(b, q, &wins);
            ok = wins;
            if (!wins && f != GMK_POS_NONE) {
                gmk_board_make(b, f);
                ok = vct(b, ctx, depth - 1, seq + 2, &sub);
                gmk_board_undo(b);
                seq[1] = f;
                sub++;
            }
        } else {
            ok = all_defences_lose(b, ctx, depth - 1, seq + 1, &sub);
        }
        gmk_board_undo(b);
        if (ok) {
            seq[0] = q;
            *len = sub + 1;
            return true;
        }
        if (out_of_budget(ctx)) return false;
    }
    note_fail(ctx, key, depth);
    return false;
}

bool gmk_vct(gmk_board *b, gmk_threat_ctx *ctx, int max_threats, gmk_pos *seq, int *seq_len) {
    *seq_len = 0;
    return vct(b, ctx, max_threats, seq, seq_len);
}
