/* texel.c: fits the evaluation's weights to self-play by logistic (Texel) regression, and
 * prints them as C source (src/core/weights_<rule>.c; docs/engine.md, "Learned weights").
 *
 *   texel [--rule R] [--epochs N] [--lambda L] [--scale K] [--quiet] [--two-ply]
 *         [--symmetric] [--keep-shapes] games.txt... > weights_<rule>.c
 *
 * The games are those of tools/gendata.c. Every position after the opening is a sample,
 * labelled for the side to move with L x the game's result (1, 1/2, 0) + (1 - L) x the
 * self-play search's score through the same sigmoid (L = 1 by default; --two-ply: the mean of
 * that score and the negated score of the next position of the game, a target the position
 * after the played move agrees with), except those a search
 * never scores by its evaluation: the side to move has a five or an open-four point, or the
 * opponent has a five point (--quiet: either side has an open-four, four-three or five point).
 * The model is that of src/core/weights.h, the evaluation of src/engine/eval.c, with the win
 * probability sigmoid(eval / K), plus a term for "black to move" that is fitted but not
 * printed (the engine compares positions with the same side to move). K is first fitted to the
 * weights in force (the ones this program is linked with), then held, so the new evaluation
 * keeps their scale (--scale K holds the K given instead). The fit is full-batch Adam on the
 * cross-entropy; every 10th game is held out and its loss reported beside the training loss.
 * Pattern weights and threat bonuses stay non-negative (they are summed in 16 bits), the mover's
 * coefficient stays 24/16 (--symmetric: the opponent's too), and --keep-shapes fits only the
 * coefficients. The futility margins are carried over by quantile (carry_margins). Under renju
 * each colour's shapes get their own weights (black's forbidden points change what a shape is
 * worth); under freestyle both colours share them. Standard and caro play with the freestyle set
 * (core/weights.h), so the tool fits only freestyle and renju. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"
#include "core/weights.h"
#include "games.h"

enum {
    /* features of one colour: pattern counts, then threat counts */
    SIDE_FEATURES = GMK_PAT_COUNT + GMK_TH_COUNT,
    /* me, opp, the four-three and double-three indicators, whether black moves, and the
     * cells of each combination class of me, then of opp */
    F_COMBO = 2 * SIDE_FEATURES + 3,
    FEATURES = F_COMBO + 2 * GMK_COMBO_COUNT,
    /* parameters: black's pattern weights and threat bonuses, white's (tied to black's but
     * under renju), the opponent's coefficient, tempo, the two bonuses, and a weight for each
     * threat count of either side */
    P_PAT = 0,
    P_THREAT = GMK_PAT_COUNT,
    P_OPP = 2 * SIDE_FEATURES,
    P_TEMPO,
    P_FOUR_THREE,
    P_DOUBLE_THREE,
    P_MINE, /* the side to move's threat counts, beside their bonus in S */
    P_THEIRS = P_MINE + GMK_TH_COUNT,
    /* the first mover's advantage: fitted so that it does not bend the other weights, but not
     * used by the engine (it is the same for every position a search compares) */
    P_BLACK = P_THEIRS + GMK_TH_COUNT,
    P_MINE_COMBO, /* a weight for each combination class of the side to move's cells */
    P_THEIRS_COMBO = P_MINE_COMBO + GMK_COMBO_COUNT,
    PARAMS = P_THEIRS_COMBO + GMK_COMBO_COUNT
};

typedef struct {
    float f[FEATURES];
    float result; /* for the side to move */
    float search; /* the self-play search's score of this position, for the side to move */
    float target; /* what the fit aims at: a blend of the two (--lambda) */
    bool held_out;
    bool scored;     /* a position the evaluation scores in a search (see above) */
    bool quiet_move; /* the move played next makes or blocks no three or four */
    bool black_moves;
    int game;
} sample;

static sample *samples;
static size_t nsamples, cap;

static gmk_rule rule = GMK_RULE_FREESTYLE;
static bool per_colour; /* each colour's shapes weighed apart (renju) */

