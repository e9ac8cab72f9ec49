/* puzzle.c: puzzles (puzzle.h). */
#include "game/puzzle.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "game/glicko2.h"

/* Node budgets of the solver: finding a win by fours, checking one; finding a win by threes and
 * fours (at most VCT_DEPTH threats), checking one. */
enum { NODES = 60000, NODES_CHECK = 20000, VCT_NODES = 100000, VCT_CHECK = 40000, VCT_DEPTH = 8 };

const char *gmk_puzzle_kind_name(gmk_puzzle_kind k) {
    return k == GMK_PUZZLE_DEFENCE ? "defence" : k == GMK_PUZZLE_THREES ? "threes" : "fours";
}

bool gmk_puzzle_kind_parse(const char *name, gmk_puzzle_kind *out) {
    for (int k = 0; k < GMK_PUZZLE_KINDS && name; k++)
        if (strcmp(name, gmk_puzzle_kind_name((gmk_puzzle_kind)k)) == 0) {
            *out = (gmk_puzzle_kind)k;
            return true;
        }
    return false;
}

const char *gmk_puzzle_grade(int length) {
    return length <= 3 ? "easy" : length <= 6 ? "medium" : "hard";
}

int gmk_puzzle_rating(const gmk_puzzle *p) {
    int r = p->kind == GMK_PUZZLE_DEFENCE  ? 1100 + 100 * p->length
            : p->kind == GMK_PUZZLE_THREES ? 1200 + 120 * p->length
                                           : 900 + 120 * p->length;
    if (p->rule == GMK_RULE_RENJU) r += 50;
    return r;
}

void gmk_puzzle_board(const gmk_puzzle *p, gmk_board *out) {
    gmk_board_init(out, 15, p->rule);
    for (int i = 0; i < p->count; i++) gmk_board_make(out, p->moves[i]);
}

/* The solver for the side to move, from a cleared table and within `nodes`: a win by fours
 * (VCF, 40 fours deep) or, with threes, by threes and fours (VCT, VCT_DEPTH threats). 1 a win
 * (seq filled when given), 0 none, -1 the solver gave up (its node budget ran out). */
static int solve(gmk_board *b, gmk_threat_ctx *ctx, bool threes, int64_t nodes, gmk_pos *seq,
                 int *len) {
    gmk_threat_ctx_clear(ctx);
    ctx->nodes = 0;
    ctx->node_limit = nodes;
    gmk_pos tmp[GMK_THREAT_MAX_SEQ];
    int n = 0;
    bool win = threes ? gmk_vct(b, ctx, VCT_DEPTH, seq ? seq : tmp, len ? len : &n)
                      : gmk_vcf(b, ctx, 40, seq ? seq : tmp, len ? len : &n);
    return win ? 1 : ctx->nodes >= nodes ? -1 : 0;
}

static bool vcf(gmk_board *b, gmk_threat_ctx *ctx, int64_t nodes, gmk_pos *seq, int *len) {
    return solve(b, ctx, false, nodes, seq, len) == 1;
}

static int vct(gmk_board *b, gmk_threat_ctx *ctx, int64_t nodes, gmk_pos *seq, int *len) {
    return solve(b, ctx, true, nodes, seq, len);
}

/* The five point of colour c (the block of its four), or GMK_POS_NONE; *count gets how many. */
static gmk_pos five_point(const gmk_board *b, gmk_color c, int *count) {
    gmk_pos found = GMK_POS_NONE;
    *count = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (b->stone[p] == GMK_EMPTY && b->cell[p].threat[c] == GMK_TH_FIVE) {
                found = p;
                (*count)++;
            }
        }
    return found;
}

/* Whether p makes a four (or five) for the side to move, legally (renju black: not a foul). */
static bool makes_four(const gmk_board *b, gmk_pos p) {
    gmk_color s = gmk_board_side(b);
    if (b->stone[p] != GMK_EMPTY || gmk_rules_check_move(b, p, NULL) != GMK_MOVE_LEGAL)
        return false;
    int th = b->cell[p].threat[s];
    if (th == GMK_TH_FORBID) { /* a renju candidate that the exact check found legal */
        for (int d = 0; d < GMK_DIRS; d++) {
            int pat = gmk_cell_pattern(&b->cell[p], s, d);
            if (pat == GMK_PAT_B4 || pat == GMK_PAT_F4 || pat == GMK_PAT_F5) return true;
        }
        return false;
    }
    return th >= GMK_TH_FOUR;
}

