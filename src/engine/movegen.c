/* movegen.c: candidate moves, forced defences and ordering scores (see movegen.h). */
#include "movegen.h"

#include <pthread.h>
#include <string.h>

#include "core/renju.h"
#include "policy.h"

gmk_threat gmk_movegen_threat(const gmk_board *b, gmk_pos p, gmk_color c) {
    gmk_threat t = (gmk_threat)b->cell[p].threat[c];
    if (t != GMK_TH_FORBID) return t;
    if (gmk_forbid_is_foul(gmk_renju_classify(b, p))) return GMK_TH_FORBID;
    uint8_t pat[GMK_DIRS];
    gmk_cell_patterns(&b->cell[p], c, pat);
    return gmk_threat_of(pat, GMK_LINE_EXACT);
}

int gmk_movegen_fours(const gmk_board *b, gmk_color c, gmk_pos *out) {
    /* a renju foul candidate may be a four */
    int left =
        b->count[c][GMK_TH_FOUR] + b->count[c][GMK_TH_FOUR_THREE] + b->count[c][GMK_TH_FORBID];
    int n = 0;
    for (int y = 0; y < b->size && left > 0; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos q = gmk_pos_xy(x, y);
            if (b->stone[q] != GMK_EMPTY) continue;
            gmk_threat t = (gmk_threat)b->cell[q].threat[c];
            if (t != GMK_TH_FOUR && t != GMK_TH_FOUR_THREE && t != GMK_TH_FORBID) continue;
            left--;
            if (t == GMK_TH_FORBID) t = gmk_movegen_threat(b, q, c);
            if (t == GMK_TH_FOUR || t == GMK_TH_FOUR_THREE) out[n++] = q;
        }
    return n;
}

bool gmk_movegen_legal(const gmk_board *b, gmk_pos p) {
    if (!gmk_board_empty_at(b, p)) return false;
    gmk_color me = gmk_board_side(b);
    if (b->rule == GMK_RULE_RENJU && me == GMK_BLACK && b->cell[p].threat[me] == GMK_TH_FORBID)
        return !gmk_forbid_is_foul(gmk_renju_classify(b, p));
    return true;
}

static const int attack_bonus[GMK_TH_COUNT] = {
    [GMK_TH_NONE] = 0,       [GMK_TH_THREE] = 600,        [GMK_TH_DOUBLE_THREE] = 6000,
    [GMK_TH_FOUR] = 900,     [GMK_TH_FOUR_THREE] = 20000, [GMK_TH_OPEN_FOUR] = 60000,
    [GMK_TH_FIVE] = 1000000, [GMK_TH_FORBID] = 0,
};
static const int defence_bonus[GMK_TH_COUNT] = {
    [GMK_TH_NONE] = 0,      [GMK_TH_THREE] = 300,        [GMK_TH_DOUBLE_THREE] = 3000,
    [GMK_TH_FOUR] = 400,    [GMK_TH_FOUR_THREE] = 10000, [GMK_TH_OPEN_FOUR] = 30000,
    [GMK_TH_FIVE] = 500000, [GMK_TH_FORBID] = 0,
};

/* A colour's shape at a cell, set by hand (the first weights of the evaluation, before they
 * were fitted): the threat search orders its moves by it and levels 1-2 evaluate with it.
 * The search's own order is the learned policy (policy.h). */
static const int16_t order_pattern_weight[GMK_PAT_COUNT] = {
    [GMK_PAT_DEAD] = 0, [GMK_PAT_OL] = 0,   [GMK_PAT_B1] = 1,  [GMK_PAT_F1] = 3,
    [GMK_PAT_B2] = 6,   [GMK_PAT_F2] = 16,  [GMK_PAT_B3] = 20, [GMK_PAT_F3] = 60,
    [GMK_PAT_B4] = 64,  [GMK_PAT_F4] = 256, [GMK_PAT_DF4] = 0, [GMK_PAT_F5] = 512,
};
static const int16_t order_threat_bonus[GMK_TH_COUNT] = {
    [GMK_TH_DOUBLE_THREE] = 160,
    [GMK_TH_FOUR_THREE] = 320,
    [GMK_TH_OPEN_FOUR] = 400,
};

int gmk_movegen_shape(const gmk_board *b, gmk_pos p, gmk_color c) {
    const gmk_cell *cell = &b->cell[p];
    gmk_threat t = (gmk_threat)cell->threat[c];
    if (t == GMK_TH_FORBID) return 0;
    int s = order_threat_bonus[t];
    for (int d = 0; d < GMK_DIRS; d++) s += order_pattern_weight[gmk_cell_pattern(cell, c, d)];
    return s;
}

/* The policy's line entries by rule, colour to move and a line's pair of patterns (the pair
 * holds black's pattern first; the policy's table the mover's). */
static int16_t policy_pair[GMK_RULE_COUNT][3][GMK_PAIR_COUNT];
static const gmk_policy_weights *policy_of[GMK_RULE_COUNT];
static pthread_once_t policy_once = PTHREAD_ONCE_INIT;

