/* cmd_play.c: gomoku play (and gomoku alone): the terminal game. */
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "game/level.h"
#include "tui/tui.h"

int cmd_play(int argc, char **argv) {
    const cli_command *self = cli_find("play");
    if (self && cli_wants_help(argc, argv, self)) return CLI_OK;
    gmk_tui_options opt;
    memset(&opt, 0, sizeof opt);
    const char *value;
    long n;
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--db", &value)) {
            if (!value || !*value) return cli_error("play", "--db needs a file name");
            opt.db_path = value;
        } else if (strcmp(argv[i], "--no-db") == 0) {
            opt.no_db = true;
        } else if (cli_option(argc, argv, &i, "--lang", &value)) {
            if (!value || (strcmp(value, "en") != 0 && strcmp(value, "zh") != 0))
                return cli_error("play", "--lang needs en or zh");
            opt.lang = value;
        } else if (cli_option(argc, argv, &i, "--rule", &value)) {
            if (!gmk_rule_parse(value, &opt.rule))
                return cli_error("play", "unknown rule '%s' (freestyle, standard, renju, caro)",
                                 value ? value : "");
            opt.has_rule = true;
        } else if (cli_option(argc, argv, &i, "--size", &value)) {
            if (!cli_parse_int(value, GMK_MIN_SIZE, GMK_MAX_SIZE, &n))
                return cli_error("play", "--size needs a number from %d to %d", GMK_MIN_SIZE,
                                 GMK_MAX_SIZE);
            opt.size = (int)n;
            opt.has_size = true;
        } else if (cli_option(argc, argv, &i, "--level", &value)) {
            if (!cli_parse_int(value, GMK_LEVEL_MIN, gmk_level_count(), &n))
                return cli_error("play", "--level needs a number from %d to %d", GMK_LEVEL_MIN,
                                 gmk_level_count());
            opt.level = (int)n;
            opt.has_level = true;
        } else if (cli_option(argc, argv, &i, "--mode", &value)) {
            if (!gmk_play_mode_parse(value, &opt.mode))
                return cli_error("play", "--mode needs hvc, hvh or cvc");
            opt.has_mode = true;
        } else if (cli_option(argc, argv, &i, "--side", &value)) {
            if (value && strcmp(value, "black") == 0)
                opt.human = GMK_BLACK;
            else if (value && strcmp(value, "white") == 0)
                opt.human = GMK_WHITE;
            else
                return cli_error("play", "--side needs black or white");
            opt.has_human = true;
        } else if (cli_option(argc, argv, &i, "--opening", &value)) {
            if (!gmk_opening_parse(value, &opt.opening))
                return cli_error("play", "--opening needs free, swap or swap2");
            opt.has_opening = true;
        } else if (cli_option(argc, argv, &i, "--time", &value)) {
            if (!cli_parse_int(value, 1, GMK_LEVEL_TOP_MAX_MS / 1000, &n))
                return cli_error("play", "--time needs seconds from 1 to %d",
                                 GMK_LEVEL_TOP_MAX_MS / 1000);
            opt.top_ms = n * 1000;
            opt.has_top_ms = true;
        } else if (cli_option(argc, argv, &i, "--threads", &value)) {
            long n;
            if (!cli_parse_int(value, 1, GMK_MAX_THREADS, &n))
                return cli_error("play", "--threads needs a number from 1 to %d", GMK_MAX_THREADS);
            opt.threads = (int)n;
        } else if (cli_option(argc, argv, &i, "--seed", &value)) {
            if (!cli_parse_int(value, 1, 2147483647L, &n))
                return cli_error("play", "--seed needs a positive number");
            opt.seed = (uint64_t)n;
        } else if (strcmp(argv[i], "--ascii") == 0) {
            opt.ascii = true;
        } else if (strcmp(argv[i], "--no-color") == 0) {
            opt.no_color = true;
        } else if (argv[i][0] == '-') {
            return cli_error("play", "unknown option '%s'", argv[i]);
        } else {
            return cli_error("play", "unexpected argument '%s'", argv[i]);
        }
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return cli_error("play", "needs a terminal (see gomoku help)");
    return gmk_tui_run(&opt) == 0 ? CLI_OK : CLI_FAIL;
}
