/* cmd_brain.c: gomoku brain (also the binary run as pbrain-gomoku): the Gomocup engine on
 * standard input and output. */
#include <unistd.h>

#include "cli.h"
#include "gomocup/brain.h"

int cmd_brain(int argc, char **argv) {
    if (cli_wants_help(argc, argv, cli_find("brain"))) return CLI_OK;
    if (argc > 1) return cli_error("brain", "unexpected argument '%s'", argv[1]);
    int status = gmk_brain_run(STDIN_FILENO, stdout);
    /* END must end the process within half a second: skip the exit handlers (a sanitizer's leak
     * check can take longer than that) and any search still unwinding */
    fflush(stdout);
    _exit(status);
}
