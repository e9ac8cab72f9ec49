/* tui.c: the terminal game's start-up, input loop and dialogs (see tui.h). */
#include <ctype.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gmk.h"
#include "game/level.h"
#include "tui_internal.h"

enum { TICK_MS = 50, KEY_CTRL_R = 18, KEY_ESC = 27 };

/* --- the store and settings -------------------------------------------------------------- */

static void setting_int(tui *t, const char *key, int lo, int hi, int *out) {
    char v[32];
    if (!gmk_session_setting_get(t->session, key, v, sizeof v)) return;
    char *end;
    long n = strtol(v, &end, 10);
    if (*end == '\0' && end != v && n >= lo && n <= hi) *out = (int)n;
}

/* The first game: the last one's settings, then the command line. */
static void initial_config(tui *t, const gmk_tui_options *opt) {
    gmk_game_config c = gmk_game_config_default();
    char v[32];
    if (gmk_session_setting_get(t->session, "mode", v, sizeof v)) gmk_play_mode_parse(v, &c.mode);
    if (gmk_session_setting_get(t->session, "rule", v, sizeof v)) gmk_rule_parse(v, &c.rule);
    if (gmk_session_setting_get(t->session, "human", v, sizeof v))
        c.human = strcmp(v, "white") == 0 ? GMK_WHITE : GMK_BLACK;
    if (gmk_session_setting_get(t->session, "opening", v, sizeof v))
        gmk_opening_parse(v, &c.opening);
    setting_int(t, "size", GMK_MIN_SIZE, GMK_MAX_SIZE, &c.size);
    setting_int(t, "level", GMK_LEVEL_MIN, gmk_level_count(), &c.level);
    int top_s = 0;
    setting_int(t, "top_s", 1, GMK_LEVEL_TOP_MAX_MS / 1000, &top_s);
    if (top_s) c.top_level_ms = (int64_t)top_s * 1000;
    if (opt->has_mode) c.mode = opt->mode;
    if (opt->has_rule) c.rule = opt->rule;
    if (opt->has_size) c.size = opt->size;
    if (opt->has_level) c.level = opt->level;
    if (opt->has_human) c.human = opt->human;
    if (opt->has_opening) c.opening = opt->opening;
    if (opt->has_top_ms) c.top_level_ms = opt->top_ms;
    if (!gmk_game_config_valid(&c, NULL, 0)) c = gmk_game_config_default();
    t->cfg = c;
}

static void save_config(tui *t) {
    char v[32];
    gmk_session_setting_set(t->session, "mode", gmk_play_mode_name(t->cfg.mode));
    gmk_session_setting_set(t->session, "rule", gmk_rule_name(t->cfg.rule));
    gmk_session_setting_set(t->session, "human", t->cfg.human == GMK_WHITE ? "white" : "black");
    gmk_session_setting_set(t->session, "opening", gmk_opening_name(t->cfg.opening));
    snprintf(v, sizeof v, "%d", t->cfg.size);
    gmk_session_setting_set(t->session, "size", v);
    snprintf(v, sizeof v, "%d", t->cfg.level);
    gmk_session_setting_set(t->session, "level", v);
    if (t->cfg.top_level_ms) {
        snprintf(v, sizeof v, "%d", (int)(t->cfg.top_level_ms / 1000));
        gmk_session_setting_set(t->session, "top_s", v);
    }
}

/* Shows a store failure once, in the message line. */
static void check_store(tui *t) {
    char err[TUI_MSG_LEN - 80];
    if (!gmk_session_take_store_message(t->session, err, sizeof err)) return;
    snprintf(t->msg, sizeof t->msg, "%s %s. %s", tui_tr(t->lang, T_STORE_FAILED), err,
             tui_tr(t->lang, T_PLAYING_UNSAVED));
}

/* --- dialogs ---------------------------------------------------------------------------- */

/* Waits for a key while keeping the game going behind an overlay that draw_overlay draws. */
static int modal_key(tui *t, void (*draw_overlay)(tui *, void *), void *ctx) {
    for (;;) {
        gmk_session_poll(t->session);
        tui_draw(t);
        curs_set(0);
        draw_overlay(t, ctx);
        refresh();
        int ch = getch();
        if (ch == ERR || ch == KEY_RESIZE || ch == KEY_MOUSE) {
            if (ch == KEY_MOUSE) {
                MEVENT ev;
                getmouse(&ev);
            }
            continue;
        }
        return ch;
    }
}

