/* text.h: every word the terminal game shows, in English and Simplified Chinese.
 *
 * Strings are looked up by id in the current language; those with printf conversions say so
 * in their English text. The language comes from --lang, else from the locale variables
 * (LC_ALL, LC_MESSAGES, LANG: zh* gives Chinese), else English. Only src/tui/ includes this. */
#ifndef GMK_TUI_TEXT_H
#define GMK_TUI_TEXT_H

#include <stdbool.h>

#include "core/renju.h"
#include "core/rules.h"
#include "game/session.h"

typedef enum { TUI_LANG_EN = 0, TUI_LANG_ZH = 1, TUI_LANG_COUNT } tui_lang;

typedef enum {
    T_TITLE,
    T_MODE,
    T_RULE,
    T_LEVEL,
    T_BLACK,
    T_WHITE,
    T_YOU,
    T_COMPUTER,
    T_PLAYER_BLACK,
    T_PLAYER_WHITE,
    T_MOVE_N,    /* "Move %d" */
    T_MOVE_LAST, /* "Move %d, last %s" */
    T_LABEL,     /* "%s: %s" */
    T_RESULT,    /* "%s: %s. %s" (who wins, why, you win/lose) */
    T_CURSOR,    /* "Cursor %s" */
    T_NOT_SAVING,
    T_SAVING, /* "Saved as game #%lld" */
    T_KEYS,
    T_KEY_MOVE,
    T_KEY_PLACE,
    T_KEY_TYPE,
    T_KEY_UNDO,
    T_KEY_HINT,
    T_KEY_NEW,
    T_KEY_QUIT,
    T_KEY_NOW,
    T_TO_MOVE_YOU,     /* "%s to move (you)": colour */
    T_TO_MOVE,         /* "%s to move" */
    T_THINKING,        /* "%s (computer) thinking... %.1fs" */
    T_THINKING_HINT,   /* "Enter: move now" */
    T_HINTING,         /* "looking for a hint... %.1fs" */
    T_HINT_AT,         /* "Hint: %s (marked ?)" */
    T_WINS,            /* "%s wins" */
    T_DRAW,            /* "Draw" */
    T_BY_FIVE,         /* "five in a row %s-%s" */
    T_BY_FORBIDDEN,    /* "black played the forbidden point %s (%s)" */
    T_BY_RESIGN,       /* "%s resigned" */
    T_BY_FULL,         /* "the board is full" */
    T_BY_NO_POINT,     /* "black has no legal point left" */
    T_YOU_WIN,         /* "You win!" */
    T_YOU_LOSE,        /* "You lose." */
    T_OVER_KEYS,       /* "n: new game  s: scores  q: quit" */
    T_OCCUPIED,        /* "%s is taken" */
    T_FORBIDDEN_POINT, /* "%s is forbidden for black (%s). Place it again to play it and lose." */
    T_NOT_YOUR_TURN,   /* "Wait for the computer (Enter: move now)" */
    T_GAME_OVER_KEYS,  /* "The game is over: n for a new game" */
    T_NOTHING_TO_UNDO, /* "Nothing to undo" */
    T_NOTHING_TO_REDO, /* "Nothing to redo" */
    T_NO_HINT_NOW,     /* "No hint now" */
    T_BAD_POINT,       /* "Not a point: %s" */
    T_TYPE_PROMPT,     /* "Move (e.g. h8): " */
    T_RESIGN_ASK,      /* "Resign this game? (y/n)" */
    T_RESIGN_NO_CVC,   /* "Nobody to resign for in computer vs computer" */
    T_RESUME_ASK,      /* "Resume it? (y/n)" */
    T_RESUME_FOUND,    /* "An unfinished game:" */
    T_RESUME_DESC,     /* "%s, %s %dx%d, %d moves" */
    T_STORE_CANT_OPEN, /* "The game store cannot be used:" */
    T_STORE_FAILED,    /* "Saving stopped:" */
    T_PLAYING_UNSAVED, /* "Playing on without saving." */
    T_PRESS_KEY,       /* "Press a key." */
    T_NEW_GAME,        /* "New game" */
    T_MENU_MODE,
    T_MENU_SIDE,
    T_MENU_RULE,
    T_MENU_SIZE,
    T_MENU_LEVEL,
    T_MENU_TIME, /* "Time a move" */
    T_MENU_START,
    T_MENU_HELP,  /* "up/down: choose  left/right: change  Enter: start  Esc: cancel" */
    T_SIDE_BLACK, /* "black (moves first)" */
    T_SIDE_WHITE, /* "white (moves second)" */
    T_SECONDS,    /* "%d s" */
    T_SCOREBOARD,
    T_SC_GAMES, /* scoreboard columns */
    T_SC_WON,
    T_SC_LOST,
    T_SC_DRAWN,
    T_SC_BLACK,
    T_SC_WHITE,
    T_SCORE_EMPTY, /* "No finished games yet." */
    T_SCORE_UNAVAILABLE,
    T_TOO_SMALL, /* "Terminal too small: need %dx%d" */
    T_SAVED_BYE, /* "The game is saved; run gomoku to resume it." */
    T_FORBID_33,
    T_FORBID_44,
    T_FORBID_OVERLINE,
    T_MODE_HVC,
    T_MODE_HVH,
    T_MODE_CVC,
    T_RULE_FREESTYLE,
    T_RULE_STANDARD,
    T_RULE_RENJU,
    T_RULE_CARO,
    /* swap openings (issue 29) */
    T_MENU_OPENING,      /* "Opening" */
    T_OPENING_FREE,      /* "free" */
    T_OPENING_SWAP,      /* "swap" */
    T_OPENING_SWAP2,     /* "swap2" */
    T_SWAP_PLACE3_YOU,   /* "Place the opening: stone %d of 3 (%s)" */
    T_SWAP_PLACE3_HVH,   /* "First player: opening stone %d of 3 (%s)" */
    T_SWAP_PLACE2_YOU,   /* "Place two more stones: %d of 2 (%s)" */
    T_SWAP_PLACE2_HVH,   /* "Second player: stone %d of 2 (%s)" */
    T_SWAP_CHOOSE3,      /* "Choose: b take black, w take white, p place two more" */
    T_SWAP_CHOOSE3_SWAP, /* "Choose: b take black, w take white" */
    T_SWAP_CHOOSE5,      /* "Five stones: b take black, w take white" */
    T_SWAP_PROPOSING,    /* "The computer places the opening... %.1fs" */
    T_SWAP_CHOOSING,     /* "The computer chooses a colour... %.1fs" */
    T_CHOOSE_FIRST,      /* "Choose a colour first (b, w or p)" */
    T_COUNT
} tui_text;

/* Picks the language: "en" or "zh" from --lang (NULL: not given), else the locale variables.
 * Returns false for an unknown --lang value. */
bool tui_lang_choose(const char *option, tui_lang *out);

/* Text in a language. */
const char *tui_tr(tui_lang lang, tui_text id);

const char *tui_rule_name(tui_lang lang, gmk_rule rule);
const char *tui_mode_name(tui_lang lang, gmk_play_mode mode);
const char *tui_forbid_name(tui_lang lang, gmk_forbid_kind kind);
const char *tui_level_name(tui_lang lang, int level);

#endif
