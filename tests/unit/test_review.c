/* test_review.c: the readable evaluation and game review: the win-rate mapping
 * (engine/winrate.h) and its words in both languages (game/evaltext.h), the labels of moves in
 * games with known mistakes (game/review.h, with the real engine and with given search
 * results), the stored text's round trip and its refusal of damaged text, and the store's
 * reviews and puzzle players (store/reviews.h) on a real file, migrated from version 4. */
#include <criterion/criterion.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/gmk.h"
#include "engine/winrate.h"
#include "game/evaltext.h"
#include "game/review.h"
#include "store/reviews.h"
#include "store/schema.h"

/* ---- win rate -------------------------------------------------------------------------- */

Test(winrate, even_symmetric_monotone_and_fitted) {
    for (gmk_rule r = GMK_RULE_FREESTYLE; r < GMK_RULE_COUNT; r++) {
        cr_assert_float_eq(gmk_winrate(r, 0), 0.5, 1e-12);
        double last = 0;
        for (int s = -5000; s <= 5000; s += 250) {
            double p = gmk_winrate(r, s);
            cr_assert_float_eq(p + gmk_winrate(r, -s), 1.0, 1e-9, "symmetric at %d", s);
            cr_assert(p > last, "increasing at %d", s);
            last = p;
        }
        /* sigmoid(K ln 3 / K) = 3/4 */
        double k = gmk_winrate_for(r)->scale;
        cr_assert_float_eq(gmk_winrate(r, (int)lround(k * log(3.0))), 0.75, 0.001);
    }
    cr_assert(gmk_winrate_freestyle.games >= 100, "fitted to self-play games");
    cr_assert(gmk_winrate_renju.games >= 100, "fitted to self-play games");
    cr_assert_eq(gmk_winrate_for(GMK_RULE_CARO), &gmk_winrate_freestyle);
    cr_assert_eq(gmk_winrate_for(GMK_RULE_RENJU), &gmk_winrate_renju);
}

Test(winrate, proved_results_and_percent_bounds) {
    cr_assert_eq(gmk_winrate(GMK_RULE_FREESTYLE, GMK_SCORE_WIN - 5), 1.0);
    cr_assert_eq(gmk_winrate(GMK_RULE_FREESTYLE, -(GMK_SCORE_WIN - 4)), 0.0);
    cr_assert_eq(gmk_winrate_percent(GMK_RULE_FREESTYLE, GMK_SCORE_WIN - 5), 100);
    cr_assert_eq(gmk_winrate_percent(GMK_RULE_FREESTYLE, -(GMK_SCORE_WIN - 4)), 0);
    /* an unproved score, however large, is never shown as certain */
    cr_assert_eq(gmk_winrate_percent(GMK_RULE_FREESTYLE, GMK_SCORE_MATE_BOUND - 1), 99);
    cr_assert_eq(gmk_winrate_percent(GMK_RULE_FREESTYLE, -(GMK_SCORE_MATE_BOUND - 1)), 1);
    cr_assert_eq(gmk_winrate_percent(GMK_RULE_RENJU, 0), 50);
}

Test(evaltext, words_in_both_languages) {
    char buf[64];
    gmk_eval_view v;
    double k = gmk_winrate_for(GMK_RULE_FREESTYLE)->scale;
    int s75 = (int)lround(k * log(3.0));
    gmk_eval_view_of(GMK_RULE_FREESTYLE, GMK_BLACK, s75, &v);
    cr_assert_eq(v.percent, 75);
    cr_assert_eq(v.black_percent, 75);
    cr_assert(!v.proved);
    gmk_eval_view_text(&v, GMK_BLACK, false, buf, sizeof buf);
    cr_assert_str_eq(buf, "Black 75%");
    gmk_eval_view_text(&v, GMK_BLACK, true, buf, sizeof buf);
    cr_assert_str_eq(buf, "黑方胜率 75%");
    gmk_eval_view_of(GMK_RULE_FREESTYLE, GMK_WHITE, s75, &v);
    cr_assert_eq(v.black_percent, 25);
    gmk_eval_view_text(&v, GMK_WHITE, false, buf, sizeof buf);
    cr_assert_str_eq(buf, "White 75%");
    /* white to move wins in 5 plies: white plays 3 stones */
    gmk_eval_view_of(GMK_RULE_FREESTYLE, GMK_WHITE, GMK_SCORE_WIN - 5, &v);
    cr_assert(v.proved);
    cr_assert_eq(v.winner, GMK_WHITE);
    cr_assert_eq(v.moves, 3);
    gmk_eval_view_text(&v, GMK_WHITE, false, buf, sizeof buf);
    cr_assert_str_eq(buf, "White wins in 3");
    /* black to move loses in 4 plies: white plays 2 stones */
    gmk_eval_view_of(GMK_RULE_RENJU, GMK_BLACK, -(GMK_SCORE_WIN - 4), &v);
    cr_assert_eq(v.winner, GMK_WHITE);
    cr_assert_eq(v.moves, 2);
    cr_assert_eq(v.black_percent, 0);
    gmk_eval_view_text(&v, GMK_BLACK, true, buf, sizeof buf);
    cr_assert_str_eq(buf, "白方 2 手胜");
}

