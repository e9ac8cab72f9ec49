/* cli.h: what the subcommands of the gomoku binary share: the command table, error
 * reporting (one line on stderr, exit status 2) and reading a POSITION argument.
 * Only src/cli/ includes this. */
#ifndef GMK_CLI_H
#define GMK_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "core/gmk.h"
#include "core/record.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
    const char *summary;
    const char *usage; /* full help text */
} cli_command;

/* Prints "gomoku <cmd>: <message>" on stderr and returns CLI_USAGE. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* True when argv holds --help or -h; prints the usage then. */
bool cli_wants_help(int argc, char **argv, const cli_command *cmd);

/* Parses an integer option value in [lo, hi]. */
bool cli_parse_int(const char *text, long lo, long hi, long *out);

/* Matches argv[*i] against option `name` ("--rule" or "--rule=VALUE"). On a match sets *value
 * (NULL when the value is missing), advances *i past a separate value, and returns true. */
bool cli_option(int argc, char **argv, int *i, const char *name, const char **value);

/* Reads POSITION: a move string, or "-" for a diagram on stdin. size 0 means "not given":
 * move strings then use 15 and diagrams their own size. */
bool cli_read_position(const char *arg, int size, gmk_move_list *out, char *err, size_t errlen);

/* Reads a record file (PSQ, SGF or a move string; "-" for standard input) as `gomoku import`
 * does; rule for formats that do not carry it, size for move strings (0: 15). False with a
 * message naming the file. */
bool cli_load_record_file(const char *path, gmk_rule rule, int size, gmk_record *rec, char *err,
                          size_t errlen);

/* Prints the board as `gomoku show` does (X black, O white, [ ] around the last move, row
 * numbers and column letters). */
void cli_draw_board(const gmk_board *b);

const cli_command *cli_find(const char *name);
extern const cli_command cli_commands[];

int cmd_play(int argc, char **argv);
int cmd_forbid(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_brain(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_coach(int argc, char **argv);
int cmd_puzzle(int argc, char **argv);

#endif
