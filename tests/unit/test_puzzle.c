/* test_puzzle.c: puzzles (game/puzzle.h): the miner's uniqueness check on built positions (one
 * winning first four is a puzzle, two are not; one double three is a threes puzzle, two are
 * not), its defence puzzles, an independent check of the shipped set (each puzzle parses, its
 * first move wins, and no other four, or threat for the threes kind, does: the check written
 * again here, over the solver), playing a solution with the opponent answering, a wrong move,
 * the hint, the rating after attempts, and the puzzle of the day. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"
#include "engine/movegen.h"
#include "game/puzzle.h"

static gmk_threat_ctx ctx;

static void setup(void) {
    cr_assert(gmk_threat_ctx_init(&ctx, 1 << 16));
}
static void teardown(void) {
    gmk_threat_ctx_free(&ctx);
}

static gmk_board board(const char *moves) {
    gmk_move_list list;
    char err[128];
    cr_assert(gmk_notation_parse_moves(moves, 15, &list, err, sizeof err), "%s", err);
    gmk_board b;
    cr_assert(gmk_move_list_to_board(&list, GMK_RULE_FREESTYLE, &b));
    return b;
}

static gmk_pos pt(const char *name) {
    gmk_pos p;
    char err[64];
    cr_assert(gmk_notation_parse_point(name, 15, &p, err, sizeof err));
    return p;
}

/* black: h4 h5 h6 (white h3 below) and i7 j7: h7 is a four and an open three at once */
#define ONE_43 "h4h3h5a1h6a3i7a5j7a7"
/* the same four-three again at m9 (m10 m11 m12 under white m13, and k9 l9) */
#define TWO_43 "h4h3h5m13h6a1i7a3j7a5m10a7m11a9m12a11k9a13l9a15"

Test(puzzle, one_winning_four_is_a_puzzle, .init = setup, .fini = teardown) {
    gmk_board b = board(ONE_43);
    gmk_puzzle p;
    cr_assert(gmk_puzzle_find_fours(&b, &ctx, &p));
    cr_assert_eq(p.solution[0], pt("h7"));
    cr_assert_eq(p.length, 2);
    cr_assert_eq(p.kind, GMK_PUZZLE_FOURS);
    cr_assert_eq(b.move_count, 10, "the board is restored");
}

Test(puzzle, two_winning_fours_are_not, .init = setup, .fini = teardown) {
    gmk_board b = board(TWO_43);
    gmk_puzzle p;
    cr_assert(!gmk_puzzle_find_fours(&b, &ctx, &p), "h7 and m9 both win: not unique");
}

/* A threes puzzle from the engine's games (freestyle, black to move): g11 makes two split threes,
 * d11 _ f11 g11 and d8 _ f10 g11; each of black's other threats (c11, e11, e9, c7) has an answer
 * after which black has no win by threes and fours. */
#define THREES_POS "f9g9f8d10g8h8f10f7d8e8f11f12d11e10"
/* black h6 h7 and f8 g8 with white's stones apart on the edges: every threat of black wins, so
 * h8 is no unique first move */
#define MANY_WIN "h6a1h7o1f8a15g8o15"

Test(puzzle, a_unique_winning_threat_is_a_threes_puzzle, .init = setup, .fini = teardown) {
    gmk_board b = board(THREES_POS);
    gmk_puzzle p, fours;
    cr_assert(!gmk_puzzle_find_fours(&b, &ctx, &fours), "no win by fours");
    cr_assert(gmk_puzzle_find_threes(&b, &ctx, &p));
    cr_assert_eq(p.kind, GMK_PUZZLE_THREES);
    cr_assert_eq(p.solution[0], pt("g11"));
    cr_assert_eq(p.length, 2);
    cr_assert_eq(b.move_count, 14, "the board is restored");
    /* white's answer blocks one of the threes (the solver alone would answer anywhere) */
    gmk_pos w = p.solution[1];
    cr_assert(w == pt("e11") || w == pt("e9") || w == pt("c11") || w == pt("c7"),
              "white answers on a three's point");
}