/* After the side to move plays the four p and the opponent blocks, does it still win by fours
 * (by threes and fours, with threes)? p itself a five or an open four: yes. b restored. */
static bool four_wins(gmk_board *b, gmk_threat_ctx *ctx, gmk_pos p, bool threes) {
    gmk_color s = gmk_board_side(b);
    if (b->cell[p].threat[s] == GMK_TH_FIVE || b->cell[p].threat[s] == GMK_TH_OPEN_FOUR)
        return true;
    gmk_board_make(b, p);
    int n;
    gmk_pos block = five_point(b, s, &n);
    bool win = false;
    if (n == 1 && gmk_rules_check_move(b, block, NULL) == GMK_MOVE_LEGAL) {
        gmk_board_make(b, block);
        gmk_result r;
        gmk_rules_result_after_last(b, &r);
        if (r.outcome == GMK_ONGOING)
            win = threes ? vct(b, ctx, VCT_CHECK, NULL, NULL) == 1
                         : vcf(b, ctx, NODES_CHECK, NULL, NULL);
        gmk_board_undo(b);
    } else if (n >= 2) {
        win = true; /* two five points: an open four */
    }
    gmk_board_undo(b);
    return win;
}

static void copy_position(const gmk_board *b, gmk_puzzle *out) {
    memset(out, 0, sizeof *out);
    out->rule = b->rule;
    out->count = b->move_count;
    memcpy(out->moves, b->moves, sizeof(gmk_pos) * (size_t)b->move_count);
}

bool gmk_puzzle_find_fours(gmk_board *b, gmk_threat_ctx *ctx, gmk_puzzle *out) {
    gmk_color s = gmk_board_side(b);
    if (b->count[s][GMK_TH_FIVE] || b->count[s][GMK_TH_OPEN_FOUR] ||
        b->count[gmk_opponent(s)][GMK_TH_FIVE])
        return false; /* a win in one, or a four to block first: no puzzle */
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len = 0;
    if (!vcf(b, ctx, NODES, seq, &len) || len < 3) return false;
    int length = (len + 1) / 2;
    if (length < 2 || len > GMK_PUZZLE_MAX_SOLUTION) return false;
    /* every other four must fail */
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (p == seq[0] || !makes_four(b, p)) continue;
            if (four_wins(b, ctx, p, false)) return false;
        }
    copy_position(b, out);
    out->kind = GMK_PUZZLE_FOURS;
    out->length = length;
    out->solution_len = len;
    memcpy(out->solution, seq, sizeof(gmk_pos) * (size_t)len);
    return true;
}

/* The board b with the other side to move (the side to move passes): the same stones, put in
 * the same order but with a stone of the side to move last. */
static void pass(const gmk_board *b, gmk_board *out) {
    gmk_color s = gmk_board_side(b);
    gmk_board_init(out, b->size, b->rule);
    int last = -1;
    for (int i = b->move_count - 1; i >= 0 && last < 0; i--)
        if ((i % 2 ? GMK_WHITE : GMK_BLACK) == s) last = i;
    for (int i = 0; i < b->move_count; i++)
        if (i != last) gmk_board_put(out, b->moves[i], i % 2 ? GMK_WHITE : GMK_BLACK);
    if (last >= 0) gmk_board_put(out, b->moves[last], s);
}

bool gmk_puzzle_find_defence(gmk_board *b, gmk_threat_ctx *ctx, gmk_puzzle *out) {
    gmk_color s = gmk_board_side(b), o = gmk_opponent(s);
    if (b->move_count < 5 || b->count[o][GMK_TH_FIVE] || b->count[s][GMK_TH_FIVE] ||
        b->count[s][GMK_TH_OPEN_FOUR])
        return false;
    if (vcf(b, ctx, NODES_CHECK, NULL, NULL)) return false; /* attacking wins: no defence puzzle */
    gmk_board *q = malloc(sizeof *q);
    if (!q) return false;
    pass(b, q);
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len = 0;
    bool threat = gmk_board_side(q) == o && vcf(q, ctx, NODES, seq, &len);
    free(q);
    if (!threat) return false;
    gmk_pos only = GMK_POS_NONE;
    int holds = 0;
    for (int y = 0; y < b->size && holds < 2; y++)
        for (int x = 0; x < b->size && holds < 2; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (b->stone[p] != GMK_EMPTY || !b->near[p] ||
                gmk_rules_check_move(b, p, NULL) != GMK_MOVE_LEGAL)
                continue;
            gmk_board_make(b, p);
            gmk_result r;
            gmk_rules_result_after_last(b, &r);
            bool stops = r.outcome == GMK_ONGOING && !vcf(b, ctx, NODES_CHECK, NULL, NULL);
            gmk_board_undo(b);
            if (stops) {
                only = p;
                holds++;
            }
        }
    if (holds != 1) return false;
    copy_position(b, out);
    out->kind = GMK_PUZZLE_DEFENCE;
    out->length = (len + 1) / 2;
    out->solution_len = 1;
    out->solution[0] = only;
    return true;
}

