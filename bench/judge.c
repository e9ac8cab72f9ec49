/* judge.c: measures the engine from outside, with another engine (Rapfi) as the judge, as
 * ../shared/docs/engine-diagnosis.md did by hand. Everything runs at fixed node counts, so the
 * figures do not depend on the machine's load.
 *
 *   judge --judge CMD [--judge-nodes J] [--cache FILE] [--positions FILE] COMMAND ...
 *
 *   moves [--nodes N] [--engine CMD]   each position: a move chosen at N nodes, by our engine
 *        (in-process, one thread, a cleared table) or by the engine CMD (Gomocup protocol,
 *        INFO max_node N, a cleared table by YXHASHCLEAR); the judge searches the position
 *        after it at J nodes. A move's loss is the judge's win rate after the judge's own move
 *        (its J-node choice in the position) minus the win rate after this one, never below 0.
 *        Prints the mean loss with its standard error, how many moves are the judge's, the
 *        median depth and selective depth, and the effective branching factor (the node ratio
 *        of successive iterations from depth 5 on, per position, median).
 *        --symmetries K (1 to 8, default 1): each position is also searched turned and
 *        mirrored, in the first K of the board's 8 symmetries; each move is turned back and
 *        judged in the position as given, and a position's loss is the mean over its K
 *        searches. A search's choice moves with details that the symmetry changes (the order of
 *        cells with equal scores, the table's slots, the budgets of the threat searches), so
 *        one orientation is one draw; the mean over K is a steadier figure. Also prints how
 *        often the K searches agree with their most common move.
 *   eval  our static evaluation e against the judge's J-node search, over the positions P
 *        and the positions P' after the judge's move in P, in logits (e / K, K the scale of
 *        the weights' fit; the judge's value / 250): the side-to-move bias, median of
 *        (e(P) + e(P')) / 2; the one-ply inconsistency, median of |e(P) + e(P')|; and the
 *        Spearman correlation of e(P) with the judge's score of P. Also for the linear
 *        evaluation alone (without the network), the three for the two-ply average the
 *        search's leaves may take, a(P) = (e(P) - e(parent of P)) / 2, and the bias and the
 *        inconsistency over the pairs whose two positions the search would evaluate statically
 *        (no five, open-four or four-three point for either side).
 *   select GAME.psq... picks up to two middle-game positions a game with the side to move
 *        that --side names (black, white, or odd/even game number like gomoku match's
 *        engine 1: "engine1"): after the opening and 4 more moves, before the last 8, where the
 *        judge sees no mate and gives the side to move between 10% and 90%, and where the side
 *        to move has more than one sensible move. Prints them in the positions format.
 *
 * The judge is a Gomocup engine that prints Rapfi's "ucilike" messages (MESSAGE depth D-SD ev V
 * ...): Rapfi with message_mode = "ucilike" in its config. Nothing of it is in the project.
 * Its answers are kept in the cache file (one line each: judge nodes, position, move, value),
 * so a second build measured on the same positions asks the judge only about its new moves.
 *
 * Positions: one a line, "id x,y x,y ..." (0-based, the moves from the empty board, black
 * first); '#' lines are comments. Freestyle, 15x15. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tools/games.h"
#include "core/board.h"
#include "core/record.h"
#include "core/rules.h"
#include "engine/engine.h"
#include "engine/eval.h"
#include "engine/movegen.h"
#include "gomocup/proc.h"

enum { MAX_POS = 4096, SIZE = 15, LINE = 8192, MATE = 30000 };

/* The judge's scale (Rapfi classical: a win rate of sigmoid(v / 250), as the diagnosis took)
 * and ours (K of the freestyle weights' fit, src/core/weights_freestyle.c). */
static double judge_scale = 250.0, our_scale = 732.0;

typedef struct {
    char id[64];
    int n;
    gmk_pos moves[GMK_MAX_MOVES];
} position;

static position *positions;
static int npositions;

/* ---- the cache ---- */
typedef struct {
    long nodes;
    char *key; /* the moves, "x,y;x,y;..." */
    int value; /* the judge's value for the side to move there; +-MATE for mates */
    gmk_pos best;
} cache_entry;
static cache_entry *cache;
static int ncache, cache_cap;
static FILE *cache_out;