Test(puzzle, many_winning_threats_are_not, .init = setup, .fini = teardown) {
    gmk_board b = board(MANY_WIN);
    gmk_puzzle p;
    cr_assert(!gmk_puzzle_find_threes(&b, &ctx, &p), "h8, h5, e8... all win: not unique");
}

Test(puzzle, playing_a_threes_solution, .init = setup, .fini = teardown) {
    gmk_board b = board(THREES_POS);
    gmk_puzzle p, q;
    cr_assert(gmk_puzzle_find_threes(&b, &ctx, &p));
    p.id = 9;
    char line[2048];
    cr_assert_gt(gmk_puzzle_format(&p, line, sizeof line), 0);
    cr_assert(strstr(line, " threes "), "%s", line);
    cr_assert(gmk_puzzle_parse(line, &q), "%s", line);
    cr_assert_eq(q.kind, GMK_PUZZLE_THREES);
    gmk_board pb;
    gmk_puzzle_board(&q, &pb);
    gmk_pos reply;
    /* another three (c11) is wrong, and so is a quiet move */
    gmk_board wrong = pb;
    cr_assert_eq(gmk_puzzle_answer(&q, &wrong, &ctx, pt("c11"), &reply), GMK_PUZZLE_WRONG);
    wrong = pb;
    cr_assert_eq(gmk_puzzle_answer(&q, &wrong, &ctx, pt("o15"), &reply), GMK_PUZZLE_WRONG);
    cr_assert_eq(gmk_puzzle_hint(&q, &pb), pt("g11"));
    cr_assert_eq(gmk_puzzle_answer(&q, &pb, &ctx, pt("g11"), &reply), GMK_PUZZLE_GOOD);
    cr_assert_eq(reply, q.solution[1], "white answers as the line says");
    gmk_pos next = gmk_puzzle_hint(&q, &pb);
    cr_assert_eq(next, q.solution[2]);
    cr_assert_eq(gmk_puzzle_answer(&q, &pb, &ctx, next, &reply), GMK_PUZZLE_SOLVED);
}

Test(puzzle, many_defences_are_not_a_puzzle, .init = setup, .fini = teardown) {
    /* white to move against black's four-three at h7: h7, h8, g7 and k7 all stop it */
    gmk_board b = board(ONE_43 "o15");
    gmk_puzzle p;
    cr_assert(!gmk_puzzle_find_defence(&b, &ctx, &p));
}

Test(puzzle, playing_a_solution, .init = setup, .fini = teardown) {
    gmk_puzzle p;
    char line[2048];
    gmk_board b = board(ONE_43);
    cr_assert(gmk_puzzle_find_fours(&b, &ctx, &p));
    p.id = 7;
    cr_assert_gt(gmk_puzzle_format(&p, line, sizeof line), 0);
    gmk_puzzle q;
    cr_assert(gmk_puzzle_parse(line, &q), "%s", line);
    cr_assert_eq(q.solution_len, p.solution_len);
    gmk_board pb;
    gmk_puzzle_board(&q, &pb);
    cr_assert_eq(gmk_puzzle_hint(&q, &pb), pt("h7"));
    gmk_pos reply;
    gmk_board wrong = pb;
    cr_assert_eq(gmk_puzzle_answer(&q, &wrong, &ctx, pt("o15"), &reply), GMK_PUZZLE_WRONG);
    gmk_board taken = pb;
    cr_assert_eq(gmk_puzzle_answer(&q, &taken, &ctx, pt("h3"), &reply), GMK_PUZZLE_ILLEGAL);
    cr_assert_eq(taken.move_count, pb.move_count, "nothing played");
    /* a four that does not win: h8 (h4 h5 h6 _ h8), white blocks h7 */
    gmk_board other = pb;
    cr_assert_eq(gmk_puzzle_answer(&q, &other, &ctx, pt("h8"), &reply), GMK_PUZZLE_WRONG);
    cr_assert_eq(gmk_puzzle_answer(&q, &pb, &ctx, pt("h7"), &reply), GMK_PUZZLE_GOOD);
    cr_assert_eq(reply, pt("h8"), "white blocks the four");
    cr_assert_eq(pb.move_count, 12);
    /* then the open four, at g7 or k7 */
    gmk_pos next = gmk_puzzle_hint(&q, &pb);
    cr_assert(next == pt("g7") || next == pt("k7"));
    cr_assert_eq(gmk_puzzle_answer(&q, &pb, &ctx, pt("k7"), &reply), GMK_PUZZLE_SOLVED);
}

