/* gendata.c: self-play games for training the evaluation (tools/texel.c reads them), or
 * balanced openings for engine matches.
 *
 *   gendata [--rule R] [--games N] [--nodes N] [--seed S] [--threads T] [--openings] > out.txt
 *
 * Each game starts from a random opening of 3 to 6 stones (the first within two cells of the
 * centre, each next one within two cells of a stone already placed, no side with a four or a
 * five point afterwards) and is played to the end by the engine against itself at a fixed node
 * count a move, so a seed gives the same games on every machine. One line per game:
 *
 *   <result> <opening length> <x> <y> <score> <x> <y> <score> ...
 *
 * result is 1 when black won, -1 when white won, 0 for a draw; x and y are 0-based (column,
 * row) on the 15 x 15 board; score is the search's score of the move for the side that played
 * it (0 in the opening). Games are printed in the order of their number, each as soon as it
 * and every game before it are done, so a long run stopped early keeps the games printed.
 *
 * With --openings no game is played: each game's opening is searched once at --nodes, and
 * printed when the engine gives the side to move between 35% and 65% (winrate.h) and no
 * opening with the same stones of each colour was printed before, one a line in the form of
 * Gomocup's opening files (`gomoku match --openings`): "x,y, x,y, ..." from the centre of the
 * board. Fixed-node matches between two builds repeat a game exactly from the same opening and
 * colours, so a screen wants as many openings as games. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"
#include "engine/engine.h"
#include "engine/winrate.h"

enum { SIZE = 15 };

typedef struct {
    int result;
    bool balanced; /* --openings: the opening is balanced enough to print */
    int opening;
    int count;
    gmk_pos moves[SIZE * SIZE];
    int scores[SIZE * SIZE];
} game;

static gmk_rule rule = GMK_RULE_FREESTYLE;
static int games = 1000, threads = 2;
static int64_t nodes = 4000;
static uint64_t seed = 1;
static bool openings_only;
static game *played;
static bool *finished; /* [g] game g is played */
static int next_game;  /* the next game to hand to a worker */
static int next_print; /* the next game to print */
static pthread_mutex_t next_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static bool has_four_point(const gmk_board *b, gmk_color c) {
    return b->count[c][GMK_TH_FOUR] || b->count[c][GMK_TH_FOUR_THREE] ||
           b->count[c][GMK_TH_OPEN_FOUR] || b->count[c][GMK_TH_FIVE];
}

/* A random opening on b; false when this try gave a position with a four or a five point. */
static bool random_opening(gmk_board *b, uint64_t *rng) {
    gmk_board_init(b, SIZE, rule);
    int stones = 3 + (int)(splitmix(rng) % 4);
    int c = SIZE / 2;
    gmk_board_make(b,
                   gmk_pos_xy(c - 2 + (int)(splitmix(rng) % 5), c - 2 + (int)(splitmix(rng) % 5)));
    while (b->move_count < stones) {
        gmk_pos options[SIZE * SIZE];
        int n = 0;
        for (int y = 0; y < SIZE; y++)
            for (int x = 0; x < SIZE; x++) {
                gmk_pos p = gmk_pos_xy(x, y);
                gmk_forbid_kind kind;
                if (gmk_board_empty_at(b, p) && b->near[p] &&
                    gmk_rules_check_move(b, p, &kind) == GMK_MOVE_LEGAL)
                    options[n++] = p;
            }
        if (n == 0) return false;
        gmk_board_make(b, options[splitmix(rng) % (uint64_t)n]);
    }
    return !has_four_point(b, GMK_BLACK) && !has_four_point(b, GMK_WHITE);
}

static void play_game(gmk_engine *e, int number, game *out) {
    uint64_t rng = seed * 1000003u + (uint64_t)number;
    gmk_board b;
    while (!random_opening(&b, &rng)) {
    }
    out->opening = b.move_count;
    out->result = 0;
    gmk_engine_clear(e);
    gmk_limits limits = {0};
    limits.nodes = nodes;
    if (openings_only) {
        gmk_engine_set_position(e, &b);
        gmk_search_result r;
        gmk_engine_search(e, &limits, NULL, &r);
        double rate = gmk_winrate(rule, r.score);
        out->balanced = rate >= 0.35 && rate <= 0.65;
        out->count = b.move_count;
        memcpy(out->moves, b.moves, sizeof(gmk_pos) * (size_t)b.move_count);
        return;
    }
    while (!gmk_board_full(&b)) {
        gmk_engine_set_position(e, &b);
        gmk_search_result r;
        gmk_engine_search(e, &limits, NULL, &r);
        if (r.best == GMK_POS_NONE) break;
        out->scores[b.move_count] = r.score;
        gmk_board_make(&b, r.best);
        gmk_result res;
        gmk_rules_result_after_last(&b, &res);
        if (res.outcome == GMK_BLACK_WINS) out->result = 1;
        if (res.outcome == GMK_WHITE_WINS) out->result = -1;
        if (res.outcome != GMK_ONGOING) break;
    }
    out->count = b.move_count;
    memcpy(out->moves, b.moves, sizeof(gmk_pos) * (size_t)b.move_count);
}