static void build_policy_pairs(void) {
    for (int rule = 0; rule < GMK_RULE_COUNT; rule++) {
        const gmk_policy_weights *w = policy_of[rule] = gmk_policy_for((gmk_rule)rule);
        for (int pair = 0; pair < GMK_PAIR_COUNT; pair++) {
            int black = gmk_pair_pattern((uint8_t)pair, GMK_BLACK);
            int white = gmk_pair_pattern((uint8_t)pair, GMK_WHITE);
            policy_pair[rule][GMK_BLACK][pair] = w->line[black * GMK_PAT_COUNT + white];
            policy_pair[rule][GMK_WHITE][pair] = w->line[white * GMK_PAT_COUNT + black];
        }
    }
}

/* The bonuses of the mover's threat and of the opponent's it blocks, plus the policy. */
static int order_score(const gmk_board *b, gmk_pos p, gmk_threat mine) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    const gmk_cell *cell = &b->cell[p];
    gmk_threat at_me = (gmk_threat)cell->threat[me], theirs = (gmk_threat)cell->threat[opp];
    const gmk_policy_weights *w = policy_of[b->rule];
    const int16_t *pairs = policy_pair[b->rule][me];
    return attack_bonus[mine] + defence_bonus[theirs] + pairs[cell->pair[0]] +
           pairs[cell->pair[1]] + pairs[cell->pair[2]] + pairs[cell->pair[3]] +
           w->mine_combo[cell->combo[me]] + w->theirs_combo[cell->combo[opp]] +
           w->mine_threat[at_me] + w->theirs_threat[theirs];
}

void gmk_movegen_order_by_hand(const gmk_board *b, gmk_scored_move *moves, int n) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    for (int i = 0; i < n; i++) {
        gmk_pos p = moves[i].pos;
        gmk_threat mine = gmk_movegen_threat(b, p, me);
        gmk_threat theirs = (gmk_threat)b->cell[p].threat[opp];
        moves[i].score = attack_bonus[mine] + defence_bonus[theirs] +
                         2 * gmk_movegen_shape(b, p, me) + gmk_movegen_shape(b, p, opp);
    }
}

/* Adds p if legal for the mover; returns the new count. */
static int add_move(const gmk_board *b, gmk_scored_move *out, int n, gmk_pos p) {
    gmk_color me = gmk_board_side(b);
    gmk_threat mine = (gmk_threat)b->cell[p].threat[me];
    if (mine == GMK_TH_FORBID) {
        mine = gmk_movegen_threat(b, p, me);
        if (mine == GMK_TH_FORBID) return n;
    }
    out[n].pos = p;
    out[n].score = order_score(b, p, mine);
    return n + 1;
}

static int opponent_big_threats(const gmk_board *b, gmk_color opp) {
    return b->count[opp][GMK_TH_OPEN_FOUR];
}

/* The direction d and offset k with r = q + k * gmk_dir_step[d], within the reach of q's line
 * keys; false when r is on no line of q or too far to change its keys. */
static bool line_offset(const gmk_board *b, gmk_pos q, gmk_pos r, int *d, int *k) {
    int dx = gmk_pos_x(r) - gmk_pos_x(q), dy = gmk_pos_y(r) - gmk_pos_y(q);
    if (dy == 0) {
        *d = 0, *k = dx;
    } else if (dx == 0) {
        *d = 1, *k = dy;
    } else if (dx == dy) {
        *d = 2, *k = dx;
    } else if (dx == -dy) {
        *d = 3, *k = dy;
    } else {
        return false;
    }
    return *k != 0 && *k <= b->reach && -*k <= b->reach;
}

/* Whether a stone of `me` at empty r takes away the open-four (or double-four) threat of opp at
 * q. Only q's line through r changes, so its new pattern there is one table read. */
static bool stops_at(const gmk_board *b, gmk_pos q, gmk_pos r, gmk_color me, gmk_color opp) {
    if (q == r) return true;
    int d, k;
    if (!line_offset(b, q, r, &d, &k)) return false;
    const gmk_cell *cell = &b->cell[q];
    uint32_t key = cell->key[d] | (uint32_t)me << gmk_key_shift(k);
    uint8_t was = gmk_cell_pattern(cell, opp, d);
    uint8_t now = gmk_pattern_lookup(b->tables, opp, key);
    int tally = (int)((cell->tally >> (opp == GMK_BLACK ? 0 : 16)) & 0xFFFF);
    tally += gmk_tally_weight[now] - gmk_tally_weight[was];
    return b->tables->threat_by_tally[opp][tally] != GMK_TH_OPEN_FOUR;
}

/* Moves that leave the opponent no open-four (or double-four) point, plus own fours.
 * A stone only weakens the opponent's lines, so a move stops every threat when it takes each
 * open-four point away (stops_at), with no make and undo. Renju is the exception when the
 * opponent is black: blocking one of two fours can turn a forbidden point into an open four, so
 * there each candidate is made and the threats counted. */
