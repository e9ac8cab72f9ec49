/* main.c: the gomoku binary: dispatches subcommands; run as pbrain-gomoku it is the Gomocup
 * engine. */
#include <libgen.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int cmd_version(int argc, char **argv);
static int cmd_help(int argc, char **argv);

const cli_command cli_commands[] = {
    {"play", cmd_play, "play in the terminal (what gomoku alone does)",
     "usage: gomoku play [OPTIONS]   (or just: gomoku)\n"
     "  The terminal game: you against the computer, two humans, or the computer against\n"
     "  itself. Every game is saved as it is played; an unfinished one is offered again at\n"
     "  the next start. Keys are listed beside the board and in docs/tui.md.\n"
     "  --db PATH        the database file (default $XDG_DATA_HOME/gomoku/gomoku.db, or\n"
     "                   ~/.local/share/gomoku/gomoku.db); --no-db plays without saving\n"
     "  --lang en|zh     English or Simplified Chinese (default: from LANG / LC_ALL)\n"
     "  --mode M         hvc (you vs computer), hvh (two humans) or cvc (watch)\n"
     "  --side black|white   your colour against the computer (black moves first)\n"
     "  --opening free|swap|swap2  the opening rule (with swap rules --side black means\n"
     "                       you place the first three stones)\n"
     "  --rule R         freestyle, standard, renju or caro\n"
     "  --size N         board size, 5-22 (default 15)\n"
     "  --level L        1 (Beginner) to 7 (Master, full strength)\n"
     "  --time S         seconds a move at the top level (default 5)\n"
     "  --threads N      search threads at the top level and for hints (default 1)\n"
     "  --ascii          X and O instead of the round stones; --no-color: monochrome\n"
     "  --seed N         the same choices from the weaker levels every time (for tests)\n"
     "  Without options, the first game uses the settings of the last one.\n"},
    {"serve", cmd_serve, "the game in a web page: gomoku serve, then open the URL it prints",
     "usage: gomoku serve [--listen HOST:PORT] [--db PATH] [--engines N] [--threads N]\n"
     "                    [--lang en|zh] [--join-limit N] [--write-limit N] [--auth-limit N]\n"
     "                    [--chat-limit N] [--conn-limit N]\n"
     "                    [--idle-timeout S] [--rooms-max N] [--trust-proxy] [--quiet]\n"
     "  Serves the game as a web page (board, computer opponent, undo, hints, analysis,\n"
     "  scoreboard, records, online rooms for two devices) and prints the URL to open. Games are "
     "saved in the same\n"
     "  database as the terminal game, as they are played. Ctrl-C or SIGTERM stops it.\n"
     "  See docs/web.md; the JSON API is in docs/http-api.md.\n"
     "  --listen HOST:PORT  where to listen (default 127.0.0.1:8080; port 0: any free port,\n"
     "                      the one chosen is printed; 0.0.0.0 for every interface)\n"
     "  --db PATH           the database file (default $XDG_DATA_HOME/gomoku/gomoku.db, or\n"
     "                      ~/.local/share/gomoku/gomoku.db)\n"
     "  --engines N         engine workers for the computer's moves and analyses (default:\n"
     "                      the number of cores)\n"
     "  --engine-mb MB      the table budget of each engine (default 32); the engines never\n"
     "                      take more than N x MB\n"
     "  --threads N         search threads per engine at the top level, for hints and\n"
     "                      analyses (default 1); the lower levels always use one\n"
     "  --queue N           requests that may wait for a busy engine (default 4 per engine);\n"
     "                      past that the answer is 503 'the server is busy'\n"
     "  --lang en|zh        the page's language when the browser's says nothing (default en)\n"
     "  --join-limit N      online rooms one client may create or join, and wrong room codes\n"
     "                      it may send, a minute (default 30); past that the answer is 429.\n"
     "                      A client is an IPv4 address or an IPv6 /64\n"
     "  --write-limit N     games one client may create, and puzzle answers it may have\n"
     "                      stored, a minute (default 60); past that the answer is 429\n"
     "  --auth-limit N      sign-ups and log-ins one client may try a minute (default 10);\n"
     "                      past that it is shut out for 1, 2, 4 ... 64 minutes (429)\n"
     "  --chat-limit N      chat lines one client may send a minute (default 20); past that\n"
     "                      the answer is 429\n"
     "  --conn-limit N      connections one client may hold at once (default 64)\n"
     "  --idle-timeout S    close connections idle for S seconds (default 30; event streams\n"
     "                      are pinged, so they stay)\n"
     "  --rooms-max N       online rooms kept in memory at once (default 2000); unwatched\n"
     "                      rooms leave memory and are read again from the database\n"
     "  --trust-proxy       behind a reverse proxy: the client is the last address of\n"
     "                      X-Forwarded-For and the scheme X-Forwarded-Proto's (https: the\n"
     "                      cookies are Secure). Only when nothing but the proxy can reach\n"
     "                      the server; the proxy then limits connections per client\n"
     "  --quiet             no access log (one line per request on stderr otherwise)\n"},
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
     "                      [--level L] [--nbest K] [--threads N] [--json] POSITION\n"
     "  Prints the best move, the evaluation ('win in N' / 'loss in N' when proved, N in\n"
     "  moves of the side to move), the principal variation, depth, nodes and speed.\n"
     "  --time MS   think this long (default 2000 when no limit is given)\n"
     "  --depth D   search to this depth;  --nodes N  stop after N nodes (deterministic)\n"
     "  --level L   the move difficulty level L would play\n"
     "  --nbest K   the K best lines;  --json  machine-readable output\n"
     "  --threads N search with N threads (Lazy SMP; default 1)\n"
     "  POSITION, --rule, --size as for gomoku show.\n"},
    {"solve", cmd_solve, "find a forced win by threats (VCF or VCT)",
     "usage: gomoku solve [--vcf | --vct] [--rule R] [--size N] POSITION\n"
     "  Prints the winning threat sequence for the side to move (attacker and defender moves\n"
     "  alternating), or 'none'. --vcf (default): continuous fours; --vct: fours and threes.\n"},
    {"bench", cmd_bench,
     "engine benchmark: gomoku bench [DEPTH], gomoku bench --middle, gomoku bench --moves",
     "usage: gomoku bench [DEPTH] [--threads N] | gomoku bench --middle [NODES] |\n"
     "       gomoku bench --moves\n"
     "  DEPTH     searches a fixed set of positions (freestyle 15 and 20, standard 15, renju 15)\n"
     "            to DEPTH (default 14) with one thread and a 16 MB table; the last line is\n"
     "            'Bench: <nodes> nodes <nps> nps', the same nodes on every run\n"
     "  --threads N  search with N threads instead (nodes then vary from run to run)\n"
     "  --middle  searches 15 middle-game positions (freestyle 15) to NODES each (default\n"
     "            400000) with one thread and a 16 MB table; the last line is 'Middle: ...\n"
     "            <nps> nps', the search's speed where games spend their time\n"
     "  --moves   make+undo pairs per second over a fixed random game, and renju\n"
     "            forbidden-point checks per second over a fixed set of positions\n"},
    {"stats", cmd_stats, "the scoreboard and the recent games",
     "usage: gomoku stats [--db PATH] [--recent N]\n"
     "  Prints the scoreboard kept in the database: wins, losses and draws per mode and level\n"
     "  (against the computer from the human's side; black and white wins otherwise), then\n"
     "  the N most recent games (default 10; 0 for none). Exit status 1 when the database\n"
     "  cannot be read.\n"
     "  --db PATH  the database file (default $XDG_DATA_HOME/gomoku/gomoku.db, or\n"
     "             ~/.local/share/gomoku/gomoku.db)\n"},
    {"export", cmd_export, "write a stored game as a record: PSQ, SGF or a move string",
     "usage: gomoku export [--db PATH] [--format psq|sgf|moves] [--output FILE] GAME_ID\n"
     "  Writes the record of game GAME_ID (gomoku stats lists the ids) to standard output\n"
     "  or FILE. See docs/formats.md.\n"
     "  --format psq    Piskvork's PSQ (default): 'Piskvorky 15x15, 11:11, 0', then one\n"
     "                  'x,y,time_ms' line per move, 1-based from the top-left corner\n"
     "  --format sgf    SGF with GM[4], SZ, RU (the rule), PB/PW, RE and B/W moves\n"
     "  --format moves  a move string such as h8i9j10 (a1 is the bottom-left corner)\n"
     "  --db PATH       the database file (default $XDG_DATA_HOME/gomoku/gomoku.db, or\n"
     "                  ~/.local/share/gomoku/gomoku.db)\n"
     "  Exit status 2 when there is no such game, 1 when the database cannot be read.\n"},
    {"coach", cmd_coach,
     "the coach in words: threats, forced wins, forbidden points, the last move",
     "usage: gomoku coach [--rule R] [--size N] [--lang en|zh] [--point P | --last] POSITION\n"
     "  Says in words what the engine sees (docs/review.md, \"The coach\"): each side's fours\n"
     "  and open threes with their stones, and the side to move's forced win by fours (VCF)\n"
     "  or by threes and fours (VCT).\n"
     "  --point P  why P is forbidden for black (renju): its threes, fours or overline\n"
     "  --last     why the last move lost: the five or forced win it allowed, and a defence\n"
     "  --lang L   en (default) or zh\n"
     "  POSITION   a move string (h8i9h9) or - for a diagram on standard input\n"},
    {"puzzle", cmd_puzzle,
     "puzzle mode: win by fours, by threes and fours, find the only defence; a rating",
     "usage: gomoku puzzle [--db PATH | --no-db] [--lang en|zh] [--kind any|fours|threes|defence]\n"
     "                     [--rule any|freestyle|renju] [--daily | --id N]\n"
     "  Puzzles mined from the engine's own games (docs/puzzles.md), near your puzzle rating\n"
     "  (Glicko-2, kept in the database). Type a point to play it; the opponent answers; ? for\n"
     "  a hint (the puzzle is then not rated), n for the next puzzle, q to quit.\n"
     "  --daily  the puzzle of the day     --id N  puzzle N\n"},
    {"review", cmd_review, "the engine goes over a game and labels every move",
     "usage: gomoku review [--db PATH] [--nodes N] [--rule R] [--size N] [--json] [--quiet]\n"
     "                     GAME_ID|FILE\n"
     "  Searches every position of a stored game (GAME_ID, as gomoku stats lists them) or of\n"
     "  a record file (PSQ, SGF or a move string, as gomoku import reads them) and prints each\n"
     "  move with its label (best, good, inaccuracy, mistake, blunder, missed-win: by the win\n"
     "  rate it lost), the mover's win rate before and after, and the better move with its\n"
     "  line. A stored game's review is kept in the database and shown again without\n"
     "  searching. See docs/review.md.\n"
     "  --nodes N  the search of each position (default 60000; the same review on any machine)\n"
     "  --rule R   the rule of a record that does not say (default freestyle)\n"
     "  --size N   the board size of a move string (default 15)\n"
     "  --json     the review as JSON (the fields of docs/http-api.md, \"Game review\")\n"
     "  --quiet    no progress on standard error\n"
     "  --db PATH  the database file (as for gomoku export)\n"},
    {"import", cmd_import, "store a PSQ, SGF or move-string record as a finished game",
     "usage: gomoku import [--db PATH] [--rule R] [--size N] FILE\n"
     "  Reads one game from FILE (- for standard input; the format is detected), replays it\n"
     "  under the rule, and stores it as a two-human game with its result; prints the new\n"
     "  game id. Refused, with nothing stored (exit status 2): a move on a taken point or off\n"
     "  the board, a renju foul by black, a move after the end of the game, a file that is\n"
     "  not a record, empty, binary or over 1 MB. See docs/formats.md.\n"
     "  --rule R   freestyle (default), standard, renju or caro, when the record does not say\n"
     "             (PSQ and move strings never do; SGF may, in RU[]); it must agree if it does\n"
     "  --size N   the board size of a move string (default 15); must agree with PSQ and SGF\n"
     "  --db PATH  the database file (as for gomoku export)\n"},
    {"brain", cmd_brain, "the Gomocup engine on stdin/stdout (also run as pbrain-gomoku)",
     "usage: gomoku brain\n"
     "  Speaks the Gomocup (pbrain) protocol with the Yixin-Board extensions on standard\n"
     "  input and output, for Piskvork, Yixin-Board, c-gomoku-cli or gomoku match. The same\n"
     "  binary run under a name starting with pbrain- (build/pbrain-gomoku) does this too.\n"
     "  INFO level N (1-7, 0 = full strength), max_depth and max_node weaken or fix the\n"
     "  search. See docs/protocol.md.\n"},
    {"match", cmd_match, "play two Gomocup engines against each other; read records back",
     "usage: gomoku match --engine1 CMD --engine2 CMD [OPTIONS]\n"
     "       gomoku match --verify [--rule R] FILE...\n"
     "  Plays games between two engines that speak the Gomocup protocol (any pbrain program,\n"
     "  or 'build/gomoku brain'). Each opening is played twice with colours swapped.\n"
     "  --engine1 CMD, --engine2 CMD   shell commands that start the engines\n"
     "  --name1 N, --name2 N           names for reports and records (engine1, engine2)\n"
     "  --info1 'KEY VALUE', --info2 .. extra INFO lines for one engine (repeatable), e.g.\n"
     "                                 --info1 'max_depth 4' or --info2 'level 3'\n"
     "  --info 'KEY VALUE'             an INFO line for both engines (repeatable)\n"
     "  --games N | --rounds N         total games, or openings played twice (default 2 games)\n"
     "  --openings FILE                Gomocup offset-format openings (default: empty board)\n"
     "  --opening-start K              start at line K of the openings (they cycle)\n"
     "  --rule R, --size N             freestyle (default), standard, renju, caro; 5-22 (15)\n"
     "  --turn MS                      time per move (INFO timeout_turn; 0 = as fast as possible)\n"
     "  --game-time MS, --increment MS time per game and engine, and the increment per move\n"
     "  --tolerance MS                 overrun allowed before a time loss (default 1000)\n"
     "  --max-memory BYTES             INFO max_memory (default 0: none)\n"
     "  -j N, --jobs N                 games played at once (default 1)\n"
     "  --draw-after N                 a draw once N stones are on the board\n"
     "  --sprt elo0,elo1,alpha,beta    stop when the SPRT decides (e.g. 0,10,0.05,0.05)\n"
     "  --psq DIR, --sgf FILE          write each game as DIR/game-NNNN.psq, append it to FILE\n"
     "  --log FILE, --engine-stderr F  the protocol conversation; the engines' stderr\n"
     "  --quiet                        no line per game, only the final report\n"
     "  --verify FILE...               read PSQ/SGF records back and replay them with the rules\n"
     "                                 (PSQ files do not say the rule: give --rule)\n"},
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
    /* past a file size limit (ulimit -f), a write fails with EFBIG and is reported, instead
     * of the process being killed in the middle of it */
    signal(SIGXFSZ, SIG_IGN);
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    if (strncmp(base, "pbrain-", 7) == 0) return cmd_brain(1, argv); /* Gomocup managers */
    if (argc < 2) /* gomoku alone: the game at a terminal, the help otherwise */
        return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) ? cmd_play(1, argv)
                                                             : cmd_help(1, argv);
    const cli_command *c = cli_find(argv[1]);
    if (!c) {
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) return cmd_help(1, argv);
        if (strcmp(argv[1], "--version") == 0) return cmd_version(1, argv);
        /* options without a command are the game's: gomoku --db PATH --level 3 */
        if (argv[1][0] == '-' && argv[1][1] == '-') return cmd_play(argc, argv);
        return cli_error(NULL, "unknown command '%s' (try 'gomoku help')", argv[1]);
    }
    return c->run(argc - 1, argv + 1);
}
