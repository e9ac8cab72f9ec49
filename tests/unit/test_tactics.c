/* test_tactics.c: the tactics suite (tests/data/tactics.txt) and the "no illegal move ever"
 * check of the engine.
 *
 * Each suite line is "kind rule moves answer [nodes]" (nodes: the engine's node limit,
 * 400,000 by default). For win1 / block / fourthree the engine's move
 * must be one of the answer's points. For vcf the engine must report a proved win, and its
 * move must keep it: after the move and the defender's forced block the threat solver (at a
 * high limit) still finds the win. For defend, after the engine's move the opponent must have
 * no VCF. The positions were built by hand or found by bench/gen_tactics.c and checked by the
 * solver; their answers are the solver's sequences. */
#include <criterion/criterion.h>

#include "engine/engine.h"
#include "engine/movegen.h"
#include "engine/threat.h"
#include "support.h"

static gmk_threat_ctx solver;

static bool solver_vcf(gmk_board *b) {
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len;
    gmk_threat_ctx_clear(&solver);
    solver.nodes = 0;
    solver.node_limit = 5000000;
    return gmk_vcf(b, &solver, 80, seq, &len);
}

/* After the attacker's move m: does the attacker still win by force? */
static bool still_wins(gmk_board *b, gmk_pos m) {
    gmk_color att = b->side, def = gmk_opponent(att);
    gmk_board_make(b, m);
    bool ok;
    if (gmk_rules_five_at(b, m, att, NULL, NULL) || b->count[att][GMK_TH_FIVE] >= 2) {
        ok = true;
    } else if (b->count[att][GMK_TH_FIVE] == 1 && b->count[def][GMK_TH_FIVE] == 0) {
        gmk_pos block = GMK_POS_NONE;
        for (gmk_pos p = 0; p < GMK_CELLS; p++)
            if (b->stone[p] == GMK_EMPTY && b->cell[p].threat[att] == GMK_TH_FIVE) block = p;
        if (!gmk_movegen_legal(b, block)) {
            ok = true; /* renju: black cannot block */
        } else {
            gmk_board_make(b, block);
            ok = solver_vcf(b);
            gmk_board_undo(b);
        }
    } else {
        ok = b->count[att][GMK_TH_OPEN_FOUR] > 0 && b->count[def][GMK_TH_FIVE] == 0 &&
             b->count[def][GMK_TH_OPEN_FOUR] == 0;
    }
    gmk_board_undo(b);
    return ok;
}

static bool answer_has(const char *answer, const char *move) {
    char buf[1100];
    snprintf(buf, sizeof buf, ",%s,", answer);
    char key[8];
    snprintf(key, sizeof key, ",%s,", move);
    return strstr(buf, key) != NULL;
}

Test(tactics, suite, .timeout = 600) {
    cr_assert(gmk_threat_ctx_init(&solver, 1 << 20));
    char path[1024];
    data_path("tactics.txt", path, sizeof path);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    gmk_engine *e = gmk_engine_new(32u << 20);
    cr_assert_not_null(e);
    char line[4096];
    int cases = 0, failures = 0, line_no = 0;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        if (line[0] == '#' || line[0] == '\n') continue;
        char kind[16], rule_name[16], moves[2048], answer[1024];
        long nodes = 400000;
        int fields =
            sscanf(line, "%15s %15s %2047s %1023s %ld", kind, rule_name, moves, answer, &nodes);
        if (fields < 4 || nodes < 1 || nodes > 100000000) {
            cr_log_error("line %d: malformed", line_no);
            failures++;
            continue;
        }
        gmk_rule rule;
        gmk_move_list list;
        gmk_board b;
        char err[160];
        cr_assert(gmk_rule_parse(rule_name, &rule), "line %d: rule", line_no);
        cr_assert(gmk_notation_parse_moves(moves, 15, &list, err, sizeof err), "line %d: %s",
                  line_no, err);
        cr_assert(gmk_move_list_to_board(&list, rule, &b));
        gmk_limits limits = {0};
        limits.nodes = nodes;
        gmk_engine_clear(e);
        gmk_engine_set_position(e, &b);
        gmk_search_result r;
        gmk_engine_search(e, &limits, NULL, &r);
        char got[4];
        gmk_notation_point(r.best, 15, got);
        bool ok = gmk_rules_check_move(&b, r.best, NULL) == GMK_MOVE_LEGAL;
        if (ok && (!strcmp(kind, "win1") || !strcmp(kind, "block") || !strcmp(kind, "fourthree")))
            ok = answer_has(answer, got);
        else if (ok && !strcmp(kind, "block3"))
            ok = answer_has(answer, got);
        else if (ok && !strcmp(kind, "nowin1"))
            ok = !(gmk_score_is_mate(r.score, NULL) && r.score == GMK_SCORE_WIN - 1);
        else if (ok && !strcmp(kind, "vcf"))
            ok = gmk_score_is_mate(r.score, NULL) && r.score > 0 && still_wins(&b, r.best);
        else if (ok && !strcmp(kind, "defend")) {
            gmk_board_make(&b, r.best);
            ok = !solver_vcf(&b);
            gmk_board_undo(&b);
        } else if (ok) {
            cr_log_error("line %d: unknown kind %s", line_no, kind);
            ok = false;
        }
        cases++;
        if (!ok) {
            failures++;
            cr_log_error("line %d (%s %s): engine played %s (score %d), expected %s", line_no, kind,
                         rule_name, got, r.score, answer);
        }
    }
    fclose(f);
    gmk_engine_free(e);
    gmk_threat_ctx_free(&solver);
    cr_assert_gt(cases, 10, "too few tactics cases: %d", cases);
    cr_assert_eq(failures, 0, "%d of %d tactics cases failed", failures, cases);
}

