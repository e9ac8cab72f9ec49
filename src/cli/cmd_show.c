/* cmd_show.c: gomoku show: draws a position with its side to move and result. */
#include <string.h>

#include "cli.h"

void cli_draw_board(const gmk_board *b) {
    gmk_pos last = gmk_board_last(b);
    for (int y = 0; y < b->size; y++) {
        char row[GMK_MAX_SIZE * 2 + 2];
        int n = 0;
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            row[n++] = p == last ? '[' : (x > 0 && gmk_pos_xy(x - 1, y) == last) ? ']' : ' ';
            row[n++] = ".XO"[b->stone[p]];
        }
        row[n++] = gmk_pos_xy(b->size - 1, y) == last ? ']' : ' ';
        row[n] = '\0';
        printf("%2d %s\n", b->size - y, row);
    }
    printf("   ");
    for (int x = 0; x < b->size; x++) printf(" %c", 'a' + x);
    printf("\n");
}

int cmd_show(int argc, char **argv) {
    const cli_command *self = cli_find("show");
    if (cli_wants_help(argc, argv, self)) return CLI_OK;
    long size = 0;
    gmk_rule rule = GMK_RULE_FREESTYLE;
    const char *position = NULL, *value;
    for (int i = 1; i < argc; i++) {
        if (cli_option(argc, argv, &i, "--size", &value)) {
            if (!cli_parse_int(value, GMK_MIN_SIZE, GMK_MAX_SIZE, &size))
                return cli_error("show", "--size needs a number from %d to %d", GMK_MIN_SIZE,
                                 GMK_MAX_SIZE);
        } else if (cli_option(argc, argv, &i, "--rule", &value)) {
            if (!gmk_rule_parse(value, &rule))
                return cli_error("show", "unknown rule '%s' (freestyle, standard, renju, caro)",
                                 value ? value : "");
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_error("show", "unknown option '%s'", argv[i]);
        } else if (position) {
            return cli_error("show", "unexpected argument '%s'", argv[i]);
        } else {
            position = argv[i];
        }
    }
    if (!position) return cli_error("show", "missing POSITION (see gomoku show --help)");
    gmk_move_list list;
    char err[160];
    if (!cli_read_position(position, (int)size, &list, err, sizeof err))
        return cli_error("show", "%s", err);
    gmk_board board;
    if (!gmk_move_list_to_board(&list, rule, &board))
        return cli_error("show", "cannot set up the position");
    gmk_result result;
    int after_end = 0;
    gmk_rules_result(&board, &result, &after_end);
    cli_draw_board(&board);
    printf("rule: %s, %dx%d, %d stones\n", gmk_rule_name(rule), board.size, board.size,
           board.move_count);
    if (result.outcome == GMK_ONGOING) {
        printf("to move: %s\n", gmk_board_side(&board) == GMK_BLACK ? "black" : "white");
        return CLI_OK;
    }
    char name[4];
    gmk_notation_point(result.point, board.size, name);
    printf("result: %s", gmk_outcome_name(result.outcome));
    if (result.reason == GMK_REASON_FIVE) {
        printf(" by five in a row:");
        for (int i = 0; i < result.line_len; i++) {
            gmk_notation_point(result.line[i], board.size, name);
            printf(" %s", name);
        }
    } else if (result.reason == GMK_REASON_FORBIDDEN) {
        printf(": black played the forbidden point %s (%s)", name, gmk_forbid_name(result.forbid));
    } else {
        printf(": %s", gmk_reason_name(result.reason));
    }
    printf("\n");
    if (after_end > 0) printf("note: %d move(s) were played after the end\n", after_end);
    return CLI_OK;
}
