/* puzzle_view.c: puzzle mode inside the terminal game (key P; docs/puzzles.md, docs/tui.md).
 * The board shows a puzzle of the shipped set near the player's rating (game/puzzle.h), the
 * player's moves are checked by gmk_puzzle_answer with the opponent answering, ? gives a hint
 * (the puzzle is then not rated), n the next puzzle, d the puzzle of the day, q or Esc goes
 * back to the game, which waits behind (its computer may finish its move meanwhile). The
 * rating and streak are the store's player "local", the same as `gomoku puzzle`'s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/puzzle.h"
#include "tui_internal.h"

enum { KEY_ESC = 27, PANEL_X = 4 + 2 * 15 + 2 };

typedef struct {
    const gmk_puzzle *p;
    gmk_board board;
    gmk_threat_ctx tc;
    gmk_store_puzzle_player me;
    bool hinted, done, daily;
    gmk_pos hint;
    bool typing;
    char typed[8];
    char msg[TUI_MSG_LEN];
} puzzle_state;

static const char *tr(const tui *t, const char *en, const char *zh) {
    return t->lang == TUI_LANG_ZH ? zh : en;
}

static void load(tui *t, puzzle_state *s, const gmk_puzzle *p, bool daily) {
    s->p = p;
    s->daily = daily;
    gmk_puzzle_board(p, &s->board);
    s->hinted = s->done = s->typing = false;
    s->hint = GMK_POS_NONE;
    t->cx = t->cy = 7;
    s->msg[0] = '\0';
}

static void next(tui *t, puzzle_state *s, bool daily) {
    int n = 0;
    const gmk_puzzle *all = gmk_puzzle_set(&n);
    if (!all || n == 0) return;
    int i = daily ? gmk_puzzle_of_day((long)(time(NULL) / 86400))
                  : gmk_puzzle_pick(s->me.rating, -1, -1, (unsigned)rand());
    if (i < 0 || i >= n) i = 0;
    load(t, s, &all[i], daily);
}

static void draw(tui *t, puzzle_state *s) {
    erase();
    if (COLS < PANEL_X + 20 || LINES < 18) {
        char line[128];
        snprintf(line, sizeof line, tui_tr(t->lang, T_TOO_SMALL), PANEL_X + 20, 18);
        tui_put(t, 0, 0, COLS, A_BOLD, line);
        return;
    }
    tui_draw_position(t, &s->board, s->hint, !s->done);
    const gmk_puzzle *p = s->p;
    char line[TUI_MSG_LEN];
    int y = t->by, w = COLS - PANEL_X - 1;
    snprintf(line, sizeof line, "%s #%d",
             s->daily ? tr(t, "Puzzle of the day", "每日一题") : tr(t, "Puzzle", "习题"), p->id);
    tui_put(t, y++, PANEL_X, w, A_BOLD, line);
    const char *side = gmk_board_side(&s->board) == GMK_BLACK ? tui_tr(t->lang, T_BLACK)
                                                              : tui_tr(t->lang, T_WHITE);
    if (p->kind == GMK_PUZZLE_DEFENCE)
        snprintf(line, sizeof line,
                 tr(t, "%s to play: find the only defence", "%s先走：找出唯一的防守"), side);
    else if (p->kind == GMK_PUZZLE_THREES)
        snprintf(line, sizeof line,
                 tr(t, "%s to play and win by threes and fours", "%s先走，以活三冲四取胜"), side);
    else
        snprintf(line, sizeof line, tr(t, "%s to play and win by fours", "%s先走，连续冲四取胜"),
                 side);
    tui_put(t, y++, PANEL_X, w, A_NORMAL, line);
    snprintf(line, sizeof line, tr(t, "%s, %s, rated %d", "%s，%s，等级分 %d"),
             tui_rule_name(t->lang, p->rule), gmk_puzzle_grade(p->length), gmk_puzzle_rating(p));
    tui_put(t, y++, PANEL_X, w, A_NORMAL, line);
    y++;
    snprintf(line, sizeof line, tr(t, "Your rating: %.0f", "你的等级分：%.0f"), s->me.rating);
    tui_put(t, y++, PANEL_X, w, A_NORMAL, line);
    snprintf(line, sizeof line, tr(t, "Streak: %d (best %d)", "连对：%d（最多 %d）"), s->me.streak,
             s->me.best_streak);
    tui_put(t, y++, PANEL_X, w, A_NORMAL, line);
    y++;
    tui_put(t, y++, PANEL_X, w, A_DIM,
            tr(t, "Enter play, : type a point", "回车 落子，: 输入坐标"));
    tui_put(t, y++, PANEL_X, w, A_DIM, tr(t, "? hint, n next puzzle", "? 提示，n 下一题"));
    tui_put(t, y++, PANEL_X, w, A_DIM, tr(t, "d puzzle of the day", "d 每日一题"));
    tui_put(t, y++, PANEL_X, w, A_DIM, tr(t, "q back to the game", "q 回到对局"));
    /* the status line */
    int sy = LINES - 1;
    move(sy, 0);
    attr_set(A_REVERSE, 0, NULL);
    for (int x = 0; x < COLS; x++) addch(' ');
    attr_set(A_NORMAL, 0, NULL);
    if (s->typing)
        snprintf(line, sizeof line, "%s %s_", tr(t, "Point:", "坐标："), s->typed);
    else
        snprintf(line, sizeof line, "%s", s->msg[0] ? s->msg : tr(t, "Your move", "请落子"));
    tui_put(t, sy, 1, COLS - 2, A_REVERSE | A_BOLD, line);
    if (!s->done && !s->typing) {
        curs_set(1);
        move(t->by + t->cy, t->bx + 2 * t->cx);
    } else {
        curs_set(0);
    }
}