/* ---- review ---------------------------------------------------------------------------- */

static int parse_game(const char *text, gmk_pos *moves) {
    gmk_move_list list;
    char err[128];
    cr_assert(gmk_notation_parse_moves(text, 15, &list, err, sizeof err), "%s: %s", text, err);
    memcpy(moves, list.pos, sizeof(gmk_pos) * (size_t)list.count);
    return list.count;
}

static gmk_pos pt(const char *name) {
    gmk_pos p;
    char err[64];
    cr_assert(gmk_notation_parse_point(name, 15, &p, err, sizeof err), "%s", name);
    return p;
}

static gmk_review *review_with_engine(const char *game) {
    static gmk_pos moves[GMK_MAX_MOVES];
    int n = parse_game(game, moves);
    gmk_review *rv = malloc(sizeof *rv);
    char err[128];
    cr_assert(gmk_review_begin(rv, GMK_RULE_FREESTYLE, 15, moves, n, 20000, err, sizeof err), "%s",
              err);
    gmk_engine *e = gmk_engine_new(8u << 20);
    gmk_review_run(rv, e, NULL, NULL, NULL);
    gmk_engine_free(e);
    cr_assert(rv->complete);
    return rv;
}

/* Black's four h8-h11 (h7 white's) is left unblocked by white's i8, and black, instead of the
 * five at h12, plays j11; white then blocks h12. */
#define MISSED "h8h7h9i9h10i10h11i8j11h12"

Test(review, a_missed_five_is_a_missed_win, .timeout = 60) {
    gmk_review *rv = review_with_engine(MISSED);
    const gmk_review_move *m = &rv->move[8];
    cr_assert_eq(m->color, GMK_BLACK);
    cr_assert_eq(m->label, GMK_LABEL_MISSED_WIN, "label %s", gmk_review_label_name(m->label));
    cr_assert_eq(m->best, pt("h12"));
    cr_assert_eq(m->before, 100);
    cr_assert_lt(m->after, 90);
    cr_assert(m->turning);
    cr_assert_eq(rv->move[9].label, GMK_LABEL_BEST, "the forced block is the best move");
    cr_assert_eq(rv->positions, 11, "the game is not over: its last position is searched too");
    free(rv);
}

Test(review, leaving_a_four_is_a_blunder, .timeout = 60) {
    gmk_review *rv = review_with_engine(MISSED);
    const gmk_review_move *m = &rv->move[7];
    cr_assert_eq(m->color, GMK_WHITE);
    cr_assert_eq(m->label, GMK_LABEL_BLUNDER, "label %s", gmk_review_label_name(m->label));
    cr_assert(m->turning);
    cr_assert_eq(m->after, 0, "after i8 black has a five");
    cr_assert_eq(m->best, pt("h12"), "the better move blocks the four");
    /* the block was white's only move: its position was searched after it, so black's h11
     * before it is judged on what white could do, not on an unsearched 50%: the position
     * after h11 holds the block and then the line of that search, and its score */
    const gmk_review_search *after_four = &rv->search[7];
    cr_assert_eq(after_four->best, pt("h12"));
    cr_assert_eq(after_four->pv[0], pt("h12"));
    cr_assert_gt(after_four->pv_len, 1, "no search after the forced block");
    cr_assert_neq(after_four->score, 0, "the forced position kept an unsearched score");
    cr_assert_lt(rv->move[6].lost, 30, "h11 (lost %d) is a blunder", rv->move[6].lost);
    int counts[2][GMK_LABEL_COUNT];
    gmk_review_tally(rv, counts);
    cr_assert_eq(counts[1][GMK_LABEL_BLUNDER], 1);
    cr_assert_eq(counts[0][GMK_LABEL_MISSED_WIN], 1);
    free(rv);
}

