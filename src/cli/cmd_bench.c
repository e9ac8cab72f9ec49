/* cmd_bench.c: gomoku bench --moves: speed of make/undo and of the forbidden-point check. */
#include <string.h>
#include <time.h>

#include "cli.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t next_random(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A fixed pseudo-random game of `plies` moves near the centre, on a freestyle board. */
static int fixed_game(gmk_board *b, gmk_rule rule, int plies, gmk_pos *moves) {
    gmk_board_init(b, 15, rule);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    int n = 0;
    while (n < plies) {
        int x = 2 + (int)(next_random(&seed) % 11), y = 2 + (int)(next_random(&seed) % 11);
        gmk_pos p = gmk_pos_xy(x, y);
        if (!gmk_board_empty_at(b, p)) continue;
        gmk_board_make(b, p);
        moves[n++] = p;
    }
    return n;
}

static int bench_moves(void) {
    gmk_board board;
    gmk_pos moves[100];
    int n = fixed_game(&board, GMK_RULE_FREESTYLE, 60, moves);
    /* make+undo at every depth of the game: undo the tail and replay it */
    long pairs = 0;
    double start = now_s(), elapsed;
    do {
        for (int rep = 0; rep < 1000; rep++) {
            for (int i = 0; i < 10; i++) gmk_board_undo(&board);
            for (int i = n - 10; i < n; i++) gmk_board_make(&board, moves[i]);
            pairs += 10;
        }
        elapsed = now_s() - start;
    } while (elapsed < 1.0);
    printf("make+undo: %ld pairs in %.2f s: %.0f pairs/s (%.0f moves/s)\n", pairs, elapsed,
           pairs / elapsed, 2 * pairs / elapsed);

    /* forbidden checks: every empty point of a fixed set of renju positions */
    gmk_board renju[4];
    for (int i = 0; i < 4; i++) {
        gmk_pos m[100];
        fixed_game(&renju[i], GMK_RULE_RENJU, 20 + 10 * i, m);
    }
    long checks = 0, candidates = 0, forbidden = 0;
    start = now_s();
    do {
        for (int i = 0; i < 4; i++)
            for (gmk_pos p = 0; p < GMK_CELLS; p++) {
                if (!gmk_board_empty_at(&renju[i], p)) continue;
                checks++;
                if (gmk_renju_is_candidate(&renju[i], p)) candidates++;
                if (gmk_forbid_is_foul(gmk_renju_forbidden(&renju[i], p))) forbidden++;
            }
        elapsed = now_s() - start;
    } while (elapsed < 1.0);
    printf("forbidden check (pre-filter + exact): %ld points in %.2f s: %.0f checks/s "
           "(%.1f%% candidates, %.2f%% forbidden)\n",
           checks, elapsed, checks / elapsed, 100.0 * candidates / checks,
           100.0 * forbidden / checks);
    long exact = 0;
    start = now_s();
    do {
        for (int i = 0; i < 4; i++)
            for (gmk_pos p = 0; p < GMK_CELLS; p++) {
                if (!gmk_board_empty_at(&renju[i], p)) continue;
                exact++;
                (void)gmk_renju_classify(&renju[i], p);
            }
        elapsed = now_s() - start;
    } while (elapsed < 1.0);
    printf("forbidden check (exact only): %ld points in %.2f s: %.0f checks/s\n", exact, elapsed,
           exact / elapsed);
    return CLI_OK;
}

int cmd_bench(int argc, char **argv) {
    if (cli_wants_help(argc, argv, cli_find("bench"))) return CLI_OK;
    if (argc == 2 && strcmp(argv[1], "--moves") == 0) return bench_moves();
    return cli_error("bench", "usage: gomoku bench --moves");
}
