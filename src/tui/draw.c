/* draw.c: drawing the terminal game: the board with its marks, the side panel and the status
 * line (see tui_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/gmk.h"
#include "game/evaltext.h"
#include "game/level.h"
#include "tui_internal.h"

enum { LABEL_W = 4, PANEL_GAP = 2, PANEL_MIN_W = 18 };

/* --- text ------------------------------------------------------------------------------- */

/* Text as the terminal can show it: UTF-8 as is, else ASCII. */
static void to_ascii(const char *in, char *out, size_t cap) {
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && n + 4 < cap;) {
        if (p[0] == 0xE2 && p[1] == 0x80 && p[2] == 0xA6) { /* ellipsis */
            memcpy(out + n, "...", 3);
            n += 3;
            p += 3;
        } else if (*p < 0x80) {
            out[n++] = (char)*p++;
        } else {
            out[n++] = '?';
            p++;
            while ((*p & 0xC0) == 0x80) p++;
        }
    }
    out[n] = '\0';
}

int tui_width(const tui *t, const char *text) {
    if (!t->utf8) {
        char buf[TUI_MSG_LEN];
        to_ascii(text, buf, sizeof buf);
        return (int)strlen(buf);
    }
    wchar_t w[TUI_MSG_LEN];
    size_t n = mbstowcs(w, text, TUI_MSG_LEN - 1);
    if (n == (size_t)-1) return (int)strlen(text);
    w[n] = 0;
    int width = 0;
    for (size_t i = 0; i < n; i++) {
        int cw = wcwidth(w[i]);
        width += cw < 0 ? 1 : cw;
    }
    return width;
}

int tui_put(const tui *t, int y, int x, int maxw, attr_t attr, const char *text) {
    if (maxw <= 0 || y < 0 || y >= LINES || x < 0 || x >= COLS) return 0;
    if (x + maxw > COLS) maxw = COLS - x;
    attr_set(attr, 0, NULL);
    attron(attr);
    int used = 0;
    if (!t->utf8) {
        char buf[TUI_MSG_LEN];
        to_ascii(text, buf, sizeof buf);
        used = (int)strlen(buf) < maxw ? (int)strlen(buf) : maxw;
        mvaddnstr(y, x, buf, used);
    } else {
        wchar_t w[TUI_MSG_LEN];
        size_t n = mbstowcs(w, text, TUI_MSG_LEN - 1);
        if (n == (size_t)-1) n = 0;
        size_t k = 0;
        for (; k < n; k++) {
            int cw = wcwidth(w[k]);
            if (cw < 0) cw = 1;
            if (used + cw > maxw) break;
            used += cw;
        }
        mvaddnwstr(y, x, w, (int)k);
    }
    attr_set(A_NORMAL, 0, NULL);
    return used;
}

void tui_point_name(const tui *t, gmk_pos p, char out[4]) {
    gmk_notation_point(p, gmk_session_board(t->session)->size, out);
}

/* --- colours ---------------------------------------------------------------------------- */

void tui_colors_init(tui *t, bool want_color) {
    t->color = false;
    if (!want_color || !has_colors()) return;
    if (start_color() == ERR) return;
    use_default_colors();
    init_pair(P_BOARD, COLOR_BLACK, COLOR_YELLOW);
    init_pair(P_BLACK, COLOR_BLACK, COLOR_YELLOW);
    init_pair(P_WHITE, COLOR_WHITE, COLOR_YELLOW);
    init_pair(P_LAST, COLOR_RED, COLOR_YELLOW);
    init_pair(P_FORBID, COLOR_RED, COLOR_YELLOW);
    init_pair(P_HINT, COLOR_BLUE, COLOR_YELLOW);
    init_pair(P_WIN_BLACK, COLOR_BLACK, COLOR_GREEN);
    init_pair(P_WIN_WHITE, COLOR_WHITE, COLOR_GREEN);
    init_pair(P_TITLE, COLOR_YELLOW, -1);
    init_pair(P_MSG, COLOR_RED, -1);
    t->color = true;
}

static attr_t pair(const tui *t, int p) {
    return t->color ? COLOR_PAIR(p) : A_NORMAL;
}

/* --- the board -------------------------------------------------------------------------- */

static bool star_point(int size, int x, int y) {
    int c = size / 2;
    if (size % 2 == 1 && x == c && y == c) return true;
    if (size < 13) return false;
    int e = size >= 15 ? 3 : 2;
    return (x == e || x == size - 1 - e) && (y == e || y == size - 1 - e);
}