/* The first parameter of the shape weights of the side to move (k = 0) or the other (k = 1). */
static int shape_block(const sample *s, int k) {
    bool black = s->black_moves == (k == 0);
    return per_colour && !black ? SIDE_FEATURES : 0;
}

static void add_features(const gmk_board *b, sample *s) {
    memset(s->f, 0, sizeof s->f);
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (!gmk_board_empty_at(b, p)) continue;
            const gmk_cell *cell = &b->cell[p];
            for (int side = 0; side < 2; side++) {
                gmk_color c = side == 0 ? me : opp;
                if (cell->threat[c] == GMK_TH_FORBID) continue;
                float *f = s->f + side * SIDE_FEATURES;
                for (int d = 0; d < GMK_DIRS; d++) f[gmk_cell_pattern(cell, c, d)] += 1;
                f[GMK_PAT_COUNT + cell->threat[c]] += 1;
                s->f[F_COMBO + side * GMK_COMBO_COUNT + cell->combo[c]] += 1;
            }
        }
    s->f[2 * SIDE_FEATURES] = b->count[me][GMK_TH_FOUR_THREE] > 0;
    s->f[2 * SIDE_FEATURES + 1] =
        b->count[me][GMK_TH_FOUR_THREE] == 0 && b->count[me][GMK_TH_DOUBLE_THREE] > 0 &&
        b->count[opp][GMK_TH_FOUR] == 0 && b->count[opp][GMK_TH_FOUR_THREE] == 0;
    s->f[2 * SIDE_FEATURES + 2] = me == GMK_BLACK ? 1 : -1;
}

static bool quiet_only; /* --quiet: only positions where neither side has an open three */

/* games_visit: one sample of the position before `move`. */
static void add_sample(gmk_board *b, gmk_pos move, long score, const games_game *game,
                       void *context) {
    (void)context;
    samples = games_grow("texel", samples, &cap, nsamples + 1, sizeof *samples);
    sample *s = &samples[nsamples++];
    add_features(b, s);
    gmk_color me = gmk_board_side(b);
    s->result = games_result_for(game, me);
    s->target = s->result;
    s->search = (float)score;
    s->held_out = game->held_out;
    s->scored = games_scored(b, quiet_only);
    s->quiet_move = b->cell[move].threat[me] < GMK_TH_THREE &&
                    b->cell[move].threat[gmk_opponent(me)] < GMK_TH_THREE;
    s->black_moves = me == GMK_BLACK;
    s->game = game->number;
}

/* The evaluation of sample s under parameters w, and its derivatives when grad is given. */
static double evaluate(const double *w, const sample *s, double *grad, double dloss) {
    const double mover = 24.0 / 16;
    double side[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        const float *f = s->f + k * SIDE_FEATURES;
        const double *shape = w + shape_block(s, k);
        for (int i = 0; i < SIDE_FEATURES; i++) side[k] += shape[i] * f[i];
    }
    double v = mover * side[0] - w[P_OPP] * side[1] + w[P_TEMPO] +
               w[P_FOUR_THREE] * s->f[2 * SIDE_FEATURES] +
               w[P_DOUBLE_THREE] * s->f[2 * SIDE_FEATURES + 1] +
               w[P_BLACK] * s->f[2 * SIDE_FEATURES + 2];
    for (int t = 0; t < GMK_TH_COUNT; t++)
        v += w[P_MINE + t] * s->f[GMK_PAT_COUNT + t] -
             w[P_THEIRS + t] * s->f[SIDE_FEATURES + GMK_PAT_COUNT + t];
    for (int k = 0; k < GMK_COMBO_COUNT; k++)
        v += w[P_MINE_COMBO + k] * s->f[F_COMBO + k] -
             w[P_THEIRS_COMBO + k] * s->f[F_COMBO + GMK_COMBO_COUNT + k];
    if (grad) {
        for (int k = 0; k < GMK_COMBO_COUNT; k++) {
            grad[P_MINE_COMBO + k] += dloss * s->f[F_COMBO + k];
            grad[P_THEIRS_COMBO + k] -= dloss * s->f[F_COMBO + GMK_COMBO_COUNT + k];
        }
        for (int t = 0; t < GMK_TH_COUNT; t++) {
            grad[P_MINE + t] += dloss * s->f[GMK_PAT_COUNT + t];
            grad[P_THEIRS + t] -= dloss * s->f[SIDE_FEATURES + GMK_PAT_COUNT + t];
        }
        for (int i = 0; i < SIDE_FEATURES; i++) {
            grad[shape_block(s, 0) + i] += dloss * mover * s->f[i];
            grad[shape_block(s, 1) + i] -= dloss * w[P_OPP] * s->f[SIDE_FEATURES + i];
        }
        grad[P_OPP] -= dloss * side[1];
        grad[P_TEMPO] += dloss;
        grad[P_FOUR_THREE] += dloss * s->f[2 * SIDE_FEATURES];
        grad[P_DOUBLE_THREE] += dloss * s->f[2 * SIDE_FEATURES + 1];
        grad[P_BLACK] += dloss * s->f[2 * SIDE_FEATURES + 2];
    }
    return v;
}

