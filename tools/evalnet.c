/* evalnet.c: fits the evaluation network (src/engine/evalnet.h) to self-play, on top of the
 * linear evaluation in force, and prints it as C source (src/engine/evalnet_<rule>.c;
 * docs/engine.md, "Evaluation").
 *
 *   evalnet [--rule R] [--epochs N] [--lambda L] [--scale K] [--two-ply] games.txt...
 *           > evalnet_<rule>.c
 *
 * The games are those of tools/gendata.c. The samples are the positions after the opening that a
 * search scores by its evaluation (games_scored: not those where the side to move has a five
 * or open-four point or the opponent a five point), threats and all, each labelled for the side to
 * move with L x the game's result + (1 - L) x the self-play search's score through the sigmoid (L =
 * 0.5 by default; `make weights` passes 1, as for the linear weights; --two-ply averages the
 * search's score with the next position's, negated, as texel does). The model is
 * sigmoid((linear + net) / K): linear is gmk_eval_linear with the weights this program is
 * linked with, K is fitted to it first (as texel does; --scale K holds the K given), and only
 * the network is fitted (30 epochs by default), by Adam on minibatches of 256 in a fixed order
 * (the same games give the same network). Every 10th game is held out; the held-out
 * cross-entropy is reported for the linear evaluation alone, with the network in floating
 * point, and with the network in the engine's integers. Freestyle and renju
 * have a network each (standard and caro play with freestyle's, as with the linear weights). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"
#include "engine/eval.h"
#include "engine/evalnet.h"
#include "games.h"

enum { IN = GMK_NET_INPUTS, HID = GMK_NET_HIDDEN, BATCH = 256 };

typedef struct {
    uint8_t in[IN];
    float linear; /* gmk_eval_linear */
    float result; /* for the side to move */
    float search; /* the self-play search's score, for the side to move */
    float target;
    bool held_out;
    float next_search; /* the search's score of the position after the move played */
    bool has_next;     /* whether the game went on, so that next_search is known */
    int game, ply;     /* which game, and the stones on the board */
} sample;

static bool two_ply; /* --two-ply: targets averaged over the position and the next */
static sample *samples;
static size_t nsamples, cap;

static void add_sample(gmk_board *b, gmk_pos move, long score, const games_game *game,
                       void *context) {
    (void)move;
    (void)context;
    /* the next position's score, for --two-ply, is known whether or not that one is kept */
    static size_t last = SIZE_MAX;
    if (last < nsamples && samples[last].game == game->number &&
        samples[last].ply + 1 == b->move_count) {
        samples[last].next_search = (float)score;
        samples[last].has_next = true;
    }
    last = SIZE_MAX;
    if (!games_scored(b, false)) return;
    int linear = gmk_eval_linear(b);
    if (linear >= GMK_EVAL_LIMIT || linear <= -GMK_EVAL_LIMIT) return;
    samples = games_grow("evalnet", samples, &cap, nsamples + 1, sizeof *samples);
    sample *s = &samples[nsamples++];
    gmk_net_inputs(b, s->in);
    s->linear = (float)linear;
    s->result = games_result_for(game, gmk_board_side(b));
    s->search = (float)score;
    s->target = s->result;
    s->held_out = game->held_out;
    s->game = game->number;
    s->ply = b->move_count;
    s->has_next = false;
    last = nsamples - 1;
}

/* The network in floating point, on normalized inputs ((count - mean) / spread). */
typedef struct {
    float w1[HID][IN], b1[HID], w2[HID], b2;
} net;

static float mean[IN], spread[IN];

static void normalize(const sample *s, float x[IN]) {
    for (int i = 0; i < IN; i++) x[i] = ((float)s->in[i] - mean[i]) / spread[i];
}

/* Output in evaluation units; hid gets the hidden values. */
static float forward(const net *n, const float x[IN], float hid[HID]) {
    float out = n->b2;
    for (int j = 0; j < HID; j++) {
        float a = n->b1[j];
        for (int i = 0; i < IN; i++) a += n->w1[j][i] * x[i];
        hid[j] = a > 0 ? a : 0;
        out += n->w2[j] * hid[j];
    }
    return out;
}

static double cross_entropy(double v, double k, double target) {
    double p = 1 / (1 + exp(-games_clamp_eval(v) / k));
    p = p < 1e-9 ? 1e-9 : p > 1 - 1e-9 ? 1 - 1e-9 : p;
    return -(target * log(p) + (1 - target) * log(1 - p));
}

/* Mean cross-entropy of the held-out or training samples: the linear evaluation alone
 * (n and q NULL), with the float network n, or with the integer network q. */
