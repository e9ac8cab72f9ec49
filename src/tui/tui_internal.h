/* tui_internal.h: what the files of src/tui/ share: the state of the terminal game and the
 * drawing functions (draw.c) used by the input loop and menus (tui.c, menu.c).
 * Only the .c files of src/tui/ include this. */
#ifndef GMK_TUI_INTERNAL_H
#define GMK_TUI_INTERNAL_H

#include <curses.h>
#include <stdbool.h>

#include "game/session.h"
#include "store/store.h"
#include "text.h"
#include "tui.h"

enum { TUI_MSG_LEN = 400 };

typedef struct {
    gmk_session *session;
    gmk_store *store;
    tui_lang lang;
    bool utf8;             /* wide characters for stones and Chinese text */
    bool color;            /* colour pairs are set up */
    int cx, cy;            /* the cursor on the board: column from the left, row from the top */
    char msg[TUI_MSG_LEN]; /* a message for the player until the next action */
    gmk_pos foul;          /* a forbidden point tried once; trying it again plays it */
    bool typing;           /* a coordinate is being typed */
    char typed[8];
    gmk_game_config cfg; /* what the new-game menu offers next */
    /* the layout of the last frame */
    int bx, by; /* screen column and row of the cell (0, 0) */
    bool fits;  /* the board fits the terminal */
} tui;

/* Colour pairs. */
enum {
    P_BOARD = 1,
    P_BLACK,
    P_WHITE,
    P_LAST,
    P_FORBID,
    P_HINT,
    P_WIN_BLACK,
    P_WIN_WHITE,
    P_TITLE,
    P_MSG,
};

/* Sets up the colour pairs (when the terminal has colours and they are wanted). */
void tui_colors_init(tui *t, bool want_color);

/* Draws the game: board, side panel, message and status line (without refreshing). */
/* Draws board b (not the session's) where the game's board goes: stones, last move, a hint
 * mark, and the cursor when show_cursor (puzzle_view.c). */
void tui_draw_position(tui *t, const gmk_board *b, gmk_pos hint, bool show_cursor);
/* A review of the game on the board (review_view.c, key R): progress, then the result. */
void tui_review(tui *t);
/* Puzzle mode inside the game (puzzle_view.c, key P); returns to the game on q or Esc. */
void tui_puzzle_mode(tui *t);
/* The coach's "why?" box (coach_view.c, key w); returns after a key. */
void tui_show_coach(tui *t);
void tui_draw(tui *t);

/* The board cell under screen row sy, column sx (from the last frame). */
bool tui_cell_at(const tui *t, int sy, int sx, int *x, int *y);

/* Writes UTF-8 text at (y, x), at most maxw columns; returns the columns used. attr may
 * include a colour pair (COLOR_PAIR). Non-ASCII text is shown as '?' when the terminal is
 * not UTF-8, except the ellipsis, shown as "...". */
int tui_put(const tui *t, int y, int x, int maxw, attr_t attr, const char *text);

/* Display width of UTF-8 text in columns. */
int tui_width(const tui *t, const char *text);

/* Draws an empty framed box of h rows and w columns in the middle of the screen and gives
 * its inside's top-left corner. The box shrinks to the screen. */
void tui_box(int h, int w, int *top, int *left, int *inner_w);

/* The status line text for the current state (without the message). */
void tui_status_text(const tui *t, char *buf, size_t len);

/* A point's name, "h8". */
void tui_point_name(const tui *t, gmk_pos p, char out[4]);

#endif