Test(puzzle, bad_lines_are_refused) {
    gmk_puzzle p;
    const char *bad[] = {"",
                         "x",
                         "1 freestyle fours 2 h8h8 h9",
                         "1 go fours 2 h8 h9",
                         "1 freestyle nothing 2 h8 h9",
                         "0 freestyle fours 2 h8 h9",
                         "1 freestyle fours 2 h8 h8",
                         "1 freestyle fours 99 h8 h9",
                         "1 freestyle fours 2 h8a1h9a2h10a3h11a4h12a5 h13",
                         NULL};
    for (int i = 0; bad[i]; i++) cr_assert(!gmk_puzzle_parse(bad[i], &p), "%s", bad[i]);
}

/* Tokens as long as the reader's widths allow (1500 and 200 characters) fit its buffers: under
 * AddressSanitizer a buffer one byte short fails here. */
Test(puzzle, longest_tokens_are_refused_without_overflow) {
    char line[2048], moves[1501], sol[201];
    memset(moves, 'a', 1500);
    moves[1500] = 0;
    memset(sol, 'b', 200);
    sol[200] = 0;
    snprintf(line, sizeof line, "1 freestyle fours 2 %s %.50s", moves, sol);
    gmk_puzzle p;
    cr_assert(!gmk_puzzle_parse(line, &p));
    snprintf(line, sizeof line, "1 freestyle fours 2 h8 %s", sol);
    cr_assert(!gmk_puzzle_parse(line, &p));
}

/* A four by the side to move at p wins: a five or an open four, or after the forced block the
 * solver still finds a win by fours. Written here again, apart from puzzle.c. */
static bool wins_with(gmk_board *b, gmk_pos p) {
    gmk_color s = gmk_board_side(b);
    gmk_board_make(b, p);
    gmk_result r;
    gmk_rules_result_after_last(b, &r);
    bool win = r.outcome != GMK_ONGOING;
    if (!win) {
        int fives = 0;
        gmk_pos block = GMK_POS_NONE;
        for (int y = 0; y < 15; y++)
            for (int x = 0; x < 15; x++) {
                gmk_pos q = gmk_pos_xy(x, y);
                if (gmk_board_empty_at(b, q) && b->cell[q].threat[s] == GMK_TH_FIVE) {
                    fives++;
                    block = q;
                }
            }
        if (fives >= 2) {
            win = true;
        } else if (fives == 1 && gmk_rules_check_move(b, block, NULL) == GMK_MOVE_LEGAL) {
            gmk_board_make(b, block);
            gmk_pos seq[GMK_THREAT_MAX_SEQ];
            int len;
            gmk_threat_ctx_clear(&ctx);
            ctx.nodes = 0;
            ctx.node_limit = 20000;
            win = gmk_vcf(b, &ctx, 40, seq, &len);
            gmk_board_undo(b);
        }
    }
    gmk_board_undo(b);
    return win;
}

/* Whether the side to move wins by threes and fours (at most 8 threats, 100,000 nodes). */
static bool vct_wins(gmk_board *b) {
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len;
    gmk_threat_ctx_clear(&ctx);
    ctx.nodes = 0;
    ctx.node_limit = 100000;
    return gmk_vct(b, &ctx, 8, seq, &len);
}