typedef struct {
    const char *lines[6];
    int count;
} text_box;

static void draw_text_box(tui *t, void *ctx) {
    const text_box *b = ctx;
    int w = 10;
    for (int i = 0; i < b->count; i++) {
        int lw = tui_width(t, b->lines[i]) + 4;
        if (lw > w) w = lw;
    }
    int top, left, iw;
    tui_box(b->count + 2, w, &top, &left, &iw);
    for (int i = 0; i < b->count; i++)
        tui_put(t, top + i, left, iw, i == b->count - 1 ? A_BOLD : A_NORMAL, b->lines[i]);
}

/* Shows lines and waits for a key. */
static int message_box(tui *t, const char *const *lines, int count) {
    text_box b = {.count = count};
    for (int i = 0; i < count && i < 6; i++) b.lines[i] = lines[i];
    return modal_key(t, draw_text_box, &b);
}

/* Asks a yes/no question: y or n. With enter_yes, Enter also means yes and Esc means
 * nothing (the answer must be given); otherwise Esc means no. */
static bool ask_yes_no(tui *t, const char *const *lines, int count, bool enter_yes) {
    for (;;) {
        int ch = message_box(t, lines, count);
        if (ch == 'y' || ch == 'Y' || (enter_yes && (ch == '\n' || ch == '\r' || ch == KEY_ENTER)))
            return true;
        if (ch == 'n' || ch == 'N' || (!enter_yes && ch == KEY_ESC)) return false;
    }
}

/* --- the scoreboard --------------------------------------------------------------------- */

typedef struct {
    gmk_store_score lines[GMK_STORE_SCORE_MAX];
    int count;
    bool ok;
    char err[256];
} scores;

static void put_num(tui *t, int y, int x, int v) {
    char s[16];
    snprintf(s, sizeof s, "%5d", v);
    tui_put(t, y, x, 5, A_NORMAL, s);
}

static void put_right(tui *t, int y, int x, attr_t a, const char *text) {
    int w = tui_width(t, text);
    tui_put(t, y, x + 5 - w, w, a, text);
}

static void draw_scores(tui *t, void *ctx) {
    scores *sc = ctx;
    int rows = 4;
    gmk_store_mode last = GMK_STORE_MODE_COUNT;
    for (int i = 0; i < sc->count; i++) {
        if (sc->lines[i].mode != last) rows++;
        last = sc->lines[i].mode;
        rows++;
    }
    if (!sc->ok || sc->count == 0) rows = 6;
    int top, left, iw;
    tui_box(rows + 2, 52, &top, &left, &iw);
    int y = top;
    tui_put(t, y++, left, iw, A_BOLD, tui_tr(t->lang, T_SCOREBOARD));
    y++;
    if (!sc->ok) {
        tui_put(t, y++, left, iw, A_NORMAL, tui_tr(t->lang, T_SCORE_UNAVAILABLE));
        tui_put(t, y++, left, iw, A_NORMAL, sc->err);
    } else if (sc->count == 0) {
        tui_put(t, y++, left, iw, A_NORMAL, tui_tr(t->lang, T_SCORE_EMPTY));
    }
    last = GMK_STORE_MODE_COUNT;
    int c0 = left + 22;
    for (int i = 0; i < sc->count && sc->ok; i++) {
        const gmk_store_score *s = &sc->lines[i];
        bool hvc = s->mode == GMK_STORE_MODE_HVC;
        if (s->mode != last) {
            gmk_play_mode pm = s->mode == GMK_STORE_MODE_HVH   ? GMK_PLAY_HVH
                               : s->mode == GMK_STORE_MODE_CVC ? GMK_PLAY_CVC
                                                               : GMK_PLAY_HVC;
            tui_put(t, y, left, 21, A_BOLD, tui_mode_name(t->lang, pm));
            put_right(t, y, c0, A_BOLD, tui_tr(t->lang, T_SC_GAMES));
            put_right(t, y, c0 + 6, A_BOLD, tui_tr(t->lang, hvc ? T_SC_WON : T_SC_BLACK));
            put_right(t, y, c0 + 12, A_BOLD, tui_tr(t->lang, hvc ? T_SC_LOST : T_SC_WHITE));
            put_right(t, y, c0 + 18, A_BOLD, tui_tr(t->lang, T_SC_DRAWN));
            y++;
            last = s->mode;
        }
        char label[64] = "";
        if (s->mode != GMK_STORE_MODE_HVH)
            snprintf(label, sizeof label, "%2d %s", s->level, tui_level_name(t->lang, s->level));
        tui_put(t, y, left, 21, A_NORMAL, label);
        put_num(t, y, c0, s->games);
        put_num(t, y, c0 + 6, hvc ? s->wins : s->black_wins);
        put_num(t, y, c0 + 12, hvc ? s->losses : s->white_wins);
        put_num(t, y, c0 + 18, s->draws);
        y++;
    }
    tui_put(t, top + rows - 1, left, iw, A_DIM, tui_tr(t->lang, T_PRESS_KEY));
}