/* Random positions under every rule: the engine's move is always legal (empty, on the board,
 * never a renju foul for black). */
Test(tactics, never_illegal, .timeout = 600) {
    test_rng rng = {20261130};
    gmk_engine *e = gmk_engine_new(8u << 20);
    cr_assert_not_null(e);
    int checked = 0;
    for (int game = 0; game < 60; game++) {
        gmk_rule rule = (gmk_rule)(game % GMK_RULE_COUNT);
        int size = game % 5 == 0 ? 20 : 15;
        gmk_board b;
        gmk_board_init(&b, size, rule);
        for (int ply = 0; ply < 80; ply++) {
            gmk_limits limits = {0};
            limits.nodes = 300 + rng_below(&rng, 1500);
            if (game % 3 == 0) limits.max_candidates = 3;
            if (game % 4 == 0) {
                limits.choose_margin = 300;
                limits.seed = rng_next(&rng);
            }
            gmk_engine_set_position(e, &b);
            gmk_search_result r;
            gmk_engine_search(e, &limits, NULL, &r);
            gmk_forbid_kind kind;
            gmk_move_verdict v = gmk_rules_check_move(&b, r.best, &kind);
            cr_assert_eq(v, GMK_MOVE_LEGAL, "game %d ply %d: illegal move (verdict %d)", game, ply,
                         v);
            checked++;
            /* half the time a random legal move instead, to reach odd positions */
            gmk_pos next = r.best;
            if (rng_below(&rng, 2)) {
                gmk_scored_move all[GMK_MAX_MOVES];
                int n = gmk_movegen_all_legal(&b, all);
                if (n > 0) next = all[rng_below(&rng, n)].pos;
            }
            gmk_board_make(&b, next);
            gmk_result res;
            gmk_rules_result_after_last(&b, &res);
            if (res.outcome != GMK_ONGOING) break;
        }
    }
    gmk_engine_free(e);
    cr_assert_gt(checked, 1000);
}

/* The VCT solver proves a win whose last threat is a double three that no move stops (it
 * used to call such a threat "not real" and miss every win of that kind). The position is
 * from a Rapfi sparring game of this session (game 4 of /work/spar/rapfi-games, after
 * Rapfi's 35th stone) with white's e4, which the solver had counted as a defence: black wins
 * by b5 a4 b6 d6 c8, a double three. */
Test(tactics, vct_through_an_unstoppable_double_three) {
    cr_assert(gmk_threat_ctx_init(&solver, 1 << 16));
    const char *moves = "k7j7e11i11g10k9e8h8d7f9e10e9d10f10d8d9c9b8e7b10g9g11h12f8f12g13f6g5g7f7"
                        "f11e12e6g6c6e4";
    gmk_move_list list;
    gmk_board b;
    char err[160];
    cr_assert(gmk_notation_parse_moves(moves, 15, &list, err, sizeof err), "%s", err);
    cr_assert(gmk_move_list_to_board(&list, GMK_RULE_FREESTYLE, &b));
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len = 0;
    solver.nodes = 0;
    solver.node_limit = 100000;
    cr_assert(gmk_vct(&b, &solver, 5, seq, &len), "no VCT found (%ld nodes)", (long)solver.nodes);
    cr_assert_gt(len, 0);
    /* after the double three (the 5th move), the defender has no move that stops both */
    for (int i = 0; i < 5; i++) gmk_board_make(&b, seq[i]);
    gmk_scored_move m[GMK_MAX_MOVES];
    bool forced;
    gmk_movegen_generate(&b, m, &forced);
    cr_assert_not(forced);
    cr_assert_gt(b.count[gmk_opponent(b.side)][GMK_TH_OPEN_FOUR], 0);
    gmk_threat_ctx_free(&solver);
}