/* The threat q of the side to move fails: after a four, the block leaves no win by threes and
 * fours; after a three, some answer of movegen's forced list does. Written here again, apart
 * from puzzle.c. */
static bool threat_fails(gmk_board *b, gmk_pos q) {
    gmk_color s = gmk_board_side(b), o = gmk_opponent(s);
    gmk_board_make(b, q);
    bool fails = false;
    if (b->count[s][GMK_TH_FIVE] == 1) {
        for (int y = 0; y < 15 && !fails; y++)
            for (int x = 0; x < 15 && !fails; x++) {
                gmk_pos i = gmk_pos_xy(x, y);
                if (!gmk_board_empty_at(b, i) || b->cell[i].threat[s] != GMK_TH_FIVE) continue;
                if (gmk_rules_check_move(b, i, NULL) != GMK_MOVE_LEGAL) {
                    fails = false; /* a block that is a renju foul: the four wins */
                    continue;
                }
                gmk_board_make(b, i);
                fails = !vct_wins(b);
                gmk_board_undo(b);
            }
    } else if (b->count[s][GMK_TH_FIVE] == 0 && b->count[o][GMK_TH_FIVE] == 0) {
        static gmk_scored_move def[GMK_MAX_MOVES];
        bool forced;
        int n = gmk_movegen_generate(b, def, &forced);
        for (int i = 0; forced && i < n && !fails; i++) {
            gmk_board_make(b, def[i].pos);
            fails = !vct_wins(b);
            gmk_board_undo(b);
        }
        if (!forced) fails = b->count[s][GMK_TH_OPEN_FOUR] == 0;
    } else if (b->count[o][GMK_TH_FIVE] > 0) {
        fails = true;
    }
    gmk_board_undo(b);
    return fails;
}

/* A threes puzzle of the set: no win by fours, a win by threes and fours, and no other threat
 * wins; then its line played through gmk_puzzle_answer to the end. */
static void check_threes(const gmk_puzzle *p) {
    gmk_board b;
    gmk_puzzle_board(p, &b);
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len;
    gmk_threat_ctx_clear(&ctx);
    ctx.nodes = 0;
    ctx.node_limit = 60000;
    cr_assert(!gmk_vcf(&b, &ctx, 40, seq, &len), "puzzle %d: no win by fours", p->id);
    cr_assert(vct_wins(&b), "puzzle %d: a win by threes and fours", p->id);
    gmk_color s = gmk_board_side(&b);
    for (int y = 0; y < 15; y++)
        for (int x = 0; x < 15; x++) {
            gmk_pos i = gmk_pos_xy(x, y);
            if (i == p->solution[0] || !gmk_board_empty_at(&b, i) ||
                gmk_rules_check_move(&b, i, NULL) != GMK_MOVE_LEGAL)
                continue;
            gmk_threat t = gmk_movegen_threat(&b, i, s);
            if (t == GMK_TH_NONE || t == GMK_TH_FORBID) continue;
            cr_assert(threat_fails(&b, i), "puzzle %d: another threat wins", p->id);
        }
    for (int k = 0; k < p->solution_len; k += 2) {
        gmk_pos reply;
        gmk_puzzle_verdict v = gmk_puzzle_answer(p, &b, &ctx, p->solution[k], &reply);
        if (k + 1 >= p->solution_len) {
            cr_assert_eq(v, GMK_PUZZLE_SOLVED, "puzzle %d: the line's last move solves", p->id);
        } else {
            cr_assert(v == GMK_PUZZLE_GOOD || v == GMK_PUZZLE_SOLVED, "puzzle %d", p->id);
            if (v == GMK_PUZZLE_SOLVED) break;
            cr_assert_eq(reply, p->solution[k + 1], "puzzle %d: the line's answer", p->id);
        }
    }
}

