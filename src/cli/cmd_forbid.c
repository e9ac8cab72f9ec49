/* cmd_forbid.c: gomoku forbid: black's forbidden points under renju rules. */
#include <string.h>

#include "cli.h"

int cmd_forbid(int argc, char **argv) {
    const cli_command *self = cli_find("forbid");
    if (cli_wants_help(argc, argv, self)) return CLI_OK;
    long size = 0;
    const char *position = NULL, *value;
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--size", &value)) {
            if (!cli_parse_int(value, GMK_MIN_SIZE, GMK_MAX_SIZE, &size))
                return cli_error("forbid", "--size needs a number from %d to %d", GMK_MIN_SIZE,
                                 GMK_MAX_SIZE);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_error("forbid", "unknown option '%s'", argv[i]);
        } else if (position) {
            return cli_error("forbid", "unexpected argument '%s'", argv[i]);
        } else {
            position = argv[i];
        }
    }
    if (!position) return cli_error("forbid", "missing POSITION (see gomoku forbid --help)");
    gmk_move_list list;
    char err[160];
    if (!cli_read_position(position, (int)size, &list, err, sizeof err))
        return cli_error("forbid", "%s", err);
    gmk_board board;
    if (!gmk_move_list_to_board(&list, GMK_RULE_RENJU, &board))
        return cli_error("forbid", "cannot set up the position");
    /* sorted by point: column letter first, then row number */
    for (int x = 0; x < board.size; x++)
        for (int row = 1; row <= board.size; row++) {
            gmk_pos p = gmk_pos_xy(x, board.size - row);
            gmk_forbid_kind k = gmk_renju_forbidden(&board, p);
            if (!gmk_forbid_is_foul(k)) continue;
            char name[4];
            gmk_notation_point(p, board.size, name);
            printf("%s %s\n", name, gmk_forbid_name(k));
        }
    return CLI_OK;
}