static void save(tui *t, puzzle_state *s) {
    if (!t->store) return;
    char err[256];
    if (gmk_store_puzzle_player_put(t->store, &s->me, err, sizeof err) != GMK_STORE_OK)
        snprintf(s->msg + strlen(s->msg), sizeof s->msg - strlen(s->msg), " (%s)", err);
}

static void answer(tui *t, puzzle_state *s, gmk_pos m) {
    if (s->done) return;
    char a[4] = "-", b[4] = "-";
    gmk_pos before = gmk_puzzle_hint(s->p, &s->board), reply = GMK_POS_NONE;
    gmk_puzzle_verdict v = gmk_puzzle_answer(s->p, &s->board, &s->tc, m, &reply);
    s->hint = GMK_POS_NONE;
    gmk_notation_point(m, 15, a);
    switch (v) {
    case GMK_PUZZLE_ILLEGAL:
        snprintf(s->msg, sizeof s->msg, tr(t, "%s cannot be played here", "%s 不能下"), a);
        return;
    case GMK_PUZZLE_GOOD:
        gmk_notation_point(reply, 15, b);
        snprintf(s->msg, sizeof s->msg, tr(t, "Good. The answer: %s", "好棋。对方应：%s"), b);
        return;
    case GMK_PUZZLE_SOLVED:
        snprintf(s->msg, sizeof s->msg, "%s",
                 tr(t, "Solved! n for the next puzzle", "解出来了！按 n 下一题"));
        break;
    default:
        if (before != GMK_POS_NONE) gmk_notation_point(before, 15, b);
        snprintf(s->msg, sizeof s->msg,
                 tr(t, "Not this one: the move was %s. n for the next puzzle",
                    "不对：正解是 %s。按 n 下一题"),
                 b);
        break;
    }
    s->done = true;
    if (!s->hinted) {
        gmk_puzzle_rate(&s->me, gmk_puzzle_rating(s->p), v == GMK_PUZZLE_SOLVED);
        save(t, s);
    }
}

static void typed_key(tui *t, puzzle_state *s, int ch) {
    size_t len = strlen(s->typed);
    if (ch == KEY_ESC) {
        s->typing = false;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        s->typing = false;
        gmk_pos m;
        if (gmk_notation_parse_point(s->typed, 15, &m, NULL, 0)) {
            t->cx = gmk_pos_x(m);
            t->cy = gmk_pos_y(m);
            answer(t, s, m);
        } else {
            snprintf(s->msg, sizeof s->msg, tr(t, "%s is not a point", "%s 不是坐标"), s->typed);
        }
    } else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
        s->typed[len - 1] = '\0';
    } else if (ch > ' ' && ch < 127 && len + 1 < sizeof s->typed) {
        s->typed[len] = (char)ch;
        s->typed[len + 1] = '\0';
    }
}

void tui_puzzle_mode(tui *t) {
    puzzle_state *s = calloc(1, sizeof *s);
    if (!s || !gmk_threat_ctx_init(&s->tc, 1 << 16)) {
        free(s);
        snprintf(t->msg, sizeof t->msg, "%s", "out of memory");
        return;
    }
    int cx = t->cx, cy = t->cy; /* the game's cursor, given back at the end */
    gmk_puzzle_player_new(&s->me, "local");
    if (t->store) gmk_store_puzzle_player_get(t->store, "local", &s->me, NULL, 0);
    next(t, s, false);
    while (s->p) {
        gmk_session_poll(t->session); /* the game goes on behind */
        draw(t, s);
        refresh();
        int ch = getch();
        if (ch == ERR || ch == KEY_RESIZE) continue;
        if (ch == KEY_MOUSE) {
            MEVENT ev;
            getmouse(&ev);
            continue;
        }
        if (s->typing) {
            typed_key(t, s, ch);
            continue;
        }
        switch (ch) {
        case 'q':
        case 'Q':
        case KEY_ESC: s->p = NULL; break;
        case KEY_LEFT:
        case 'h': t->cx = t->cx > 0 ? t->cx - 1 : 0; break;
        case KEY_RIGHT:
        case 'l': t->cx = t->cx < 14 ? t->cx + 1 : 14; break;
        case KEY_UP:
        case 'k': t->cy = t->cy > 0 ? t->cy - 1 : 0; break;
        case KEY_DOWN:
        case 'j': t->cy = t->cy < 14 ? t->cy + 1 : 14; break;
        case '\n':
        case '\r':
        case ' ':
        case KEY_ENTER: answer(t, s, gmk_pos_xy(t->cx, t->cy)); break;
        case ':':
        case '/':
            s->typing = true;
            s->typed[0] = '\0';
            break;
        case '?':
            if (s->done) break;
            s->hint = gmk_puzzle_hint(s->p, &s->board);
            s->hinted = true;
            if (s->hint != GMK_POS_NONE) {
                char h[4];
                gmk_notation_point(s->hint, 15, h);
                snprintf(
                    s->msg, sizeof s->msg,
                    tr(t, "Hint: %s (this puzzle is no longer rated)", "提示：%s（本题不再计分）"),
                    h);
            }
            break;
        case 'n': next(t, s, false); break;
        case 'd': next(t, s, true); break;
        default: break;
        }
    }
    gmk_threat_ctx_free(&s->tc);
    free(s);
    t->cx = cx;
    t->cy = cy;
}