Test(review, a_finished_game, .timeout = 60) {
    gmk_review *rv = review_with_engine("h8h7h9i9h10i10h11i8h12");
    cr_assert_eq(rv->end, GMK_BLACK_WINS);
    cr_assert_eq(rv->positions, rv->count, "a finished game's last position is not searched");
    cr_assert_eq(rv->move[8].after, 100, "the five");
    cr_assert_eq(rv->move[8].label, GMK_LABEL_BEST);
    free(rv);
}

/* Labels from given searches: "BEST SCORE FORCED PVLEN PV..." per position. */
static void given(gmk_review *rv, const char *game, const char *searches) {
    static gmk_pos moves[GMK_MAX_MOVES];
    int n = parse_game(game, moves);
    char err[128];
    cr_assert(gmk_review_begin(rv, GMK_RULE_FREESTYLE, 15, moves, n, 1000, err, sizeof err));
    char text[2048];
    snprintf(text, sizeof text, "gmk-review 1 1000 %d\n%s", rv->positions, searches);
    cr_assert(gmk_review_load_text(rv, text), "%s", text);
    cr_assert(rv->complete);
}

Test(review, labels_by_win_rate_lost) {
    gmk_review *rv = malloc(sizeof *rv);
    double k = gmk_winrate_for(GMK_RULE_FREESTYLE)->scale;
    /* scores giving the side to move 60, 75 and 90 percent */
    int s60 = (int)lround(k * log(60.0 / 40)), s75 = (int)lround(k * log(3.0)),
        s90 = (int)lround(k * log(9.0));
    char searches[1024];
    /* before h8: black 50, best h8 (x 7, y 7); before a1: white 50, best i9; before h9: black
     * 60 (so a1 left white 40: lost 10), best h9; before a3: white 25; before h10: black 90 (a3
     * left white 10 of 25: lost 15); after h10: white to move, proved lost */
    snprintf(searches, sizeof searches,
             "7.7 0 0 1 7.7\n8.6 0 0 1 8.6\n7.6 %d 0 1 7.6\n8.6 %d 0 0\n8.6 %d 0 0\n"
             "0.0 %d 0 0\n",
             s60, -s75, s90, -(GMK_SCORE_WIN - 3));
    given(rv, "h8a1h9a3h10", searches);
    cr_assert_eq(rv->move[0].label, GMK_LABEL_BEST, "the engine's move");
    cr_assert_eq(rv->move[1].lost, 10);
    cr_assert_eq(rv->move[1].label, GMK_LABEL_INACCURACY, "50 -> 40");
    cr_assert_eq(rv->move[2].label, GMK_LABEL_BEST, "the engine's move");
    cr_assert_eq(rv->move[3].lost, 15, "25 -> 10");
    cr_assert_eq(rv->move[3].label, GMK_LABEL_INACCURACY);
    cr_assert_eq(rv->move[4].after, 100, "white to move after h10 is proved lost");
    cr_assert_eq(rv->move[4].black_after, 100);
    cr_assert_eq(rv->move[4].label, GMK_LABEL_GOOD, "not the engine's move, nothing lost");
    cr_assert(!rv->move[1].turning && !rv->move[3].turning);
    free(rv);
}

Test(review, thresholds_and_forced_replies) {
    gmk_review *rv = malloc(sizeof *rv);
    double k = gmk_winrate_for(GMK_RULE_FREESTYLE)->scale;
    int s70 = (int)lround(k * log(70.0 / 30)), s75 = (int)lround(k * log(3.0)),
        s80 = (int)lround(k * log(4.0));
    char searches[1024];
    /* before h8: black 50, best i9. Before a1 the engine answered without searching (a1, the
     * only reply, written with the score 70 it did not search): a1 was played, so the position
     * is worth what the one after a1 is worth: black at -s80 there, white 80. So h8 left black
     * 20 of 50: lost 30, a blunder (with the unsearched 70 it would be a mistake). After h9
     * white is at 75: black 25 of 20 before: nothing lost. */
    snprintf(searches, sizeof searches, "8.6 0 0 0\n0.14 %d 1 1 0.14\n2.2 %d 0 0\n3.3 %d 0 0\n",
             s70, -s80, s75);
    given(rv, "h8a1h9", searches);
    cr_assert_eq(rv->move[0].lost, 30);
    cr_assert_eq(rv->move[0].label, GMK_LABEL_BLUNDER);
    cr_assert_eq(rv->move[1].before, 80, "the forced reply takes the next position's value");
    cr_assert_eq(rv->move[1].label, GMK_LABEL_BEST);
    cr_assert_eq(rv->move[2].before, 20);
    cr_assert_eq(rv->move[2].lost, 0);
    cr_assert_eq(rv->move[2].label, GMK_LABEL_GOOD);
    cr_assert(rv->move[0].turning && !rv->move[1].turning && !rv->move[2].turning);
    /* 20 points lost is a mistake: white at 70 after h8 (no forced reply this time) */
    snprintf(searches, sizeof searches, "8.6 0 0 0\n0.14 %d 0 1 0.14\n2.2 %d 0 0\n3.3 %d 0 0\n",
             s70, -s80, s75);
    given(rv, "h8a1h9", searches);
    cr_assert_eq(rv->move[0].lost, 20);
    cr_assert_eq(rv->move[0].label, GMK_LABEL_MISTAKE);
    free(rv);
}

