/* search.c: iterative deepening principal-variation alpha-beta (negamax) with aspiration
 * windows, a transposition table, move ordering (TT move, forced answers, threats, killers,
 * the learned policy and the running history of history.h), forced-move handling, the
 * selectivity of prune.h on every move (move counts, reductions, near-horizon pruning, reverse
 * futility, razoring), mate scores with their distance, and the threat-space solver at the
 * root and at the leaves, where the mover's fours near its last move are also searched. See
 * search.h. */
#include "search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/renju.h"
#include "core/rules.h"
#include "eval.h"
#include "history.h"
#include "movegen.h"
#include "prune.h"
#include "threat.h"
#include "timeman.h"
#include "tt.h"

enum { MAX_PLY = 128, MAX_DEPTH = 64, INF = 32000, THREAT_TABLE = 1 << 16 };
/* A killer's ordering bonus: under an open three of the mover (movegen's 600), so threats and
 * blocks keep their place. At 4000, above them, the first move cut 84% of the nodes that cut
 * (bench, depth 8); at 300, 95%, with a third fewer nodes. */
enum { KILLER_BONUS = 300 };
/* the threat quiescence at the leaves: VCF budget and depth, plies past the horizon, and
 * what a threat that no listed defence stops costs */
enum { LEAF_VCF_NODES = 60, LEAF_VCF_FOURS = 10, LEAF_PLIES = 2, LEAF_THREAT_PENALTY = 3000 };
/* the quiescence's fours: how many levels past the horizon, and from which level on only fours
 * that also make a three */
enum { LEAF_FOUR_LEVELS = 6, LEAF_FOUR_THREE_FROM = 2 };
/* root moves searched at full depth before the reductions of prune.h apply at the root too */
enum { ROOT_FULL_MOVES = 2 };

