/* cmd_bench.c: gomoku bench: the search's fixed-depth bench, its speed in the middle game
 * (--middle), and the speed of make/undo and of the forbidden-point check (--moves). */
#include <string.h>
#include <time.h>

#include "bench_renju_boards.h"
#include "cli.h"
#include "engine/engine.h"

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

    /* forbidden checks: every empty point of the published renju suite's boards */
    enum { NBOARDS = (int)(sizeof bench_renju_boards / sizeof bench_renju_boards[0]) };
    static gmk_board renju[NBOARDS];
    for (int i = 0; i < NBOARDS; i++) {
        gmk_move_list list;
        char err[160];
        if (!gmk_notation_parse_diagram(bench_renju_boards[i], 15, &list, err, sizeof err) ||
            !gmk_move_list_to_board(&list, GMK_RULE_RENJU, &renju[i]))
            return cli_error("bench", "bad renju bench board %d: %s", i + 1, err);
    }
    long checks = 0, candidates = 0, forbidden = 0;
    start = now_s();
    do {
        for (int i = 0; i < NBOARDS; i++)
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
        for (int i = 0; i < NBOARDS; i++)
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

/* The bench positions: opening and middle game under each rule (move strings, black first). */
static const struct {
    gmk_rule rule;
    int size;
    const char *moves;
} bench_positions[] = {
    {GMK_RULE_FREESTYLE, 15, "h8i9i10"},
    {GMK_RULE_FREESTYLE, 15, "h8i9i10h10j8k8g8k9j9j11"},
    {GMK_RULE_FREESTYLE, 20, "k10l11j11"},
    {GMK_RULE_FREESTYLE, 20, "k10l11j11l9k12l10l12k9j12i12i10l13"},
    {GMK_RULE_STANDARD, 15, "h8j9j11"},
    {GMK_RULE_STANDARD, 15, "h8j9j11k10l11i10k8k11l10"},
    {GMK_RULE_RENJU, 15, "h8i9j8"},
    {GMK_RULE_RENJU, 15, "h8i9j8i7i10i8j10j7h10g10h9"},
};

/* Middle-game positions (freestyle 15, the engine's side to move), every fifth of
 * bench/judge-positions.txt: from games played here between this engine and another, so they
 * are the positions where a game's time goes, unlike the bench's short openings. (Every fifth
 * but the longest, which is left out.) */
static const char *const middle_positions[] = {
    "d5d4b6c7c5e5f6f7e8d6b8f9b7b9e4c6",
    "f13f11d10f10h9g9f8e11d12d11g11e10e9c11b11g7g8",
    "i4l4j7k3m4n3l5k5n2m5k6i8j2i7j6i6i9j5",
    "b7c2e3c7b6d5d2c1b3d4d7f5d3f3b5b4b8b9",
    "i6d12h11i9g15i7i10h8j10g9j6",
    "e6f4g5i7h7i4k4i6i5g4h4h5j7f6f3j6g6h8g9",
    "k12k14j14j10m12l12j11i10i9k9k10h11i12l9l11j9k8l8m7h13h12g12f13f11i14j13",
    "m4g6m7l6i6l7m5m3g5h7i8i7j7h5l4i4k6l5f7j3k2h4h6",
    "f3j6h3g6i5h5i3g3i4i6h6j4j5g2f5i2g5f4e5j2h2",
    "m8o6l10l6k6m9n6m6o8l7k8l8l5k7j6j7i7m5j8k9h8g9h6",
    "g10i6e9h10e6e8l8g11i9f7h9g6h5i8f8h7j9k9g7h6j6j5g8i7j8j10k7i5i4k4l3m5l5i11",
    "m7l3n3l5k7k4m5j5i6m6j3j8j6l7l8i5k9n6k6l6l4k8n5g6j9",
    "l13n13n14j11k11l12i12g10i13j12j10i11h10j13k10j14j15",
    "n15o12k10j11n13m12l14h13k11j10k9k12j12l10i10k8i8i11h7j9j7l11l9",
    "d14d12f15f12d11h15e11e10f10c11e12c10e13h11d9e14d8g12i10h12h13",
};

/* Sets one position on a cleared engine and times a search of it; false if the position does
 * not parse, with the reason in err. */
static bool search_position(gmk_engine *e, const char *moves, int size, gmk_rule rule,
                            const gmk_limits *limits, gmk_board *board, gmk_search_result *r,
                            int64_t *ms, char *err, size_t err_size) {
    gmk_move_list list;
    if (!gmk_notation_parse_moves(moves, size, &list, err, err_size)) return false;
    if (!gmk_move_list_to_board(&list, rule, board)) {
        snprintf(err, err_size, "the moves do not make a position");
        return false;
    }
    gmk_engine_clear(e);
    gmk_engine_set_position(e, board);
    double start = now_s();
    gmk_engine_search(e, limits, NULL, r);
    *ms = (int64_t)((now_s() - start) * 1000);
    return true;
}

/* Searches the middle-game positions to a node count each (one thread, a cleared 16 MB
 * table): the same nodes on every run, so the time is the engine's speed where games spend
 * it. */
static int bench_middle(long nodes) {
    int64_t total_nodes = 0, total_ms = 0;
    gmk_engine *e = gmk_engine_new(16u << 20);
    if (!e) return cli_error("bench", "out of memory");
    gmk_limits limits = {0};
    limits.nodes = nodes;
    int n = (int)(sizeof middle_positions / sizeof middle_positions[0]);
    for (int i = 0; i < n; i++) {
        char err[160] = "";
        gmk_board board;
        gmk_search_result r;
        int64_t ms;
        if (!search_position(e, middle_positions[i], 15, GMK_RULE_FREESTYLE, &limits, &board, &r,
                             &ms, err, sizeof err)) {
            gmk_engine_free(e);
            return cli_error("bench", "bad middle-game position %d: %s", i + 1, err);
        }
        total_ms += ms;
        total_nodes += r.nodes;
    }
    gmk_engine_free(e);
    printf("Middle: %d positions, %lld nodes in %lld ms: %lld nps\n", n, (long long)total_nodes,
           (long long)total_ms,
           (long long)(total_ms > 0 ? total_nodes * 1000 / total_ms : total_nodes));
    return CLI_OK;
}

static int bench_search(int depth, int threads) {
    int64_t total_nodes = 0, total_ms = 0;
    gmk_engine *e = gmk_engine_new(16u << 20);
    if (!e) return cli_error("bench", "out of memory");
    gmk_limits limits = {0};
    limits.depth = depth;
    limits.threads = threads;
    int n = (int)(sizeof bench_positions / sizeof bench_positions[0]);
    for (int i = 0; i < n; i++) {
        char err[160] = "";
        gmk_board board;
        gmk_search_result r;
        int64_t ms;
        if (!search_position(e, bench_positions[i].moves, bench_positions[i].size,
                             bench_positions[i].rule, &limits, &board, &r, &ms, err, sizeof err)) {
            gmk_engine_free(e);
            return cli_error("bench", "bad bench position %d: %s", i + 1, err);
        }
        char best[4];
        gmk_notation_point(r.best, board.size, best);
        printf(
            "position %d (%s %d, %d stones): best %s score %d depth %d nodes %lld time %lld ms\n",
            i + 1, gmk_rule_name(board.rule), board.size, board.move_count, best, r.score, r.depth,
            (long long)r.nodes, (long long)ms);
        total_nodes += r.nodes;
        total_ms += ms;
    }
    gmk_engine_free(e);
    printf("Bench: %lld nodes %lld nps\n", (long long)total_nodes,
           (long long)(total_ms > 0 ? total_nodes * 1000 / total_ms : total_nodes));
    return CLI_OK;
}

int cmd_bench(int argc, char **argv) {
    if (cli_wants_help(argc, argv, cli_find("bench"))) return CLI_OK;
    if (argc == 2 && strcmp(argv[1], "--moves") == 0) return bench_moves();
    if (argc >= 2 && strcmp(argv[1], "--middle") == 0) {
        long nodes = 400000;
        if (argc > 3 || (argc == 3 && !cli_parse_int(argv[2], 1000, 100000000, &nodes)))
            return cli_error("bench", "usage: gomoku bench --middle [NODES] (1000-100000000)");
        return bench_middle(nodes);
    }
    long depth = 14, threads = 1;
    bool have_depth = false;
    for (int i = 1; i < argc; i++) {
        const char *value;
        if (cli_option(argc, argv, &i, "--threads", &value)) {
            if (!cli_parse_int(value, 1, GMK_MAX_THREADS, &threads))
                return cli_error("bench", "--threads needs 1-%d", GMK_MAX_THREADS);
        } else if (!have_depth && cli_parse_int(argv[i], 1, 30, &depth)) {
            have_depth = true;
        } else {
            return cli_error("bench", "usage: gomoku bench [DEPTH] [--threads N] | gomoku bench "
                                      "--moves (DEPTH 1-30)");
        }
    }
    return bench_search((int)depth, (int)threads);
}