/* --- win by threes and fours ------------------------------------------------------------- */

/* Whether p is a legal threat of the side to move: a five, a four or an open three. */
static bool makes_threat(const gmk_board *b, gmk_pos p) {
    if (b->stone[p] != GMK_EMPTY || gmk_rules_check_move(b, p, NULL) != GMK_MOVE_LEGAL)
        return false;
    gmk_threat t = gmk_movegen_threat(b, p, gmk_board_side(b));
    return t != GMK_TH_NONE && t != GMK_TH_FORBID;
}

/* The answer of the side to move when no move stops the opponent's open four to be (two open
 * threes, say): one of those points, as a person would block, rather than any move; fallback
 * when there is none it may take. */
static gmk_pos natural_answer(const gmk_board *b, gmk_pos fallback) {
    gmk_color att = gmk_opponent(gmk_board_side(b));
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos q = gmk_pos_xy(x, y);
            if (b->stone[q] == GMK_EMPTY && b->cell[q].threat[att] == GMK_TH_OPEN_FOUR &&
                gmk_rules_check_move(b, q, NULL) == GMK_MOVE_LEGAL)
                return q;
        }
    return fallback;
}

/* The solver's line with natural answers: where no move stops the attacker's threat, the
 * solver answers with its first move anywhere; there the line takes natural_answer instead and
 * is solved again from that point. False when the line could not be solved again. b is
 * restored. */
static bool natural_line(gmk_board *b, gmk_threat_ctx *ctx, gmk_pos *seq, int *len) {
    int made = 0;
    bool ok = true;
    gmk_scored_move *def = malloc(GMK_MAX_MOVES * sizeof *def);
    if (!def) return false;
    for (int i = 0; ok && i < *len; i++) {
        if (i % 2 == 1) {
            bool forced = false;
            int n = gmk_movegen_generate(b, def, &forced);
            gmk_color att = gmk_opponent(gmk_board_side(b));
            gmk_pos a = !forced && n > 0 && b->count[att][GMK_TH_FIVE] == 0
                            ? natural_answer(b, seq[i])
                            : seq[i];
            if (a != seq[i]) {
                gmk_board_make(b, a);
                made++;
                gmk_pos rest[GMK_THREAT_MAX_SEQ];
                int rest_len = 0;
                ok = vct(b, ctx, VCT_NODES, rest, &rest_len) == 1 &&
                     i + 1 + rest_len <= GMK_THREAT_MAX_SEQ;
                if (ok) {
                    seq[i] = a;
                    memcpy(seq + i + 1, rest, sizeof(gmk_pos) * (size_t)rest_len);
                    *len = i + 1 + rest_len;
                }
                continue;
            }
        }
        gmk_board_make(b, seq[i]);
        made++;
    }
    while (made-- > 0) gmk_board_undo(b);
    free(def);
    return ok;
}

/* The side to move plays the threat p: does every answer of the opponent still lose to threes
 * and fours? 1 yes (*reply gets the opponent's most natural answer, GMK_POS_NONE when p wins at
 * once), 0 an answer holds, -1 the solver gave up. The answers are the forced block of a four,
 * and against a three every move that stops it or makes a four (movegen's forced list). b is
 * restored. */
