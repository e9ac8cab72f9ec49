/* cmd_stats.c: gomoku stats: the scoreboard and the recent games from the store. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "store/store.h"

static void print_scoreboard(const gmk_store_score *rows, int n) {
    if (n == 0) {
        printf("no finished games yet\n");
        return;
    }
    for (int m = 0; m < GMK_STORE_MODE_COUNT; m++) {
        bool header = false;
        for (int i = 0; i < n; i++) {
            const gmk_store_score *r = &rows[i];
            if ((int)r->mode != m) continue;
            if (!header) {
                header = true;
                if (m == GMK_STORE_MODE_HVC)
                    printf("human vs computer (the human's results)\n"
                           "  level  games   wins  losses  draws\n");
                else if (m == GMK_STORE_MODE_HVH || m == GMK_STORE_MODE_ONLINE)
                    printf("%s\n"
                           "         games  black wins  white wins  draws\n",
                           m == GMK_STORE_MODE_HVH ? "two humans" : "online");
                else
                    printf("computer vs computer\n"
                           "  level  games  black wins  white wins  draws\n");
            }
            if (m == GMK_STORE_MODE_HVC)
                printf("  %5d  %5d  %5d  %6d  %5d\n", r->level, r->games, r->wins, r->losses,
                       r->draws);
            else if (m == GMK_STORE_MODE_HVH || m == GMK_STORE_MODE_ONLINE)
                printf("         %5d  %10d  %10d  %5d\n", r->games, r->black_wins, r->white_wins,
                       r->draws);
            else
                printf("  %5d  %5d  %10d  %10d  %5d\n", r->level, r->games, r->black_wins,
                       r->white_wins, r->draws);
        }
    }
}

static void print_games(const gmk_store_game *games, int n) {
    if (n == 0) return;
    printf("\nrecent games\n"
           "     id  started           mode               rule       size  level  moves  "
           "result\n");
    for (int i = 0; i < n; i++) {
        const gmk_store_game *g = &games[i];
        char when[32] = "?";
        time_t t = (time_t)g->started_s;
        struct tm tm;
        if (localtime_r(&t, &tm)) strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
        char result[64];
        if (!g->finished)
            snprintf(result, sizeof result, "unfinished");
        else if (g->abandoned)
            snprintf(result, sizeof result, "abandoned");
        else if (g->reason != GMK_REASON_NONE)
            snprintf(result, sizeof result, "%s (%s)", gmk_outcome_name(g->outcome),
                     gmk_reason_name(g->reason));
        else
            snprintf(result, sizeof result, "%s", gmk_outcome_name(g->outcome));
        char level[16] = "-";
        if (g->mode != GMK_STORE_MODE_HVH && g->mode != GMK_STORE_MODE_ONLINE)
            snprintf(level, sizeof level, "%d", g->level);
        printf("  %5lld  %-16s  %-17s  %-9s  %4d  %5s  %5d  %s\n", (long long)g->id, when,
               gmk_store_mode_name(g->mode), gmk_rule_name(g->rule), g->size, level, g->move_count,
               result);
    }
}

int cmd_stats(int argc, char **argv) {
    const cli_command *self = cli_find("stats");
    if (cli_wants_help(argc, argv, self)) return CLI_OK;
    const char *db = NULL, *value;
    long recent = 10;
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--db", &value)) {
            if (!value || !*value) return cli_error("stats", "--db needs a file name");
            db = value;
        } else if (cli_option(argc, argv, &i, "--recent", &value)) {
            if (!cli_parse_int(value, 0, 1000, &recent))
                return cli_error("stats", "--recent needs a number from 0 to 1000");
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_error("stats", "unknown option '%s'", argv[i]);
        } else {
            return cli_error("stats", "unexpected argument '%s'", argv[i]);
        }
    }

    char err[600];
    gmk_store *s = NULL;
    /* Read-write when possible (an older file is upgraded, and SQLite tidies its journal on
     * closing); read-only when the file or its folder cannot be written. */
    gmk_store_status st = gmk_store_open(db, GMK_STORE_OPEN_EXISTING, &s, err, sizeof err);
    if (st == GMK_STORE_READ_ONLY)
        st = gmk_store_open(db, GMK_STORE_OPEN_READONLY, &s, err, sizeof err);
    if (st == GMK_STORE_NOT_FOUND) {
        printf("no games recorded yet: %s\n", err);
        return CLI_OK;
    }
    if (st != GMK_STORE_OK) {
        cli_error("stats", "%s", err);
        return CLI_FAIL;
    }
    gmk_store_score rows[GMK_STORE_SCORE_MAX];
    int nrows = 0, ngames = 0;
    gmk_store_game *games = recent ? calloc((size_t)recent, sizeof *games) : NULL;
    if (recent && !games) {
        gmk_store_close(s);
        cli_error("stats", "out of memory");
        return CLI_FAIL;
    }
    st = gmk_store_scoreboard(s, rows, GMK_STORE_SCORE_MAX, &nrows, err, sizeof err);
    if (st == GMK_STORE_OK && recent)
        st = gmk_store_game_list(s, games, (int)recent, &ngames, err, sizeof err);
    if (st == GMK_STORE_OK) {
        printf("scoreboard (%s)\n", gmk_store_path(s));
        print_scoreboard(rows, nrows);
        print_games(games, ngames);
    } else {
        cli_error("stats", "%s", err);
    }
    free(games);
    gmk_store_close(s);
    return st == GMK_STORE_OK ? CLI_OK : CLI_FAIL;
}