/* A move into a proved loss is judged by the proof, not by the points (docs/review.md). */
Test(review, a_move_into_a_proved_loss) {
    gmk_review *rv = malloc(sizeof *rv);
    double k = gmk_winrate_for(GMK_RULE_FREESTYLE)->scale;
    int s25 = (int)lround(k * log(25.0 / 75)), s5 = (int)lround(k * log(5.0 / 95));
    int won = GMK_SCORE_WIN - 3, lost = -(GMK_SCORE_WIN - 4);
    char searches[1024];
    /* white at 25 before a1, and after it black has a proved win: 25 points lost would be a
     * mistake, a move into a proved loss from 25 is a blunder */
    snprintf(searches, sizeof searches, "7.7 0 0 0\n8.6 %d 0 0\n7.6 %d 0 0\n8.8 0 0 0\n", s25, won);
    given(rv, "h8a1h9", searches);
    cr_assert_eq(rv->move[1].before, 25);
    cr_assert_eq(rv->move[1].after, 0);
    cr_assert_eq(rv->move[1].label, GMK_LABEL_BLUNDER, "label %s",
                 gmk_review_label_name(rv->move[1].label));
    cr_assert(rv->move[1].turning);
    /* from 5: 5 points lost would be good; into a proved loss it is a mistake */
    snprintf(searches, sizeof searches, "7.7 0 0 0\n8.6 %d 0 0\n7.6 %d 0 0\n8.8 0 0 0\n", s5, won);
    given(rv, "h8a1h9", searches);
    cr_assert_eq(rv->move[1].lost, 5);
    cr_assert_eq(rv->move[1].label, GMK_LABEL_MISTAKE, "label %s",
                 gmk_review_label_name(rv->move[1].label));
    /* already proved lost before a1: the points alone (the proved win before it is the best
     * move's, 0 after: nothing lost) */
    snprintf(searches, sizeof searches, "7.7 0 0 0\n8.6 %d 0 0\n7.6 %d 0 0\n8.8 0 0 0\n", lost,
             won);
    given(rv, "h8a1h9", searches);
    cr_assert_eq(rv->move[1].before, 0);
    cr_assert_eq(rv->move[1].label, GMK_LABEL_GOOD, "label %s",
                 gmk_review_label_name(rv->move[1].label));
    free(rv);
}

Test(review, text_round_trip_and_damaged_text) {
    gmk_review *rv = review_with_engine("h8i9h9i10h10");
    char *text = gmk_review_save_text(rv);
    cr_assert_not_null(text);
    gmk_review *back = malloc(sizeof *back);
    char err[128];
    cr_assert(gmk_review_begin(back, GMK_RULE_FREESTYLE, 15, rv->moves, rv->count, 20000, err,
                               sizeof err));
    cr_assert(gmk_review_load_text(back, text));
    for (int i = 0; i < rv->count; i++) {
        cr_assert_eq(back->move[i].label, rv->move[i].label);
        cr_assert_eq(back->move[i].best, rv->move[i].best);
        cr_assert_eq(back->move[i].after, rv->move[i].after);
        cr_assert_eq(back->move[i].pv_len, rv->move[i].pv_len);
    }
    /* cut short, another node budget, points off the board, garbage: refused, nothing taken */
    gmk_review *fresh = malloc(sizeof *fresh);
    cr_assert(gmk_review_begin(fresh, GMK_RULE_FREESTYLE, 15, rv->moves, rv->count, 20000, err,
                               sizeof err));
    char *cut = strdup(text);
    cut[strlen(cut) / 2] = '\0';
    cr_assert(!gmk_review_load_text(fresh, cut));
    cr_assert(!fresh->complete);
    cr_assert_eq(fresh->searched, 0);
    char other[64];
    snprintf(other, sizeof other, "gmk-review 1 999 %d\n", rv->positions);
    cr_assert(!gmk_review_load_text(fresh, other));
    cr_assert(!gmk_review_load_text(fresh, "gmk-review 1 20000 6\n15.15 0 0 0\n"));
    cr_assert(!gmk_review_load_text(fresh, "nonsense"));
    cr_assert(!gmk_review_load_text(fresh, NULL));
    cr_assert(!fresh->complete);
    free(cut);
    free(text);
    free(fresh);
    free(back);
    free(rv);
}