static void show_scores(tui *t) {
    static scores sc;
    sc.count = 0;
    sc.err[0] = '\0';
    sc.ok = gmk_session_scoreboard(t->session, sc.lines, GMK_STORE_SCORE_MAX, &sc.count, sc.err,
                                   sizeof sc.err) == GMK_SESSION_OK;
    if (!sc.ok && !sc.err[0]) snprintf(sc.err, sizeof sc.err, "%s", tui_tr(t->lang, T_NOT_SAVING));
    modal_key(t, draw_scores, &sc);
}

/* --- the new-game menu ------------------------------------------------------------------ */

enum {
    ROW_MODE,
    ROW_SIDE,
    ROW_RULE,
    ROW_OPENING,
    ROW_SIZE,
    ROW_LEVEL,
    ROW_TIME,
    ROW_START,
    ROW_COUNT
};

typedef struct {
    gmk_game_config cfg;
    int row;
} menu;

static bool row_shown(const menu *m, int row) {
    switch (row) {
    case ROW_SIDE: return m->cfg.mode == GMK_PLAY_HVC;
    case ROW_LEVEL: return m->cfg.mode != GMK_PLAY_HVH;
    case ROW_TIME: return m->cfg.mode != GMK_PLAY_HVH && m->cfg.level == gmk_level_count();
    default: return true;
    }
}

static int top_seconds(const gmk_game_config *c) {
    return (int)((c->top_level_ms ? c->top_level_ms : GMK_LEVEL_TOP_DEFAULT_MS) / 1000);
}

static void draw_menu(tui *t, void *ctx) {
    menu *m = ctx;
    int top, left, iw;
    tui_box(ROW_COUNT + 5, 62, &top, &left, &iw);
    tui_put(t, top, left, iw, A_BOLD, tui_tr(t->lang, T_NEW_GAME));
    static const tui_text names[ROW_COUNT] = {T_MENU_MODE,    T_MENU_SIDE, T_MENU_RULE,
                                              T_MENU_OPENING, T_MENU_SIZE, T_MENU_LEVEL,
                                              T_MENU_TIME,    T_MENU_START};
    static const tui_text openings[GMK_OPENING_COUNT] = {T_OPENING_FREE, T_OPENING_SWAP,
                                                         T_OPENING_SWAP2};
    int y = top + 2;
    for (int r = 0; r < ROW_COUNT; r++) {
        if (!row_shown(m, r)) continue;
        attr_t a = r == m->row ? A_REVERSE : A_NORMAL;
        char value[128] = "";
        switch (r) {
        case ROW_MODE:
            snprintf(value, sizeof value, "%s", tui_mode_name(t->lang, m->cfg.mode));
            break;
        case ROW_SIDE:
            snprintf(value, sizeof value, "%s",
                     tui_tr(t->lang, m->cfg.human == GMK_WHITE ? T_SIDE_WHITE : T_SIDE_BLACK));
            break;
        case ROW_RULE:
            snprintf(value, sizeof value, "%s", tui_rule_name(t->lang, m->cfg.rule));
            break;
        case ROW_OPENING:
            snprintf(value, sizeof value, "%s", tui_tr(t->lang, openings[m->cfg.opening]));
            break;
        case ROW_SIZE: snprintf(value, sizeof value, "%dx%d", m->cfg.size, m->cfg.size); break;
        case ROW_LEVEL:
            snprintf(value, sizeof value, "%d %s", m->cfg.level,
                     tui_level_name(t->lang, m->cfg.level));
            break;
        case ROW_TIME:
            snprintf(value, sizeof value, tui_tr(t->lang, T_SECONDS), top_seconds(&m->cfg));
            break;
        default: break;
        }
        if (r == ROW_START) {
            y++;
            tui_put(t, y, left + 2, iw - 2, a | A_BOLD, tui_tr(t->lang, T_MENU_START));
        } else {
            tui_put(t, y, left, 16, a, tui_tr(t->lang, names[r]));
            char shown[160];
            snprintf(shown, sizeof shown, "< %s >", value);
            tui_put(t, y, left + 18, iw - 18, a, shown);
        }
        y++;
    }
    tui_put(t, top + ROW_COUNT + 2, left, iw, A_DIM, tui_tr(t->lang, T_MENU_HELP));
}

