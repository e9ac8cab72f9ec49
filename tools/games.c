/* games.c: reads the self-play games of tools/gendata.c (see games.h). */
#include "games.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval.h"

bool games_read(const char *tool, const char *path, gmk_rule rule, int *games, games_visit visit,
                void *context) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot read %s\n", tool, path);
        return false;
    }
    static char line[8192];
    while (fgets(line, sizeof line, f)) {
        if (!strchr(line, '\n')) {
            if (feof(f)) /* the last game of a gendata run stopped while printing it */
                fprintf(stderr, "%s: %s: the last line is cut short; left out\n", tool, path);
            else
                fprintf(stderr, "%s: %s: a line longer than %zu characters; stopped there\n", tool,
                        path, sizeof line - 1);
            break;
        }
        char *p = line, *end;
        long result = strtol(p, &end, 10), opening;
        if (end == p || result < -1 || result > 1) break;
        opening = strtol(p = end, &end, 10);
        if (end == p || opening < 0 || opening > GAMES_BOARD_SIZE * GAMES_BOARD_SIZE) break;
        games_game game = {
            .held_out = (*games)++ % 10 == 9, .result = (int)result, .opening = (int)opening};
        game.number = *games;
        gmk_board b;
        gmk_board_init(&b, GAMES_BOARD_SIZE, rule);
        for (;;) {
            long x = strtol(p = end, &end, 10);
            if (end == p) break;
            long y = strtol(p = end, &end, 10);
            long score = strtol(p = end, &end, 10);
            if (end == p || x < 0 || y < 0 || x >= GAMES_BOARD_SIZE || y >= GAMES_BOARD_SIZE ||
                score < -100000 || score > 100000)
                break;
            gmk_pos pos = gmk_pos_xy((int)x, (int)y);
            if (!gmk_board_empty_at(&b, pos)) break;
            if (b.move_count >= opening) visit(&b, pos, score, &game, context);
            gmk_board_make(&b, pos);
        }
    }
    fclose(f);
    return true;
}

float games_result_for(const games_game *game, gmk_color side) {
    float black = game->result > 0 ? 1.0f : game->result < 0 ? 0.0f : 0.5f;
    return side == GMK_BLACK ? black : 1.0f - black;
}

void *games_grow(const char *tool, void *p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return p;
    size_t n = *cap ? *cap : 65536;
    while (n < need) n *= 2;
    p = realloc(p, n * size);
    if (!p) {
        fprintf(stderr, "%s: out of memory\n", tool);
        exit(1);
    }
    *cap = n;
    return p;
}

double games_fit_scale(double (*train_loss)(double k, void *context), void *context) {
    double lo = 50, hi = 5000;
    for (int i = 0; i < 60; i++) {
        double a = hi - (hi - lo) * 0.618, b = lo + (hi - lo) * 0.618;
        if (train_loss(a, context) < train_loss(b, context))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

bool games_scored(const gmk_board *b, bool quiet) {
    gmk_color me = gmk_board_side(b), opp = gmk_opponent(me);
    if (quiet)
        for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++)
            if (b->count[c][GMK_TH_FIVE] || b->count[c][GMK_TH_OPEN_FOUR] ||
                b->count[c][GMK_TH_FOUR_THREE])
                return false;
    return !b->count[me][GMK_TH_FIVE] && !b->count[me][GMK_TH_OPEN_FOUR] &&
           !b->count[opp][GMK_TH_FIVE];
}

double games_clamp_eval(double v) {
    return v > GMK_EVAL_LIMIT ? GMK_EVAL_LIMIT : v < -GMK_EVAL_LIMIT ? -GMK_EVAL_LIMIT : v;
}

double games_search_target(double score, const double *next) {
    double v = games_clamp_eval(score);
    return next ? (v - games_clamp_eval(*next)) / 2 : v;
}

bool games_rule_arg(const char *tool, const char *text, gmk_rule *rule) {
    if (!gmk_rule_parse(text, rule)) {
        fprintf(stderr, "%s: unknown rule %s\n", tool, text);
        return false;
    }
    if (*rule != GMK_RULE_FREESTYLE && *rule != GMK_RULE_RENJU) {
        fprintf(stderr,
                "%s: only freestyle and renju are fitted (standard and caro play with "
                "freestyle's numbers)\n",
                tool);
        return false;
    }
    return true;
}

bool games_epochs_arg(const char *tool, const char *text, int most, int *epochs) {
    char *end;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || n < 1 || n > most) {
        fprintf(stderr, "%s: --epochs must be 1..%d\n", tool, most);
        return false;
    }
    *epochs = (int)n;
    return true;
}

bool games_real_arg(const char *tool, const char *option, const char *text, double lo, double hi,
                    double *value) {
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v >= lo && v <= hi)) {
        fprintf(stderr, "%s: %s must be a number from %g to %g\n", tool, option, lo, hi);
        return false;
    }
    *value = v;
    return true;
}