static void put_cell(const tui *t, int y, int x, const char *utf8, char ascii, attr_t attr) {
    if (t->utf8) {
        tui_put(t, y, x, 1, attr, utf8);
    } else {
        char s[2] = {ascii, 0};
        tui_put(t, y, x, 1, attr, s);
    }
}

/* The grid of board b with its stones and marks (win, is_foul: per cell, may be NULL). */
static void draw_grid(tui *t, const gmk_board *b, const bool *win, const bool *is_foul,
                      gmk_pos hint, bool show_cursor) {
    int n = b->size;
    gmk_pos last = gmk_board_last(b);
    for (int y = 0; y < n; y++) {
        int sy = t->by + y;
        char label[16];
        snprintf(label, sizeof label, "%2d", n - y);
        tui_put(t, sy, 0, 2, A_NORMAL, label);
        /* the board background, separators included */
        for (int sx = t->bx - 1; sx <= t->bx + 2 * (n - 1) + 1; sx++)
            tui_put(t, sy, sx, 1, pair(t, P_BOARD), " ");
        for (int x = 0; x < n; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            int sx = t->bx + 2 * x;
            attr_t a;
            int stone = b->stone[p];
            bool cursor = show_cursor && x == t->cx && y == t->cy;
            if (stone == GMK_BLACK || stone == GMK_WHITE) {
                bool black = stone == GMK_BLACK;
                if (win && win[p])
                    a = t->color ? pair(t, black ? P_WIN_BLACK : P_WIN_WHITE)
                                 : (attr_t)(A_REVERSE | A_BOLD);
                else
                    a = pair(t, black ? P_BLACK : P_WHITE);
                if (!black) a |= A_BOLD;
                if (cursor) a |= A_REVERSE;
                put_cell(t, sy, sx, black ? "\xE2\x97\x8F" : "\xE2\x97\x8B", black ? 'X' : 'O', a);
            } else if (p == hint) {
                put_cell(t, sy, sx, "?", '?', pair(t, P_HINT) | A_BOLD | (cursor ? A_REVERSE : 0));
            } else if (is_foul && is_foul[p]) {
                put_cell(t, sy, sx, "\xC3\x97", '*', pair(t, P_FORBID) | (cursor ? A_REVERSE : 0));
            } else {
                bool star = star_point(n, x, y);
                put_cell(t, sy, sx, star ? "+" : "\xC2\xB7", star ? '+' : '.',
                         pair(t, P_BOARD) | (cursor ? A_REVERSE : 0));
            }
            if (p == last) {
                tui_put(t, sy, sx - 1, 1, pair(t, P_LAST) | A_BOLD, "[");
                tui_put(t, sy, sx + 1, 1, pair(t, P_LAST) | A_BOLD, "]");
            }
        }
    }
    for (int x = 0; x < n; x++) {
        char letter[2] = {(char)('a' + x), 0};
        tui_put(t, t->by + n, t->bx + 2 * x, 1, A_NORMAL, letter);
    }
}

static void draw_board(tui *t, const gmk_session_state *st) {
    const gmk_board *b = gmk_session_board(t->session);
    static gmk_pos foul[GMK_MAX_MOVES];
    int nfoul = gmk_session_forbidden_points(t->session, foul, NULL, GMK_MAX_MOVES);
    bool win[GMK_CELLS] = {false};
    if (st->over && st->result.reason == GMK_REASON_FIVE)
        for (int i = 0; i < st->result.line_len; i++) win[st->result.line[i]] = true;
    bool is_foul[GMK_CELLS] = {false};
    for (int i = 0; i < nfoul; i++) is_foul[foul[i]] = true;
    draw_grid(t, b, win, is_foul, st->hint, !st->over && (st->human_to_move || t->typing));
}

void tui_draw_position(tui *t, const gmk_board *b, gmk_pos hint, bool show_cursor) {
    t->bx = LABEL_W;
    t->by = LINES - 1 - (b->size + 1) >= 2 ? 1 : 0;
    draw_grid(t, b, NULL, NULL, hint, show_cursor);
}

/* --- the panel -------------------------------------------------------------------------- */

static const char *player_label(const tui *t, const gmk_session_state *st, gmk_color c) {
    switch (st->mode) {
    case GMK_PLAY_HVC: return tui_tr(t->lang, st->human == c ? T_YOU : T_COMPUTER);
    case GMK_PLAY_CVC: return tui_tr(t->lang, T_COMPUTER);
    default: return tui_tr(t->lang, c == GMK_BLACK ? T_PLAYER_BLACK : T_PLAYER_WHITE);
    }
}