static void key_of(const gmk_pos *m, int n, char *out, size_t cap) {
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < n && at + 8 < cap; i++)
        at += (size_t)snprintf(out + at, cap - at, "%s%d,%d", i ? ";" : "", gmk_pos_x(m[i]),
                               gmk_pos_y(m[i]));
}

static void cache_add(long nodes, const char *key, int value, gmk_pos best) {
    if (ncache == cache_cap) {
        cache_cap = cache_cap ? cache_cap * 2 : 1024;
        cache = realloc(cache, (size_t)cache_cap * sizeof *cache);
        if (!cache) {
            fprintf(stderr, "judge: out of memory\n");
            exit(2);
        }
    }
    cache[ncache].nodes = nodes;
    cache[ncache].key = strdup(key);
    cache[ncache].value = value;
    cache[ncache].best = best;
    ncache++;
}

static const cache_entry *cache_find(long nodes, const char *key) {
    for (int i = ncache - 1; i >= 0; i--)
        if (cache[i].nodes == nodes && strcmp(cache[i].key, key) == 0) return &cache[i];
    return NULL;
}

static void cache_load(const char *path) {
    FILE *f = fopen(path, "r");
    if (f) {
        char line[LINE], key[LINE];
        long nodes;
        int value, bx, by;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "%ld %s %d %d,%d", &nodes, key, &value, &bx, &by) == 5)
                cache_add(nodes, strcmp(key, "-") == 0 ? "" : key, value,
                          bx < 0 ? GMK_POS_NONE : gmk_pos_xy(bx, by));
        fclose(f);
    }
    cache_out = fopen(path, "a");
    if (!cache_out) {
        fprintf(stderr, "judge: cannot write the cache %s\n", path);
        exit(2);
    }
}

/* ---- a Gomocup engine process ---- */
typedef struct {
    gmk_proc *proc;
    long nodes;
} remote;

static bool remote_open(remote *r, const char *cmd, long nodes) {
    char err[256], line[LINE];
    r->proc = gmk_proc_spawn(cmd, NULL, err, sizeof err);
    r->nodes = nodes;
    if (!r->proc) {
        fprintf(stderr, "judge: cannot start %s: %s\n", cmd, err);
        return false;
    }
    gmk_proc_write_line(r->proc, "START 15");
    for (;;) {
        if (gmk_proc_read_line(r->proc, gmk_now_ms() + 30000, line, sizeof line) != GMK_PROC_LINE) {
            fprintf(stderr, "judge: %s did not answer START\n", cmd);
            return false;
        }
        if (strncmp(line, "OK", 2) == 0) break;
        if (strncmp(line, "ERROR", 5) == 0) {
            fprintf(stderr, "judge: %s: %s\n", cmd, line);
            return false;
        }
    }
    char info[64];
    snprintf(info, sizeof info, "INFO max_node %ld", nodes);
    gmk_proc_write_line(r->proc, info);
    gmk_proc_write_line(r->proc, "INFO timeout_turn 100000000");
    gmk_proc_write_line(r->proc, "INFO timeout_match 0");
    gmk_proc_write_line(r->proc, "INFO rule 0");
    gmk_proc_write_line(r->proc, "INFO thread_num 1");
    return true;
}

/* Parses a value as Rapfi prints it: an integer, or +M<n> / -M<n> for mates. */
static int parse_value(const char *s) {
    if (s[0] == '+' && s[1] == 'M') return MATE;
    if (s[0] == '-' && s[1] == 'M') return -MATE;
    return atoi(s);
}

/* The engine's search of the position: its move, its last value (0 when it printed none),
 * depth and nodes at each depth it reported. False on a protocol failure. */
typedef struct {
    gmk_pos move;
    int value;
    int depth, seldepth;
    double nodes_at[128];
} remote_result;

static double parse_nodes(const char *s) {
    char *end;
    double v = strtod(s, &end);
    if (*end == 'K' || *end == 'k') v *= 1e3;
    if (*end == 'M') v *= 1e6;
    if (*end == 'G') v *= 1e9;
    return v;
}

