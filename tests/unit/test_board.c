/* test_board.c: board set-up, make/undo, gmk_board_put, the Zobrist key, and the incremental
 * state against gmk_board_check over many seeded random games on every rule and several sizes. */
#include <criterion/criterion.h>

#include "support.h"

static const int game_sizes[] = {5, 15, 20, 22};

/* Makes a and b byte-identical where they must be: after make+undo the moves[] slot just past
 * the history still holds the undone move, which is not part of the position. */
static bool same_position(const gmk_board *a, const gmk_board *b, char *why, size_t cap) {
    if (a->move_count != b->move_count) {
        snprintf(why, cap, "move_count %d vs %d", a->move_count, b->move_count);
        return false;
    }
    if (a->size != b->size || a->rule != b->rule || a->tables != b->tables) {
        snprintf(why, cap, "size/rule/tables differ");
        return false;
    }
    if (a->side != b->side) {
        snprintf(why, cap, "side %d vs %d", a->side, b->side);
        return false;
    }
    if (a->hash != b->hash) {
        snprintf(why, cap, "hash %016llx vs %016llx", (unsigned long long)a->hash,
                 (unsigned long long)b->hash);
        return false;
    }
    if (memcmp(a->stone, b->stone, sizeof a->stone) != 0) {
        snprintf(why, cap, "stones differ");
        return false;
    }
    if (memcmp(a->moves, b->moves, (size_t)a->move_count * sizeof a->moves[0]) != 0) {
        snprintf(why, cap, "move history differs");
        return false;
    }
    for (gmk_pos p = 0; p < GMK_CELLS; p++) {
        const gmk_cell *x = &a->cell[p], *y = &b->cell[p];
        if (memcmp(x->key, y->key, sizeof x->key) || memcmp(x->pair, y->pair, sizeof x->pair) ||
            x->tally != y->tally || x->weights != y->weights ||
            memcmp(x->threat, y->threat, sizeof x->threat) ||
            memcmp(x->combo, y->combo, sizeof x->combo)) {
            snprintf(why, cap, "cell %d,%d differs", gmk_pos_x(p), gmk_pos_y(p));
            return false;
        }
    }
    if (memcmp(a->count, b->count, sizeof a->count) != 0) {
        snprintf(why, cap, "threat counts differ");
        return false;
    }
    if (memcmp(a->weight_sum, b->weight_sum, sizeof a->weight_sum) != 0) {
        snprintf(why, cap, "weight sums differ");
        return false;
    }
    /* Everything else too (fields added later included): the whole struct, with the stale
     * history slots made equal. */
    static gmk_board ca, cb;
    memcpy(&ca, a, sizeof ca);
    memcpy(&cb, b, sizeof cb);
    for (int i = a->move_count; i < GMK_MAX_MOVES; i++) ca.moves[i] = cb.moves[i] = 0;
    if (memcmp(&ca, &cb, sizeof ca) != 0) {
        const unsigned char *pa = (const unsigned char *)&ca, *pb = (const unsigned char *)&cb;
        size_t off = 0;
        while (pa[off] == pb[off]) off++;
        snprintf(why, cap, "boards differ at byte %zu of %zu", off, sizeof ca);
        return false;
    }
    return true;
}