struct gmk_searcher {
    gmk_tt own_tt; /* the table of a main searcher; helpers leave it empty */
    gmk_tt *tt;    /* own_tt, or the main searcher's (Lazy SMP helpers share it) */
    int helper;    /* 0: the main searcher; k > 0: helper k */
    gmk_threat_ctx threat;
    gmk_board b;
    gmk_board_journal *journal; /* b's undo journal */
    gmk_history history;
    gmk_pos killers[MAX_PLY][2];
    int static_eval[MAX_PLY]; /* each node's static evaluation, for "improving" */
    gmk_pos pv[MAX_PLY][MAX_PLY];
    int pv_len[MAX_PLY];
    /* this search */
    gmk_limits limits;
    gmk_time_budget budget;
    double start_s;
    atomic_bool *stop;
    bool stopped;
    int64_t nodes;
    int seldepth;
    int64_t stop_ms;    /* elapsed time at which the search stops (the hard limit or less) */
    int64_t next_check; /* search + solver nodes at which to look at the clock next */
    int root_done;      /* root moves fully searched in the current root pass */
    gmk_pos excluded[GMK_MAX_NBEST]; /* root moves already reported (multi-PV) */
    int nexcluded;
    bool root_forced; /* the root's list holds only defences */
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int64_t elapsed_ms(const gmk_searcher *s) {
    return (int64_t)((now_s() - s->start_s) * 1000.0);
}

gmk_searcher *gmk_searcher_new(size_t memory_bytes) {
    gmk_searcher *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    size_t threat_bytes = THREAT_TABLE * 9 + gmk_board_journal_bytes();
    size_t tt_bytes = memory_bytes > threat_bytes + sizeof *s + (1u << 20)
                          ? memory_bytes - threat_bytes - sizeof *s - (1u << 20)
                          : 1u << 16;
    s->tt = &s->own_tt;
    s->journal = gmk_board_journal_new();
    if (!s->journal || !gmk_tt_init(&s->own_tt, tt_bytes) ||
        !gmk_threat_ctx_init(&s->threat, THREAT_TABLE)) {
        gmk_searcher_free(s);
        return NULL;
    }
    return s;
}

gmk_searcher *gmk_searcher_new_helper(gmk_searcher *main_searcher, int k) {
    gmk_searcher *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->tt = main_searcher->tt;
    s->helper = k;
    s->journal = gmk_board_journal_new();
    if (!s->journal || !gmk_threat_ctx_init(&s->threat, THREAT_TABLE)) {
        gmk_searcher_free(s);
        return NULL;
    }
    return s;
}

int64_t gmk_searcher_nodes(const gmk_searcher *s) {
    return s->nodes + s->threat.nodes;
}

void gmk_searcher_free(gmk_searcher *s) {
    if (!s) return;
    gmk_tt_free(&s->own_tt);
    gmk_threat_ctx_free(&s->threat);
    gmk_board_journal_free(s->journal);
    free(s);
}

bool gmk_searcher_resize(gmk_searcher *s, size_t memory_bytes) {
    size_t fixed = THREAT_TABLE * 9 + sizeof *s + (1u << 20);
    size_t tt_bytes = memory_bytes > fixed ? memory_bytes - fixed : 1u << 16;
    return gmk_tt_init(&s->own_tt, tt_bytes);
}

size_t gmk_searcher_memory_bytes(const gmk_searcher *s) {
    return sizeof *s + gmk_tt_bytes(&s->own_tt) + (s->threat.mask + 1) * 9;
}

void gmk_searcher_clear(gmk_searcher *s) {
    if (s->helper == 0) gmk_tt_clear(&s->own_tt);
    gmk_threat_ctx_clear(&s->threat);
    gmk_history_clear(&s->history);
    memset(s->killers, 0xFF, sizeof s->killers);
}

int64_t gmk_searcher_stop_ms(const gmk_searcher *s) {
    return s->stop_ms;
}

static bool check_stop(gmk_searcher *s) {
    if (s->stopped) return true;
    if (s->limits.nodes && s->nodes >= s->limits.nodes) s->stopped = true;
    /* the clock every 1024 nodes of search and threat solver together: a leaf's threat
     * quiescence may spend a hundred solver nodes on one search node */
    int64_t total = s->nodes + s->threat.nodes;
    if (total >= s->next_check) {
        s->next_check = total + 1024;
        if (atomic_load(s->stop)) s->stopped = true;
        if (s->stop_ms && elapsed_ms(s) >= s->stop_ms) s->stopped = true;
    }
    return s->stopped;
}

static int score_to_tt(int score, int ply) {
    if (score >= GMK_SCORE_MATE_BOUND) return score + ply;
    if (score <= -GMK_SCORE_MATE_BOUND) return score - ply;
    return score;
}

static int score_from_tt(int score, int ply) {
    if (score >= GMK_SCORE_MATE_BOUND) return score - ply;
    if (score <= -GMK_SCORE_MATE_BOUND) return score + ply;
    return score;
}

/* Wins and losses that need no search, for the side to move at this ply; INF if none. */
static int immediate_result(gmk_searcher *s, int ply) {
    gmk_board *b = &s->b;
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    if (b->count[me][GMK_TH_FIVE] > 0) return GMK_SCORE_WIN - (ply + 1);
    if (b->count[opp][GMK_TH_FIVE] > 1) return -(GMK_SCORE_WIN - (ply + 2));
    if (b->count[opp][GMK_TH_FIVE] == 0 && b->count[me][GMK_TH_OPEN_FOUR] > 0) {
        /* an open four or double four wins unless it is a renju foul; foul candidates are
         * coded GMK_TH_FORBID, never GMK_TH_OPEN_FOUR, so the cell is legal */
        return GMK_SCORE_WIN - (ply + 3);
    }
    if (gmk_board_full(b)) return 0;
    return INF;
}

static void update_pv(gmk_searcher *s, int ply, gmk_pos move) {
    s->pv[ply][0] = move;
    int n = ply + 1 < MAX_PLY ? s->pv_len[ply + 1] : 0;
    if (n > MAX_PLY - 1) n = MAX_PLY - 1;
    memcpy(&s->pv[ply][1], &s->pv[ply + 1][0], (size_t)n * sizeof(gmk_pos));
    s->pv_len[ply] = n + 1;
}

static int search(gmk_searcher *s, int ply, int depth, int alpha, int beta, bool pv_node);

/* Whether colour c has a four-three or an open-four point: then a short VCF is worth trying
 * (any four was too dear: 3.3x the nodes at a fixed depth, and 9-11 in 20 games). */
static bool has_threats(const gmk_board *b, gmk_color c) {
    return b->count[c][GMK_TH_FOUR_THREE] + b->count[c][GMK_TH_OPEN_FOUR] > 0;
}

/* A short VCF for colour c (whether or not it is to move); fills seq. */
static bool short_vcf(gmk_searcher *s, gmk_color c, gmk_pos *seq, int *len) {
    gmk_board *b = &s->b;
    gmk_color side = b->side;
    b->side = c; /* a pass when c is not to move; undo restores it, the hash ignores it */
    s->threat.node_limit = s->threat.nodes + LEAF_VCF_NODES;
    bool win = gmk_vcf(b, &s->threat, LEAF_VCF_FOURS, seq, len);
    b->side = side;
    return win;
}

static bool near_own_last(const gmk_board *b, gmk_pos p) {
    gmk_pos last = b->moves[b->move_count - 2];
    int dx = abs(gmk_pos_x(p) - gmk_pos_x(last)), dy = abs(gmk_pos_y(p) - gmk_pos_y(last));
    return (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && (dx > dy ? dx : dy) <= 4);
}

/* A quiet leaf: stand pat on the evaluation, or play one of the mover's fours near its own
 * last move (in the square of 2 or on its lines within 4); the forced block is searched as a
 * single reply and the next leaf comes a level deeper. LEAF_FOUR_LEVELS levels at most, and
 * from LEAF_FOUR_THREE_FROM on only fours that also make a three. */
static int quiesce_fours(gmk_searcher *s, int ply, int depth, int alpha, int beta) {
    gmk_board *b = &s->b;
    gmk_color me = gmk_board_side(b);
    int best = gmk_eval(b);
    if (best >= beta || depth <= -LEAF_FOUR_LEVELS || ply >= MAX_PLY - 8 || b->move_count < 2)
        return best;
    gmk_pos fours[GMK_MAX_MOVES];
    int nf = gmk_movegen_fours(b, me, fours);
    for (int f = 0; f < nf && best < beta; f++) {
        gmk_pos p = fours[f];
        if (!near_own_last(b, p)) continue;
        if (depth <= -LEAF_FOUR_THREE_FROM && b->cell[p].threat[me] != GMK_TH_FOUR_THREE) continue;
        gmk_board_make(b, p);
        int score = -search(s, ply + 1, depth - 1, -beta, -(alpha > best ? alpha : best), false);
        gmk_board_undo(b);
        if (s->stopped) return 0;
        if (score > best) best = score;
    }
    return best;
}

/* Leaf (depth <= 0): a threat quiescence. The mover's short VCF wins; when the opponent has
 * one (it would win if the mover passed), the position is not quiet: the defences (the
 * points of that VCF, the mover's fours, or every block of an open three) are searched a ply
 * deeper, down to LEAF_PLIES past the horizon. Otherwise the static evaluation. As the
 * defences tried are not every move, a loss found here is reported as a large evaluation,
 * never as a proved loss. */
static int leaf(gmk_searcher *s, int ply, int depth, int alpha, int beta) {
    gmk_board *b = &s->b;
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    if (s->limits.shape_only) return gmk_eval_hand(b);
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len;
    if (has_threats(b, me) && short_vcf(s, me, seq, &len)) return GMK_SCORE_WIN - (ply + len + 2);
    if (depth <= -LEAF_PLIES || ply >= MAX_PLY - 4 || !has_threats(b, opp) ||
        !short_vcf(s, opp, seq, &len))
        return quiesce_fours(s, ply, depth, alpha, beta);
    gmk_scored_move moves[GMK_MAX_MOVES];
    bool forced = false;
    int n = 0;
    if (b->count[opp][GMK_TH_OPEN_FOUR] > 0) n = gmk_movegen_generate(b, moves, &forced);
    if (!forced) {
        n = 0;
        for (int i = 0; i < len; i++) {
            gmk_pos q = seq[i];
            bool dup = false;
            for (int j = 0; j < n; j++) dup |= moves[j].pos == q;
            if (!dup && gmk_movegen_legal(b, q)) {
                moves[n].pos = q;
                moves[n++].score = 0;
            }
        }
        gmk_pos fours[GMK_MAX_MOVES];
        int nf = gmk_movegen_fours(b, me, fours);
        for (int f = 0; f < nf; f++) {
            bool dup = false;
            for (int j = 0; j < n; j++) dup |= moves[j].pos == fours[f];
            if (!dup) {
                moves[n].pos = fours[f];
                moves[n++].score = 0;
            }
        }
    }
    int best = -INF;
    for (int i = 0; i < n && best < beta; i++) {
        gmk_tt_prefetch(s->tt, b->hash ^ gmk_zobrist(gmk_board_side(b), moves[i].pos));
        gmk_board_make(b, moves[i].pos);
        int score = -search(s, ply + 1, depth - 1, -beta, -(alpha > best ? alpha : best), false);
        gmk_board_undo(b);
        if (s->stopped) return 0;
        if (score > best) best = score;
    }
    if (best <= -GMK_SCORE_MATE_BOUND || n == 0) {
        /* no listed defence holds; an unlisted one might */
        int v = gmk_eval(b) - LEAF_THREAT_PENALTY;
        return v < -GMK_EVAL_LIMIT ? -GMK_EVAL_LIMIT : v;
    }
    return best;
}

/* Generates the node's moves after the first `have` already in moves (the table's move, when
 * the node is staged, which is then left out of the new ones) and gives each its ordering
 * score: movegen's, the table's move first, the killers, the history. Returns the count. */
static int generate(gmk_searcher *s, int ply, gmk_scored_move *moves, int have, gmk_pos tt_move,
                    bool *forced) {
    gmk_board *b = &s->b;
    int n = gmk_movegen_generate(b, moves + have, forced);
    if (have) {
        for (int i = 0; i < n; i++)
            if (moves[have + i].pos == moves[0].pos) {
                moves[have + i] = moves[have + n - 1];
                n--;
                break;
            }
    }
    if (s->limits.shape_only) gmk_movegen_order_by_hand(b, moves + have, n); /* levels 1-2 */
    for (int i = have; i < have + n; i++) {
        gmk_pos p = moves[i].pos;
        if (p == tt_move)
            moves[i].score += 1 << 24;
        else if (p == s->killers[ply][0])
            moves[i].score += KILLER_BONUS;
        else if (p == s->killers[ply][1])
            moves[i].score += KILLER_BONUS * 3 / 4;
        moves[i].score += gmk_history_order(&s->history, b, p);
    }
    int cap = s->limits.max_candidates;
    if (cap > 0 && n > cap && !*forced) {
        gmk_movegen_sort(moves + have, n);
        n = cap;
    }
    return have + n;
}

static int search(gmk_searcher *s, int ply, int depth, int alpha, int beta, bool pv_node) {
    gmk_board *b = &s->b;
    s->pv_len[ply] = 0;
    s->nodes++;
    if (ply > s->seldepth) s->seldepth = ply;
    if (check_stop(s)) return 0;
    int imm = immediate_result(s, ply);
    if (imm != INF) return imm;
    /* mate distance pruning */
    int mate_hi = GMK_SCORE_WIN - (ply + 1);
    if (beta > mate_hi) {
        beta = mate_hi;
        if (alpha >= beta) return beta;
    }
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    bool must_block = b->count[opp][GMK_TH_FIVE] == 1;
    if (depth <= 0 && !must_block) return leaf(s, ply, depth, alpha, beta);
    if (ply >= MAX_PLY - 2) return s->limits.shape_only ? gmk_eval_hand(b) : gmk_eval(b);

    const gmk_tt_entry *te = gmk_tt_probe(s->tt, b->hash);
    gmk_pos tt_move = GMK_POS_NONE;
    if (te) {
        tt_move = te->move;
        int ts = score_from_tt(te->score, ply);
        gmk_bound bound = (gmk_bound)(te->bound_gen & 3);
        if (!pv_node && te->depth >= depth &&
            (bound == GMK_BOUND_EXACT || (bound == GMK_BOUND_LOWER && ts >= beta) ||
             (bound == GMK_BOUND_UPPER && ts <= alpha)))
            return ts;
    }

    gmk_scored_move moves[GMK_MAX_MOVES];
    int n = 0;
    bool forced = false;
    /* staged: the table's move is searched before the others are generated (the order is the
     * same: it would come first); not under a threat, where the list is narrowed, nor for the
     * levels that order by hand or cap the list */
    bool staged = !must_block && !s->limits.shape_only && s->limits.max_candidates <= 0 &&
                  !gmk_movegen_must_defend(b);
    bool generated = !staged;
    if (must_block) {
        /* the opponent's five point: the only move (forced moves do not use up depth) */
        n = 0;
        for (int y = 0; y < b->size && !n; y++)
            for (int x = 0; x < b->size; x++) {
                gmk_pos q = gmk_pos_xy(x, y);
                if (b->stone[q] == GMK_EMPTY && b->cell[q].threat[opp] == GMK_TH_FIVE) {
                    moves[n].pos = q;
                    moves[n++].score = 0;
                    break;
                }
            }
        if (n == 0 || !gmk_movegen_legal(b, moves[0].pos))
            return -(GMK_SCORE_WIN - (ply + 2)); /* renju: black cannot block */
        forced = true;
        /* at or past the horizon the block keeps the depth (a single reply is extended), so
         * the threat quiescence stays bounded */
    } else if (staged) {
        /* the table's move first, the others generated only when it does not cut */
        if (gmk_movegen_is_candidate(b, tt_move)) {
            moves[0].pos = tt_move;
            moves[0].score = 0;
            n = 1;
        }
    } else {
        n = generate(s, ply, moves, 0, tt_move, &forced);
        if (n == 0) return -(GMK_SCORE_WIN - (ply + 2));
    }

    int best = -INF, orig_alpha = alpha;
    gmk_pos best_move = GMK_POS_NONE;
    /* the selectivity reads the static evaluation (levels 1-2 take none and prune only by
     * their older rule); a single block keeps its parent's, seen from this side */
    bool selective = !s->limits.shape_only;
    gmk_prune_node node = {.pv_node = pv_node, .forced = forced, .improving = true};
    int static_eval = 0;
    int move_limit = GMK_MAX_MOVES;
    if (selective) {
        static_eval = must_block && ply > 0 ? -s->static_eval[ply - 1] : gmk_eval(b);
        s->static_eval[ply] = static_eval;
        node.improving = ply < 2 || static_eval > s->static_eval[ply - 2];
        if (!must_block) move_limit = gmk_prune_move_limit(depth, node.improving);
        if (!pv_node && !forced && !must_block && ply > 0) {
            if (abs(beta) < GMK_SCORE_MATE_BOUND &&
                static_eval - gmk_prune_reverse_futility_margin(depth, node.improving) >= beta)
                return static_eval;
            int razor = gmk_prune_razor_margin(depth);
            if (razor >= 0 && abs(alpha) < GMK_SCORE_MATE_BOUND && static_eval + razor < alpha)
                return leaf(s, ply, 0, alpha, alpha + 1);
        }
    }
    /* futility pruning of quiet moves, near the leaves */
    if (pv_node || forced || depth > GMK_PRUNE_FUTILITY_DEPTH) selective = false;
    gmk_history_tried tried = {.nattack = 0, .nquiet = 0};
    for (int i = 0;; i++) {
        if (i == n) {
            if (generated) break;
            generated = true;
            n = generate(s, ply, moves, n, tt_move, &forced);
            if (n == 0) return -(GMK_SCORE_WIN - (ply + 2));
            if (i == n) break;
        }
        /* pick the best remaining move (most nodes cut after one or two) */
        int pick = i;
        for (int j = i + 1; j < n; j++)
            if (moves[j].score > moves[pick].score ||
                (moves[j].score == moves[pick].score && moves[j].pos < moves[pick].pos))
                pick = j;
        gmk_scored_move chosen = moves[pick];
        moves[pick] = moves[i];
        moves[i] = chosen;
        gmk_pos p = chosen.pos;
        bool quiet = !forced && gmk_prune_is_quiet(b, p);
        /* move-count pruning: far down the list, quiet moves are not worth a look (once a
         * move holds: a node where every move loses is searched in full) */
        bool late = s->limits.shape_only /* levels 1-2 keep their older rule */
                        ? quiet && !pv_node && i >= 6 + 3 * depth
                        : gmk_prune_late_move(b, p, depth, i, pv_node, forced);
        if (late && best > -GMK_SCORE_MATE_BOUND) continue;
        /* move counts and the near-horizon rule, once a move holds */
        if (ply > 0 && i + 1 >= move_limit && best > -GMK_SCORE_MATE_BOUND) break;
        if (ply > 0 && !must_block && !s->limits.shape_only && best > -GMK_SCORE_MATE_BOUND &&
            gmk_prune_near_horizon(b, p, depth, i, &node))
            continue;
        if (selective && gmk_prune_futile(b, p, depth, i, static_eval, alpha, pv_node, forced)) {
            int bound = gmk_prune_futility_value(b, depth, static_eval);
            if (bound > best) best = bound;
            continue;
        }
        bool killer = p == s->killers[ply][0] || p == s->killers[ply][1];
        int r = s->limits.shape_only || must_block
                    ? 0
                    : gmk_prune_reduction(b, p, depth, i, &node, killer,
                                          gmk_history_stat(&s->history, me, p));
        gmk_tt_prefetch(s->tt, b->hash ^ gmk_zobrist(gmk_board_side(b), p));
        gmk_board_make(b, p);
        int child_depth = depth - 1;
        if (forced && n == 1) child_depth = depth; /* single reply: extend */
        int score;
        if (i == 0) {
            score = -search(s, ply + 1, child_depth, -beta, -alpha, pv_node);
        } else {
            score = -search(s, ply + 1, child_depth - r, -alpha - 1, -alpha, false);
            if (score > alpha && r > 0)
                score = -search(s, ply + 1, child_depth, -alpha - 1, -alpha, false);
            if (score > alpha && score < beta)
                score = -search(s, ply + 1, child_depth, -beta, -alpha, true);
        }
        gmk_board_undo(b);
        if (s->stopped) return best > -INF ? best : 0;
        if (score < beta) gmk_history_note_tried(&tried, b, p, forced);
        if (score > best) {
            best = score;
            best_move = p;
            if (score > alpha) {
                alpha = score;
                update_pv(s, ply, p);
                if (alpha >= beta) {
                    gmk_history_cut(&s->history, b, p, forced, depth, &tried);
                    if (!forced && !gmk_history_is_attack(b, p) && s->killers[ply][0] != p) {
                        s->killers[ply][1] = s->killers[ply][0];
                        s->killers[ply][0] = p;
                    }
                    break;
                }
            }
        }
    }
    gmk_bound bound = best >= beta        ? GMK_BOUND_LOWER
                      : best > orig_alpha ? GMK_BOUND_EXACT
                                          : GMK_BOUND_UPPER;
    gmk_tt_store(s->tt, b->hash, best_move, score_to_tt(best, ply), 0, depth, bound);
    return best;
}

typedef struct {
    gmk_pos pos;
    int score; /* last completed iteration, exact or a bound */
    int pv_len;
    gmk_pos pv[GMK_MAX_PV];
} root_move;

static bool excluded(const gmk_searcher *s, gmk_pos p) {
    for (int i = 0; i < s->nexcluded; i++)
        if (s->excluded[i] == p) return true;
    return false;
}

/* One root iteration over the moves not excluded; returns the best score, fills the best
 * move first. full_window: exact scores for every move (for choosing among near-equals). */
static int search_root(gmk_searcher *s, root_move *rm, int n, int depth, int alpha, int beta,
                       bool full_window) {
    gmk_board *b = &s->b;
    int best = -INF;
    s->nodes++;
    s->root_done = 0;
    for (int i = 0; i < n; i++) {
        if (excluded(s, rm[i].pos)) continue;
        bool five = b->cell[rm[i].pos].threat[b->side] == GMK_TH_FIVE;
        int r = 0;
        if (!five && i >= ROOT_FULL_MOVES && !full_window && !s->limits.shape_only) {
            gmk_prune_node node = {.pv_node = true, .forced = s->root_forced, .improving = true};
            r = gmk_prune_reduction(b, rm[i].pos, depth, i, &node, false,
                                    gmk_history_stat(&s->history, b->side, rm[i].pos));
        }
        gmk_board_make(b, rm[i].pos);
        int score;
        if (five) {
            score = GMK_SCORE_WIN - 1;
            s->pv_len[1] = 0;
        } else if (best == -INF || full_window) {
            score = -search(s, 1, depth - 1, -beta, -alpha, true);
        } else {
            /* a null window, reduced from the third move on; a fail high is searched again
             * at full depth, then with the full window */
            score = -search(s, 1, depth - 1 - r, -alpha - 1, -alpha, false);
            if (score > alpha && r > 0 && !s->stopped)
                score = -search(s, 1, depth - 1, -alpha - 1, -alpha, false);
            if (score > alpha && score < beta && !s->stopped)
                score = -search(s, 1, depth - 1, -beta, -alpha, true);
        }
        gmk_board_undo(b);
        if (s->stopped) break;
        s->root_done++;
        rm[i].score = score;
        if (score > best) {
            best = score;
            rm[i].pv[0] = rm[i].pos;
            int len = s->pv_len[1] < GMK_MAX_PV - 1 ? s->pv_len[1] : GMK_MAX_PV - 1;
            memcpy(&rm[i].pv[1], s->pv[1], (size_t)len * sizeof(gmk_pos));
            rm[i].pv_len = len + 1;
            /* move it to the front, keeping the others in order */
            root_move tmp = rm[i];
            memmove(&rm[1], &rm[0], (size_t)i * sizeof *rm);
            rm[0] = tmp;
            if (!full_window && score > alpha) alpha = score;
            if (alpha >= beta) break;
        } else {
            rm[i].pv_len = 1;
            rm[i].pv[0] = rm[i].pos;
        }
    }
    return best;
}

static void fill_line(gmk_line *line, const root_move *rm) {
    line->move = rm->pos;
    line->score = rm->score;
    line->pv_len = rm->pv_len;
    memcpy(line->pv, rm->pv, (size_t)rm->pv_len * sizeof(gmk_pos));
}

static void report(gmk_searcher *s, gmk_search_result *out, const gmk_listener *listener) {
    out->nodes = s->nodes + s->threat.nodes;
    out->time_ms = elapsed_ms(s);
    out->seldepth = s->seldepth;
    if (listener && listener->on_iteration) listener->on_iteration(out, listener->ctx);
}

/* Threat-space check before the search: a proved win is played at once. */
static bool root_threats(gmk_searcher *s, gmk_search_result *out) {
    if (s->limits.shape_only) return false;
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len = 0;
    s->threat.node_limit = s->threat.nodes + 200000;
    bool win = gmk_vcf(&s->b, &s->threat, 30, seq, &len);
    if (!win && s->b.move_count >= 4) {
        s->threat.node_limit = s->threat.nodes + 50000;
        win = gmk_vct(&s->b, &s->threat, 5, seq, &len);
    }
    if (!win || len == 0) return false;
    /* the sequence ends with a five, or with an open four that needs two more plies */
    gmk_board *b = &s->b;
    gmk_color me = b->side;
    for (int i = 0; i < len; i++) gmk_board_make(b, seq[i]);
    bool five = gmk_rules_five_at(b, seq[len - 1], me, NULL, NULL);
    for (int i = 0; i < len; i++) gmk_board_undo(b);
    int plies = five ? len : len + 2;
    out->best = seq[0];
    out->score = GMK_SCORE_WIN - plies;
    out->depth = len;
    out->nlines = 1;
    gmk_line *l = &out->lines[0];
    l->move = seq[0];
    l->score = out->score;
    l->pv_len = len < GMK_MAX_PV ? len : GMK_MAX_PV;
    memcpy(l->pv, seq, (size_t)l->pv_len * sizeof(gmk_pos));
    return true;
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

void gmk_searcher_run(gmk_searcher *s, const gmk_board *board, const gmk_limits *limits,
                      const gmk_listener *listener, atomic_bool *stop, gmk_search_result *out) {
    memset(out, 0, sizeof *out);
    out->best = GMK_POS_NONE;
    memcpy(&s->b, board, sizeof *board);
    gmk_board_attach_journal(&s->b, s->journal);
    s->limits = *limits;
    s->stop = stop;
    s->stopped = false;
    s->nodes = 0;
    s->next_check = 0;
    s->seldepth = 0;
    s->nexcluded = 0;
    s->start_s = now_s();
    s->budget = gmk_timeman_budget(limits, board->move_count);
    s->stop_ms = gmk_timeman_stop_ms(&s->budget);
    s->threat.stop = stop;
    s->threat.nodes = 0;
    s->threat.deadline_s = s->stop_ms ? s->start_s + (double)s->stop_ms / 1000.0 : 0;
    memset(s->killers, 0xFF, sizeof s->killers);
    if (s->helper == 0) gmk_tt_new_search(s->tt);
    gmk_board *b = &s->b;

    root_move *rm = calloc(GMK_MAX_MOVES, sizeof *rm);
    gmk_scored_move gen[GMK_MAX_MOVES];
    if (!rm) return;
    bool forced = false;
    int n = b->count[gmk_opponent(b->side)][GMK_TH_FIVE] > 0
                ? 0
                : gmk_movegen_generate(b, gen, &forced);
    if (n == 0) n = gmk_movegen_all_legal(b, gen); /* must block, or nothing sensible: all */
    s->root_forced = forced;
    if (limits->shape_only) gmk_movegen_order_by_hand(b, gen, n);
    if (b->count[gmk_opponent(b->side)][GMK_TH_FIVE] > 0) {
        /* keep only the blocks of the opponent's five when there are any */
        int k = 0;
        for (int i = 0; i < n; i++)
            if (b->cell[gen[i].pos].threat[gmk_opponent(b->side)] == GMK_TH_FIVE ||
                b->cell[gen[i].pos].threat[b->side] == GMK_TH_FIVE)
                gen[k++] = gen[i];
        if (k > 0) n = k;
    }
    gmk_movegen_sort(gen, n);
    if (n == 0) {
        free(rm);
        return; /* no legal move at all */
    }
    for (int i = 0; i < n; i++) {
        rm[i].pos = gen[i].pos;
        rm[i].pv[0] = gen[i].pos;
        rm[i].pv_len = 1;
    }
    int cap = limits->max_candidates;
    if (cap > 0 && n > cap && !forced) n = cap;
    out->best = rm[0].pos;
    out->nlines = 1;
    fill_line(&out->lines[0], &rm[0]);

    if (n == 1 || root_threats(s, out)) {
        out->depth = out->depth ? out->depth : 1;
        report(s, out, listener);
        free(rm);
        return;
    }

    int max_depth = limits->depth > 0 ? limits->depth : MAX_DEPTH;
    if (max_depth > MAX_DEPTH) max_depth = MAX_DEPTH;
    int nbest = limits->nbest > 1 ? limits->nbest : 1;
    if (nbest > GMK_MAX_NBEST) nbest = GMK_MAX_NBEST;
    if (nbest > n) nbest = n;
    bool choose = limits->choose_margin > 0;
    int prev_score = 0;
    gmk_pos prev_best = GMK_POS_NONE;
    int stable = 0;
    int64_t iter_start = 0, last_iter_ms = 0, prev_iter_ms = 0;
    /* Lazy SMP: odd helpers start a ply deeper, so the threads spread over the depths */
    for (int depth = 1 + (s->helper & 1); depth <= max_depth; depth++) {
        gmk_search_result iter = *out;
        iter.nlines = 0;
        s->nexcluded = 0;
        bool complete = true;
        iter_start = elapsed_ms(s);
        for (int line = 0; line < nbest; line++) {
            int score;
            if (depth >= 5 && line == 0 && !choose && abs(prev_score) < GMK_SCORE_MATE_BOUND) {
                int window = 60;
                int lo = prev_score - window, hi = prev_score + window;
                for (;;) {
                    score = search_root(s, rm, n, depth, lo, hi, false);
                    if (s->stopped) break;
                    if (score <= lo)
                        lo = lo - window * 4 < -INF ? -INF : lo - window * 4;
                    else if (score >= hi)
                        hi = hi + window * 4 > INF ? INF : hi + window * 4;
                    else
                        break;
                    window *= 4;
                }
            } else {
                /* multi-PV: search the moves not reported yet; rm[line..] hold them */
                score = search_root(s, rm + line, n - line, depth, -INF, INF, choose);
            }
            if (s->stopped) {
                complete = false;
                break;
            }
            (void)score;
            fill_line(&iter.lines[line], &rm[line]);
            iter.nlines = line + 1;
            s->excluded[s->nexcluded++] = rm[line].pos;
        }
        /* an unfinished iteration does not count: after a fail low its window is wide
         * open, and a move that merely beat -infinity there would be played */
        if (!complete && depth > 1) break;
        iter.best = iter.lines[0].move;
        iter.score = iter.lines[0].score;
        iter.depth = depth;
        *out = iter;
        report(s, out, listener);
        if (!complete) break;
        if (abs(out->score) >= GMK_SCORE_MATE_BOUND && depth >= 2 &&
            GMK_SCORE_WIN - abs(out->score) <= depth)
            break; /* proved */
        /* time: stop early when the best move is stable, later when it keeps changing */
        if (out->best == prev_best)
            stable++;
        else
            stable = 0;
        int factor = stable >= 3 ? 60 : stable == 0 ? 140 : 100;
        if (prev_score - out->score > 80) factor += 60;
        prev_best = out->best;
        prev_score = out->score;
        /* start the next iteration while its predicted time fits in the target; an
         * unfinished one still counts (above), so a share of it is enough */
        int64_t now = elapsed_ms(s);
        prev_iter_ms = last_iter_ms;
        last_iter_ms = now - iter_start;
        if (limits->time_left_ms <= 0) {
            /* a fixed time a move cannot be saved for later moves: use it (an unfinished
             * iteration still counts once its first move is searched); no new iteration
             * after 80% of the hard limit (the running one stops at 95%) */
            if (s->budget.hard_ms && now >= s->budget.hard_ms * 8 / 10) break;
        } else if (!gmk_timeman_next_fits(&s->budget, factor, now, last_iter_ms, prev_iter_ms)) {
            break;
        }
        if (limits->nodes && s->nodes >= limits->nodes) break;
    }
    if (choose && n > 1 && out->nlines > 0) { /* no line: stopped before any was searched */
        /* among root moves within the margin of the best, pick one by the seed */
        int best = out->lines[0].score;
        int k = 0;
        gmk_pos pick[GMK_MAX_MOVES];
        for (int i = 0; i < n; i++)
            if (rm[i].score >= best - limits->choose_margin &&
                abs(rm[i].score) < GMK_SCORE_MATE_BOUND)
                pick[k++] = rm[i].pos;
        if (k > 1 && abs(best) < GMK_SCORE_MATE_BOUND) {
            gmk_pos chosen = pick[mix(limits->seed ^ b->hash) % (uint64_t)k];
            for (int i = 0; i < n; i++)
                if (rm[i].pos == chosen) {
                    /* report the move played first, with its own score and line; the other
                     * lines follow in their order (none lost, none twice) */
                    out->best = chosen;
                    out->score = rm[i].score;
                    int at = 0;
                    while (at < out->nlines && out->lines[at].move != chosen) at++;
                    if (at == out->nlines) at = out->nlines - 1; /* the last line makes room */
                    memmove(&out->lines[1], &out->lines[0], (size_t)at * sizeof out->lines[0]);
                    fill_line(&out->lines[0], &rm[i]);
                }
        }
    }
    out->nodes = s->nodes + s->threat.nodes;
    out->time_ms = elapsed_ms(s);
    out->seldepth = s->seldepth;
    free(rm);
}