static int wrap(int v, int lo, int hi) {
    return v < lo ? hi : v > hi ? lo : v;
}

static void menu_change(menu *m, int d) {
    gmk_game_config *c = &m->cfg;
    switch (m->row) {
    case ROW_MODE:
        c->mode = (gmk_play_mode)wrap((int)c->mode + d, 0, GMK_PLAY_MODE_COUNT - 1);
        break;
    case ROW_SIDE: c->human = c->human == GMK_BLACK ? GMK_WHITE : GMK_BLACK; break;
    case ROW_RULE: c->rule = (gmk_rule)wrap((int)c->rule + d, 0, GMK_RULE_COUNT - 1); break;
    case ROW_OPENING:
        c->opening = (gmk_opening)wrap((int)c->opening + d, 0, GMK_OPENING_COUNT - 1);
        break;
    case ROW_SIZE: c->size = wrap(c->size + d, GMK_MIN_SIZE, GMK_MAX_SIZE); break;
    case ROW_LEVEL: c->level = wrap(c->level + d, GMK_LEVEL_MIN, gmk_level_count()); break;
    case ROW_TIME: {
        int s = top_seconds(c) + d * (top_seconds(c) >= 10 ? 5 : 1);
        if (s < 1) s = 1;
        if (s > 120) s = 120;
        c->top_level_ms = (int64_t)s * 1000;
        break;
    }
    default: break;
    }
}

static void menu_step(menu *m, int d) {
    int r = m->row;
    do r = wrap(r + d, 0, ROW_COUNT - 1);
    while (!row_shown(m, r));
    m->row = r;
}

/* Starts a game with t->cfg. */
static void start_game(tui *t) {
    char err[128] = "";
    if (gmk_session_new_game(t->session, &t->cfg, NULL, err, sizeof err) != GMK_SESSION_OK) {
        snprintf(t->msg, sizeof t->msg, "%s", err);
        return;
    }
    t->cx = t->cy = t->cfg.size / 2;
    t->foul = GMK_POS_NONE;
    t->msg[0] = '\0';
}

static void new_game_menu(tui *t) {
    menu m = {.cfg = t->cfg, .row = ROW_START};
    for (;;) {
        int ch = modal_key(t, draw_menu, &m);
        switch (ch) {
        case KEY_UP:
        case 'k': menu_step(&m, -1); break;
        case KEY_DOWN:
        case 'j':
        case '\t': menu_step(&m, 1); break;
        case KEY_LEFT:
        case 'h': menu_change(&m, -1); break;
        case KEY_RIGHT:
        case 'l':
        case ' ': menu_change(&m, 1); break;
        case '\n':
        case '\r':
        case KEY_ENTER:
            t->cfg = m.cfg;
            save_config(t);
            start_game(t);
            return;
        case KEY_ESC:
        case 'q': return;
        default: break;
        }
    }
}

/* --- playing ---------------------------------------------------------------------------- */

static void after_move(tui *t, int ev) {
    (void)ev;
    check_store(t);
}