Test(board, init_sizes) {
    static gmk_board b;
    for (int size = GMK_MIN_SIZE; size <= GMK_MAX_SIZE; size++)
        for (gmk_rule r = GMK_RULE_FREESTYLE; r < GMK_RULE_COUNT; r++) {
            cr_assert_eq(gmk_board_init(&b, size, r), GMK_OK, "size %d rule %d", size, r);
            cr_expect_eq(b.size, size);
            cr_expect_eq(b.rule, r);
            cr_expect_eq(b.move_count, 0);
            cr_expect_eq(b.side, GMK_BLACK);
            cr_expect_eq(b.hash, 0u);
            cr_expect(gmk_board_check(&b), "fresh board %d rule %d fails the check", size, r);
            int empty = 0;
            for (gmk_pos p = 0; p < GMK_CELLS; p++) {
                bool on = gmk_board_on(&b, gmk_pos_x(p), gmk_pos_y(p));
                cr_expect_eq(b.stone[p], on ? GMK_EMPTY : GMK_WALL, "cell %d on %d", p, size);
                empty += b.stone[p] == GMK_EMPTY;
            }
            cr_expect_eq(empty, size * size);
            int counted = 0;
            for (int t = 0; t < GMK_TH_COUNT; t++) counted += b.count[GMK_BLACK][t];
            cr_expect_eq(counted, size * size);
            cr_expect_eq(gmk_board_last(&b), GMK_POS_NONE);
            cr_expect_not(gmk_board_full(&b));
        }
}

Test(board, sizes_and_rules_out_of_range) {
    static gmk_board b;
    static const int bad_sizes[] = {-1, 0, 1, 4, 23, 32, 100, 1 << 30};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++)
        cr_expect_eq(gmk_board_init(&b, bad_sizes[i], GMK_RULE_FREESTYLE), GMK_ERR_SIZE,
                     "size %d accepted", bad_sizes[i]);
    cr_expect_eq(gmk_board_init(&b, 15, GMK_RULE_COUNT), GMK_ERR_RULE);
    cr_expect_eq(gmk_board_init(&b, 15, (gmk_rule)-1), GMK_ERR_RULE);
    cr_expect_eq(gmk_board_init(&b, 15, (gmk_rule)99), GMK_ERR_RULE);
}

/* Any on-board cell plus 5 steps in any direction stays inside the padded array. */
Test(board, padding_is_wide_enough) {
    for (int y = 0; y < GMK_MAX_SIZE; y++)
        for (int x = 0; x < GMK_MAX_SIZE; x++)
            for (int d = 0; d < GMK_DIRS; d++)
                for (int k = -GMK_LINE_HALF; k <= GMK_LINE_HALF; k++) {
                    gmk_pos q = gmk_pos_xy(x, y) + k * gmk_dir_step[d];
                    cr_assert(q >= 0 && q < GMK_CELLS, "%d,%d dir %d step %d leaves the array", x,
                              y, d, k);
                }
    cr_expect_eq(gmk_pos_x(gmk_pos_xy(3, 17)), 3);
    cr_expect_eq(gmk_pos_y(gmk_pos_xy(3, 17)), 17);
}

Test(board, make_and_undo_one_move) {
    static gmk_board b, before;
    gmk_board_init(&b, 15, GMK_RULE_RENJU);
    memcpy(&before, &b, sizeof b);
    gmk_pos p = gmk_pos_xy(7, 7);
    gmk_board_make(&b, p);
    cr_expect_eq(b.stone[p], GMK_BLACK);
    cr_expect_eq(b.side, GMK_WHITE);
    cr_expect_eq(b.move_count, 1);
    cr_expect_eq(gmk_board_last(&b), p);
    cr_expect_eq(b.hash, gmk_zobrist(GMK_BLACK, p));
    cr_expect(gmk_board_check(&b));
    gmk_board_make(&b, gmk_pos_xy(8, 7));
    cr_expect_eq(b.stone[gmk_pos_xy(8, 7)], GMK_WHITE);
    cr_expect_eq(b.side, GMK_BLACK);
    gmk_board_undo(&b);
    gmk_board_undo(&b);
    char why[128];
    cr_expect(same_position(&b, &before, why, sizeof why), "after make/undo: %s", why);
    /* undo on an empty history does nothing */
    gmk_board_undo(&b);
    cr_expect(same_position(&b, &before, why, sizeof why), "undo on empty history: %s", why);
}

