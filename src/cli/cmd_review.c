/* cmd_review.c: gomoku review: the engine goes over a stored game or a record file and labels
 * every move (game/review.h), printed as a table or as JSON. A stored game's review is kept in
 * the store (store/reviews.h) and read back the next time instead of searched again. */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "game/review.h"
#include "game/review_json.h"
#include "store/reviews.h"

static void progress(int done, int total, void *ctx) {
    (void)ctx;
    fprintf(stderr, "\rreviewing: %d/%d positions", done, total);
    if (done == total) fprintf(stderr, "\n");
}

static bool is_game_id(const char *text) {
    if (!*text) return false;
    for (const char *p = text; *p; p++)
        if (*p < '0' || *p > '9') return false;
    return true;
}

static void print_table(const gmk_review *rv, const char *title) {
    printf("%s: %s %dx%d, %d moves, %lld nodes a position\n", title, gmk_rule_name(rv->rule),
           rv->size, rv->size, rv->count, (long long)rv->nodes);
    printf("%4s  %-5s %-6s %-11s %9s %5s  %-6s %s\n", "ply", "move", "colour", "label", "win rate",
           "lost", "better", "line");
    for (int i = 0; i < rv->count; i++) {
        const gmk_review_move *m = &rv->move[i];
        char move[4], best[4] = "", line[GMK_REVIEW_PV * 5] = "", rate[16];
        gmk_notation_point(m->played, rv->size, move);
        if (m->label != GMK_LABEL_BEST && m->best != GMK_POS_NONE) {
            gmk_notation_point(m->best, rv->size, best);
            size_t len = 0;
            for (int k = 0; k < m->pv_len && k < 8; k++) {
                char p[4];
                gmk_notation_point(m->pv[k], rv->size, p);
                len += (size_t)snprintf(line + len, sizeof line - len, "%s%s", k ? " " : "", p);
            }
        }
        snprintf(rate, sizeof rate, "%d->%d%%", m->before, m->after);
        printf("%4d  %-5s %-6s %-11s %9s %5d  %-6s %s%s\n", i + 1, move,
               m->color == GMK_BLACK ? "black" : "white", gmk_review_label_name(m->label), rate,
               m->lost, best, line, m->turning ? "  <- turning point" : "");
    }
    int counts[2][GMK_LABEL_COUNT];
    gmk_review_tally(rv, counts);
    for (int c = 0; c < 2; c++)
        printf("%s: %d best, %d good, %d inaccuracies, %d mistakes, %d blunders, %d missed "
               "wins\n",
               c ? "White" : "Black", counts[c][GMK_LABEL_BEST], counts[c][GMK_LABEL_GOOD],
               counts[c][GMK_LABEL_INACCURACY], counts[c][GMK_LABEL_MISTAKE],
               counts[c][GMK_LABEL_BLUNDER], counts[c][GMK_LABEL_MISSED_WIN]);
}