/* Rapfi may still be finishing a search after it printed its move (after a mate, say), and
 * then takes the first word of the next command for its own: so a harmless INFO line goes
 * first, after a short pause, and a command answered by ERROR is sent again. */
static bool remote_search_once(remote *r, const gmk_pos *m, int n, remote_result *out,
                               bool *retry) {
    char line[LINE];
    memset(out, 0, sizeof *out);
    *retry = false;
    struct timespec pause = {0, 30 * 1000000};
    nanosleep(&pause, NULL);
    gmk_proc_write_line(r->proc, "INFO rule 0");
    gmk_proc_write_line(r->proc, "YXHASHCLEAR");
    gmk_proc_write_line(r->proc, "BOARD");
    for (int i = 0; i < n; i++) {
        /* 1: the stones of the side to move (the engine's), 2: the opponent's */
        int own = (n - i) % 2 == 0 ? 1 : 2;
        snprintf(line, sizeof line, "%d,%d,%d", gmk_pos_x(m[i]), gmk_pos_y(m[i]), own);
        gmk_proc_write_line(r->proc, line);
    }
    gmk_proc_write_line(r->proc, "DONE");
    for (;;) {
        gmk_proc_status st = gmk_proc_read_line(r->proc, gmk_now_ms() + 600000, line, sizeof line);
        if (st != GMK_PROC_LINE) {
            fprintf(stderr, "judge: the engine stopped answering\n");
            return false;
        }
        int d, sd, x, y;
        if (strncmp(line, "MESSAGE depth ", 14) == 0 && sscanf(line + 14, "%d-%d", &d, &sd) == 2) {
            const char *ev = strstr(line, " ev ");
            const char *nn = strstr(line, " n ");
            if (ev) out->value = parse_value(ev + 4);
            out->depth = d;
            out->seldepth = sd;
            if (nn && d >= 0 && d < 128) out->nodes_at[d] = parse_nodes(nn + 3);
            continue;
        }
        if (strncmp(line, "ERROR", 5) == 0) {
            fprintf(stderr, "judge: %s (sent again)\n", line);
            *retry = true;
            /* what follows the failed command (its board lines) fails too: drain it */
            while (gmk_proc_read_line(r->proc, gmk_now_ms() + 300, line, sizeof line) ==
                   GMK_PROC_LINE) {
            }
            return false;
        }
        if (sscanf(line, "%d,%d", &x, &y) == 2 && x >= 0 && y >= 0 && x < SIZE && y < SIZE) {
            out->move = gmk_pos_xy(x, y);
            return true;
        }
    }
}

static bool remote_search(remote *r, const gmk_pos *m, int n, remote_result *out) {
    bool retry = true;
    for (int attempt = 0; attempt < 5 && retry; attempt++)
        if (remote_search_once(r, m, n, out, &retry)) return true;
    return false;
}

static remote judge;
static long judge_nodes = 1000000;

/* The judge's value of the position after moves m[0..n-1] for its side to move, and its best
 * move there, from the cache or by asking. A finished game needs no search. */
static int judge_value(const gmk_pos *m, int n, gmk_pos *best) {
    char key[LINE];
    key_of(m, n, key, sizeof key);
    const cache_entry *e = cache_find(judge_nodes, key);
    if (e) {
        if (best) *best = e->best;
        return e->value;
    }
    gmk_board b;
    gmk_board_init(&b, SIZE, GMK_RULE_FREESTYLE);
    for (int i = 0; i < n; i++) gmk_board_make(&b, m[i]);
    if (n > 0 && gmk_rules_five_at(&b, m[n - 1], gmk_opponent(b.side), NULL, NULL)) {
        if (best) *best = GMK_POS_NONE;
        return -MATE;
    }
    remote_result rr;
    if (!remote_search(&judge, m, n, &rr)) exit(2);
    cache_add(judge_nodes, key, rr.value, rr.move);
    fprintf(cache_out, "%ld %s %d %d,%d\n", judge_nodes, key[0] ? key : "-", rr.value,
            gmk_pos_x(rr.move), gmk_pos_y(rr.move));
    fflush(cache_out);
    if (best) *best = rr.move;
    return rr.value;
}