static double loss(double k, bool held_out, const net *n, const gmk_net_weights *q) {
    double sum = 0;
    size_t count = 0;
    for (size_t i = 0; i < nsamples; i++) {
        const sample *s = &samples[i];
        if (s->held_out != held_out) continue;
        double v = s->linear;
        if (n) {
            float x[IN], hid[HID];
            normalize(s, x);
            v += forward(n, x, hid);
        } else if (q) {
            v += gmk_net_output(q, s->in);
        }
        sum += cross_entropy(v, k, s->target);
        count++;
    }
    return count ? sum / (double)count : 0;
}

/* The linear evaluation's training loss, as games_fit_scale calls it. */
static double linear_training_loss(double k, void *context) {
    (void)context;
    return loss(k, false, NULL, NULL);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void fit(net *n, double k, int epochs) {
    size_t *order = malloc(nsamples * sizeof *order), ntrain = 0;
    static net grad, m1, m2;
    if (!order) {
        fprintf(stderr, "evalnet: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < nsamples; i++)
        if (!samples[i].held_out) order[ntrain++] = i;
    /* small random first-layer weights, the rest 0 */
    for (int j = 0; j < HID; j++)
        for (int i = 0; i < IN; i++)
            n->w1[j][i] = (float)((double)(rng() % 2001) / 1000 - 1) * 0.1f;
    float *p = (float *)n, *g = (float *)&grad, *a = (float *)&m1, *v = (float *)&m2;
    size_t params = sizeof(net) / sizeof(float);
    long step = 0;
    const double rate = 1e-3 * 100; /* the output is in evaluation units: steps of 0.1 */
    for (int e = 1; e <= epochs; e++) {
        for (size_t i = ntrain - 1; i > 0; i--) {
            size_t j = (size_t)(rng() % (i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (size_t start = 0; start + BATCH <= ntrain; start += BATCH) {
            memset(&grad, 0, sizeof grad);
            for (int b = 0; b < BATCH; b++) {
                const sample *s = &samples[order[start + b]];
                float x[IN], hid[HID];
                normalize(s, x);
                double value = s->linear + forward(n, x, hid);
                if (value >= GMK_EVAL_LIMIT || value <= -GMK_EVAL_LIMIT) continue;
                double prob = 1 / (1 + exp(-value / k));
                float d = (float)((prob - s->target) / k / BATCH);
                grad.b2 += d;
                for (int j = 0; j < HID; j++) {
                    grad.w2[j] += d * hid[j];
                    if (hid[j] <= 0) continue;
                    float dj = d * n->w2[j];
                    grad.b1[j] += dj;
                    for (int i = 0; i < IN; i++) grad.w1[j][i] += dj * x[i];
                }
            }
            step++;
            double c1 = 1 - pow(0.9, (double)step), c2 = 1 - pow(0.999, (double)step);
            for (size_t q = 0; q < params; q++) {
                a[q] = 0.9f * a[q] + 0.1f * g[q];
                v[q] = 0.999f * v[q] + 0.001f * g[q] * g[q];
                /* the output layer is in evaluation units, the first layer in normalized units */
                double r = (float *)&n->w2[0] <= &p[q] ? rate : rate / 100;
                p[q] -= (float)(r * (a[q] / c1) / (sqrt(v[q] / c2) + 1e-8));
            }
        }
        fprintf(stderr, "evalnet: epoch %d, loss %.5f (held out %.5f)\n", e,
                loss(k, false, n, NULL), loss(k, true, n, NULL));
    }
    free(order);
}

/* The float network in the engine's integers: the normalization folded into the first layer. */
static void quantize(const net *n, gmk_net_weights *q) {
    const double one = 1 << GMK_NET_SHIFT;
    int clipped = 0;
    memset(q, 0, sizeof *q);
    for (int j = 0; j < HID; j++) {
        double bias = n->b1[j];
        for (int i = 0; i < IN; i++) {
            double w = n->w1[j][i] / spread[i];
            bias -= w * mean[i];
            long fixed = lround(w * one);
            if (fixed > INT16_MAX || fixed < -INT16_MAX) {
                fixed = fixed > 0 ? INT16_MAX : -INT16_MAX;
                clipped++;
            }
            q->hidden_weight[i][j] = (int16_t)fixed;
        }
        q->hidden_bias[j] = (int32_t)lround(bias * one);
        q->output_weight[j] = (int32_t)lround(n->w2[j]);
    }
    q->output_bias = (int32_t)lround(n->b2);
    if (clipped) fprintf(stderr, "evalnet: %d first-layer weights clipped to 16 bits\n", clipped);
}

static void print_net(const gmk_net_weights *q, gmk_rule rule, int games, double k, double linear,
                      double fitted) {
    const char *name = gmk_rule_name(rule);
    printf("/* evalnet_%s.c: GENERATED by tools/evalnet.c (`make weights WEIGHTS_RULE=%s`); do "
           "not edit.\n"
           " *\n"
           " * Fitted to %d self-play games of tools/gendata.c (%s, %zu positions), K = %.0f:\n"
           " * held-out cross-entropy %.5f with the linear evaluation alone, %.5f with this "
           "network. */\n"
           "#include \"evalnet.h\"\n\n"
           "const gmk_net_weights gmk_net_%s = {\n    .hidden_bias = {",
           name, name, games, name, nsamples, k, linear, fitted, name);
    for (int j = 0; j < HID; j++) printf("%s%d", j ? ", " : "", q->hidden_bias[j]);
    printf("},\n    .hidden_weight = {\n");
    for (int i = 0; i < IN; i++) {
        printf("        {");
        for (int j = 0; j < HID; j++) printf("%s%d", j ? ", " : "", q->hidden_weight[i][j]);
        printf("},\n");
    }
    printf("    },\n    .output_weight = {");
    for (int j = 0; j < HID; j++) printf("%s%d", j ? ", " : "", q->output_weight[j]);
    printf("},\n    .output_bias = %d,\n};\n", q->output_bias);
}

int main(int argc, char **argv) {
    double fixed_scale = 0;
    int epochs = 30, games = 0, files = 0;
    double lambda = 0.5;
    gmk_rule rule = GMK_RULE_FREESTYLE;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rule") && i + 1 < argc) {
            if (!games_rule_arg("evalnet", argv[++i], &rule)) return 2;
        } else if (!strcmp(argv[i], "--two-ply")) {
            two_ply = true;
        } else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
            if (!games_real_arg("evalnet", "--scale", argv[++i], 50, 5000, &fixed_scale)) return 2;
        } else if (!strcmp(argv[i], "--lambda") && i + 1 < argc) {
            if (!games_real_arg("evalnet", "--lambda", argv[++i], 0, 1, &lambda)) return 2;
        } else if (!strcmp(argv[i], "--epochs") && i + 1 < argc) {
            if (!games_epochs_arg("evalnet", argv[++i], 1000, &epochs)) return 2;
        } else {
            if (!games_read("evalnet", argv[i], rule, &games, add_sample, NULL)) return 1;
            files++;
        }
    }
    size_t held = 0;
    for (size_t i = 0; i < nsamples; i++) held += samples[i].held_out;
    if (!files || nsamples < 1000 || held == 0 || held == nsamples) {
        fprintf(stderr, "usage: evalnet [--rule R] [--epochs N] [--lambda L] "
                        "games.txt... > evalnet_<rule>.c (needs 1000 positions or more, "
                        "from 10 games or more)\n");
        return 2;
    }
    /* K: fitted to the training loss of the linear evaluation */
    double k = fixed_scale > 0 ? fixed_scale : games_fit_scale(linear_training_loss, NULL);
    for (size_t i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        double next = s->next_search;
        double v = games_search_target(s->search, two_ply && s->has_next ? &next : NULL);
        double searched = 1 / (1 + exp(-v / k));
        s->target = (float)(lambda * s->result + (1 - lambda) * searched);
    }
    /* inputs normalized by their training mean and spread (at least 1/4, for rare counts) */
    size_t ntrain = nsamples - held;
    for (size_t s = 0; s < nsamples; s++)
        if (!samples[s].held_out)
            for (int i = 0; i < IN; i++) mean[i] += samples[s].in[i];
    for (int i = 0; i < IN; i++) mean[i] /= (float)ntrain;
    for (size_t s = 0; s < nsamples; s++)
        if (!samples[s].held_out)
            for (int i = 0; i < IN; i++) {
                float d = samples[s].in[i] - mean[i];
                spread[i] += d * d;
            }
    for (int i = 0; i < IN; i++) {
        spread[i] = sqrtf(spread[i] / (float)ntrain);
        if (spread[i] < 0.25f) spread[i] = 0.25f;
    }
    double linear = loss(k, true, NULL, NULL);
    fprintf(stderr,
            "evalnet: %d games, %zu positions, K %.0f, linear evaluation: loss %.5f (held "
            "out %.5f)\n",
            games, nsamples, k, loss(k, false, NULL, NULL), linear);
    static net n;
    fit(&n, k, epochs);
    static gmk_net_weights q;
    quantize(&n, &q);
    double fitted = loss(k, true, NULL, &q);
    fprintf(stderr, "evalnet: held out: linear %.5f, network %.5f (floating point %.5f)\n", linear,
            fitted, loss(k, true, &n, NULL));
    print_net(&q, rule, games, k, linear, fitted);
    free(samples);
    return 0;
}