typedef uint32_t opening_key[2][SIZE * SIZE / 32 + 1]; /* a bit a cell, for each colour */

/* Whether an opening with the same stones of each colour (in any order) was printed before;
 * if not, it is remembered. */
static bool printed_before(const game *gm) {
    static opening_key *seen;
    static size_t nseen, cap;
    opening_key key = {{0}};
    for (int i = 0; i < gm->count; i++) {
        int cell = gmk_pos_y(gm->moves[i]) * SIZE + gmk_pos_x(gm->moves[i]);
        key[i % 2][cell / 32] |= 1u << (cell % 32);
    }
    for (size_t k = 0; k < nseen; k++)
        if (!memcmp(seen[k], key, sizeof key)) return true;
    if (nseen == cap) {
        size_t grown = cap ? 2 * cap : 256;
        void *p = realloc(seen, grown * sizeof *seen);
        if (!p) return false; /* out of memory: print it, as a repeat is harmless */
        seen = p;
        cap = grown;
    }
    memcpy(seen[nseen++], key, sizeof key);
    return false;
}

static void print_opening(const game *gm) {
    if (!gm->balanced || printed_before(gm)) return;
    for (int i = 0; i < gm->count; i++)
        printf("%s%d,%d", i ? ", " : "", gmk_pos_x(gm->moves[i]) - SIZE / 2,
               gmk_pos_y(gm->moves[i]) - SIZE / 2);
    putchar('\n');
}

static void print_game(const game *gm) {
    if (openings_only) {
        print_opening(gm);
        return;
    }
    printf("%d %d", gm->result, gm->opening);
    for (int i = 0; i < gm->count; i++)
        printf(" %d %d %d", gmk_pos_x(gm->moves[i]), gmk_pos_y(gm->moves[i]),
               i < gm->opening ? 0 : gm->scores[i]);
    putchar('\n');
}

static void *worker(void *arg) {
    (void)arg;
    gmk_engine *e = gmk_engine_new(16u << 20);
    if (!e) return NULL;
    for (;;) {
        pthread_mutex_lock(&next_lock);
        int g = next_game < games ? next_game++ : -1;
        pthread_mutex_unlock(&next_lock);
        if (g < 0) break;
        play_game(e, g, &played[g]);
        pthread_mutex_lock(&next_lock);
        finished[g] = true;
        bool printed = false;
        for (; next_print < games && finished[next_print]; next_print++, printed = true)
            print_game(&played[next_print]);
        if (printed) fflush(stdout);
        pthread_mutex_unlock(&next_lock);
        if ((g + 1) % 200 == 0) fprintf(stderr, "gendata: %d games\n", g + 1);
    }
    gmk_engine_free(e);
    return NULL;
}

static bool parse_long(const char *text, long lo, long hi, long *out) {
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < lo || v > hi) return false;
    *out = v;
    return true;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        long v;
        const char *val = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(argv[i], "--rule") && i + 1 < argc && gmk_rule_parse(val, &rule))
            i++;
        else if (!strcmp(argv[i], "--games") && parse_long(val, 1, 10000000, &v))
            games = (int)v, i++;
        else if (!strcmp(argv[i], "--nodes") && parse_long(val, 1, 1000000000, &v))
            nodes = v, i++;
        else if (!strcmp(argv[i], "--seed") && parse_long(val, 0, 1000000000, &v))
            seed = (uint64_t)v, i++;
        else if (!strcmp(argv[i], "--threads") && parse_long(val, 1, 64, &v))
            threads = (int)v, i++;
        else if (!strcmp(argv[i], "--openings"))
            openings_only = true;
        else {
            fprintf(stderr, "usage: gendata [--rule R] [--games N] [--nodes N] [--seed S] "
                            "[--threads T] [--openings] > out.txt\n");
            return 2;
        }
    }
    played = calloc((size_t)games, sizeof *played);
    finished = calloc((size_t)games, sizeof *finished);
    if (!played || !finished) {
        fprintf(stderr, "gendata: out of memory\n");
        return 1;
    }
    pthread_t tid[64];
    for (int t = 0; t < threads; t++) pthread_create(&tid[t], NULL, worker, NULL);
    for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
    free(played);
    free(finished);
    return 0;
}