static int threat_wins(gmk_board *b, gmk_threat_ctx *ctx, gmk_pos p, gmk_pos *reply) {
    gmk_color s = gmk_board_side(b), o = gmk_opponent(s);
    *reply = GMK_POS_NONE;
    gmk_threat t = gmk_movegen_threat(b, p, s);
    if (t == GMK_TH_FIVE || t == GMK_TH_OPEN_FOUR) return 1;
    gmk_board_make(b, p);
    int verdict = 0;
    if (b->count[o][GMK_TH_FIVE] > 0) {
        verdict = 0; /* the opponent had a four: it makes five */
    } else if (b->count[s][GMK_TH_FIVE] > 0) {
        int n;
        gmk_pos block = five_point(b, s, &n);
        if (n >= 2 || gmk_rules_check_move(b, block, NULL) != GMK_MOVE_LEGAL) {
            verdict = 1; /* no block, or a renju foul */
        } else {
            gmk_board_make(b, block);
            verdict = vct(b, ctx, VCT_CHECK, NULL, NULL);
            gmk_board_undo(b);
            if (verdict == 1) *reply = block;
        }
    } else {
        gmk_scored_move *def = malloc(GMK_MAX_MOVES * sizeof *def);
        bool forced = false;
        int n = def ? gmk_movegen_generate(b, def, &forced) : 0;
        if (!def) {
            verdict = -1;
        } else if (!forced) {
            /* nothing stops the open four and the opponent has no four: any answer loses */
            verdict = n > 0 && b->count[s][GMK_TH_OPEN_FOUR] > 0 ? 1 : 0;
            if (verdict) *reply = natural_answer(b, def[0].pos);
        } else {
            gmk_movegen_sort(def, n);
            verdict = 1;
            for (int i = 0; i < n && verdict != 0; i++) {
                gmk_board_make(b, def[i].pos);
                int v = vct(b, ctx, VCT_CHECK, NULL, NULL);
                gmk_board_undo(b);
                if (v == 1 && *reply == GMK_POS_NONE) *reply = def[i].pos;
                if (v < 1) verdict = v;
            }
        }
        free(def);
    }
    gmk_board_undo(b);
    return verdict;
}

bool gmk_puzzle_find_threes(gmk_board *b, gmk_threat_ctx *ctx, gmk_puzzle *out) {
    gmk_color s = gmk_board_side(b), o = gmk_opponent(s);
    if (b->move_count < 5 || b->count[s][GMK_TH_FIVE] || b->count[s][GMK_TH_OPEN_FOUR] ||
        b->count[o][GMK_TH_FIVE] || b->count[o][GMK_TH_OPEN_FOUR])
        return false; /* a win in one, or a threat to answer first: no puzzle */
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len = 0;
    if (solve(b, ctx, false, NODES, NULL, NULL) != 0)
        return false; /* a win by fours alone (a fours puzzle), or not known */
    if (vct(b, ctx, VCT_NODES, seq, &len) != 1 || !natural_line(b, ctx, seq, &len)) return false;
    int length = (len + 1) / 2;
    if (length < 2 || len > GMK_PUZZLE_MAX_SOLUTION) return false;
    /* the first move passes the check a player's move gets, and every other threat fails */
    gmk_pos reply;
    if (threat_wins(b, ctx, seq[0], &reply) != 1) return false;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (p == seq[0] || !makes_threat(b, p)) continue;
            if (threat_wins(b, ctx, p, &reply) != 0) return false;
        }
    copy_position(b, out);
    out->kind = GMK_PUZZLE_THREES;
    out->length = length;
    out->solution_len = len;
    memcpy(out->solution, seq, sizeof(gmk_pos) * (size_t)len);
    return true;
}

/* Whether the play since the puzzle's position followed its solution; *k gets how many of its
 * moves were made. */
static bool followed_solution(const gmk_puzzle *p, const gmk_board *b, int *k) {
    *k = b->move_count - p->count;
    bool followed = *k >= 0 && *k < p->solution_len;
    for (int i = 0; followed && i < *k; i++) followed = b->moves[p->count + i] == p->solution[i];
    return followed;
}

