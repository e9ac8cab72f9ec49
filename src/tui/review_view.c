/* review_view.c: a game review inside the terminal game (key R; game/review.h, docs/review.md).
 * The engine goes over every position of the game on the board on a thread of its own, with a
 * progress bar over the game (Esc cancels); the result is kept in the store with the game, as
 * `gomoku review` and the web page keep it, so a game is reviewed once. Then a box shows each
 * side's tally and the turning points (mistakes, blunders, missed wins) with the better move,
 * until a key is pressed. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/review.h"
#include "store/reviews.h"
#include "tui_internal.h"

enum { KEY_ESC = 27, BOX_LINES = 16 };

typedef struct {
    gmk_review *rv;
    gmk_engine *engine;
    atomic_bool stop, finished;
    atomic_int done, total;
} review_job;

static const char *tr(const tui *t, const char *en, const char *zh) {
    return t->lang == TUI_LANG_ZH ? zh : en;
}

static void progress(int done, int total, void *ctx) {
    review_job *j = ctx;
    atomic_store(&j->done, done);
    atomic_store(&j->total, total);
}

static void *worker(void *arg) {
    review_job *j = arg;
    gmk_review_run(j->rv, j->engine, &j->stop, progress, j);
    atomic_store(&j->finished, true);
    return NULL;
}

static void draw_progress(tui *t, review_job *j) {
    int top, left, iw;
    tui_box(5, 50, &top, &left, &iw);
    int done = atomic_load(&j->done), total = atomic_load(&j->total);
    if (total < 1) total = j->rv->positions;
    char line[160];
    snprintf(line, sizeof line, tr(t, "Reviewing the game: %d of %d", "复盘中：%d / %d"), done,
             total);
    tui_put(t, top, left, iw, A_BOLD, line);
    int bar = iw - 2 > 40 ? 40 : iw - 2, fill = total > 0 ? bar * done / total : 0;
    char b[48];
    b[0] = '[';
    for (int i = 0; i < bar; i++) b[1 + i] = i < fill ? '#' : '-';
    b[bar + 1] = ']';
    b[bar + 2] = '\0';
    tui_put(t, top + 1, left, iw, A_NORMAL, b);
    tui_put(t, top + 3, left, iw, A_DIM, tr(t, "Esc cancel", "Esc 取消"));
}

/* Runs the searches still missing with a progress bar; false when cancelled. */
static bool run(tui *t, gmk_review *rv) {
    review_job *j = calloc(1, sizeof *j);
    if (!j) return false;
    j->rv = rv;
    atomic_store(&j->total, rv->positions);
    j->engine = gmk_engine_new(16u << 20);
    pthread_t th;
    if (!j->engine || pthread_create(&th, NULL, worker, j) != 0) {
        if (j->engine) gmk_engine_free(j->engine);
        free(j);
        return false;
    }
    while (!atomic_load(&j->finished)) {
        gmk_session_poll(t->session);
        tui_draw(t);
        curs_set(0);
        draw_progress(t, j);
        refresh();
        int ch = getch();
        if (ch == KEY_MOUSE) {
            MEVENT ev;
            getmouse(&ev);
        } else if (ch == KEY_ESC || ch == 'q') {
            atomic_store(&j->stop, true);
        }
    }
    pthread_join(th, NULL);
    gmk_engine_free(j->engine);
    free(j);
    return rv->complete;
}