int cmd_review(int argc, char **argv) {
    const char *cmd = "review";
    if (cli_wants_help(argc, argv, cli_find(cmd))) return CLI_OK;
    const char *db = NULL, *what = NULL, *value;
    gmk_rule rule = GMK_RULE_FREESTYLE;
    long size = 0, nodes = GMK_REVIEW_NODES;
    bool json = false, quiet = false;
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--db", &value)) {
            if (!value || !*value) return cli_error(cmd, "--db needs a file name");
            db = value;
        } else if (cli_option(argc, argv, &i, "--rule", &value)) {
            if (!value || !gmk_rule_parse(value, &rule))
                return cli_error(cmd, "--rule needs freestyle, standard, renju or caro");
        } else if (cli_option(argc, argv, &i, "--size", &value)) {
            if (!cli_parse_int(value, GMK_MIN_SIZE, GMK_MAX_SIZE, &size))
                return cli_error(cmd, "--size needs a number from %d to %d", GMK_MIN_SIZE,
                                 GMK_MAX_SIZE);
        } else if (cli_option(argc, argv, &i, "--nodes", &value)) {
            if (!cli_parse_int(value, 100, 100000000, &nodes))
                return cli_error(cmd, "--nodes needs a number from 100 to 100000000");
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_error(cmd, "unknown option '%s'", argv[i]);
        } else if (what) {
            return cli_error(cmd, "unexpected argument '%s'", argv[i]);
        } else {
            what = argv[i];
        }
    }
    if (!what) return cli_error(cmd, "which game? give a game id (gomoku stats) or a record file");

    char err[800];
    char title[96];
    int rc = CLI_FAIL;
    gmk_store *s = NULL;
    int64_t id = 0;
    gmk_review *rv = malloc(sizeof *rv);
    gmk_record *rec = malloc(sizeof *rec);
    gmk_store_record *stored = malloc(sizeof *stored);
    gmk_engine *e = NULL;
    char *text = NULL;
    if (!rv || !rec || !stored) {
        cli_error(cmd, "out of memory");
        goto done;
    }
    if (is_game_id(what) && access(what, F_OK) != 0) {
        long v;
        if (!cli_parse_int(what, 1, LONG_MAX, &v)) {
            rc = cli_error(cmd, "'%s' is not a game id", what);
            goto done;
        }
        id = v;
        gmk_store_status st = gmk_store_open(db, GMK_STORE_OPEN_EXISTING, &s, err, sizeof err);
        if (st == GMK_STORE_READ_ONLY)
            st = gmk_store_open(db, GMK_STORE_OPEN_READONLY, &s, err, sizeof err);
        if (st == GMK_STORE_NOT_FOUND) {
            rc = cli_error(cmd, "no game %ld: %s", v, err);
            goto done;
        }
        if (st != GMK_STORE_OK) {
            cli_error(cmd, "%s", err);
            goto done;
        }
        st = gmk_store_game_load(s, id, stored, err, sizeof err);
        if (st == GMK_STORE_NOT_FOUND) {
            rc = cli_error(cmd, "no game %ld in %s (gomoku stats lists the games)", v,
                           gmk_store_path(s));
            goto done;
        }
        if (st != GMK_STORE_OK) {
            cli_error(cmd, "%s", err);
            goto done;
        }
        gmk_record_init(rec, stored->game.size, stored->game.rule);
        for (int i = 0; i < stored->game.move_count; i++)
            gmk_record_add(rec, gmk_pos_xy(stored->moves[i].x, stored->moves[i].y), -1);
        snprintf(title, sizeof title, "Review of game %lld", (long long)id);
    } else {
        if (!cli_load_record_file(what, rule, (int)size, rec, err, sizeof err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
        snprintf(title, sizeof title, "Review of %.80s", what);
    }
    if (!gmk_review_begin(rv, rec->rule, rec->size, rec->moves, rec->count, nodes, err,
                          sizeof err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (s &&
        gmk_store_review_get(s, id, rv->count, rv->nodes, &text, err, sizeof err) == GMK_STORE_OK)
        gmk_review_load_text(rv, text); /* a damaged text is searched again */
    if (!rv->complete) {
        e = gmk_engine_new(32u << 20);
        if (!e) {
            cli_error(cmd, "out of memory");
            goto done;
        }
        bool show = !quiet && isatty(STDERR_FILENO);
        gmk_review_run(rv, e, NULL, show ? progress : NULL, NULL);
        char *saved = s ? gmk_review_save_text(rv) : NULL;
        if (saved &&
            gmk_store_review_put(s, id, rv->count, rv->nodes, saved, err, sizeof err) !=
                GMK_STORE_OK &&
            !quiet)
            fprintf(stderr, "gomoku review: not kept: %s\n", err);
        free(saved);
    }
    if (json) {
        json_t *j = gmk_review_json(rv);
        if (id) json_object_set_new(j, "game_id", json_integer(id));
        char *dump = json_dumps(j, JSON_INDENT(2));
        if (dump) puts(dump);
        free(dump);
        json_decref(j);
    } else {
        print_table(rv, title);
    }
    rc = CLI_OK;
done:
    free(text);
    gmk_engine_free(e);
    gmk_store_close(s);
    free(stored);
    free(rec);
    free(rv);
    return rc;
}