static double winrate(int v) {
    if (v >= MATE) return 1.0;
    if (v <= -MATE) return 0.0;
    return 1.0 / (1.0 + exp(-v / judge_scale));
}

/* The judge's win rate for the mover after it plays p in position i. */
static double value_after(const position *ps, gmk_pos p) {
    gmk_pos m[GMK_MAX_MOVES];
    memcpy(m, ps->moves, (size_t)ps->n * sizeof *m);
    m[ps->n] = p;
    return 1.0 - winrate(judge_value(m, ps->n + 1, NULL));
}

/* ---- positions ---- */
static bool parse_moves(char *s, gmk_pos *m, int *n) {
    *n = 0;
    for (char *tok = strtok(s, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        int x, y;
        if (sscanf(tok, "%d,%d", &x, &y) != 2 || x < 0 || y < 0 || x >= SIZE || y >= SIZE ||
            *n >= GMK_MAX_MOVES - 2)
            return false;
        m[(*n)++] = gmk_pos_xy(x, y);
    }
    return true;
}

static void load_positions(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "judge: cannot read %s\n", path);
        exit(2);
    }
    positions = calloc(MAX_POS, sizeof *positions);
    char line[LINE];
    int lineno = 0;
    while (fgets(line, sizeof line, f) && npositions < MAX_POS) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        position *p = &positions[npositions];
        char *sp = strchr(line, ' ');
        if (!sp || sp - line >= (long)sizeof p->id) {
            fprintf(stderr, "judge: %s:%d: expected 'id x,y x,y ...'\n", path, lineno);
            exit(2);
        }
        memcpy(p->id, line, (size_t)(sp - line));
        p->id[sp - line] = 0;
        gmk_board b;
        gmk_board_init(&b, SIZE, GMK_RULE_FREESTYLE);
        bool ok = parse_moves(sp + 1, p->moves, &p->n);
        for (int i = 0; ok && i < p->n; i++) {
            ok = gmk_board_empty_at(&b, p->moves[i]);
            if (ok) gmk_board_make(&b, p->moves[i]);
        }
        if (!ok || p->n == 0) {
            fprintf(stderr, "judge: %s:%d: bad moves\n", path, lineno);
            exit(2);
        }
        npositions++;
    }
    fclose(f);
}

