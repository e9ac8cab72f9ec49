/* games.h: reads the self-play games of tools/gendata.c for the training tools (texel.c,
 * policy.c, evalnet.c, winrate.c, puzzles.c), with what they share: the command-line
 * arguments, the scale fit, which positions a search scores statically (bench/judge.c asks
 * that too) and the search's part of a training target.
 *
 * One game a line: <result> <opening length> then <x> <y> <score> for each move (see
 * gendata.c). A line stops being read at the first thing that is not a move on the 15x15 board
 * to an empty point, and the file at the first line that does not start like a game; whatever
 * was read before is kept. Every 10th game is held out of the fits. */
#ifndef GMK_TOOLS_GAMES_H
#define GMK_TOOLS_GAMES_H

#include <stddef.h>

#include "core/gmk.h"

enum { GAMES_BOARD_SIZE = 15 };

typedef struct {
    int number;    /* 1 for the first game read, over all files */
    bool held_out; /* every 10th game */
    int result;    /* for black: 1 a win, 0 a draw, -1 a loss */
    int opening;   /* how many stones the random opening placed */
} games_game;

/* Called for each move of a game after its opening, with the position before the move and
 * the self-play search's score of that position for the side to move. */
typedef void (*games_visit)(gmk_board *b, gmk_pos move, long score, const games_game *game,
                            void *context);

/* Reads one file, boards under `rule`; *games counts the games read so far (start it at 0).
 * False, with a message on stderr naming `tool`, when the file cannot be opened. A last line
 * without its newline (a gendata run stopped while printing it) is left out, with a message. */
bool games_read(const char *tool, const char *path, gmk_rule rule, int *games, games_visit visit,
                void *context);

/* The game's result for `side`: 1 a win, 0.5 a draw, 0 a loss. */
float games_result_for(const games_game *game, gmk_color side);

/* Room for `need` elements of `size` bytes in the array p of *cap elements: p itself, or p
 * grown (doubling from 65,536); exits with a message naming `tool` when memory runs out. */
void *games_grow(const char *tool, void *p, size_t *cap, size_t need, size_t size);

/* The sigmoid scale K in 50..5000 that minimises train_loss(K, context): a golden-section
 * search, as texel and evalnet fit K to the evaluation in force before they fit anything. */
double games_fit_scale(double (*train_loss)(double k, void *context), void *context);

/* Whether a search scores the position by its evaluation: the side to move has no five or
 * open-four point and the opponent no five point; with `quiet`, also neither side has an
 * open-four, four-three or five point (texel --quiet; evalnet takes every scored position). */
bool games_scored(const gmk_board *b, bool quiet);

/* An evaluation clamped to the engine's limit, +-GMK_EVAL_LIMIT. */
double games_clamp_eval(double v);

/* The search's part of a training target, in evaluation units, for the side to move: the
 * self-play search's score of the position, clamped; or, given `next` (the score of the
 * position after the move played, for the other side), the mean of the two from this side,
 * (score - next) / 2, a target that the next position's agrees with (texel and evalnet
 * --two-ply). */
double games_search_target(double score, const double *next);

/* The argument of --rule: true with *rule set for freestyle or renju, the two rules with
 * training data of their own; false with a message naming `tool` for anything else (standard
 * and caro play with freestyle's numbers). */
bool games_rule_arg(const char *tool, const char *text, gmk_rule *rule);

/* The argument of --epochs: true with *epochs set when text is a whole number in 1..most;
 * false with a message naming `tool` otherwise (no overflow on an absurd number). */
bool games_epochs_arg(const char *tool, const char *text, int most, int *epochs);

/* A real-valued option's argument (texel's and evalnet's --scale, 50..5000, the range
 * games_fit_scale searches; their --lambda, 0..1): true with *value set when text is a
 * number in lo..hi; false with a message naming `tool` and `option` otherwise ("0.5x", "",
 * NaN and out-of-range values are refused). */
bool games_real_arg(const char *tool, const char *option, const char *text, double lo, double hi,
                    double *value);

#endif