static void place(tui *t, gmk_pos p) {
    gmk_session_state st;
    gmk_session_get_state(t->session, &st);
    if (st.thinking) {
        after_move(t, gmk_session_move_now(t->session));
        return;
    }
    gmk_forbid_kind kind = GMK_FORBID_NONE;
    int ev = 0;
    char name[4];
    tui_point_name(t, p, name);
    gmk_play_verdict v = gmk_session_play(t->session, p, p == t->foul, &kind, &ev);
    t->msg[0] = '\0';
    switch (v) {
    case GMK_PLAY_OK: t->foul = GMK_POS_NONE; break;
    case GMK_PLAY_OCCUPIED:
        snprintf(t->msg, sizeof t->msg, tui_tr(t->lang, T_OCCUPIED), name);
        break;
    case GMK_PLAY_FORBIDDEN:
        t->foul = p;
        snprintf(t->msg, sizeof t->msg, tui_tr(t->lang, T_FORBIDDEN_POINT), name,
                 tui_forbid_name(t->lang, kind));
        break;
    case GMK_PLAY_NOT_YOUR_TURN:
        snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_NOT_YOUR_TURN));
        break;
    case GMK_PLAY_GAME_OVER:
        snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_GAME_OVER_KEYS));
        break;
    case GMK_PLAY_CHOOSE:
        snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_CHOOSE_FIRST));
        break;
    default: snprintf(t->msg, sizeof t->msg, tui_tr(t->lang, T_BAD_POINT), name); break;
    }
    after_move(t, ev);
}

static void move_cursor(tui *t, int dx, int dy) {
    int n = gmk_session_board(t->session)->size;
    t->cx = t->cx + dx < 0 ? 0 : t->cx + dx >= n ? n - 1 : t->cx + dx;
    t->cy = t->cy + dy < 0 ? 0 : t->cy + dy >= n ? n - 1 : t->cy + dy;
}

/* Keys while a coordinate is typed. */
static void typing_key(tui *t, int ch) {
    size_t len = strlen(t->typed);
    int n = gmk_session_board(t->session)->size;
    if (ch == KEY_ESC) {
        t->typing = false;
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (len)
            t->typed[len - 1] = '\0';
        else
            t->typing = false;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        t->typing = false;
        if (!len) return;
        gmk_pos p;
        char err[80];
        if (gmk_notation_parse_point(t->typed, n, &p, err, sizeof err)) {
            t->cx = gmk_pos_x(p);
            t->cy = gmk_pos_y(p);
            place(t, p);
        } else {
            snprintf(t->msg, sizeof t->msg, tui_tr(t->lang, T_BAD_POINT), t->typed);
        }
    } else if (ch < 128 && isalnum(ch) && len < sizeof t->typed - 1) {
        t->typed[len] = (char)tolower(ch);
        t->typed[len + 1] = '\0';
        gmk_pos p;
        if (gmk_notation_parse_point(t->typed, n, &p, NULL, 0)) { /* follow with the cursor */
            t->cx = gmk_pos_x(p);
            t->cy = gmk_pos_y(p);
        }
    }
}

static void start_typing(tui *t, int first) {
    t->typing = true;
    t->typed[0] = '\0';
    if (first) {
        t->typed[0] = (char)first;
        t->typed[1] = '\0';
    }
    t->msg[0] = '\0';
}

static void resign(tui *t) {
    gmk_session_state st;
    gmk_session_get_state(t->session, &st);
    if (st.over) {
        snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_GAME_OVER_KEYS));
        return;
    }
    if (st.mode == GMK_PLAY_CVC) {
        snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_RESIGN_NO_CVC));
        return;
    }
    const char *lines[] = {tui_tr(t->lang, T_RESIGN_ASK)};
    if (!ask_yes_no(t, lines, 1, false)) return;
    int ev = 0;
    gmk_session_resign(t->session, &ev);
    t->msg[0] = '\0';
    after_move(t, ev);
}

static void click(tui *t) {
    MEVENT m;
    if (getmouse(&m) != OK) return;
    if (!(m.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))) return;
    int x, y;
    if (!tui_cell_at(t, m.y, m.x, &x, &y)) return;
    t->cx = x;
    t->cy = y;
    place(t, gmk_pos_xy(x, y));
}

/* Handles a key; returns false to quit. While the board cannot be shown (the terminal is too
 * small) only quit and resize act. */
