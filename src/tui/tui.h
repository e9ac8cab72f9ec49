/* tui.h: the terminal game (ncursesw): the board, the keys and mouse, menus, the status line
 * and the scoreboard, in English or Simplified Chinese.
 *
 * The terminal code only draws and reads input; every rule of play is in game/session.h. It
 * opens the store (the file given, or the default one); when the store cannot be used it says
 * so and the game plays without saving. Called by `gomoku play` with its options parsed. */
#ifndef GMK_TUI_H
#define GMK_TUI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rules.h"
#include "game/session.h"

typedef struct {
    const char *db_path; /* NULL: the store's default path */
    bool no_db;          /* play without a store at all */
    const char *lang;    /* "en", "zh" or NULL (from the locale) */
    bool ascii;          /* plain ASCII stones and marks, even in a UTF-8 terminal */
    bool no_color;       /* monochrome even when the terminal has colours */
    uint64_t seed;       /* fixes the weaker levels' choices (0: from the clock) */
    int threads;         /* search threads of the top level and hints (0: one) */
    /* The first game's settings; each only when its has_ flag is set (else the last ones
     * used, kept in the store's settings, or the defaults). */
    bool has_mode, has_rule, has_size, has_level, has_human, has_top_ms, has_opening;
    gmk_play_mode mode;
    gmk_rule rule;
    int size;
    int level;
    gmk_color human;
    int64_t top_ms;
    gmk_opening opening; /* free, swap or swap2 (game/swap.h) */
} gmk_tui_options;

/* Runs the game until the player quits. Returns 0, or 1 when the terminal cannot be used
 * (a message is printed on stderr). */
int gmk_tui_run(const gmk_tui_options *opt);

#endif