Test(puzzle, the_shipped_set, .init = setup, .fini = teardown, .timeout = 300) {
    cr_assert_geq(gmk_puzzle_count, 500);
    int kinds[2][GMK_PUZZLE_KINDS] = {{0}}; /* [rule renju][kind] */
    int threes = 0;
    for (int i = 0; i < gmk_puzzle_count; i++) {
        gmk_puzzle p;
        cr_assert(gmk_puzzle_parse(gmk_puzzle_lines[i], &p), "%s", gmk_puzzle_lines[i]);
        kinds[p.rule == GMK_RULE_RENJU][p.kind]++;
        if (p.kind == GMK_PUZZLE_THREES) {
            if (threes++ % 5 == 0) check_threes(&p); /* every 5th: the solver is slow */
            continue;
        }
        if (i % 10 != 0) continue; /* every 10th: the solver is slow */
        gmk_board b;
        gmk_puzzle_board(&p, &b);
        if (p.kind == GMK_PUZZLE_DEFENCE) {
            /* the miner finds it again; after the defence the opponent has no win by fours */
            gmk_puzzle again;
            cr_assert(gmk_puzzle_find_defence(&b, &ctx, &again), "puzzle %d", p.id);
            cr_assert_eq(again.solution[0], p.solution[0], "puzzle %d", p.id);
            gmk_board_make(&b, p.solution[0]);
            gmk_pos seq[GMK_THREAT_MAX_SEQ];
            int len;
            gmk_threat_ctx_clear(&ctx);
            ctx.nodes = 0;
            ctx.node_limit = 20000;
            cr_assert(!gmk_vcf(&b, &ctx, 40, seq, &len), "puzzle %d: the defence holds", p.id);
            continue;
        }
        cr_assert(wins_with(&b, p.solution[0]), "puzzle %d: the solution wins", p.id);
        for (int y = 0; y < 15; y++)
            for (int x = 0; x < 15; x++) {
                gmk_pos q = gmk_pos_xy(x, y);
                gmk_color s = gmk_board_side(&b);
                if (q == p.solution[0] || !gmk_board_empty_at(&b, q) ||
                    b.cell[q].threat[s] < GMK_TH_FOUR || b.cell[q].threat[s] == GMK_TH_FORBID ||
                    gmk_rules_check_move(&b, q, NULL) != GMK_MOVE_LEGAL)
                    continue;
                cr_assert(!wins_with(&b, q), "puzzle %d: another four wins", p.id);
            }
    }
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < GMK_PUZZLE_KINDS; k++)
            cr_assert_gt(kinds[r][k], 0, "rule %d kind %d", r, k);
}

Test(puzzle, ratings_streaks_and_the_day) {
    gmk_store_puzzle_player pl;
    gmk_puzzle_player_new(&pl, "local");
    cr_assert_float_eq(pl.rating, 1500, 1e-9);
    gmk_puzzle_rate(&pl, 1500, true);
    cr_assert_gt(pl.rating, 1500);
    cr_assert_eq(pl.streak, 1);
    gmk_puzzle_rate(&pl, 1500, true);
    cr_assert_eq(pl.streak, 2);
    cr_assert_eq(pl.best_streak, 2);
    double before = pl.rating;
    gmk_puzzle_rate(&pl, 1200, false);
    cr_assert_lt(pl.rating, before);
    cr_assert_eq(pl.streak, 0);
    cr_assert_eq(pl.best_streak, 2);
    cr_assert_eq(pl.solved, 2);
    cr_assert_eq(pl.failed, 1);
    if (gmk_puzzle_count > 0) {
        int a = gmk_puzzle_of_day(20000), b = gmk_puzzle_of_day(20001);
        cr_assert(a >= 0 && a < gmk_puzzle_count);
        cr_assert_eq(a, gmk_puzzle_of_day(20000), "the same all day");
        cr_assert_neq(a, b, "another the next day");
    }
}