static void show(tui *t, const gmk_review *rv, int64_t id) {
    static char text[BOX_LINES][200];
    const char *lines[BOX_LINES];
    int n = 0;
    if (id)
        snprintf(text[n], sizeof text[n],
                 tr(t, "Review of game #%lld: %d moves", "对局 #%lld 复盘：%d 手"), (long long)id,
                 rv->count);
    else
        snprintf(text[n], sizeof text[n], tr(t, "Review: %d moves", "复盘：%d 手"), rv->count);
    n++;
    int counts[2][GMK_LABEL_COUNT];
    gmk_review_tally(rv, counts);
    for (int c = 0; c < 2; c++, n++)
        snprintf(text[n], sizeof text[n],
                 tr(t, "%s: %d inaccuracies, %d mistakes, %d blunders, %d missed wins",
                    "%s：欠佳 %d，失误 %d，大错 %d，错失胜机 %d"),
                 tui_tr(t->lang, c ? T_WHITE : T_BLACK), counts[c][GMK_LABEL_INACCURACY],
                 counts[c][GMK_LABEL_MISTAKE], counts[c][GMK_LABEL_BLUNDER],
                 counts[c][GMK_LABEL_MISSED_WIN]);
    for (int i = 0; i < rv->count && n < BOX_LINES - 1; i++) {
        const gmk_review_move *m = &rv->move[i];
        if (!m->turning) continue;
        char mv[4], best[4] = "-";
        gmk_notation_point(m->played, rv->size, mv);
        if (m->best != GMK_POS_NONE) gmk_notation_point(m->best, rv->size, best);
        snprintf(text[n], sizeof text[n],
                 tr(t, "%d. %s %s: %s (%d%% -> %d%%), better %s",
                    "%d. %s %s：%s（%d%% -> %d%%），更好 %s"),
                 i + 1, tui_tr(t->lang, m->color == GMK_BLACK ? T_BLACK : T_WHITE), mv,
                 gmk_review_label_name(m->label), m->before, m->after, best);
        n++;
    }
    snprintf(text[n], sizeof text[n], "%s", tui_tr(t->lang, T_PRESS_KEY));
    n++;
    int w = 20;
    for (int i = 0; i < n; i++) {
        lines[i] = text[i];
        int lw = tui_width(t, text[i]) + 4;
        if (lw > w) w = lw;
    }
    for (;;) {
        gmk_session_poll(t->session);
        tui_draw(t);
        curs_set(0);
        int top, left, iw;
        tui_box(n + 2, w, &top, &left, &iw);
        for (int i = 0; i < n; i++)
            tui_put(t, top + i + (i == n - 1), left, iw,
                    i == 0       ? A_BOLD
                    : i == n - 1 ? A_DIM
                                 : A_NORMAL,
                    lines[i]);
        refresh();
        int ch = getch();
        if (ch == KEY_MOUSE) {
            MEVENT ev;
            getmouse(&ev);
            continue;
        }
        if (ch != ERR && ch != KEY_RESIZE) break;
    }
}

void tui_review(tui *t) {
    const gmk_board *b = gmk_session_board(t->session);
    gmk_session_state st;
    gmk_session_get_state(t->session, &st);
    if (b->move_count == 0) {
        snprintf(t->msg, sizeof t->msg, "%s", tr(t, "Nothing to review yet", "还没有可以复盘的棋"));
        return;
    }
    gmk_review *rv = malloc(sizeof *rv);
    char err[256] = "";
    if (!rv ||
        !gmk_review_begin(rv, b->rule, b->size, b->moves, b->move_count, 0, err, sizeof err)) {
        snprintf(t->msg, sizeof t->msg, "%s", rv ? err : "out of memory");
        free(rv);
        return;
    }
    char *text = NULL;
    if (t->store && st.game_id &&
        gmk_store_review_get(t->store, st.game_id, rv->count, rv->nodes, &text, NULL, 0) ==
            GMK_STORE_OK)
        gmk_review_load_text(rv, text); /* a damaged text is searched again */
    free(text);
    if (!rv->complete && !run(t, rv)) {
        snprintf(t->msg, sizeof t->msg, "%s", tr(t, "Review cancelled", "复盘已取消"));
        free(rv);
        return;
    }
    if (t->store && st.game_id) {
        char *saved = gmk_review_save_text(rv);
        if (saved) gmk_store_review_put(t->store, st.game_id, rv->count, rv->nodes, saved, NULL, 0);
        free(saved);
    }
    show(t, rv, st.game_id);
    free(rv);
}