/* ---- statistics ---- */
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    if (n == 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void ranks(const double *v, int n, double *r) {
    for (int i = 0; i < n; i++) {
        int less = 0, equal = 0;
        for (int j = 0; j < n; j++) less += v[j] < v[i], equal += v[j] == v[i];
        r[i] = less + (equal + 1) / 2.0;
    }
}

static double pearson(const double *a, const double *b, int n) {
    double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < n; i++) ma += a[i], mb += b[i];
    ma /= n, mb /= n;
    for (int i = 0; i < n; i++) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

static double spearman(const double *a, const double *b, int n) {
    double *ra = malloc((size_t)n * sizeof *ra), *rb = malloc((size_t)n * sizeof *rb);
    ranks(a, n, ra);
    ranks(b, n, rb);
    double r = pearson(ra, rb, n);
    free(ra);
    free(rb);
    return r;
}

/* ---- moves ---- */
typedef struct {
    double nodes_at[128];
    int depth, seldepth;
} iter_log;

static void on_iteration(const gmk_search_result *r, void *ctx) {
    iter_log *log = ctx;
    if (r->depth > 0 && r->depth < 128) log->nodes_at[r->depth] = (double)r->nodes;
    log->depth = r->depth;
    log->seldepth = r->seldepth;
}

/* The effective branching factor of one search: (nodes at the last depth / nodes at depth 5)
 * to the power 1 / (plies between); 0 when it did not pass depth 6. */
static double ebf(const double *nodes_at, int depth) {
    if (depth < 6 || nodes_at[5] <= 0 || nodes_at[depth] <= nodes_at[5]) return 0;
    return pow(nodes_at[depth] / nodes_at[5], 1.0 / (depth - 5));
}

/* Symmetry k (0-7) of the board: a turn and a mirror; symmetry 0 is the identity. */
static gmk_pos sym_pos(gmk_pos p, int k) {
    if (p == GMK_POS_NONE) return p;
    int x = gmk_pos_x(p), y = gmk_pos_y(p), t;
    if (k & 4) {
        t = x;
        x = y;
        y = t;
    }
    if (k & 1) x = SIZE - 1 - x;
    if (k & 2) y = SIZE - 1 - y;
    return gmk_pos_xy(x, y);
}

/* The inverse of sym_pos(., k). */
static gmk_pos sym_pos_back(gmk_pos p, int k) {
    if (p == GMK_POS_NONE) return p;
    int x = gmk_pos_x(p), y = gmk_pos_y(p), t;
    if (k & 1) x = SIZE - 1 - x;
    if (k & 2) y = SIZE - 1 - y;
    if (k & 4) {
        t = x;
        x = y;
        y = t;
    }
    return gmk_pos_xy(x, y);
}

static int cmd_moves(long nodes, const char *engine_cmd, int symmetries) {
    gmk_engine *ours = NULL;
    remote other = {0};
    if (engine_cmd) {
        if (!remote_open(&other, engine_cmd, nodes)) return 2;
    } else {
        ours = gmk_engine_new(64u << 20);
    }
    size_t searches = (size_t)npositions * (size_t)symmetries;
    double *loss = calloc((size_t)npositions, sizeof *loss);
    double *depth = calloc(searches, sizeof *depth);
    double *sel = calloc(searches, sizeof *sel);
    double *bf = calloc(searches, sizeof *bf);
    if (!loss || !depth || !sel || !bf) {
        fprintf(stderr, "judge: out of memory\n");
        return 2;
    }
    int same = 0, nbf = 0, agree = 0;
    double sum = 0, sum2 = 0, nodes_used = 0;
    for (int i = 0; i < npositions; i++) {
        position *ps = &positions[i];
        gmk_pos jbest;
        judge_value(ps->moves, ps->n, &jbest);
        double ref = value_after(ps, jbest);
        gmk_pos chosen[8];
        double pos_loss = 0;
        if (symmetries > 1) printf("%s", ps->id);
        for (int k = 0; k < symmetries; k++) {
            size_t at = (size_t)i * (size_t)symmetries + (size_t)k;
            gmk_pos turned[GMK_MAX_MOVES];
            for (int m = 0; m < ps->n; m++) turned[m] = sym_pos(ps->moves[m], k);
            gmk_pos move;
            if (ours) {
                gmk_board b;
                gmk_board_init(&b, SIZE, GMK_RULE_FREESTYLE);
                for (int m = 0; m < ps->n; m++) gmk_board_make(&b, turned[m]);
                gmk_engine_clear(ours);
                gmk_engine_set_position(ours, &b);
                gmk_limits lim = {.nodes = nodes, .threads = 1};
                iter_log log = {0};
                gmk_listener l = {.on_iteration = on_iteration, .ctx = &log};
                gmk_search_result res;
                gmk_engine_search(ours, &lim, &l, &res);
                move = res.best;
                depth[at] = log.depth;
                sel[at] = log.seldepth;
                bf[nbf] = ebf(log.nodes_at, log.depth);
                nbf += bf[nbf] > 0;
                nodes_used += (double)res.nodes;
            } else {
                remote_result rr;
                if (!remote_search(&other, turned, ps->n, &rr)) return 2;
                move = rr.move;
                depth[at] = rr.depth;
                sel[at] = rr.seldepth;
                bf[nbf] = ebf(rr.nodes_at, rr.depth);
                nbf += bf[nbf] > 0;
            }
            move = sym_pos_back(move, k);
            chosen[k] = move;
            double got = value_after(ps, move);
            double l = ref - got > 0 ? ref - got : 0;
            pos_loss += l / symmetries;
            same += move == jbest;
            if (symmetries > 1)
                printf(" %d,%d loss %.3f depth %d-%d", gmk_pos_x(move), gmk_pos_y(move), l,
                       (int)depth[at], (int)sel[at]);
            else
                printf("%s %d,%d judge %d,%d loss %.3f depth %d-%d\n", ps->id, gmk_pos_x(move),
                       gmk_pos_y(move), gmk_pos_x(jbest), gmk_pos_y(jbest), l, (int)depth[at],
                       (int)sel[at]);
        }
        /* how many of the K searches chose the most common move */
        int most = 0;
        for (int k = 0; k < symmetries; k++) {
            int c = 0;
            for (int j = 0; j < symmetries; j++) c += chosen[j] == chosen[k];
            if (c > most) most = c;
        }
        agree += most;
        loss[i] = pos_loss;
        sum += pos_loss;
        sum2 += pos_loss * pos_loss;
        if (symmetries > 1)
            printf(" judge %d,%d mean loss %.3f\n", gmk_pos_x(jbest), gmk_pos_y(jbest), pos_loss);
        fflush(stdout);
    }
    int n = npositions;
    double mean = sum / n, var = n > 1 ? (sum2 - n * mean * mean) / (n - 1) : 0;
    printf("positions %d, nodes %ld, judge %ld nodes\n", n, nodes, judge_nodes);
    printf("mean loss %.4f +- %.4f (standard error); the judge's move %d of %d\n", mean,
           sqrt(var > 0 ? var / n : 0), same, n * symmetries);
    if (symmetries > 1)
        printf("symmetries %d: the most common move of a position in %d of %d searches\n",
               symmetries, agree, n * symmetries);
    printf("depth median %.1f, seldepth median %.1f, effective branching factor median %.2f (%d "
           "searches past depth 6)\n",
           median(depth, (int)searches), median(sel, (int)searches), median(bf, nbf), nbf);
    if (ours) printf("our nodes %.0f\n", nodes_used);
    if (ours) gmk_engine_free(ours);
    if (other.proc) gmk_proc_finish(other.proc, 1000);
    free(loss);
    free(depth);
    free(sel);
    free(bf);
    return 0;
}

/* ---- eval ---- */

static int cmd_eval(void) {
    int n = npositions;
    double *bias = calloc((size_t)n, sizeof *bias), *inc = calloc((size_t)n, sizeof *inc);
    double *bias_lin = calloc((size_t)n, sizeof *bias), *inc_lin = calloc((size_t)n, sizeof *inc);
    double *ours = calloc((size_t)n, sizeof *ours), *lin = calloc((size_t)n, sizeof *lin);
    double *theirs = calloc((size_t)n, sizeof *theirs);
    double *bias2 = calloc((size_t)n, sizeof *bias2), *inc2 = calloc((size_t)n, sizeof *inc2);
    double *avg = calloc((size_t)n, sizeof *avg);
    double *bias_q = calloc((size_t)n, sizeof *bias_q), *inc_q = calloc((size_t)n, sizeof *inc_q);
    int k = 0, kq = 0;
    for (int i = 0; i < n; i++) {
        position *ps = &positions[i];
        gmk_pos jbest;
        int jv = judge_value(ps->moves, ps->n, &jbest);
        if (jbest == GMK_POS_NONE || abs(jv) >= MATE) continue;
        gmk_board b;
        gmk_board_init(&b, SIZE, GMK_RULE_FREESTYLE);
        for (int m = 0; m < ps->n - 1; m++) gmk_board_make(&b, ps->moves[m]);
        double e0 = gmk_eval(&b) / our_scale; /* the parent, from the opponent's side */
        gmk_board_make(&b, ps->moves[ps->n - 1]);
        if (!gmk_board_empty_at(&b, jbest)) continue;
        double e = gmk_eval(&b) / our_scale, el = gmk_eval_linear(&b) / our_scale;
        /* the search takes the static evaluation at such a leaf (no five, open-four or four-three
         * point for either side; otherwise the threat quiescence searches on) */
        bool quiet = games_scored(&b, true);
        gmk_board_make(&b, jbest);
        quiet = quiet && games_scored(&b, true);
        double e2 = gmk_eval(&b) / our_scale, el2 = gmk_eval_linear(&b) / our_scale;
        /* the two-ply average: a(P) = (e(P) - e(parent)) / 2 */
        double a = (e - e0) / 2, a2 = (e2 - e) / 2;
        bias2[k] = (a + a2) / 2;
        inc2[k] = fabs(a + a2);
        avg[k] = a;
        bias[k] = (e + e2) / 2;
        inc[k] = fabs(e + e2);
        bias_lin[k] = (el + el2) / 2;
        inc_lin[k] = fabs(el + el2);
        if (quiet) {
            bias_q[kq] = bias[k];
            inc_q[kq++] = inc[k];
        }
        ours[k] = e;
        lin[k] = el;
        theirs[k] = jv / judge_scale;
        k++;
    }
    printf("positions %d (of %d; the others are mates for the judge), judge %ld nodes, our "
           "scale %.0f, the judge's %.0f\n",
           k, n, judge_nodes, our_scale, judge_scale);
    double sp = spearman(ours, theirs, k), spl = spearman(lin, theirs, k);
    printf("side-to-move bias: %.3f logit (linear part alone %.3f)\n", median(bias, k),
           median(bias_lin, k));
    printf("one-ply inconsistency |e(P) + e(P')|: %.3f logit (linear part alone %.3f)\n",
           median(inc, k), median(inc_lin, k));
    printf("correlation with the judge's search (Spearman): %.3f (linear part alone %.3f)\n", sp,
           spl);
    double spa = spearman(avg, theirs, k);
    printf("two-ply average (e(P) - e(parent)) / 2: bias %.3f, inconsistency %.3f, correlation "
           "%.3f\n",
           median(bias2, k), median(inc2, k), spa);
    printf("pairs where the search would take both evaluations (no five, open-four or four-three "
           "point in P or P'): %d, bias %.3f, inconsistency %.3f\n",
           kq, kq ? median(bias_q, kq) : 0.0, kq ? median(inc_q, kq) : 0.0);
    free(bias_q), free(inc_q);
    free(bias), free(inc), free(bias_lin), free(inc_lin), free(ours), free(lin), free(theirs);
    free(bias2), free(inc2), free(avg);
    return 0;
}

/* ---- select ---- */
static int cmd_select(char **files, int nfiles, const char *side) {
    printf("# middle-game positions picked by 'judge select --side %s' (judge %ld nodes)\n", side,
           judge_nodes);
    for (int f = 0; f < nfiles; f++) {
        FILE *fp = fopen(files[f], "r");
        if (!fp) {
            fprintf(stderr, "judge: cannot read %s\n", files[f]);
            return 2;
        }
        static char text[1 << 16];
        size_t len = fread(text, 1, sizeof text - 1, fp);
        text[len] = 0;
        fclose(fp);
        gmk_record rec;
        char err[256];
        if (!gmk_record_read_psq(text, GMK_RULE_FREESTYLE, &rec, err, sizeof err) ||
            rec.size != SIZE) {
            fprintf(stderr, "judge: %s: %s\n", files[f], err);
            continue;
        }
        /* which colour is ours: gomoku match's game-NNNN.psq counts from 1, and engine 1 is
         * black in games 1, 3, 5... */
        int game = 1;
        const char *base = strrchr(files[f], '/');
        sscanf(base ? base + 1 : files[f], "game-%d", &game);
        game -= 1;
        gmk_color mine = strcmp(side, "white") == 0 ? GMK_WHITE : GMK_BLACK;
        if (strcmp(side, "engine1") == 0) mine = game % 2 == 0 ? GMK_BLACK : GMK_WHITE;
        if (strcmp(side, "engine2") == 0) mine = game % 2 == 0 ? GMK_WHITE : GMK_BLACK;
        /* the opening: the stones placed before the first timed move */
        int opening = 0;
        while (opening < rec.count && rec.time_ms[opening] <= 0) opening++;
        int lo = opening + 4, hi = rec.count - 8, picked = 0;
        if (hi <= lo) continue;
        int starts[2] = {lo + (hi - lo) / 4, lo + (hi - lo) * 2 / 3};
        int last = -1;
        for (int s = 0; s < 2; s++) {
            for (int ply = starts[s] > last + 2 ? starts[s] : last + 2; ply < hi; ply++) {
                if ((ply % 2 == 0 ? GMK_BLACK : GMK_WHITE) != mine) continue;
                gmk_board b;
                gmk_board_init(&b, SIZE, GMK_RULE_FREESTYLE);
                for (int m = 0; m < ply; m++) gmk_board_make(&b, rec.moves[m]);
                gmk_scored_move gen[GMK_MAX_MOVES];
                bool forced = false;
                int ng = gmk_movegen_generate(&b, gen, &forced);
                if (forced || ng < 2 || b.count[gmk_opponent(b.side)][GMK_TH_FIVE] > 0) continue;
                int v = judge_value(rec.moves, ply, NULL);
                double w = winrate(v);
                if (w < 0.1 || w > 0.9) continue;
                printf("%s:%d", base ? base + 1 : files[f], ply);
                for (int m = 0; m < ply; m++)
                    printf(" %d,%d", gmk_pos_x(rec.moves[m]), gmk_pos_y(rec.moves[m]));
                printf("\n");
                fflush(stdout);
                last = ply;
                picked++;
                break;
            }
        }
        (void)picked;
    }
    return 0;
}

static void usage(void) {
    fprintf(stderr, "usage: judge --judge CMD [--judge-nodes J] [--cache FILE] [--positions FILE]\n"
                    "             [--scale K] moves [--nodes N] [--engine CMD] [--symmetries K] |\n"
                    "             eval |\n"
                    "             select [--side black|white|engine1|engine2] GAME.psq...\n");
    exit(2);
}

static long arg_long(const char *s, long lo, long hi) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == 0 || *end || v < lo || v > hi) {
        fprintf(stderr, "judge: %s: expected a number from %ld to %ld\n", s, lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    const char *judge_cmd = NULL, *cache_path = "build/judge-cache.txt", *pos_path = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i += 2) {
        if (i + 1 >= argc) usage();
        if (strcmp(argv[i], "--judge") == 0)
            judge_cmd = argv[i + 1];
        else if (strcmp(argv[i], "--judge-nodes") == 0)
            judge_nodes = arg_long(argv[i + 1], 1000, 1000000000);
        else if (strcmp(argv[i], "--cache") == 0)
            cache_path = argv[i + 1];
        else if (strcmp(argv[i], "--positions") == 0)
            pos_path = argv[i + 1];
        else if (strcmp(argv[i], "--scale") == 0)
            our_scale = (double)arg_long(argv[i + 1], 1, 100000);
        else
            usage();
    }
    if (i >= argc || !judge_cmd) usage();
    const char *cmd = argv[i++];
    bool select = strcmp(cmd, "select") == 0, moves = strcmp(cmd, "moves") == 0;
    if (!select && !moves && strcmp(cmd, "eval") != 0) usage();
    if (!select && !pos_path) usage();
    /* the command's own arguments, all read before the judge starts */
    const char *side = "engine1", *engine_cmd = NULL;
    long nodes = 100000;
    int symmetries = 1;
    if (select) {
        if (i + 1 < argc && strcmp(argv[i], "--side") == 0) {
            side = argv[i + 1];
            i += 2;
        }
    } else {
        for (; moves && i + 1 < argc; i += 2) {
            if (strcmp(argv[i], "--nodes") == 0)
                nodes = arg_long(argv[i + 1], 1, 1000000000);
            else if (strcmp(argv[i], "--engine") == 0)
                engine_cmd = argv[i + 1];
            else if (strcmp(argv[i], "--symmetries") == 0)
                symmetries = (int)arg_long(argv[i + 1], 1, 8);
            else
                usage();
        }
        if (i < argc) usage(); /* eval takes none (options go before the command) */
    }
    gmk_proc_ignore_sigpipe();
    cache_load(cache_path);
    if (!remote_open(&judge, judge_cmd, judge_nodes)) return 2;
    int rc;
    if (select) {
        rc = cmd_select(argv + i, argc - i, side);
    } else {
        load_positions(pos_path);
        rc = moves ? cmd_moves(nodes, engine_cmd, symmetries) : cmd_eval();
    }
    gmk_proc_finish(judge.proc, 1000);
    fclose(cache_out);
    return rc;
}
