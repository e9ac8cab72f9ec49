/* puzzle.c: puzzles (puzzle.h). */
#include "game/puzzle.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/glicko2.h"

enum { NODES = 60000, NODES_CHECK = 20000 };

const char *gmk_puzzle_kind_name(gmk_puzzle_kind k) {
    return k == GMK_PUZZLE_DEFENCE ? "defence" : "fours";
}

const char *gmk_puzzle_grade(int length) {
    return length <= 3 ? "easy" : length <= 6 ? "medium" : "hard";
}

int gmk_puzzle_rating(const gmk_puzzle *p) {
    int r = p->kind == GMK_PUZZLE_DEFENCE ? 1100 + 100 * p->length : 900 + 120 * p->length;
    if (p->rule == GMK_RULE_RENJU) r += 50;
    return r;
}

void gmk_puzzle_board(const gmk_puzzle *p, gmk_board *out) {
    gmk_board_init(out, 15, p->rule);
    for (int i = 0; i < p->count; i++) gmk_board_make(out, p->moves[i]);
}

static bool vcf(gmk_board *b, gmk_threat_ctx *ctx, int64_t nodes, gmk_pos *seq, int *len) {
    gmk_threat_ctx_clear(ctx);
    ctx->nodes = 0;
    ctx->node_limit = nodes;
    gmk_pos tmp[GMK_THREAT_MAX_SEQ];
    int n = 0;
    bool win = gmk_vcf(b, ctx, 40, seq ? seq : tmp, len ? len : &n);
    return win;
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

/* After the side to move plays the four p and the opponent blocks, does it still win by
 * fours? (p itself a five: yes.) b restored. */
static bool four_wins(gmk_board *b, gmk_threat_ctx *ctx, gmk_pos p) {
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
        if (r.outcome == GMK_ONGOING) win = vcf(b, ctx, NODES_CHECK, NULL, NULL);
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
            if (four_wins(b, ctx, p)) return false;
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
    if (!makes_four(b, move)) return GMK_PUZZLE_WRONG;
    gmk_threat th = (gmk_threat)b->cell[move].threat[s];
    if (th == GMK_TH_FIVE || th == GMK_TH_OPEN_FOUR) {
        gmk_board_make(b, move);
        return GMK_PUZZLE_SOLVED;
    }
    if (!four_wins(b, ctx, move)) return GMK_PUZZLE_WRONG;
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
    /* the solution's move when the play followed it, else any winning four */
    bool followed = k >= 0 && k < p->solution_len;
    for (int i = 0; followed && i < k; i++) followed = b->moves[p->count + i] == p->solution[i];
    if (followed && k % 2 == 0) return p->solution[k];
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
    if (strcmp(kind, "fours") == 0)
        out->kind = GMK_PUZZLE_FOURS;
    else if (strcmp(kind, "defence") == 0)
        out->kind = GMK_PUZZLE_DEFENCE;
    else
        return false;
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
