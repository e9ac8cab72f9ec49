/* cmd_analyze.c: gomoku analyze (search a position) and gomoku solve (threat-space search). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine/engine.h"
#include "engine/threat.h"
#include "game/evaltext.h"
#include "game/level.h"

typedef struct {
    gmk_rule rule;
    long size;
    const char *position;
} position_args;

/* Handles --rule, --size and POSITION; returns 1 when argv[*i] was consumed, 0 when it is not
 * one of these, and CLI_USAGE+10 on an error (already reported). */
static int common_arg(const char *cmd, int argc, char **argv, int *i, position_args *a) {
    const char *value;
    if (cli_option(argc, argv, i, "--size", &value)) {
        if (!cli_parse_int(value, GMK_MIN_SIZE, GMK_MAX_SIZE, &a->size)) {
            cli_error(cmd, "--size needs a number from %d to %d", GMK_MIN_SIZE, GMK_MAX_SIZE);
            return -1;
        }
        return 1;
    }
    if (cli_option(argc, argv, i, "--rule", &value)) {
        if (!gmk_rule_parse(value, &a->rule)) {
            cli_error(cmd, "unknown rule '%s' (freestyle, standard, renju, caro)",
                      value ? value : "");
            return -1;
        }
        return 1;
    }
    if (argv[*i][0] == '-' && argv[*i][1] != '\0') return 0;
    if (a->position) {
        cli_error(cmd, "unexpected argument '%s'", argv[*i]);
        return -1;
    }
    a->position = argv[*i];
    return 1;
}

static bool load_position(const char *cmd, const position_args *a, gmk_board *b, bool *over) {
    if (!a->position) {
        cli_error(cmd, "missing POSITION (see gomoku %s --help)", cmd);
        return false;
    }
    gmk_move_list list;
    char err[160];
    if (!cli_read_position(a->position, (int)a->size, &list, err, sizeof err)) {
        cli_error(cmd, "%s", err);
        return false;
    }
    if (!gmk_move_list_to_board(&list, a->rule, b)) {
        cli_error(cmd, "cannot set up the position");
        return false;
    }
    gmk_result r;
    gmk_rules_result(b, &r, NULL);
    *over = r.outcome != GMK_ONGOING;
    return true;
}

static void format_score(int score, char *buf, size_t cap) {
    int plies;
    if (gmk_score_is_mate(score, &plies))
        snprintf(buf, cap, "%s in %d", score > 0 ? "win" : "loss", (plies + 1) / 2);
    else
        snprintf(buf, cap, "%+d", score);
}

static void format_pv(const gmk_line *l, int size, char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->pv_len && len + 5 < cap; i++) {
        char name[4];
        gmk_notation_point(l->pv[i], size, name);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "", name);
    }
}

/* The readable evaluation of score for the side to move of b: "Black 62%", "White wins in 3". */
static void readable(const gmk_board *b, int score, gmk_eval_view *v, char *buf, size_t cap) {
    gmk_color side = gmk_board_side(b);
    gmk_eval_view_of(b->rule, side, score, v);
    gmk_eval_view_text(v, side, false, buf, cap);
}

static int print_json(const gmk_board *b, const gmk_search_result *r) {
    json_t *root = json_object();
    char name[4], text[32], pv[GMK_MAX_PV * 5], words[48];
    gmk_notation_point(r->best, b->size, name);
    json_object_set_new(root, "best", json_string(name));
    format_score(r->score, text, sizeof text);
    json_object_set_new(root, "eval", json_string(text));
    json_object_set_new(root, "score", json_integer(r->score));
    gmk_eval_view v;
    readable(b, r->score, &v, words, sizeof words);
    json_object_set_new(root, "winrate", json_integer(v.percent));
    json_object_set_new(root, "black_winrate", json_integer(v.black_percent));
    json_object_set_new(root, "proved", json_boolean(v.proved));
    json_object_set_new(root, "evaluation", json_string(words));
    int plies;
    if (gmk_score_is_mate(r->score, &plies))
        json_object_set_new(root, "mate_plies", json_integer(plies));
    json_object_set_new(root, "depth", json_integer(r->depth));
    json_object_set_new(root, "seldepth", json_integer(r->seldepth));
    json_object_set_new(root, "nodes", json_integer(r->nodes));
    json_object_set_new(root, "time_ms", json_integer(r->time_ms));
    json_object_set_new(root, "nps",
                        json_integer(r->time_ms > 0 ? r->nodes * 1000 / r->time_ms : r->nodes));
    json_t *lines = json_array();
    for (int i = 0; i < r->nlines; i++) {
        json_t *l = json_object();
        gmk_notation_point(r->lines[i].move, b->size, name);
        json_object_set_new(l, "move", json_string(name));
        format_score(r->lines[i].score, text, sizeof text);
        json_object_set_new(l, "eval", json_string(text));
        json_object_set_new(l, "score", json_integer(r->lines[i].score));
        gmk_eval_view lv;
        readable(b, r->lines[i].score, &lv, words, sizeof words);
        json_object_set_new(l, "winrate", json_integer(lv.percent));
        json_object_set_new(l, "evaluation", json_string(words));
        format_pv(&r->lines[i], b->size, pv, sizeof pv);
        json_object_set_new(l, "pv", json_string(pv));
        json_array_append_new(lines, l);
    }
    json_object_set_new(root, "lines", lines);
    char *dump = json_dumps(root, JSON_INDENT(2));
    if (dump) puts(dump);
    free(dump);
    json_decref(root);
    return CLI_OK;
}

