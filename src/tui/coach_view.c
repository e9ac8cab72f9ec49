/* coach_view.c: the terminal's "why?" (key w): the coach's sentences (game/coach.h) for the
 * position on the board, in a box over the game until a key is pressed: why the point under
 * the cursor is forbidden (renju, when it is), why the last move lost, and what is on the board.
 * The game goes on behind it (the computer may move meanwhile; the box shows the position of
 * the moment w was pressed). */
#include <stdlib.h>
#include <string.h>

#include "game/coach.h"
#include "tui_internal.h"

enum { COACH_BUF = 8192, COACH_LINES = 24 };

typedef struct {
    const char *line[COACH_LINES];
    int count;
} coach_lines;

static void draw_coach(tui *t, const coach_lines *c) {
    int w = 20;
    for (int i = 0; i < c->count; i++) {
        int lw = tui_width(t, c->line[i]) + 4;
        if (lw > w) w = lw;
    }
    if (w > COLS - 2) w = COLS - 2;
    int top, left, iw;
    tui_box(c->count + 4, w, &top, &left, &iw);
    tui_put(t, top, left, iw, A_BOLD, t->lang == TUI_LANG_ZH ? "为什么？" : "Why?");
    for (int i = 0; i < c->count; i++) tui_put(t, top + 2 + i, left, iw, A_NORMAL, c->line[i]);
    tui_put(t, top + c->count + 3, left, iw, A_DIM, tui_tr(t->lang, T_PRESS_KEY));
}

void tui_show_coach(tui *t) {
    char *buf = malloc(COACH_BUF);
    gmk_board *b = malloc(sizeof *b);
    if (!buf || !b) {
        free(buf);
        free(b);
        return;
    }
    *b = *gmk_session_board(t->session);
    bool zh = t->lang == TUI_LANG_ZH;
    size_t len = 0;
    gmk_pos cursor = gmk_pos_xy(t->cx, t->cy);
    if (b->rule == GMK_RULE_RENJU && gmk_board_empty_at(b, cursor) &&
        gmk_board_side(b) == GMK_BLACK && gmk_forbid_is_foul(gmk_renju_forbidden(b, cursor))) {
        gmk_coach_forbidden(b, cursor, zh, buf + len, COACH_BUF - len);
        len = strlen(buf);
    }
    if (b->move_count > 0) {
        gmk_coach_last_move(b, zh, buf + len, COACH_BUF - len);
        len = strlen(buf);
    }
    gmk_result r;
    gmk_rules_result(b, &r, NULL);
    if (r.outcome == GMK_ONGOING) gmk_coach_position(b, zh, buf + len, COACH_BUF - len);
    coach_lines c = {.count = 0};
    for (char *line = buf, *nl; *line && c.count < COACH_LINES; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl) break;
        *nl = '\0';
        c.line[c.count++] = line;
    }
    for (;;) {
        gmk_session_poll(t->session);
        tui_draw(t);
        curs_set(0);
        draw_coach(t, &c);
        refresh();
        int ch = getch();
        if (ch == KEY_MOUSE) {
            MEVENT ev;
            getmouse(&ev);
            continue;
        }
        if (ch != ERR && ch != KEY_RESIZE) break;
    }
    free(buf);
    free(b);
}