static void draw_panel(tui *t, const gmk_session_state *st, int px, int pw) {
    const gmk_board *b = gmk_session_board(t->session);
    char line[TUI_MSG_LEN], a[64];
    int y = t->by;
    tui_put(t, y++, px, pw, pair(t, P_TITLE) | A_BOLD, tui_tr(t->lang, T_TITLE));
    char value[128];
    snprintf(line, sizeof line, tui_tr(t->lang, T_LABEL), tui_tr(t->lang, T_MODE),
             tui_mode_name(t->lang, st->mode));
    tui_put(t, y++, px, pw, A_NORMAL, line);
    snprintf(value, sizeof value, "%s %dx%d", tui_rule_name(t->lang, st->rule), st->size, st->size);
    snprintf(line, sizeof line, tui_tr(t->lang, T_LABEL), tui_tr(t->lang, T_RULE), value);
    tui_put(t, y++, px, pw, A_NORMAL, line);
    if (st->mode != GMK_PLAY_HVH) {
        snprintf(value, sizeof value, "%d %s", st->level, tui_level_name(t->lang, st->level));
        snprintf(line, sizeof line, tui_tr(t->lang, T_LABEL), tui_tr(t->lang, T_LEVEL), value);
        tui_put(t, y++, px, pw, A_NORMAL, line);
    }
    for (int c = GMK_BLACK; c <= GMK_WHITE; c++) {
        bool black = c == GMK_BLACK;
        snprintf(line, sizeof line, "%s %s %s", tui_tr(t->lang, black ? T_BLACK : T_WHITE),
                 t->utf8 ? (black ? "\xE2\x97\x8F" : "\xE2\x97\x8B") : (black ? "X" : "O"),
                 player_label(t, st, (gmk_color)c));
        attr_t at = !st->over && (int)st->to_move == c ? A_BOLD : A_NORMAL;
        if (!st->over && (int)st->to_move == c) {
            tui_put(t, y, px, 2, at, "> ");
            tui_put(t, y++, px + 2, pw - 2, at, line);
        } else {
            tui_put(t, y++, px + 2, pw - 2, at, line);
        }
    }
    if (b->move_count) {
        tui_point_name(t, gmk_board_last(b), a);
        snprintf(line, sizeof line, tui_tr(t->lang, T_MOVE_LAST), b->move_count, a);
    } else {
        snprintf(line, sizeof line, tui_tr(t->lang, T_MOVE_N), b->move_count);
    }
    tui_put(t, y++, px, pw, A_NORMAL, line);
    if (!st->over && (st->human_to_move || t->typing)) {
        tui_point_name(t, gmk_pos_xy(t->cx, t->cy), a);
        snprintf(line, sizeof line, tui_tr(t->lang, T_CURSOR), a);
        tui_put(t, y, px, pw, A_NORMAL, line);
    }
    y++;
    if (st->saving && st->game_id)
        snprintf(line, sizeof line, tui_tr(t->lang, T_SAVING), (long long)st->game_id);
    else
        snprintf(line, sizeof line, "%s", st->saving ? "" : tui_tr(t->lang, T_NOT_SAVING));
    tui_put(t, y++, px, pw, st->saving ? A_DIM : pair(t, P_MSG) | A_BOLD, line);
    y++;
    static const tui_text keys[] = {T_KEY_MOVE, T_KEY_PLACE, T_KEY_TYPE, T_KEY_UNDO,
                                    T_KEY_HINT, T_KEY_NEW,   T_KEY_QUIT};
    int bottom = LINES - 2 > t->by + b->size ? LINES - 3 : LINES - 2; /* above the message */
    if (y < bottom) tui_put(t, y++, px, pw, A_BOLD, tui_tr(t->lang, T_KEYS));
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && y <= bottom; i++)
        tui_put(t, y++, px, pw, A_NORMAL, tui_tr(t->lang, keys[i]));
}

/* --- the status line -------------------------------------------------------------------- */

static const char *color_name(const tui *t, gmk_color c) {
    return tui_tr(t->lang, c == GMK_BLACK ? T_BLACK : T_WHITE);
}