static bool game_key(tui *t, int ch) {
    if (!t->fits) return !(ch == 'q' || ch == 'Q');
    if (t->typing) {
        typing_key(t, ch);
        return true;
    }
    gmk_session_state st;
    gmk_session_get_state(t->session, &st);
    int n = st.size, ev = 0;
    if (st.human_chooses && (ch == 'b' || ch == 'w' || ch == 'p')) { /* a swap opening's choice */
        gmk_swap_choice c = ch == 'b'   ? GMK_SWAP_TAKE_BLACK
                            : ch == 'w' ? GMK_SWAP_TAKE_WHITE
                                        : GMK_SWAP_PLACE_TWO;
        t->msg[0] = '\0';
        if (!gmk_session_swap_choose(t->session, c, &ev))
            snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_CHOOSE_FIRST));
        after_move(t, ev);
        return true;
    }
    switch (ch) {
    case 'q':
    case 'Q': return false;
    case KEY_RESIZE: return true;
    case KEY_MOUSE: click(t); return true;
    case KEY_LEFT:
    case 'h': move_cursor(t, -1, 0); return true;
    case KEY_RIGHT:
    case 'l': move_cursor(t, 1, 0); return true;
    case KEY_UP:
    case 'k': move_cursor(t, 0, -1); return true;
    case KEY_DOWN:
    case 'j': move_cursor(t, 0, 1); return true;
    case '\n':
    case '\r':
    case ' ':
    case KEY_ENTER: place(t, gmk_pos_xy(t->cx, t->cy)); return true;
    case ':':
    case '/': start_typing(t, 0); return true;
    case 'u':
        t->msg[0] = '\0';
        if (st.over && !st.can_undo) /* a take-back after the end only against the computer */
            snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_GAME_OVER_KEYS));
        else if (!gmk_session_undo(t->session, &ev))
            snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_NOTHING_TO_UNDO));
        t->foul = GMK_POS_NONE;
        after_move(t, ev);
        return true;
    case 'U':
    case KEY_CTRL_R:
        t->msg[0] = '\0';
        if (!gmk_session_redo(t->session, &ev))
            snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_NOTHING_TO_REDO));
        after_move(t, ev);
        return true;
    case '?':
    case 't':
        t->msg[0] = '\0';
        if (!gmk_session_hint(t->session, &ev))
            snprintf(t->msg, sizeof t->msg, "%s", tui_tr(t->lang, T_NO_HINT_NOW));
        return true;
    case 'r': resign(t); return true;
    case 'n': new_game_menu(t); return true;
    case 's': show_scores(t); return true;
    case 'w': tui_show_coach(t); return true;
    case 'P': tui_puzzle_mode(t); return true;
    case 'R': tui_review(t); return true;
    default: break;
    }
    /* a column letter starts typing a coordinate (those not taken by a command above) */
    if (ch >= 'a' && ch < 'a' + n && !st.thinking) {
        start_typing(t, ch);
        return true;
    }
    /* any other key makes the computer move now */
    if (st.thinking) after_move(t, gmk_session_move_now(t->session));
    return true;
}

/* --- start-up --------------------------------------------------------------------------- */