Test(board, put_sets_colour_and_side) {
    static gmk_board b;
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    gmk_pos a = gmk_pos_xy(1, 1), c = gmk_pos_xy(2, 2), w = gmk_pos_xy(3, 3);
    gmk_board_put(&b, a, GMK_BLACK);
    gmk_board_put(&b, c, GMK_BLACK);
    cr_expect_eq(b.side, GMK_WHITE);
    gmk_board_put(&b, w, GMK_WHITE);
    cr_expect_eq(b.side, GMK_BLACK);
    gmk_board_put(&b, gmk_pos_xy(4, 4), GMK_WHITE);
    cr_expect_eq(b.side, GMK_BLACK);
    cr_expect_eq(b.stone[a], GMK_BLACK);
    cr_expect_eq(b.stone[c], GMK_BLACK);
    cr_expect_eq(b.stone[w], GMK_WHITE);
    cr_expect_eq(b.move_count, 4);
    cr_expect(gmk_board_check(&b));
    cr_expect_eq(b.hash, gmk_zobrist(GMK_BLACK, a) ^ gmk_zobrist(GMK_BLACK, c) ^
                             gmk_zobrist(GMK_WHITE, w) ^ gmk_zobrist(GMK_WHITE, gmk_pos_xy(4, 4)));
    /* undo of a put gives the turn back to the colour of the removed stone */
    gmk_board_undo(&b);
    cr_expect_eq(b.side, GMK_WHITE);
    gmk_board_undo(&b);
    cr_expect_eq(b.side, GMK_WHITE);
    gmk_board_undo(&b);
    cr_expect_eq(b.side, GMK_BLACK);
    cr_expect(gmk_board_check(&b));
    /* put and make build the same position */
    static gmk_board m;
    gmk_board_init(&m, 15, GMK_RULE_FREESTYLE);
    gmk_board_make(&m, a);
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    gmk_board_put(&b, a, GMK_BLACK);
    char why[128];
    cr_expect(same_position(&m, &b, why, sizeof why), "put vs make: %s", why);
}

Test(board, zobrist_keys_are_distinct) {
    /* every (colour, on-board cell) pair has its own non-zero key */
    static uint64_t seen[2 * GMK_MAX_SIZE * GMK_MAX_SIZE];
    int n = 0;
    for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++)
        for (int y = 0; y < GMK_MAX_SIZE; y++)
            for (int x = 0; x < GMK_MAX_SIZE; x++) {
                uint64_t z = gmk_zobrist(c, gmk_pos_xy(x, y));
                cr_expect_neq(z, 0u);
                for (int i = 0; i < n; i++) cr_assert_neq(seen[i], z, "zobrist collision");
                seen[n++] = z;
            }
}

/* The same stones reached in another order give the same key and the same derived state. */
Test(board, transpositions_match) {
    static gmk_board a, b;
    test_rng rng = {42};
    for (int round = 0; round < 50; round++) {
        gmk_board_init(&a, 15, (gmk_rule)(round % GMK_RULE_COUNT));
        gmk_board_init(&b, 15, (gmk_rule)(round % GMK_RULE_COUNT));
        gmk_pos blacks[20], whites[20];
        int n = 0;
        while (n < 20) {
            gmk_pos pb = gmk_pos_xy(rng_below(&rng, 15), rng_below(&rng, 15));
            if (!gmk_board_empty_at(&a, pb)) continue;
            gmk_board_make(&a, pb);
            gmk_pos pw;
            do pw = gmk_pos_xy(rng_below(&rng, 15), rng_below(&rng, 15));
            while (!gmk_board_empty_at(&a, pw));
            gmk_board_make(&a, pw);
            blacks[n] = pb;
            whites[n++] = pw;
        }
        for (int i = n - 1; i >= 0; i--) { /* reverse order, same colours */
            gmk_board_make(&b, blacks[i]);
            gmk_board_make(&b, whites[i]);
        }
        cr_expect_eq(a.hash, b.hash);
        cr_expect(memcmp(a.stone, b.stone, sizeof a.stone) == 0);
        /* keys of every cell, and the patterns of every empty cell (an occupied cell keeps
         * whatever it had when it was filled) depend on the stones only */
        for (gmk_pos p = 0; p < GMK_CELLS; p++) {
            const gmk_cell *x = &a.cell[p], *y = &b.cell[p];
            cr_assert(memcmp(x->key, y->key, sizeof x->key) == 0, "keys depend on move order");
            if (a.stone[p] != GMK_EMPTY) continue;
            cr_assert(memcmp(x->pair, y->pair, sizeof x->pair) == 0 && x->tally == y->tally &&
                          x->weights == y->weights &&
                          memcmp(x->threat, y->threat, sizeof x->threat) == 0 &&
                          memcmp(x->combo, y->combo, sizeof x->combo) == 0,
                      "patterns depend on move order");
        }
        cr_expect(memcmp(a.count, b.count, sizeof a.count) == 0);
        cr_expect_eq(a.weight_sum[GMK_BLACK], b.weight_sum[GMK_BLACK]);
        cr_expect_eq(a.weight_sum[GMK_WHITE], b.weight_sum[GMK_WHITE]);
    }
}