/* Mean cross-entropy over the training or the held-out samples. */
static double loss(const double *w, double k, bool held_out) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < nsamples; i++) {
        if (samples[i].held_out != held_out || !samples[i].scored) continue;
        double p = 1 / (1 + exp(-games_clamp_eval(evaluate(w, &samples[i], NULL, 0)) / k));
        double r = samples[i].target;
        p = p < 1e-9 ? 1e-9 : p > 1 - 1e-9 ? 1 - 1e-9 : p;
        sum -= r * log(p) + (1 - r) * log(1 - p);
        n++;
    }
    return n ? sum / (double)n : 0;
}

/* loss() on the training samples, as games_fit_scale calls it (context: the weights). */
static double training_loss(double k, void *weights) {
    return loss(weights, k, false);
}

/* The rule's weights this program is linked with. */
static const gmk_eval_weight_set *eval_in_force(void) {
    return &gmk_weights_for(rule)->eval;
}

static void weights_in_force(double *w) {
    memset(w, 0, sizeof(double) * PARAMS);
    const gmk_weights *set = gmk_weights_for(rule);
    const gmk_eval_weight_set *e = &set->eval;
    /* white's shapes start from white's weights under renju, else they are black's */
    for (int c = 0; c < 2; c++) {
        const gmk_shape_weights *shape = &set->shape[per_colour ? c : 0];
        for (int i = 0; i < GMK_PAT_COUNT; i++) w[c * SIDE_FEATURES + i] = shape->pattern[i];
        for (int i = 0; i < GMK_TH_COUNT; i++)
            w[c * SIDE_FEATURES + GMK_PAT_COUNT + i] = shape->threat[i];
    }
    w[P_OPP] = e->opponent / 16.0;
    w[P_TEMPO] = e->tempo;
    w[P_FOUR_THREE] = e->four_three;
    w[P_DOUBLE_THREE] = e->double_three;
    for (int t = 0; t < GMK_TH_COUNT; t++) {
        w[P_MINE + t] = e->mine[t];
        w[P_THEIRS + t] = e->theirs[t];
    }
    for (int k = 0; k < GMK_COMBO_COUNT; k++) {
        w[P_MINE_COMBO + k] = e->mine_combo[k];
        w[P_THEIRS_COMBO + k] = e->theirs_combo[k];
    }
}

/* Parameters held at zero: the dead pattern, no threat, and the forbidden cell (scored 0), and
 * the counts no sample has (positions with them are not evaluated). */
static bool keep_shapes; /* --keep-shapes: fit only the evaluation's coefficients */
static bool two_ply;     /* --two-ply: targets averaged over the position and the next */
static bool symmetric;   /* --symmetric: both sums weigh the same (mover = opponent) */