gmk_puzzle_verdict gmk_puzzle_answer(const gmk_puzzle *p, gmk_board *b, gmk_threat_ctx *ctx,
                                     gmk_pos move, gmk_pos *reply) {
    *reply = GMK_POS_NONE;
    if (move < 0 || move >= GMK_CELLS || !gmk_board_empty_at(b, move) ||
        gmk_rules_check_move(b, move, NULL) != GMK_MOVE_LEGAL)
        return GMK_PUZZLE_ILLEGAL;
    if (p->kind == GMK_PUZZLE_DEFENCE) {
        if (move != p->solution[0]) return GMK_PUZZLE_WRONG;
        gmk_board_make(b, move);
        return GMK_PUZZLE_SOLVED;
    }
    gmk_color s = gmk_board_side(b);
    bool threes = p->kind == GMK_PUZZLE_THREES;
    if (!(threes ? makes_threat(b, move) : makes_four(b, move))) return GMK_PUZZLE_WRONG;
    gmk_threat th = gmk_movegen_threat(b, move, s);
    if (th == GMK_TH_FIVE || th == GMK_TH_OPEN_FOUR) {
        gmk_board_make(b, move);
        return GMK_PUZZLE_SOLVED;
    }
    /* threes, as puzzle sites do: the line's own move is right, and off the line a four that
     * keeps a win (one solver check, so a replayed line costs the server little), never a three
     * (each has several answers to check) */
    int k;
    if (threes && followed_solution(p, b, &k) && k % 2 == 0 && p->solution[k] == move) {
        gmk_board_make(b, move);
        if (k + 1 >= p->solution_len) return GMK_PUZZLE_SOLVED;
        gmk_board_make(b, p->solution[k + 1]);
        *reply = p->solution[k + 1];
        return GMK_PUZZLE_GOOD;
    }
    if (!makes_four(b, move) || !four_wins(b, ctx, move, threes)) return GMK_PUZZLE_WRONG;
    gmk_board_make(b, move);
    int n;
    gmk_pos block = five_point(b, s, &n);
    if (n >= 2) return GMK_PUZZLE_SOLVED;
    gmk_board_make(b, block);
    *reply = block;
    return GMK_PUZZLE_GOOD;
}

gmk_pos gmk_puzzle_hint(const gmk_puzzle *p, const gmk_board *b) {
    int k = b->move_count - p->count; /* solution moves made so far */
    if (p->kind == GMK_PUZZLE_DEFENCE) return k == 0 ? p->solution[0] : GMK_POS_NONE;
    /* the solution's move when the play followed it */
    if (followed_solution(p, b, &k) && k % 2 == 0) return p->solution[k];
    return GMK_POS_NONE;
}

void gmk_puzzle_player_new(gmk_store_puzzle_player *pl, const char *key) {
    memset(pl, 0, sizeof *pl);
    snprintf(pl->player, sizeof pl->player, "%s", key);
    gmk_glicko g = gmk_glicko_new();
    pl->rating = g.rating;
    pl->deviation = g.deviation;
    pl->volatility = g.volatility;
}

void gmk_puzzle_rate(gmk_store_puzzle_player *pl, int puzzle_rating, bool solved) {
    gmk_glicko me = {pl->rating, pl->deviation, pl->volatility};
    gmk_glicko_game game = {puzzle_rating, 80, solved ? 1 : 0};
    gmk_glicko after = gmk_glicko_update(me, &game, 1, 0.5);
    pl->rating = after.rating;
    pl->deviation = after.deviation < 30 ? 30 : after.deviation;
    pl->volatility = after.volatility;
    if (solved) {
        pl->solved++;
        pl->streak++;
        if (pl->streak > pl->best_streak) pl->best_streak = pl->streak;
    } else {
        pl->failed++;
        pl->streak = 0;
    }
}

int gmk_puzzle_of_day(long day) {
    if (gmk_puzzle_count <= 0) return -1;
    /* a fixed walk through the set (a multiplier prime to the count) */
    unsigned long long x = (unsigned long long)(day < 0 ? -day : day) * 2654435761ull;
    return (int)(x % (unsigned long long)gmk_puzzle_count);
}

static gmk_puzzle *set;
static int set_count;
static pthread_once_t set_once = PTHREAD_ONCE_INIT;

static void load_set(void) {
    set = calloc((size_t)(gmk_puzzle_count > 0 ? gmk_puzzle_count : 1), sizeof *set);
    if (!set) return;
    for (int i = 0; i < gmk_puzzle_count; i++)
        if (gmk_puzzle_parse(gmk_puzzle_lines[i], &set[set_count])) set_count++;
}

const gmk_puzzle *gmk_puzzle_set(int *n) {
    pthread_once(&set_once, load_set);
    *n = set ? set_count : 0;
    return set;
}

const gmk_puzzle *gmk_puzzle_by_id(long long id) {
    int n;
    const gmk_puzzle *all = gmk_puzzle_set(&n);
    for (int i = 0; i < n; i++)
        if (all[i].id == id) return &all[i];
    return NULL;
}