/* The status line during a swap opening: who places or chooses. */
static void opening_status(const tui *t, const gmk_session_state *st, char *buf, size_t len) {
    int n = gmk_session_board(t->session)->move_count;
    bool hvh = st->mode == GMK_PLAY_HVH;
    const char *side = color_name(t, st->to_move);
    if (st->thinking) {
        snprintf(buf, len,
                 tui_tr(t->lang, st->phase == GMK_SWAP_PLACE3 ? T_SWAP_PROPOSING : T_SWAP_CHOOSING),
                 st->thinking_ms / 1000.0);
    } else if (st->phase == GMK_SWAP_PLACE3) {
        snprintf(buf, len, tui_tr(t->lang, hvh ? T_SWAP_PLACE3_HVH : T_SWAP_PLACE3_YOU), n + 1,
                 side);
    } else if (st->phase == GMK_SWAP_PLACE2) {
        snprintf(buf, len, tui_tr(t->lang, hvh ? T_SWAP_PLACE2_HVH : T_SWAP_PLACE2_YOU), n - 2,
                 side);
    } else if (st->phase == GMK_SWAP_CHOOSE5) {
        snprintf(buf, len, "%s", tui_tr(t->lang, T_SWAP_CHOOSE5));
    } else {
        snprintf(buf, len, "%s",
                 tui_tr(t->lang,
                        st->opening == GMK_OPENING_SWAP2 ? T_SWAP_CHOOSE3 : T_SWAP_CHOOSE3_SWAP));
    }
}

void tui_status_text(const tui *t, char *buf, size_t len) {
    gmk_session_state st;
    gmk_session_get_state(t->session, &st);
    char a[4], b2[4], part[TUI_MSG_LEN];
    buf[0] = '\0';
    if (st.over) {
        const gmk_result *r = &st.result;
        if (r->outcome == GMK_DRAW)
            snprintf(part, sizeof part, "%s", tui_tr(t->lang, T_DRAW));
        else
            snprintf(part, sizeof part, tui_tr(t->lang, T_WINS),
                     color_name(t, r->outcome == GMK_BLACK_WINS ? GMK_BLACK : GMK_WHITE));
        char why[TUI_MSG_LEN] = "";
        switch (r->reason) {
        case GMK_REASON_FIVE:
            tui_point_name(t, r->line[0], a);
            tui_point_name(t, r->line[r->line_len - 1], b2);
            snprintf(why, sizeof why, tui_tr(t->lang, T_BY_FIVE), a, b2);
            break;
        case GMK_REASON_FORBIDDEN:
            tui_point_name(t, r->point, a);
            snprintf(why, sizeof why, tui_tr(t->lang, T_BY_FORBIDDEN), a,
                     tui_forbid_name(t->lang, r->forbid));
            break;
        case GMK_REASON_RESIGN:
            snprintf(why, sizeof why, tui_tr(t->lang, T_BY_RESIGN), color_name(t, st.resigned));
            break;
        case GMK_REASON_FULL_BOARD:
            snprintf(why, sizeof why, "%s", tui_tr(t->lang, T_BY_FULL));
            break;
        case GMK_REASON_NO_LEGAL_POINT:
            snprintf(why, sizeof why, "%s", tui_tr(t->lang, T_BY_NO_POINT));
            break;
        default: break;
        }
        const char *you = "";
        if (st.mode == GMK_PLAY_HVC && r->outcome != GMK_DRAW) {
            gmk_color winner = r->outcome == GMK_BLACK_WINS ? GMK_BLACK : GMK_WHITE;
            you = tui_tr(t->lang, winner == st.human ? T_YOU_WIN : T_YOU_LOSE);
        }
        char res[TUI_MSG_LEN];
        snprintf(res, sizeof res, tui_tr(t->lang, T_RESULT), part, why, you);
        for (size_t l = strlen(res); l > 0 && res[l - 1] == ' '; l--) res[l - 1] = '\0';
        snprintf(buf, len, "%s  %s", res, tui_tr(t->lang, T_OVER_KEYS));
        return;
    }
    if (st.phase != GMK_SWAP_NONE) {
        opening_status(t, &st, buf, len);
        return;
    }
    if (st.thinking) {
        snprintf(part, sizeof part, tui_tr(t->lang, T_THINKING), color_name(t, st.to_move),
                 st.thinking_ms / 1000.0);
        snprintf(buf, len, "%s  (%s)", part, tui_tr(t->lang, T_THINKING_HINT));
        return;
    }
    if (st.mode == GMK_PLAY_HVC)
        snprintf(part, sizeof part, tui_tr(t->lang, T_TO_MOVE_YOU), color_name(t, st.to_move));
    else
        snprintf(part, sizeof part, tui_tr(t->lang, T_TO_MOVE), color_name(t, st.to_move));
    if (st.hinting) {
        char h[128];
        snprintf(h, sizeof h, tui_tr(t->lang, T_HINTING), st.thinking_ms / 1000.0);
        snprintf(buf, len, "%s  %s", part, h);
    } else if (st.hint != GMK_POS_NONE) {
        char h[128];
        char ev[48];
        gmk_eval_view view;
        tui_point_name(t, st.hint, a);
        snprintf(h, sizeof h, tui_tr(t->lang, T_HINT_AT), a);
        gmk_eval_view_of(st.rule, st.to_move, st.hint_score, &view);
        gmk_eval_view_text(&view, st.to_move, t->lang == TUI_LANG_ZH, ev, sizeof ev);
        snprintf(buf, len, "%s  %s  %s", part, h, ev);
    } else {
        snprintf(buf, len, "%s", part);
    }
}