int cmd_analyze(int argc, char **argv) {
    const char *cmd = "analyze";
    if (cli_wants_help(argc, argv, cli_find(cmd))) return CLI_OK;
    position_args a = {GMK_RULE_FREESTYLE, 0, NULL};
    gmk_limits limits = {0};
    long level = 0, v;
    bool json = false, any_limit = false;
    for (int i = 1; i < argc; i++) {
        const char *value;
        int c = common_arg(cmd, argc, argv, &i, &a);
        if (c < 0) return CLI_USAGE;
        if (c > 0) continue;
        if (cli_option(argc, argv, &i, "--time", &value)) {
            if (!cli_parse_int(value, 1, 86400000, &v))
                return cli_error(cmd, "--time needs milliseconds (1-86400000)");
            limits.turn_ms = v;
            any_limit = true;
        } else if (cli_option(argc, argv, &i, "--depth", &value)) {
            if (!cli_parse_int(value, 1, 64, &v)) return cli_error(cmd, "--depth needs 1-64");
            limits.depth = (int)v;
            any_limit = true;
        } else if (cli_option(argc, argv, &i, "--nodes", &value)) {
            if (!cli_parse_int(value, 1, 1000000000000L, &v))
                return cli_error(cmd, "--nodes needs a positive number");
            limits.nodes = v;
            any_limit = true;
        } else if (cli_option(argc, argv, &i, "--level", &value)) {
            if (!cli_parse_int(value, 1, gmk_level_count(), &level))
                return cli_error(cmd, "--level needs 1-%d", gmk_level_count());
        } else if (cli_option(argc, argv, &i, "--nbest", &value)) {
            if (!cli_parse_int(value, 1, GMK_MAX_NBEST, &v))
                return cli_error(cmd, "--nbest needs 1-%d", GMK_MAX_NBEST);
            limits.nbest = (int)v;
        } else if (cli_option(argc, argv, &i, "--threads", &value)) {
            if (!cli_parse_int(value, 1, GMK_MAX_THREADS, &v))
                return cli_error(cmd, "--threads needs 1-%d", GMK_MAX_THREADS);
            limits.threads = (int)v;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else {
            return cli_error(cmd, "unknown option '%s'", argv[i]);
        }
    }
    gmk_board board;
    bool over;
    if (!load_position(cmd, &a, &board, &over)) return CLI_USAGE;
    if (over) return cli_error(cmd, "the game in this position is already over");
    if (level > 0) {
        gmk_limits lv;
        gmk_level_limits((int)level, limits.turn_ms, 0, &lv);
        lv.nbest = limits.nbest;
        lv.threads = limits.threads;
        limits = lv;
    } else if (!any_limit) {
        limits.turn_ms = 2000;
    }
    gmk_engine *e = gmk_engine_new(0);
    if (!e) return cli_error(cmd, "out of memory");
    gmk_engine_set_position(e, &board);
    gmk_search_result r;
    gmk_engine_search(e, &limits, NULL, &r);
    gmk_engine_free(e);
    if (r.best == GMK_POS_NONE) return cli_error(cmd, "no legal move in this position");
    if (json) return print_json(&board, &r);
    char name[4], text[32], pv[GMK_MAX_PV * 5], words[48];
    gmk_eval_view view;
    gmk_notation_point(r.best, board.size, name);
    format_score(r.score, text, sizeof text);
    readable(&board, r.score, &view, words, sizeof words);
    printf("best %s\neval %s (score %s)\n", name, words, text);
    for (int i = 0; i < r.nlines; i++) {
        format_pv(&r.lines[i], board.size, pv, sizeof pv);
        format_score(r.lines[i].score, text, sizeof text);
        readable(&board, r.lines[i].score, &view, words, sizeof words);
        if (r.nlines > 1)
            printf("line %d %s (%s) pv %s\n", i + 1, words, text, pv);
        else
            printf("pv %s\n", pv);
    }
    printf("depth %d seldepth %d nodes %lld time %lld ms speed %lld nps\n", r.depth, r.seldepth,
           (long long)r.nodes, (long long)r.time_ms,
           (long long)(r.time_ms > 0 ? r.nodes * 1000 / r.time_ms : r.nodes));
    return CLI_OK;
}

int cmd_solve(int argc, char **argv) {
    const char *cmd = "solve";
    if (cli_wants_help(argc, argv, cli_find(cmd))) return CLI_OK;
    position_args a = {GMK_RULE_FREESTYLE, 0, NULL};
    bool vct = false;
    for (int i = 1; i < argc; i++) {
        int c = common_arg(cmd, argc, argv, &i, &a);
        if (c < 0) return CLI_USAGE;
        if (c > 0) continue;
        if (strcmp(argv[i], "--vcf") == 0)
            vct = false;
        else if (strcmp(argv[i], "--vct") == 0)
            vct = true;
        else
            return cli_error(cmd, "unknown option '%s'", argv[i]);
    }
    gmk_board board;
    bool over;
    if (!load_position(cmd, &a, &board, &over)) return CLI_USAGE;
    if (over) return cli_error(cmd, "the game in this position is already over");
    gmk_threat_ctx ctx;
    if (!gmk_threat_ctx_init(&ctx, 1 << 20)) return cli_error(cmd, "out of memory");
    ctx.node_limit = 20000000;
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len = 0;
    bool win = vct ? gmk_vct(&board, &ctx, 12, seq, &len) : gmk_vcf(&board, &ctx, 60, seq, &len);
    gmk_threat_ctx_free(&ctx);
    if (!win) {
        puts("none");
        return CLI_OK;
    }
    for (int i = 0; i < len; i++) {
        char name[4];
        gmk_notation_point(seq[i], board.size, name);
        printf("%s%s", i ? " " : "", name);
    }
    printf("\n");
    return CLI_OK;
}
