/* duel.c: plays two engine settings against each other in one process, for the difficulty
 * ladder table and quick checks. Each opening is played twice with colours swapped.
 *
 *   duel [--rule R] [--size N] [--openings FILE] [--games N] [--seed S] A B
 *   A, B: level:L | depth:D | nodes:N | time:MS, optionally followed by ,threads:T (Lazy SMP)
 *
 * Prints the running score and, at the end, wins/losses/draws of A, the score and the Elo
 * difference with a 95% margin. Every move is checked for legality. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"
#include "engine/engine.h"
#include "game/level.h"

static bool parse_player(const char *spec, gmk_limits *out, int *level) {
    memset(out, 0, sizeof *out);
    *level = 0;
    long v;
    if (sscanf(spec, "level:%ld", &v) == 1) {
        *level = (int)v;
        return gmk_level_limits((int)v, 0, 1, out);
    }
    if (sscanf(spec, "depth:%ld", &v) == 1)
        out->depth = (int)v;
    else if (sscanf(spec, "nodes:%ld", &v) == 1)
        out->nodes = v;
    else if (sscanf(spec, "time:%ld", &v) == 1)
        out->turn_ms = v;
    else
        return false;
    const char *t = strstr(spec, ",threads:");
    if (t) {
        long n = strtol(t + 9, NULL, 10);
        if (n < 1 || n > GMK_MAX_THREADS) return false;
        out->threads = (int)n;
    }
    return true;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf) buf[n] = '\0';
    return buf;
}

/* Plays one game; returns 1 if black wins, -1 if white wins, 0 for a draw; -2 on an illegal
 * move (reported). */
static int play(gmk_engine *black, gmk_engine *white, const gmk_limits *lb, const gmk_limits *lw,
                int level_b, int level_w, const gmk_move_list *opening, gmk_rule rule,
                uint64_t seed, int max_ply) {
    gmk_board b;
    gmk_move_list list = *opening;
    if (!gmk_move_list_to_board(&list, rule, &b)) return 0;
    gmk_engine_clear(black);
    gmk_engine_clear(white);
    while (b.move_count < max_ply && !gmk_board_full(&b)) {
        bool black_moves = gmk_board_side(&b) == GMK_BLACK;
        gmk_engine *e = black_moves ? black : white;
        gmk_limits l = black_moves ? *lb : *lw;
        int level = black_moves ? level_b : level_w;
        if (level) gmk_level_limits(level, 0, seed + (uint64_t)b.move_count, &l);
        gmk_engine_set_position(e, &b);
        gmk_search_result r;
        gmk_engine_search(e, &l, NULL, &r);
        gmk_forbid_kind kind;
        if (gmk_rules_check_move(&b, r.best, &kind) != GMK_MOVE_LEGAL) {
            char moves[2048];
            gmk_notation_moves(&b, moves, sizeof moves);
            fprintf(stderr, "illegal move by %s after %s\n", black_moves ? "black" : "white",
                    moves);
            return -2;
        }
        gmk_board_make(&b, r.best);
        gmk_result res;
        gmk_rules_result_after_last(&b, &res);
        if (res.outcome == GMK_BLACK_WINS) return 1;
        if (res.outcome == GMK_WHITE_WINS) return -1;
        if (res.outcome == GMK_DRAW) return 0;
    }
    return 0;
}

int main(int argc, char **argv) {
    gmk_rule rule = GMK_RULE_FREESTYLE;
    int size = 15, games = 20, max_ply = 225;
    uint64_t seed = 1;
    const char *openings_path = "../shared/testdata/openings/balanced_freestyle15_offset.txt";
    const char *spec[2] = {NULL, NULL};
    int ns = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rule") && i + 1 < argc) {
            if (!gmk_rule_parse(argv[++i], &rule)) return 2;
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--maxply") && i + 1 < argc)
            max_ply = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], 0, 10);
        else if (!strcmp(argv[i], "--openings") && i + 1 < argc)
            openings_path = argv[++i];
        else if (ns < 2)
            spec[ns++] = argv[i];
        else {
            fprintf(stderr, "duel: unexpected '%s'\n", argv[i]);
            return 2;
        }
    }
    gmk_limits la, lb;
    int level_a, level_b;
    if (ns != 2 || !parse_player(spec[0], &la, &level_a) || !parse_player(spec[1], &lb, &level_b)) {
        fprintf(stderr, "usage: duel [--rule R] [--openings FILE] [--games N] A B\n");
        return 2;
    }
    char *text = read_file(openings_path);
    if (!text) {
        fprintf(stderr, "duel: cannot read %s\n", openings_path);
        return 2;
    }
    static gmk_move_list openings[256];
    int nopen = 0;
    char err[200];
    if (!gmk_opening_parse_file(text, size, openings, 256, &nopen, err, sizeof err) || !nopen) {
        fprintf(stderr, "duel: %s: %s\n", openings_path, err);
        return 2;
    }
    free(text);
    gmk_engine *ea = gmk_engine_new(32u << 20), *eb = gmk_engine_new(32u << 20);
    int w = 0, l = 0, d = 0, illegal = 0;
    for (int g = 0; g < games; g++) {
        const gmk_move_list *op = &openings[(g / 2) % nopen];
        bool a_black = ((op->count % 2 == 0) ? 1 : 0) ^ (g & 1);
        /* the side to move after the opening alternates between A and B */
        int r;
        if (a_black)
            r = play(ea, eb, &la, &lb, level_a, level_b, op, rule, seed + (uint64_t)g * 1000,
                     max_ply);
        else
            r = play(eb, ea, &lb, &la, level_b, level_a, op, rule, seed + (uint64_t)g * 1000,
                     max_ply);
        if (r == -2) {
            illegal++;
            continue;
        }
        int a_result = a_black ? r : -r;
        if (a_result > 0)
            w++;
        else if (a_result < 0)
            l++;
        else
            d++;
        printf("game %d: %s  (A %d-%d-%d)\n", g + 1,
               a_result > 0   ? "A wins"
               : a_result < 0 ? "B wins"
                              : "draw",
               w, l, d);
        fflush(stdout);
    }
    int n = w + l + d;
    double score = n ? (w + 0.5 * d) / n : 0.5;
    double elo = (score > 0 && score < 1) ? -400 * log10(1 / score - 1) : (score >= 1 ? 999 : -999);
    double var =
        n ? ((w * pow(1 - score, 2) + l * pow(score, 2) + d * pow(0.5 - score, 2)) / n) : 0;
    double se = n ? sqrt(var / n) : 0;
    double lo = score - 1.96 * se, hi = score + 1.96 * se;
    double margin =
        (lo > 0 && hi < 1) ? (-400 * log10(1 / hi - 1) + 400 * log10(1 / lo - 1)) / 2 : 0;
    printf("A=%s B=%s: %d games, A +%d -%d =%d, score %.1f%%, Elo %+.0f +- %.0f, illegal %d\n",
           spec[0], spec[1], n, w, l, d, 100 * score, elo, margin, illegal);
    gmk_engine_free(ea);
    gmk_engine_free(eb);
    return illegal ? 1 : 0;
}