/* Plays one random game on b (already initialised): random empty points, biased towards the
 * middle so that lines fill up, until the board is full or `limit` moves are made. Checks the
 * board after every move, then undoes everything, checking after each undo that the position
 * equals the one saved before the corresponding move. Returns the number of moves played. */
static int random_game(gmk_board *b, test_rng *rng, int limit, const char *label) {
    static gmk_board history[GMK_MAX_MOVES + 1];
    int size = b->size, n = 0;
    char why[128];
    memcpy(&history[0], b, sizeof *b);
    while (n < limit && !gmk_board_full(b)) {
        gmk_pos p;
        if (rng_below(rng, 4) == 0) {
            int lo = size / 4, span = size - 2 * lo;
            p = gmk_pos_xy(lo + rng_below(rng, span), lo + rng_below(rng, span));
        } else {
            p = gmk_pos_xy(rng_below(rng, size), rng_below(rng, size));
        }
        if (!gmk_board_empty_at(b, p)) continue;
        gmk_board_make(b, p);
        n++;
        memcpy(&history[n], b, sizeof *b);
        if (!gmk_board_check(b)) {
            cr_assert_fail("%s: check fails after move %d", label, n);
        }
        /* a make+undo+make round trip inside the game */
        if (rng_below(rng, 3) == 0) {
            gmk_board_undo(b);
            if (!same_position(b, &history[n - 1], why, sizeof why))
                cr_assert_fail("%s: undo of move %d: %s", label, n, why);
            gmk_board_make(b, p);
            if (!same_position(b, &history[n], why, sizeof why))
                cr_assert_fail("%s: redo of move %d: %s", label, n, why);
        }
    }
    for (int i = n; i > 0; i--) {
        gmk_board_undo(b);
        if (!gmk_board_check(b)) cr_assert_fail("%s: check fails after undo to %d", label, i - 1);
        if (!same_position(b, &history[i - 1], why, sizeof why))
            cr_assert_fail("%s: undo to move %d: %s", label, i - 1, why);
    }
    return n;
}

/* Random games on every size; with_journal: the same with an undo journal attached after 0 to
 * 2 plain moves (so undo puts back saved cells, falls back past GMK_JOURNAL_PLIES, and undoes
 * the moves made before the journal the plain way). */
