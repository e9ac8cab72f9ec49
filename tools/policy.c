/* policy.c: fits the move-ordering policy (src/engine/policy.h) to the moves of self-play, and
 * prints it as C source (src/engine/policy_<rule>.c; docs/engine.md, "Move-ordering policy").
 *
 *   policy [--rule R] [--epochs N] games.txt... > policy_<rule>.c
 *
 * The games are those of tools/gendata.c, whose moves a search of several thousand nodes chose.
 * Every position after the opening where the search had a real choice is a sample: not when
 * either side has a five point or the side to move an open-four point (the move is then
 * obvious), nor when the opponent's open three or four narrowed the moves to defences. The
 * candidates are those of the engine's move generator; the model is a softmax over them of the
 * policy's score (policy.h), and the fit is full-batch Adam on the cross-entropy of the move
 * played. Every 10th game is held out; the held-out loss, and how often the move played is the
 * first or among the first five, are reported beside those of the ordering in force. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"
#include "engine/movegen.h"
#include "engine/policy.h"
#include "games.h"

enum {
    LINES = GMK_PAT_COUNT * GMK_PAT_COUNT,
    P_LINE = 0,
    P_MINE_COMBO = P_LINE + LINES,
    P_THEIRS_COMBO = P_MINE_COMBO + GMK_COMBO_COUNT,
    P_MINE_THREAT = P_THEIRS_COMBO + GMK_COMBO_COUNT,
    P_THEIRS_THREAT = P_MINE_THREAT + GMK_TH_COUNT,
    PARAMS = P_THEIRS_THREAT + GMK_TH_COUNT,
    FEATURES = GMK_DIRS + 4 /* the parameters one candidate uses */
};

/* A candidate move: the parameter of each of its features. */
typedef struct {
    uint16_t param[FEATURES];
} candidate;

typedef struct {
    size_t first; /* in candidates */
    int count;
    int played;        /* index of the move played among them */
    int rank_in_force; /* how many candidates the ordering in force put above it */
    bool held_out;
} position;

static candidate *candidates;
static size_t ncandidates, candidates_cap;
static position *positions;
static size_t npositions, positions_cap;
static gmk_rule rule = GMK_RULE_FREESTYLE;

static bool has_choice(const gmk_board *b) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    return !b->count[me][GMK_TH_FIVE] && !b->count[opp][GMK_TH_FIVE] &&
           !b->count[me][GMK_TH_OPEN_FOUR];
}

/* Adds the position of b, where `played` is the move the game went on with. */
static void add_position(gmk_board *b, gmk_pos played, bool held_out) {
    gmk_scored_move moves[GMK_MAX_MOVES];
    bool forced;
    int n = gmk_movegen_generate(b, moves, &forced);
    int index = -1;
    for (int i = 0; i < n; i++)
        if (moves[i].pos == played) index = i;
    if (forced || index < 0 || n < 2) return;
    positions = games_grow("policy", positions, &positions_cap, npositions + 1, sizeof *positions);
    candidates = games_grow("policy", candidates, &candidates_cap, ncandidates + (size_t)n,
                            sizeof *candidates);
    position *p = &positions[npositions++];
    p->first = ncandidates;
    p->count = n;
    p->played = index;
    p->rank_in_force = 0;
    for (int i = 0; i < n; i++) p->rank_in_force += moves[i].score > moves[index].score;
    p->held_out = held_out;
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    for (int i = 0; i < n; i++) {
        const gmk_cell *cell = &b->cell[moves[i].pos];
        candidate *c = &candidates[ncandidates++];
        for (int d = 0; d < GMK_DIRS; d++)
            c->param[d] = (uint16_t)(P_LINE + gmk_cell_pattern(cell, me, d) * GMK_PAT_COUNT +
                                     gmk_cell_pattern(cell, opp, d));
        c->param[GMK_DIRS] = (uint16_t)(P_MINE_COMBO + cell->combo[me]);
        c->param[GMK_DIRS + 1] = (uint16_t)(P_THEIRS_COMBO + cell->combo[opp]);
        c->param[GMK_DIRS + 2] = (uint16_t)(P_MINE_THREAT + cell->threat[me]);
        c->param[GMK_DIRS + 3] = (uint16_t)(P_THEIRS_THREAT + cell->threat[opp]);
    }
}

/* games_visit: the position before `move`, when it had a real choice. */
static void visit(gmk_board *b, gmk_pos move, long score, const games_game *game, void *context) {
    (void)score, (void)context;
    if (has_choice(b)) add_position(b, move, game->held_out);
}

typedef struct {
    double loss, first, top5;
} fit_stats;

/* Cross-entropy and accuracy over the held-out or the training positions; adds the gradient
 * of the mean loss to grad when given. */
