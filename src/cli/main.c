/* main.c: the gomoku binary: dispatches subcommands; run as pbrain-gomoku it is the Gomocup
 * engine. */
#include <libgen.h>
#include <string.h>

#include "cli.h"

static int cmd_version(int argc, char **argv);
static int cmd_help(int argc, char **argv);

const cli_command cli_commands[] = {
    {"help", cmd_help, "list the commands, or explain one: gomoku help COMMAND",
     "usage: gomoku help [COMMAND]\n"},
    {"version", cmd_version, "print the version", "usage: gomoku version\n"},
    {"show", cmd_show, "draw a position, the side to move and the result",
     "usage: gomoku show [--rule R] [--size N] POSITION\n"
     "  Draws the board, says whose turn it is, and the result if the game is over\n"
     "  (the winner, the reason and the winning line).\n"
     "  POSITION  a move string such as h8i9j10 (black first; spaces or commas may separate\n"
     "            the moves), or - to read a diagram from standard input: one line per row,\n"
     "            top row first, of '.', 'X' (black) and 'O' (white)\n"
     "  --rule R  freestyle (default), standard, renju or caro; or 0, 1, 4, 9 as in Gomocup\n"
     "  --size N  board size, 5-22 (default 15, or the diagram's size)\n"},
    {"forbid", cmd_forbid, "list black's forbidden points (renju)",
     "usage: gomoku forbid [--size N] POSITION\n"
     "  Prints every point where black may not play under renju rules, one per line as\n"
     "  '<point> <kind>', kind being double-three, double-four or overline, sorted by point.\n"
     "  Prints nothing when there is none. POSITION as for gomoku show.\n"},
    {"analyze", cmd_analyze, "search a position: best move, evaluation, principal variation",
     "usage: gomoku analyze [--rule R] [--size N] [--time MS | --depth D | --nodes N]\n"
     "                      [--level L] [--nbest K] [--json] POSITION\n"
     "  Prints the best move, the evaluation ('win in N' / 'loss in N' when proved, N in\n"
     "  moves of the side to move), the principal variation, depth, nodes and speed.\n"
     "  --time MS   think this long (default 2000 when no limit is given)\n"
     "  --depth D   search to this depth;  --nodes N  stop after N nodes (deterministic)\n"
     "  --level L   the move difficulty level L would play\n"
     "  --nbest K   the K best lines;  --json  machine-readable output\n"
     "  POSITION, --rule, --size as for gomoku show.\n"},
    {"solve", cmd_solve, "find a forced win by threats (VCF or VCT)",
     "usage: gomoku solve [--vcf | --vct] [--rule R] [--size N] POSITION\n"
     "  Prints the winning threat sequence for the side to move (attacker and defender moves\n"
     "  alternating), or 'none'. --vcf (default): continuous fours; --vct: fours and threes.\n"},
    {"bench", cmd_bench, "engine benchmark: gomoku bench [DEPTH], gomoku bench --moves",
     "usage: gomoku bench [DEPTH] | gomoku bench --moves\n"
     "  DEPTH     searches a fixed set of positions (freestyle 15 and 20, standard 15, renju 15)\n"
     "            to DEPTH (default 8) with one thread and a 16 MB table; the last line is\n"
     "            'Bench: <nodes> nodes <nps> nps', the same nodes on every run\n"
     "  --moves   make+undo pairs per second over a fixed random game, and renju\n"
     "            forbidden-point checks per second over a fixed set of positions\n"},
    {NULL, NULL, NULL, NULL},
};

const cli_command *cli_find(const char *name) {
    for (const cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, name) == 0) return c;
    return NULL;
}

static int cmd_version(int argc, char **argv) {
    if (cli_wants_help(argc, argv, cli_find("version"))) return CLI_OK;
    if (argc > 1) return cli_error("version", "unexpected argument '%s'", argv[1]);
    printf("gomoku %s\n", GMK_VERSION);
    return CLI_OK;
}

static int cmd_help(int argc, char **argv) {
    if (argc > 2) return cli_error("help", "unexpected argument '%s'", argv[2]);
    if (argc == 2) {
        const cli_command *c = cli_find(argv[1]);
        if (!c) return cli_error("help", "unknown command '%s'", argv[1]);
        fputs(c->usage, stdout);
        return CLI_OK;
    }
    printf("gomoku %s: five in a row (freestyle, standard, renju, caro)\n\n"
           "usage: gomoku COMMAND [OPTIONS]\n\ncommands:\n",
           GMK_VERSION);
    for (const cli_command *c = cli_commands; c->name; c++)
        printf("  %-10s %s\n", c->name, c->summary);
    printf("\n'gomoku COMMAND --help' explains one command.\n");
    return CLI_OK;
}

int main(int argc, char **argv) {
    if (argc < 2) return cmd_help(1, argv);
    const cli_command *c = cli_find(argv[1]);
    if (!c) {
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) return cmd_help(1, argv);
        if (strcmp(argv[1], "--version") == 0) return cmd_version(1, argv);
        return cli_error(NULL, "unknown command '%s' (try 'gomoku help')", argv[1]);
    }
    return c->run(argc - 1, argv + 1);
}