static int defences(gmk_board *b, gmk_scored_move *out) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    bool by_making = b->rule == GMK_RULE_RENJU && opp == GMK_BLACK;
    uint8_t seen[GMK_CELLS];
    memset(seen, 0, sizeof seen);
    gmk_pos cand[GMK_MAX_MOVES], threats[GMK_MAX_MOVES];
    int nc = 0, nt = 0;
    /* the board counts the points looked for, so each scan stops at the last one */
    int threats_left = b->count[opp][GMK_TH_OPEN_FOUR];
    for (int y = 0; y < b->size && threats_left > 0; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos q = gmk_pos_xy(x, y);
            if (b->stone[q] != GMK_EMPTY || b->cell[q].threat[opp] != GMK_TH_OPEN_FOUR) continue;
            threats[nt++] = q;
            threats_left--;
            for (int d = 0; d < GMK_DIRS; d++) {
                uint8_t pat = gmk_cell_pattern(&b->cell[q], opp, d);
                if (pat != GMK_PAT_F4 && pat != GMK_PAT_B4) continue;
                for (int k = -GMK_LINE_HALF; k <= GMK_LINE_HALF; k++) {
                    gmk_pos r = q + k * gmk_dir_step[d];
                    if (b->stone[r] != GMK_EMPTY || seen[r]) continue;
                    seen[r] = 1;
                    cand[nc++] = r;
                }
            }
        }
    int n = 0;
    for (int i = 0; i < nc; i++) {
        gmk_pos r = cand[i];
        if (!gmk_movegen_legal(b, r)) continue;
        bool stops = true;
        if (by_making) {
            gmk_board_make(b, r);
            stops = opponent_big_threats(b, opp) == 0;
            gmk_board_undo(b);
        } else {
            for (int j = 0; j < nt && stops; j++) stops = stops_at(b, threats[j], r, me, opp);
        }
        if (stops) n = add_move(b, out, n, r);
    }
    /* own fours: they force a reply and may win first */
    gmk_pos fours[GMK_MAX_MOVES];
    int nf = gmk_movegen_fours(b, me, fours);
    for (int f = 0; f < nf; f++) {
        bool dup = false;
        for (int i = 0; i < n; i++)
            if (out[i].pos == fours[f]) dup = true;
        if (!dup) n = add_move(b, out, n, fours[f]);
    }
    return n;
}

bool gmk_movegen_must_defend(const gmk_board *b) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    return b->count[opp][GMK_TH_OPEN_FOUR] > 0 && b->count[me][GMK_TH_FIVE] == 0 &&
           b->count[opp][GMK_TH_FIVE] == 0;
}

/* Whether the scan of gmk_movegen_generate looks at empty q (before the legality check). */
static inline bool near_or_four(const gmk_board *b, gmk_pos q, gmk_color me, gmk_color opp) {
    const gmk_cell *cell = &b->cell[q];
    return b->near[q] != 0 || cell->threat[me] >= GMK_TH_FOUR || cell->threat[opp] >= GMK_TH_FOUR;
}

bool gmk_movegen_is_candidate(const gmk_board *b, gmk_pos p) {
    if (!gmk_board_empty_at(b, p) || b->move_count == 0) return false;
    gmk_color me = gmk_board_side(b);
    return near_or_four(b, p, me, gmk_opponent(me)) && gmk_movegen_legal(b, p);
}

int gmk_movegen_generate(gmk_board *b, gmk_scored_move *out, bool *forced) {
    pthread_once(&policy_once, build_policy_pairs);
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    *forced = false;
    if (b->move_count == 0) {
        out[0].pos = gmk_pos_xy(b->size / 2, b->size / 2);
        out[0].score = 0;
        return 1;
    }
    if (gmk_movegen_must_defend(b)) {
        int n = defences(b, out);
        if (n > 0) {
            *forced = true;
            return n;
        }
    }
    int n = 0;
    for (int y = 0; y < b->size; y++) {
        gmk_pos q = gmk_pos_xy(0, y);
        for (int x = 0; x < b->size; x++, q++) {
            if (b->stone[q] != GMK_EMPTY || !near_or_four(b, q, me, opp)) continue;
            n = add_move(b, out, n, q);
        }
    }
    return n;
}

int gmk_movegen_all_legal(gmk_board *b, gmk_scored_move *out) {
    pthread_once(&policy_once, build_policy_pairs);
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos q = gmk_pos_xy(x, y);
            if (b->stone[q] == GMK_EMPTY) n = add_move(b, out, n, q);
        }
    return n;
}

void gmk_movegen_sort(gmk_scored_move *m, int n) {
    for (int i = 1; i < n; i++) {
        gmk_scored_move x = m[i];
        int j = i - 1;
        while (j >= 0 && (m[j].score < x.score || (m[j].score == x.score && m[j].pos > x.pos))) {
            m[j + 1] = m[j];
            j--;
        }
        m[j + 1] = x;
    }
}