static void random_games(gmk_rule rule, bool with_journal) {
    static gmk_board b;
    gmk_board_journal *journal = with_journal ? gmk_board_journal_new() : NULL;
    cr_assert(!with_journal || journal);
    long moves = 0;
    for (size_t s = 0; s < sizeof game_sizes / sizeof game_sizes[0]; s++) {
        int size = game_sizes[s];
        int games = size <= 5 ? 40 : 6;
        for (int g = 0; g < games; g++) {
            test_rng rng = {(uint64_t)(1000003 * rule + 1009 * size + g)};
            char label[64];
            snprintf(label, sizeof label, "rule %d size %d game %d%s", rule, size, g,
                     with_journal ? " (journal)" : "");
            gmk_board_init(&b, size, rule);
            int before = with_journal ? g % 3 : 0;
            for (int i = 0; i < before; i++) gmk_board_make(&b, gmk_pos_xy(i, size - 1));
            if (with_journal) gmk_board_attach_journal(&b, journal);
            /* half the games fill the board, the others stop in the middle game */
            int limit = g % 2 ? size * size - before : size * size / 3;
            moves += random_game(&b, &rng, limit, label);
            cr_assert_eq(b.move_count, before);
            for (int i = 0; i < before; i++) gmk_board_undo(&b);
            cr_assert(gmk_board_check(&b), "%s: check fails after the plain undos", label);
        }
    }
    gmk_board_journal_free(journal);
    cr_log_info("rule %d: %ld moves checked", rule, moves);
    cr_expect_gt(moves, 1000);
}

Test(board_random, freestyle, .timeout = 120) {
    random_games(GMK_RULE_FREESTYLE, false);
}
Test(board_random, standard, .timeout = 120) {
    random_games(GMK_RULE_STANDARD, false);
}
Test(board_random, renju, .timeout = 120) {
    random_games(GMK_RULE_RENJU, false);
}
Test(board_random, caro, .timeout = 120) {
    random_games(GMK_RULE_CARO, false);
}
Test(board_random, journal_freestyle, .timeout = 120) {
    random_games(GMK_RULE_FREESTYLE, true);
}
Test(board_random, journal_renju, .timeout = 120) {
    random_games(GMK_RULE_RENJU, true);
}

/* gmk_board_check really looks: a corrupted field is caught. */
Test(board, check_detects_corruption) {
    static gmk_board b, bad;
    gmk_board_init(&b, 15, GMK_RULE_FREESTYLE);
    gmk_board_make(&b, gmk_pos_xy(7, 7));
    gmk_board_make(&b, gmk_pos_xy(8, 8));
    cr_assert(gmk_board_check(&b));
    gmk_pos q = gmk_pos_xy(6, 7);

    memcpy(&bad, &b, sizeof b);
    bad.cell[q].pair[0] ^= 1;
    cr_expect_not(gmk_board_check(&bad), "pattern corruption not caught");

    memcpy(&bad, &b, sizeof b);
    bad.cell[q].key[1] ^= 1;
    cr_expect_not(gmk_board_check(&bad), "key corruption not caught");

    memcpy(&bad, &b, sizeof b);
    bad.hash ^= 1;
    cr_expect_not(gmk_board_check(&bad), "hash corruption not caught");

    memcpy(&bad, &b, sizeof b);
    bad.count[GMK_WHITE][GMK_TH_NONE]++;
    cr_expect_not(gmk_board_check(&bad), "count corruption not caught");

    memcpy(&bad, &b, sizeof b);
    bad.weight_sum[GMK_BLACK]++;
    cr_expect_not(gmk_board_check(&bad), "score sum corruption not caught");

    memcpy(&bad, &b, sizeof b);
    bad.cell[q].threat[GMK_BLACK] ^= 1;
    cr_expect_not(gmk_board_check(&bad), "threat corruption not caught");
}

Test(board, full_board) {
    static gmk_board b;
    gmk_board_init(&b, 5, GMK_RULE_FREESTYLE);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++) {
            cr_expect_not(gmk_board_full(&b));
            gmk_board_make(&b, gmk_pos_xy(x, y));
        }
    cr_expect(gmk_board_full(&b));
    cr_expect(gmk_board_check(&b));
    for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
        int counted = 0;
        for (int t = 0; t < GMK_TH_COUNT; t++) counted += b.count[c][t];
        cr_expect_eq(counted, 0, "no empty cell may be counted on a full board");
        cr_expect_eq(gmk_board_score_sum(&b, c), 0);
    }
}