static bool setup_locale(void) {
    setlocale(LC_ALL, "");
    if (strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return true;
    /* the environment's locale is missing or not UTF-8: keep its language, try UTF-8 */
    const char *fallbacks[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8"};
    for (int i = 0; i < 3; i++)
        if (setlocale(LC_CTYPE, fallbacks[i]) && strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
            return true;
    setlocale(LC_CTYPE, "");
    return false;
}

static void open_store(tui *t, const gmk_tui_options *opt, char *err, size_t errlen) {
    t->store = NULL;
    err[0] = '\0';
    if (opt->no_db) return;
    if (gmk_store_open(opt->db_path, GMK_STORE_OPEN_DEFAULT, &t->store, err, errlen) !=
        GMK_STORE_OK) {
        t->store = NULL;
        if (!err[0]) snprintf(err, errlen, "%s", opt->db_path ? opt->db_path : "?");
    }
}

static void offer_resume(tui *t) {
    gmk_store_game g;
    char err[256] = "";
    if (gmk_session_find_unfinished(t->session, &g, err, sizeof err) != GMK_SESSION_OK) {
        start_game(t);
        return;
    }
    char desc[256];
    snprintf(desc, sizeof desc, tui_tr(t->lang, T_RESUME_DESC),
             tui_mode_name(t->lang, g.mode == GMK_STORE_MODE_HVH   ? GMK_PLAY_HVH
                                    : g.mode == GMK_STORE_MODE_CVC ? GMK_PLAY_CVC
                                                                   : GMK_PLAY_HVC),
             tui_rule_name(t->lang, g.rule), g.size, g.size, g.move_count);
    const char *lines[] = {tui_tr(t->lang, T_RESUME_FOUND), desc, "",
                           tui_tr(t->lang, T_RESUME_ASK)};
    if (ask_yes_no(t, lines, 4, true)) {
        if (gmk_session_resume(t->session, t->cfg.top_level_ms, NULL, err, sizeof err) ==
            GMK_SESSION_OK) {
            gmk_session_state st;
            gmk_session_get_state(t->session, &st);
            t->cx = t->cy = st.size / 2;
            const gmk_board *b = gmk_session_board(t->session);
            if (b->move_count) {
                t->cx = gmk_pos_x(gmk_board_last(b));
                t->cy = gmk_pos_y(gmk_board_last(b));
            }
            check_store(t);
            return;
        }
        snprintf(t->msg, sizeof t->msg, "%s", err);
    } else {
        gmk_session_discard_unfinished(t->session, NULL, 0);
    }
    start_game(t);
    check_store(t);
}

int gmk_tui_run(const gmk_tui_options *opt) {
    static tui state; /* large; one game per process */
    tui *t = &state;
    memset(t, 0, sizeof *t);
    t->foul = GMK_POS_NONE;
    t->cx = t->cy = GMK_DEFAULT_SIZE / 2;
    bool utf8 = setup_locale();
    if (!tui_lang_choose(opt->lang, &t->lang)) t->lang = TUI_LANG_EN;
    t->utf8 = utf8 && !opt->ascii;
    if (!utf8) t->lang = TUI_LANG_EN; /* Chinese needs UTF-8 */

    char store_err[TUI_MSG_LEN - 100];
    open_store(t, opt, store_err, sizeof store_err);
    gmk_session_options so = {.seed = opt->seed, .threads = opt->threads};
    if (gmk_session_create(t->store, &so, &t->session) != GMK_SESSION_OK) {
        fprintf(stderr, "gomoku play: out of memory\n");
        gmk_store_close(t->store);
        return 1;
    }
    initial_config(t, opt);
    if (!opt->lang && t->store) {
        char v[16];
        if (!getenv("LC_ALL") && !getenv("LC_MESSAGES") && !getenv("LANG") &&
            gmk_session_setting_get(t->session, "lang", v, sizeof v))
            tui_lang_choose(v, &t->lang);
    }
    if (opt->lang)
        gmk_session_setting_set(t->session, "lang", t->lang == TUI_LANG_ZH ? "zh" : "en");

    if (!initscr()) {
        fprintf(stderr, "gomoku play: cannot use this terminal\n");
        gmk_session_free(t->session);
        gmk_store_close(t->store);
        return 1;
    }
    set_escdelay(25);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    timeout(TICK_MS);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL);
    mouseinterval(0);
    tui_colors_init(t, !opt->no_color && !getenv("NO_COLOR"));

    if (!opt->no_db && !t->store) {
        const char *lines[] = {tui_tr(t->lang, T_STORE_CANT_OPEN), store_err,
                               tui_tr(t->lang, T_PLAYING_UNSAVED), tui_tr(t->lang, T_PRESS_KEY)};
        start_game(t);
        message_box(t, lines, 4);
    } else if (t->store) {
        offer_resume(t);
    } else {
        start_game(t);
    }

    for (;;) {
        int ev = gmk_session_poll(t->session);
        if (ev) check_store(t);
        tui_draw(t);
        refresh();
        int ch = getch();
        if (ch == ERR) continue;
        if (!game_key(t, ch)) break;
    }
    endwin();
    gmk_session_state st;
    gmk_session_get_state(t->session, &st);
    gmk_session_free(t->session);
    gmk_store_close(t->store);
    if (!st.over && st.game_id && st.saving) printf("%s\n", tui_tr(t->lang, T_SAVED_BYE));
    return 0;
}