static void draw_status(tui *t, int msg_row) {
    char status[TUI_MSG_LEN];
    if (t->typing) {
        snprintf(status, sizeof status, "%s%s_", tui_tr(t->lang, T_TYPE_PROMPT), t->typed);
    } else {
        tui_status_text(t, status, sizeof status);
    }
    int y = LINES - 1;
    attr_t bar = A_REVERSE;
    move(y, 0);
    attr_set(bar, 0, NULL);
    for (int x = 0; x < COLS; x++) addch(' ');
    attr_set(A_NORMAL, 0, NULL);
    int used = tui_put(t, y, 1, COLS - 2, bar | A_BOLD, status);
    if (t->msg[0]) {
        if (msg_row >= 0)
            tui_put(t, msg_row, 1, COLS - 2, pair(t, P_MSG) | A_BOLD, t->msg);
        else if (used + 4 < COLS)
            tui_put(t, y, used + 3, COLS - used - 4, bar, t->msg);
    }
}

/* --- the frame -------------------------------------------------------------------------- */

void tui_draw(tui *t) {
    gmk_session_state st;
    gmk_session_get_state(t->session, &st);
    int n = st.size;
    erase();
    int need_w = LABEL_W + 2 * n, need_h = n + 2;
    t->fits = COLS >= need_w && LINES >= need_h;
    if (!t->fits) {
        char line[128];
        snprintf(line, sizeof line, tui_tr(t->lang, T_TOO_SMALL), need_w, need_h);
        tui_put(t, 0, 0, COLS, A_BOLD, line);
        tui_put(t, 1, 0, COLS, A_NORMAL, tui_tr(t->lang, T_KEY_QUIT));
        curs_set(0);
        return;
    }
    t->bx = LABEL_W;
    t->by = LINES - 1 - (n + 1) >= 2 ? 1 : 0;
    draw_board(t, &st);
    int px = LABEL_W + 2 * n + PANEL_GAP, pw = COLS - px - 1;
    if (pw >= PANEL_MIN_W) draw_panel(t, &st, px, pw);
    int msg_row = LINES - 2 > t->by + n ? LINES - 2 : -1;
    draw_status(t, msg_row);
    bool show_cursor = !st.over && (st.human_to_move || t->typing);
    if (show_cursor) {
        curs_set(1);
        move(t->by + t->cy, t->bx + 2 * t->cx);
    } else {
        curs_set(0);
    }
}

bool tui_cell_at(const tui *t, int sy, int sx, int *x, int *y) {
    if (!t->fits) return false;
    int n = gmk_session_board(t->session)->size;
    int cy = sy - t->by, rel = sx - t->bx + 1; /* rel / 2 is the column: a cell and its left gap */
    if (cy < 0 || cy >= n || rel < 0) return false;
    int cx = rel / 2;
    if (cx >= n) return false;
    *x = cx;
    *y = cy;
    return true;
}

void tui_box(int h, int w, int *top, int *left, int *inner_w) {
    if (w > COLS) w = COLS;
    if (h > LINES) h = LINES;
    int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
    attr_set(A_NORMAL, 0, NULL);
    for (int y = y0; y < y0 + h; y++) {
        move(y, x0);
        for (int x = 0; x < w; x++) addch(' ');
    }
    mvaddch(y0, x0, ACS_ULCORNER);
    mvaddch(y0, x0 + w - 1, ACS_URCORNER);
    mvaddch(y0 + h - 1, x0, ACS_LLCORNER);
    mvaddch(y0 + h - 1, x0 + w - 1, ACS_LRCORNER);
    mvhline(y0, x0 + 1, ACS_HLINE, w - 2);
    mvhline(y0 + h - 1, x0 + 1, ACS_HLINE, w - 2);
    mvvline(y0 + 1, x0, ACS_VLINE, h - 2);
    mvvline(y0 + 1, x0 + w - 1, ACS_VLINE, h - 2);
    *top = y0 + 1;
    *left = x0 + 2;
    *inner_w = w - 4;
}