int gmk_puzzle_pick(double rating, int kind, int rule, unsigned random) {
    enum { NEAR = 16 };
    int n, near[NEAR], k = 0;
    const gmk_puzzle *all = gmk_puzzle_set(&n);
    int target = (int)rating;
    for (int i = 0; i < n; i++) {
        if ((kind >= 0 && (int)all[i].kind != kind) || (rule >= 0 && (int)all[i].rule != rule))
            continue;
        int d = abs(gmk_puzzle_rating(&all[i]) - target);
        if (k < NEAR) {
            near[k++] = i;
            continue;
        }
        int worst = 0;
        for (int j = 1; j < NEAR; j++)
            if (abs(gmk_puzzle_rating(&all[near[j]]) - target) >
                abs(gmk_puzzle_rating(&all[near[worst]]) - target))
                worst = j;
        if (d < abs(gmk_puzzle_rating(&all[near[worst]]) - target)) near[worst] = i;
    }
    return k ? near[random % (unsigned)k] : -1;
}

/* --- text ------------------------------------------------------------------------------ */

static int put_moves(const gmk_pos *ms, int n, char *buf, size_t cap) {
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        char name[4];
        gmk_notation_point(ms[i], 15, name);
        int w = snprintf(buf + len, cap - len, "%s", name);
        if (w < 0 || (size_t)w >= cap - len) return -1;
        len += (size_t)w;
    }
    return (int)len;
}

int gmk_puzzle_format(const gmk_puzzle *p, char *buf, size_t cap) {
    char moves[GMK_MAX_MOVES * 3 + 1], sol[GMK_PUZZLE_MAX_SOLUTION * 3 + 1];
    if (put_moves(p->moves, p->count, moves, sizeof moves) < 0 ||
        put_moves(p->solution, p->solution_len, sol, sizeof sol) < 0)
        return -1;
    int n = snprintf(buf, cap, "%d %s %s %d %s %s", p->id, gmk_rule_name(p->rule),
                     gmk_puzzle_kind_name(p->kind), p->length, p->count ? moves : "-", sol);
    return n < 0 || (size_t)n >= cap ? -1 : n;
}

bool gmk_puzzle_parse(const char *line, gmk_puzzle *out) {
    /* The widths of the conversions below fit these buffers (GMK_MAX_MOVES is 484 and a move
     * takes at most 3 characters, GMK_PUZZLE_MAX_SOLUTION is 64). */
    char rule[16], kind[16], moves[1501], sol[201];
    _Static_assert(sizeof moves > GMK_MAX_MOVES * 3 && sizeof sol > GMK_PUZZLE_MAX_SOLUTION * 3,
                   "puzzle line buffers");
    int id, length;
    if (!line || strlen(line) > sizeof moves + 100) return false;
    if (sscanf(line, "%d %15s %15s %d %1500s %200s", &id, rule, kind, &length, moves, sol) != 6)
        return false;
    memset(out, 0, sizeof *out);
    out->id = id;
    out->length = length;
    if (!gmk_rule_parse(rule, &out->rule) || id < 1 || length < 1 || length > 64) return false;
    if (!gmk_puzzle_kind_parse(kind, &out->kind)) return false;
    gmk_move_list list;
    char err[128];
    if (strcmp(moves, "-") != 0) {
        if (!gmk_notation_parse_moves(moves, 15, &list, err, sizeof err)) return false;
        out->count = list.count;
        memcpy(out->moves, list.pos, sizeof(gmk_pos) * (size_t)list.count);
    }
    if (!gmk_notation_parse_moves(sol, 15, &list, err, sizeof err) || list.count < 1 ||
        list.count > GMK_PUZZLE_MAX_SOLUTION)
        return false;
    out->solution_len = list.count;
    memcpy(out->solution, list.pos, sizeof(gmk_pos) * (size_t)list.count);
    /* the position must be a legal game still on, and the solution's first move legal in it */
    gmk_board b;
    gmk_board_init(&b, 15, out->rule);
    for (int i = 0; i < out->count; i++) {
        gmk_result r;
        if (i > 0) gmk_rules_result_after_last(&b, &r);
        if ((i > 0 && r.outcome != GMK_ONGOING) ||
            gmk_rules_check_move(&b, out->moves[i], NULL) != GMK_MOVE_LEGAL)
            return false;
        gmk_board_make(&b, out->moves[i]);
    }
    return gmk_rules_check_move(&b, out->solution[0], NULL) == GMK_MOVE_LEGAL;
}
