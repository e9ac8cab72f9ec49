/* gen_tactics.c: finds test positions for the tactics suite (tests/data/tactics.txt) by
 * playing seeded games between shallow engines and asking the threat solver, at a high limit,
 * about each position:
 *   vcf     the side to move wins by continuous fours in at least MIN fours;
 *   defend  the side to move has no VCF, the opponent would have one if it could move twice,
 *           and at least one move stops it (checked by the solver on every legal move).
 * Prints one line per position: kind rule moves solution. Usage: gen_tactics RULE COUNT SEED */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"
#include "engine/engine.h"
#include "engine/movegen.h"
#include "engine/threat.h"

static gmk_threat_ctx ctx;

static bool vcf(gmk_board *b, gmk_pos *seq, int *len) {
    gmk_threat_ctx_clear(&ctx);
    ctx.nodes = 0;
    ctx.node_limit = 2000000;
    return gmk_vcf(b, &ctx, 60, seq, len);
}

static void print_case(const char *kind, const gmk_board *b, const gmk_pos *seq, int len) {
    char moves[2048];
    gmk_notation_moves(b, moves, sizeof moves);
    printf("%s %s %s", kind, gmk_rule_name(b->rule), moves);
    for (int i = 0; i < len; i++) {
        char n[4];
        gmk_notation_point(seq[i], b->size, n);
        printf("%s%s", i ? "," : " ", n);
    }
    printf("\n");
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc < 4) return 2;
    gmk_rule rule;
    if (!gmk_rule_parse(argv[1], &rule)) return 2;
    int want = atoi(argv[2]);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    gmk_threat_ctx_init(&ctx, 1 << 20);
    gmk_engine *e = gmk_engine_new(16u << 20);
    int found_vcf = 0, found_def = 0;
    for (int game = 0; found_vcf < want || found_def < want; game++) {
        bool game_vcf = false, game_def = false; /* one case of each kind per game */
        gmk_board b;
        gmk_board_init(&b, 15, rule);
        gmk_board_make(&b, gmk_pos_xy(7, 7));
        uint64_t s = seed * 1000003u + (uint64_t)game;
        for (int ply = 0; ply < 60; ply++) {
            gmk_limits l = {0};
            l.depth = 2 + (int)(s % 3);
            l.choose_margin = 200;
            l.seed = s = s * 6364136223846793005ull + 1442695040888963407ull;
            gmk_engine_set_position(e, &b);
            gmk_search_result r;
            gmk_engine_search(e, &l, NULL, &r);
            if (r.best == GMK_POS_NONE) break;
            gmk_board_make(&b, r.best);
            gmk_result res;
            gmk_rules_result_after_last(&b, &res);
            if (res.outcome != GMK_ONGOING) break;
            gmk_color me = b.side, opp = gmk_opponent(me);
            if (b.count[me][GMK_TH_FIVE] || b.count[opp][GMK_TH_FIVE] ||
                b.count[me][GMK_TH_OPEN_FOUR] || b.count[opp][GMK_TH_OPEN_FOUR])
                continue;
            gmk_pos seq[GMK_THREAT_MAX_SEQ];
            int len;
            if (vcf(&b, seq, &len)) {
                if (len >= 7 && found_vcf < want && !game_vcf) {
                    game_vcf = true;
                    print_case("vcf", &b, seq, len);
                    found_vcf++;
                }
                continue;
            }
            if (found_def >= want || game_def) continue;
            gmk_board pass = b;
            pass.side = opp; /* the opponent moves twice */
            if (!vcf(&pass, seq, &len) || len < 5) continue;
            gmk_scored_move moves[GMK_MAX_MOVES];
            int n = gmk_movegen_all_legal(&b, moves), good = 0;
            for (int i = 0; i < n; i++) {
                gmk_board_make(&b, moves[i].pos);
                gmk_pos s2[GMK_THREAT_MAX_SEQ];
                int l2;
                if (!vcf(&b, s2, &l2)) good++;
                gmk_board_undo(&b);
            }
            if (good > 0 && good <= 6) {
                game_def = true;
                print_case("defend", &b, seq, len);
                found_def++;
            }
        }
    }
    gmk_engine_free(e);
    return 0;
}
