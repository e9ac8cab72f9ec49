/* cmd_coach.c: gomoku coach: the coach's sentences for a position (game/coach.h): what is on the
 * board, why a point is forbidden (--point), why the last move lost (--last). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game/coach.h"

int cmd_coach(int argc, char **argv) {
    const char *cmd = "coach";
    if (cli_wants_help(argc, argv, cli_find(cmd))) return CLI_OK;
    gmk_rule rule = GMK_RULE_FREESTYLE;
    long size = 0;
    bool zh = false, last = false;
    const char *point = NULL, *position = NULL, *value;
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--rule", &value)) {
            if (!value || !gmk_rule_parse(value, &rule))
                return cli_error(cmd, "--rule needs freestyle, standard, renju or caro");
        } else if (cli_option(argc, argv, &i, "--size", &value)) {
            if (!cli_parse_int(value, GMK_MIN_SIZE, GMK_MAX_SIZE, &size))
                return cli_error(cmd, "--size needs a number from %d to %d", GMK_MIN_SIZE,
                                 GMK_MAX_SIZE);
        } else if (cli_option(argc, argv, &i, "--lang", &value)) {
            if (!value || (strcmp(value, "en") != 0 && strcmp(value, "zh") != 0))
                return cli_error(cmd, "--lang needs en or zh");
            zh = strcmp(value, "zh") == 0;
        } else if (cli_option(argc, argv, &i, "--point", &value)) {
            if (!value || !*value) return cli_error(cmd, "--point needs a point such as h8");
            point = value;
        } else if (strcmp(argv[i], "--last") == 0) {
            last = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_error(cmd, "unknown option '%s'", argv[i]);
        } else if (position) {
            return cli_error(cmd, "unexpected argument '%s'", argv[i]);
        } else {
            position = argv[i];
        }
    }
    if (!position) return cli_error(cmd, "missing POSITION (see gomoku coach --help)");
    gmk_move_list list;
    char err[160];
    if (!cli_read_position(position, (int)size, &list, err, sizeof err))
        return cli_error(cmd, "%s", err);
    gmk_board b;
    if (!gmk_move_list_to_board(&list, rule, &b))
        return cli_error(cmd, "cannot set up the position");
    gmk_pos p = GMK_POS_NONE;
    if (point && !gmk_notation_parse_point(point, b.size, &p, err, sizeof err))
        return cli_error(cmd, "%s", err);
    char *buf = malloc(16384);
    if (!buf) return cli_error(cmd, "out of memory");
    if (point)
        gmk_coach_forbidden(&b, p, zh, buf, 16384);
    else if (last)
        gmk_coach_last_move(&b, zh, buf, 16384);
    else
        gmk_coach_position(&b, zh, buf, 16384);
    fputs(buf, stdout);
    free(buf);
    return CLI_OK;
}