static bool fixed(int i) {
    if (i == P_BLACK) return false;
    if (i >= P_MINE_COMBO) return (i - P_MINE_COMBO) % GMK_COMBO_COUNT == 0; /* class 0 */
    if (keep_shapes && i < P_OPP) return true;
    if (i >= SIDE_FEATURES && i < P_OPP) {
        if (!per_colour) return true; /* white's shapes are black's */
        i -= SIDE_FEATURES;
    }
    if (symmetric && i == P_OPP) return true;
    if (i >= P_MINE) {
        int t = (i - P_MINE) % GMK_TH_COUNT;
        if (t == GMK_TH_NONE || t == GMK_TH_FORBID || t == GMK_TH_FIVE) return true;
        return i < P_THEIRS && t == GMK_TH_OPEN_FOUR;
    }
    return i == P_PAT + GMK_PAT_DEAD || i == P_THREAT + GMK_TH_NONE ||
           i == P_THREAT + GMK_TH_FORBID;
}

/* The threat counts' weights may be negative; the rest are summed as unsigned. */
static bool signed_param(int i) {
    return i >= P_MINE; /* and P_BLACK and the combination classes */
}

static void fit(double *w, double k, int epochs) {
    double m[PARAMS] = {0}, v[PARAMS] = {0}, grad[PARAMS];
    size_t ntrain = 0;
    for (size_t i = 0; i < nsamples; i++) ntrain += !samples[i].held_out && samples[i].scored;
    for (int e = 1; e <= epochs; e++) {
        memset(grad, 0, sizeof grad);
        for (size_t i = 0; i < nsamples; i++) {
            const sample *s = &samples[i];
            if (s->held_out || !s->scored) continue;
            double ev = evaluate(w, s, NULL, 0);
            if (ev > 20000 || ev < -20000) continue; /* clamped: no gradient */
            double p = 1 / (1 + exp(-ev / k));
            evaluate(w, s, grad, (p - s->target) / k / (double)ntrain);
        }
        for (int i = 0; i < PARAMS; i++) {
            if (fixed(i)) continue;
            /* step sizes: centi-stones for weights, 1/1000 for the coefficient */
            double rate = i == P_OPP ? 0.002 : 1.0;
            m[i] = 0.9 * m[i] + 0.1 * grad[i];
            v[i] = 0.999 * v[i] + 0.001 * grad[i] * grad[i];
            double mh = m[i] / (1 - pow(0.9, e)), vh = v[i] / (1 - pow(0.999, e));
            w[i] -= rate * mh / (sqrt(vh) + 1e-12);
            if (w[i] < 0 && !signed_param(i)) w[i] = 0;
        }
        if (e % 200 == 0)
            fprintf(stderr, "texel: epoch %d, loss %.5f (held out %.5f)\n", e, loss(w, k, false),
                    loss(w, k, true));
    }
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* How the evaluation moves, from the first mover's side, over the quiet moves of the games:
 * one[] after one quiet move (the opponent to move), two[] after two (the first mover again),
 * each sorted. The futility margins of depths 1 and 3 are read from one[], that of depth 2 from
 * two[]. */
typedef struct {
    double *one, *two;
    size_t n1, n2;
} swings;

static swings measure_swings(const double *w) {
    swings sw = {malloc(nsamples * sizeof(double)), malloc(nsamples * sizeof(double)), 0, 0};
    if (!sw.one || !sw.two) {
        fprintf(stderr, "texel: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i + 2 < nsamples; i++) {
        const sample *s = &samples[i], *t = &samples[i + 1], *u = &samples[i + 2];
        if (!s->scored || !s->quiet_move || t->game != s->game) continue;
        double e0 = games_clamp_eval(evaluate(w, s, NULL, 0));
        if (t->scored) sw.one[sw.n1++] = -games_clamp_eval(evaluate(w, t, NULL, 0)) - e0;
        if (t->quiet_move && u->scored && u->game == s->game)
            sw.two[sw.n2++] = games_clamp_eval(evaluate(w, u, NULL, 0)) - e0;
    }
    qsort(sw.one, sw.n1, sizeof(double), compare_doubles);
    qsort(sw.two, sw.n2, sizeof(double), compare_doubles);
    return sw;
}

static const double *swing_list(const swings *sw, int depth, size_t *n) {
    *n = depth == 2 ? sw->n2 : sw->n1;
    return depth == 2 ? sw->two : sw->one;
}

static void report_swings(const swings *sw, const char *name) {
    if (sw->n1 < 100 || sw->n2 < 100) return;
    fprintf(stderr,
            "texel: %s: after one quiet move %+.0f / %+.0f / %+.0f (percentiles 1, 50, 99 of "
            "%zu), after two %+.0f / %+.0f / %+.0f (%zu)\n",
            name, sw->one[sw->n1 / 100], sw->one[sw->n1 / 2], sw->one[sw->n1 * 99 / 100], sw->n1,
            sw->two[sw->n2 / 100], sw->two[sw->n2 / 2], sw->two[sw->n2 * 99 / 100], sw->n2);
}

/* The margins at the same quantiles of the new swings as the margins in force are of the old. */
static void carry_margins(const swings *old, const swings *now, int margins[4]) {
    margins[0] = 0;
    for (int depth = 1; depth <= 3; depth++) {
        size_t n_old, n_now;
        const double *a = swing_list(old, depth, &n_old), *b = swing_list(now, depth, &n_now);
        size_t below = 0;
        while (below < n_old && a[below] < eval_in_force()->futility[depth]) below++;
        size_t at = n_old ? below * n_now / n_old : 0;
        if (at >= n_now) at = n_now - 1;
        margins[depth] = (int)lround(b[at]);
        fprintf(stderr, "texel: futility margin at depth %d: %d -> %d (quantile %.3f)\n", depth,
                eval_in_force()->futility[depth], margins[depth],
                n_old ? (double)below / (double)n_old : 0);
    }
}

static void print_weights(const double *w, const int margins[4], double k, double before,
                          double after, int games) {
    static const char *pat_names[GMK_PAT_COUNT] = {"DEAD", "OL", "B1", "F1", "B2",  "F2",
                                                   "B3",   "F3", "B4", "F4", "DF4", "F5"};
    static const char *threat_names[GMK_TH_COUNT] = {
        "NONE", "THREE", "DOUBLE_THREE", "FOUR", "FOUR_THREE", "OPEN_FOUR", "FIVE", "FORBID"};
    const char *name = gmk_rule_name(rule);
    printf("/* weights_%s.c: GENERATED by tools/texel.c (`make weights WEIGHTS_RULE=%s`); do "
           "not edit.\n"
           " *\n"
           " * Fitted to %d self-play games of tools/gendata.c (%s, %zu positions), K = %.0f:\n"
           " * held-out cross-entropy %.5f with the weights before, %.5f with these. */\n"
           "#include \"weights.h\"\n\n",
           name, name, games, name, nsamples, k, before, after);
    printf("const gmk_weights gmk_weights_%s = {\n    .shape = {\n", name);
    for (int c = 0; c < 2; c++) {
        const double *shape = w + (per_colour ? c * SIDE_FEATURES : 0);
        printf("        {.pattern = {");
        for (int i = 0; i < GMK_PAT_COUNT; i++)
            printf("%s[GMK_PAT_%s] = %ld", i ? ", " : "", pat_names[i], lround(shape[i]));
        printf("},\n         .threat = {");
        for (int i = 0; i < GMK_TH_COUNT; i++)
            printf("%s[GMK_TH_%s] = %ld", i ? ", " : "", threat_names[i],
                   lround(shape[GMK_PAT_COUNT + i]));
        printf("}},\n");
    }
    printf("    },\n    .eval = {\n"
           "    .mover = 24,\n    .opponent = %ld,\n    .tempo = %ld,\n"
           "    .four_three = %ld,\n    .double_three = %ld,\n",
           lround(w[P_OPP] * 16), lround(w[P_TEMPO]), lround(w[P_FOUR_THREE]),
           lround(w[P_DOUBLE_THREE]));
    for (int side = 0; side < 2; side++) {
        printf("    .%s = {", side == 0 ? "mine" : "theirs");
        for (int t = 0; t < GMK_TH_COUNT; t++)
            printf("%s[GMK_TH_%s] = %ld", t ? ", " : "", threat_names[t],
                   lround(w[(side == 0 ? P_MINE : P_THEIRS) + t]));
        printf("},\n");
    }
    for (int side = 0; side < 2; side++) {
        printf("    .%s_combo = {", side == 0 ? "mine" : "theirs");
        for (int k = 0; k < GMK_COMBO_COUNT; k++)
            printf("%s%ld", k ? ", " : "",
                   lround(w[(side == 0 ? P_MINE_COMBO : P_THEIRS_COMBO) + k]));
        printf("},\n");
    }
    printf("    .futility = {%d, %d, %d, %d},\n    },\n};\n", margins[0], margins[1], margins[2],
           margins[3]);
}

int main(int argc, char **argv) {
    double fixed_scale = 0;
    int epochs = 2000, games = 0, files = 0;
    double lambda = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rule") && i + 1 < argc) {
            if (!games_rule_arg("texel", argv[++i], &rule)) return 2;
            per_colour = rule == GMK_RULE_RENJU;
        } else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            if (!games_real_arg("texel", "--scale", argv[++i], 50, 5000, &fixed_scale)) return 2;
        } else if (!strcmp(argv[i], "--lambda") && i + 1 < argc) {
            if (!games_real_arg("texel", "--lambda", argv[++i], 0, 1, &lambda)) return 2;
        } else if (!strcmp(argv[i], "--quiet")) {
            quiet_only = true;
        } else if (!strcmp(argv[i], "--two-ply")) {
            two_ply = true;
        } else if (!strcmp(argv[i], "--symmetric")) {
            symmetric = true;
        } else if (!strcmp(argv[i], "--keep-shapes")) {
            keep_shapes = true;
        } else if (!strcmp(argv[i], "--epochs") && i + 1 < argc) {
            if (!games_epochs_arg("texel", argv[++i], 1000000, &epochs)) return 2;
        } else {
            if (!games_read("texel", argv[i], rule, &games, add_sample, NULL)) return 1;
            files++;
        }
    }
    if (!files || nsamples < 1000) {
        fprintf(stderr, "usage: texel [--rule R] [--epochs N] games.txt... > weights_<rule>.c "
                        "(needs 1000 positions or more)\n");
        return 2;
    }
    double w[PARAMS];
    weights_in_force(w);
    /* K: fitted to the training loss of the weights in force */
    double k = fixed_scale > 0 ? fixed_scale : games_fit_scale(training_loss, w);
    for (size_t i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        /* every position of a game is a sample: the next one is the position after the move */
        bool has_next = i + 1 < nsamples && samples[i + 1].game == s->game;
        double next = has_next ? samples[i + 1].search : 0;
        double v = games_search_target(s->search, two_ply && has_next ? &next : NULL);
        double searched = 1 / (1 + exp(-v / k));
        s->target = (float)(lambda * s->result + (1 - lambda) * searched);
    }
    double before = loss(w, k, true);
    fprintf(stderr, "texel: %d games, %zu positions, K %.0f, loss %.5f (held out %.5f)\n", games,
            nsamples, k, loss(w, k, false), before);
    swings old = measure_swings(w);
    report_swings(&old, "weights before");
    if (symmetric) w[P_OPP] = 24.0 / 16;
    fit(w, k, epochs);
    swings now = measure_swings(w);
    report_swings(&now, "fitted weights");
    int margins[4];
    carry_margins(&old, &now, margins);
    fprintf(stderr, "texel: black's advantage (not used by the engine): %.0f\n", w[P_BLACK]);
    w[P_BLACK] = 0;
    double after = loss(w, k, true);
    print_weights(w, margins, k, before, after, games);
    free(old.one);
    free(old.two);
    free(now.one);
    free(now.two);
    free(samples);
    return 0;
}