Test(review, refuses_illegal_games) {
    gmk_review rv;
    char err[128];
    gmk_pos moves[2] = {pt("h8"), pt("h8")};
    cr_assert(!gmk_review_begin(&rv, GMK_RULE_FREESTYLE, 15, moves, 2, 0, err, sizeof err));
    cr_assert(strstr(err, "move 2"), "%s", err);
    cr_assert(!gmk_review_begin(&rv, GMK_RULE_FREESTYLE, 15, moves, 0, 0, err, sizeof err));
    gmk_pos after[GMK_MAX_MOVES];
    int n = parse_game("h8a1h9a2h10a3h11a4h12a5", after);
    cr_assert(!gmk_review_begin(&rv, GMK_RULE_FREESTYLE, 15, after, n, 0, err, sizeof err));
    cr_assert(strstr(err, "after the end"), "%s", err);
}

/* ---- the store ------------------------------------------------------------------------- */

Test(review_store, kept_read_back_and_migrated_from_v4) {
    char dir[] = "/tmp/gmk-review-XXXXXX", path[300], err[512];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/v4.db", dir);
    /* a file at version 4, built with the migrations before this one */
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    for (int v = 0; v < 4; v++)
        cr_assert_eq(sqlite3_exec(db, store_migrations[v], NULL, NULL, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db,
                              "INSERT INTO games (mode, rule, size, started_at) VALUES (1, 0, "
                              "15, 1); PRAGMA user_version = 4;",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    gmk_store *s;
    cr_assert_eq(gmk_store_open(path, 0, &s, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_schema_version(s), GMK_STORE_SCHEMA_VERSION);
    char *text = NULL;
    cr_assert_eq(gmk_store_review_get(s, 1, 3, 1000, &text, err, sizeof err), GMK_STORE_NOT_FOUND);
    cr_assert_eq(gmk_store_review_put(s, 1, 3, 1000, "gmk-review 1 x", err, sizeof err),
                 GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_review_put(s, 2, 3, 1000, "x", err, sizeof err), GMK_STORE_NOT_FOUND,
                 "no game 2");
    cr_assert_eq(gmk_store_review_put(s, 1, -1, 1000, "x", err, sizeof err), GMK_STORE_INVALID);
    cr_assert_eq(gmk_store_review_put(s, 1, 3, 0, "x", err, sizeof err), GMK_STORE_INVALID);
    gmk_store_puzzle_player p = {.rating = 1500, .deviation = 350, .volatility = 0.06};
    strcpy(p.player, "local");
    p.streak = 3;
    cr_assert_eq(gmk_store_puzzle_player_put(s, &p, err, sizeof err), GMK_STORE_OK, "%s", err);
    p.deviation = 0;
    cr_assert_eq(gmk_store_puzzle_player_put(s, &p, err, sizeof err), GMK_STORE_INVALID);
    p.deviation = NAN;
    cr_assert_eq(gmk_store_puzzle_player_put(s, &p, err, sizeof err), GMK_STORE_INVALID);
    gmk_store_close(s);
    cr_assert_eq(gmk_store_open(path, 0, &s, err, sizeof err), GMK_STORE_OK, "%s", err);
    cr_assert_eq(gmk_store_review_get(s, 1, 3, 1000, &text, err, sizeof err), GMK_STORE_OK);
    cr_assert_str_eq(text, "gmk-review 1 x");
    free(text);
    cr_assert_eq(gmk_store_review_get(s, 1, 4, 1000, &text, err, sizeof err), GMK_STORE_NOT_FOUND,
                 "another move count is another review");
    gmk_store_puzzle_player back;
    cr_assert_eq(gmk_store_puzzle_player_get(s, "local", &back, err, sizeof err), GMK_STORE_OK);
    cr_assert_float_eq(back.rating, 1500, 1e-9);
    cr_assert_eq(back.streak, 3);
    cr_assert_eq(gmk_store_puzzle_player_get(s, "nobody", &back, err, sizeof err),
                 GMK_STORE_NOT_FOUND);
    gmk_store_close(s);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