static fit_stats pass(const double *w, bool held_out, double *grad) {
    fit_stats st = {0, 0, 0};
    size_t count = 0;
    static double score[GMK_MAX_MOVES];
    for (size_t i = 0; i < npositions; i++) {
        const position *p = &positions[i];
        if (p->held_out != held_out) continue;
        double top = -1e300;
        for (int j = 0; j < p->count; j++) {
            const candidate *c = &candidates[p->first + (size_t)j];
            score[j] = 0;
            for (int f = 0; f < FEATURES; f++) score[j] += w[c->param[f]];
            if (score[j] > top) top = score[j];
        }
        double z = 0;
        int above = 0;
        for (int j = 0; j < p->count; j++) {
            z += exp(score[j] - top);
            above += score[j] > score[p->played];
        }
        st.loss += log(z) - (score[p->played] - top);
        st.first += above == 0;
        st.top5 += above < 5;
        count++;
        if (!grad) continue;
        for (int j = 0; j < p->count; j++) {
            double g = exp(score[j] - top) / z - (j == p->played);
            const candidate *c = &candidates[p->first + (size_t)j];
            for (int f = 0; f < FEATURES; f++) grad[c->param[f]] += g;
        }
    }
    if (count == 0) return st;
    st.loss /= (double)count;
    st.first /= (double)count;
    st.top5 /= (double)count;
    if (grad)
        for (int k = 0; k < PARAMS; k++) grad[k] /= (double)count;
    return st;
}

static void fit(double *w, int epochs) {
    static double grad[PARAMS], m[PARAMS], v[PARAMS];
    const double rate = 0.05, beta1 = 0.9, beta2 = 0.999;
    for (int e = 1; e <= epochs; e++) {
        memset(grad, 0, sizeof grad);
        fit_stats train = pass(w, false, grad);
        for (int k = 0; k < PARAMS; k++) {
            m[k] = beta1 * m[k] + (1 - beta1) * grad[k];
            v[k] = beta2 * v[k] + (1 - beta2) * grad[k] * grad[k];
            double mh = m[k] / (1 - pow(beta1, e)), vh = v[k] / (1 - pow(beta2, e));
            w[k] -= rate * mh / (sqrt(vh) + 1e-8);
        }
        if (e % 50 == 0 || e == epochs) {
            fit_stats held = pass(w, true, NULL);
            fprintf(stderr, "policy: epoch %d, loss %.4f (held out %.4f, first %.3f, top 5 %.3f)\n",
                    e, train.loss, held.loss, held.first, held.top5);
        }
    }
}

/* An entry as the engine holds it: the log-probability times the scale, in 16 bits. */
static long entry(const double *w, int k) {
    double x = w[k] * GMK_POLICY_SCALE;
    if (x > 30000) x = 30000;
    if (x < -30000) x = -30000;
    return lround(x);
}

static void print_table(const char *name, const double *w, int first, int count) {
    printf("    .%s = {", name);
    for (int k = 0; k < count; k++) printf("%s%ld", k ? ", " : "", entry(w, first + k));
    printf("},\n");
}

static void print_policy(const double *w, int games, fit_stats before, fit_stats after) {
    const char *name = rule == GMK_RULE_RENJU ? "renju" : "freestyle";
    size_t held = 0;
    for (size_t i = 0; i < npositions; i++) held += positions[i].held_out;
    printf("/* policy_%s.c: GENERATED by tools/policy.c (`make weights WEIGHTS_RULE=%s`); do not\n"
           " * edit.\n *\n"
           " * Fitted to the moves of %d self-play games of tools/gendata.c (%s, %zu positions).\n"
           " * On the %zu held-out positions the move played was the first of the ordering before\n"
           " * in %.1f%% and among its first five in %.1f%%; the first of this policy in %.1f%%,\n"
           " * among its first five in %.1f%% (cross-entropy %.4f). */\n"
           "#include \"policy.h\"\n\n"
           "const gmk_policy_weights gmk_policy_%s = {\n",
           name, name, games, name, npositions, held, 100 * before.first, 100 * before.top5,
           100 * after.first, 100 * after.top5, after.loss, name);
    print_table("line", w, P_LINE, LINES);
    print_table("mine_combo", w, P_MINE_COMBO, GMK_COMBO_COUNT);
    print_table("theirs_combo", w, P_THEIRS_COMBO, GMK_COMBO_COUNT);
    print_table("mine_threat", w, P_MINE_THREAT, GMK_TH_COUNT);
    print_table("theirs_threat", w, P_THEIRS_THREAT, GMK_TH_COUNT);
    printf("};\n");
}

int main(int argc, char **argv) {
    int epochs = 200, games = 0, files = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rule") && i + 1 < argc) {
            if (!games_rule_arg("policy", argv[++i], &rule)) return 2;
        } else if (!strcmp(argv[i], "--epochs") && i + 1 < argc) {
            if (!games_epochs_arg("policy", argv[++i], 100000, &epochs)) return 2;
        } else {
            if (!games_read("policy", argv[i], rule, &games, visit, NULL)) return 1;
            files++;
        }
    }
    if (!files || npositions < 200) {
        fprintf(stderr, "usage: policy [--rule R] [--epochs N] games.txt... > policy_<rule>.c "
                        "(needs 200 positions or more)\n");
        return 2;
    }
    fit_stats before = {0, 0, 0};
    size_t held = 0;
    for (size_t i = 0; i < npositions; i++) {
        if (!positions[i].held_out) continue;
        held++;
        before.first += positions[i].rank_in_force == 0;
        before.top5 += positions[i].rank_in_force < 5;
    }
    if (held) before.first /= (double)held, before.top5 /= (double)held;
    fprintf(stderr,
            "policy: %d games, %zu positions, %zu candidates; the ordering in force: "
            "first %.3f, top 5 %.3f\n",
            games, npositions, ncandidates, before.first, before.top5);
    static double w[PARAMS];
    fit(w, epochs);
    fit_stats after = pass(w, true, NULL);
    print_policy(w, games, before, after);
    free(candidates);
    free(positions);
    return 0;
}
