/* review.c: game review (review.h). */
#include "game/review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/winrate.h"

/* A move into a proved loss, from a position the search had not proved lost, is a blunder when
 * the mover still had this much win rate (in points), and a mistake below it, whatever the
 * points it lost: the line that loses is certain, the win rate before it only an estimate.
 * Chess sites judge a move that lets a mate in the same way. */
enum { LOSS_MADE_BLUNDER_FROM = 10 };

bool gmk_review_begin(gmk_review *rv, gmk_rule rule, int size, const gmk_pos *moves, int count,
                      int64_t nodes, char *err, size_t errlen) {
    gmk_board b;
    if (count < 1 || count > GMK_MAX_MOVES) {
        snprintf(err, errlen, "the game has no moves to review");
        return false;
    }
    if (gmk_board_init(&b, size, rule) != GMK_OK) {
        snprintf(err, errlen, "bad board size %d", size);
        return false;
    }
    gmk_result res = {0};
    for (int i = 0; i < count; i++) {
        gmk_move_verdict v = gmk_rules_check_move(&b, moves[i], NULL);
        bool last = i == count - 1;
        if (v != GMK_MOVE_LEGAL && !(v == GMK_MOVE_FORBIDDEN && last)) {
            snprintf(err, errlen, "move %d is not a legal move", i + 1);
            return false;
        }
        gmk_board_make(&b, moves[i]);
        gmk_rules_result_after_last(&b, &res);
        if (res.outcome != GMK_ONGOING && !last) {
            snprintf(err, errlen, "move %d comes after the end of the game", i + 2);
            return false;
        }
    }
    memset(rv, 0, sizeof *rv);
    rv->rule = rule;
    rv->size = size;
    rv->count = count;
    rv->nodes = nodes > 0 ? nodes : GMK_REVIEW_NODES;
    rv->end = res.outcome;
    memcpy(rv->moves, moves, sizeof(gmk_pos) * (size_t)count);
    rv->positions = res.outcome == GMK_ONGOING ? count + 1 : count;
    if (res.outcome == GMK_ONGOING && gmk_board_full(&b)) rv->positions = count;
    return true;
}

void gmk_review_position(const gmk_review *rv, int i, gmk_board *out) {
    gmk_board_init(out, rv->size, rv->rule);
    for (int k = 0; k < i && k < rv->count; k++) gmk_board_make(out, rv->moves[k]);
    if (i >= 0 && i < rv->positions && rv->search[i].follow && rv->search[i].best != GMK_POS_NONE)
        gmk_board_make(out, rv->search[i].best);
}

void gmk_review_limits(const gmk_review *rv, gmk_limits *out) {
    memset(out, 0, sizeof *out);
    out->nodes = rv->nodes;
    out->threads = 1;
}

const char *gmk_review_label_name(gmk_review_label l) {
    static const char *const names[GMK_LABEL_COUNT] = {
        "none", "best", "good", "inaccuracy", "mistake", "blunder", "missed-win"};
    return l >= 0 && l < GMK_LABEL_COUNT ? names[l] : "none";
}

/* The mover's score after move i (the last move of a finished game: its result). */
static int score_after(const gmk_review *rv, int i, gmk_color mover) {
    if (i == rv->count - 1 && rv->positions == rv->count) {
        if (rv->end == GMK_DRAW || rv->end == GMK_ONGOING) return 0;
        bool won = (rv->end == GMK_BLACK_WINS) == (mover == GMK_BLACK);
        return won ? GMK_SCORE_WIN - 1 : -(GMK_SCORE_WIN - 1);
    }
    return -rv->search[i + 1].score;
}

/* A forced reply's position is worth what the position after the reply is worth (from the
 * end backwards, so that a run of forced replies is resolved). When the reply was not played
 * (the game ended on the spot), its value is unknown and stays as searched. */
static void resolve_forced(gmk_review *rv) {
    for (int j = rv->positions - 1; j >= 0; j--) {
        gmk_review_search *s = &rv->search[j];
        if (!s->forced || j >= rv->count || rv->moves[j] != s->best) continue;
        gmk_color mover = j % 2 ? GMK_WHITE : GMK_BLACK;
        s->score = score_after(rv, j, mover);
    }
}

static void label_moves(gmk_review *rv) {
    resolve_forced(rv);
    for (int i = 0; i < rv->count; i++) {
        gmk_review_move *m = &rv->move[i];
        const gmk_review_search *s = &rv->search[i];
        m->played = rv->moves[i];
        m->color = i % 2 ? GMK_WHITE : GMK_BLACK;
        m->best = s->best;
        m->pv_len = s->pv_len;
        memcpy(m->pv, s->pv, sizeof m->pv);
        m->score_best = s->score;
        m->score_played = score_after(rv, i, m->color);
        m->before = gmk_winrate_percent(rv->rule, m->score_best);
        m->after = gmk_winrate_percent(rv->rule, m->score_played);
        m->black_after = m->color == GMK_BLACK ? m->after : 100 - m->after;
        bool engine_move = m->played == m->best;
        m->lost = engine_move || m->after >= m->before ? 0 : m->before - m->after;
        bool win_there = gmk_score_is_mate(m->score_best, NULL) && m->score_best > 0;
        bool win_kept = gmk_score_is_mate(m->score_played, NULL) && m->score_played > 0;
        bool loss_there = gmk_score_is_mate(m->score_best, NULL) && m->score_best < 0;
        bool loss_made = gmk_score_is_mate(m->score_played, NULL) && m->score_played < 0;
        if (win_there && !win_kept && !engine_move && m->after < 90)
            m->label = GMK_LABEL_MISSED_WIN;
        else if (engine_move || m->lost == 0)
            m->label = engine_move ? GMK_LABEL_BEST : GMK_LABEL_GOOD;
        else if (loss_made && !loss_there && m->before >= LOSS_MADE_BLUNDER_FROM)
            m->label = GMK_LABEL_BLUNDER; /* walked into a proved loss with a game to play */
        else if (loss_made && !loss_there)
            m->label = GMK_LABEL_MISTAKE;
        else if (m->lost < 10)
            m->label = GMK_LABEL_GOOD;
        else if (m->lost < 20)
            m->label = GMK_LABEL_INACCURACY;
        else if (m->lost < 30)
            m->label = GMK_LABEL_MISTAKE;
        else
            m->label = GMK_LABEL_BLUNDER;
        m->turning = m->label >= GMK_LABEL_MISTAKE;
    }
    rv->complete = true;
}

void gmk_review_put(gmk_review *rv, int i, const gmk_search_result *r) {
    if (i < 0 || i >= rv->positions || rv->search[i].done) return;
    gmk_review_search *s = &rv->search[i];
    if (s->follow) {
        /* the position after the forced reply s->best, searched for the other side */
        s->score = -r->score;
        s->pv_len = 1;
        if (r->nlines > 0)
            for (int k = 0; k < r->lines[0].pv_len && s->pv_len < GMK_REVIEW_PV; k++)
                s->pv[s->pv_len++] = r->lines[0].pv[k];
        s->follow = false;
        s->done = true;
    } else {
        s->forced = r->nodes == 0 && !gmk_score_is_mate(r->score, NULL);
        s->best = r->best;
        s->score = r->score;
        s->pv_len = 0;
        if (r->nlines > 0)
            for (int k = 0; k < r->lines[0].pv_len && k < GMK_REVIEW_PV; k++)
                s->pv[s->pv_len++] = r->lines[0].pv[k];
        if (s->pv_len == 0 && r->best != GMK_POS_NONE) s->pv[s->pv_len++] = r->best;
        if (s->forced && i < rv->count && rv->moves[i] != r->best && r->best != GMK_POS_NONE) {
            s->forced = false;
            s->follow = true; /* search again after the reply */
            s->pv[0] = r->best;
            return;
        }
        s->done = true;
    }
    if (++rv->searched == rv->positions) label_moves(rv);
}

void gmk_review_run(gmk_review *rv, gmk_engine *e, const atomic_bool *stop,
                    void (*progress)(int done, int total, void *ctx), void *ctx) {
    gmk_limits limits;
    gmk_review_limits(rv, &limits);
    for (int i = 0; i < rv->positions; i++) {
        /* twice when the first search asks for a follow-up */
        while (!rv->search[i].done) {
            if (stop && atomic_load(stop)) return;
            gmk_board b;
            gmk_review_position(rv, i, &b);
            gmk_engine_clear(e); /* each search from a clear table: the same on any engine */
            gmk_engine_set_position(e, &b);
            gmk_search_result r;
            gmk_engine_search(e, &limits, NULL, &r);
            if (stop && atomic_load(stop)) return;
            gmk_review_put(rv, i, &r);
        }
        if (progress) progress(rv->searched, rv->positions, ctx);
    }
}

void gmk_review_tally(const gmk_review *rv, int counts[2][GMK_LABEL_COUNT]) {
    memset(counts, 0, sizeof(int) * 2 * GMK_LABEL_COUNT);
    if (!rv->complete) return;
    for (int i = 0; i < rv->count; i++) counts[rv->move[i].color == GMK_WHITE][rv->move[i].label]++;
}

/* --- the stored text ---------------------------------------------------------------------
 * "gmk-review 1 NODES POSITIONS\n" then one line per search: "BEST SCORE FORCED PVLEN PV..." with
 * points as x.y (GMK_POS_NONE as -1.-1). */

static int put_point(char *buf, size_t cap, gmk_pos p) {
    if (p == GMK_POS_NONE) return snprintf(buf, cap, " -1.-1");
    return snprintf(buf, cap, " %d.%d", gmk_pos_x(p), gmk_pos_y(p));
}

char *gmk_review_save_text(const gmk_review *rv) {
    size_t cap = 64 + (size_t)rv->positions * (24 + 8 * GMK_REVIEW_PV);
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t len =
        (size_t)snprintf(out, cap, "gmk-review 1 %lld %d\n", (long long)rv->nodes, rv->positions);
    for (int i = 0; i < rv->positions; i++) {
        const gmk_review_search *s = &rv->search[i];
        len += (size_t)put_point(out + len, cap - len, s->best);
        len += (size_t)snprintf(out + len, cap - len, " %d %d %d", s->score, s->forced ? 1 : 0,
                                s->pv_len);
        for (int k = 0; k < s->pv_len; k++)
            len += (size_t)put_point(out + len, cap - len, s->pv[k]);
        len += (size_t)snprintf(out + len, cap - len, "\n");
    }
    return out;
}

static bool read_long(const char **p, long lo, long hi, long *out) {
    char *end;
    long v = strtol(*p, &end, 10);
    if (end == *p || v < lo || v > hi) return false;
    *p = end;
    *out = v;
    return true;
}

static bool read_point(const char **p, int size, gmk_pos *out) {
    long x, y;
    if (!read_long(p, -1, size - 1, &x) || **p != '.') return false;
    (*p)++;
    if (!read_long(p, -1, size - 1, &y)) return false;
    if (x < 0 || y < 0) {
        if (x != -1 || y != -1) return false;
        *out = GMK_POS_NONE;
    } else {
        *out = gmk_pos_xy((int)x, (int)y);
    }
    return true;
}

bool gmk_review_load_text(gmk_review *rv, const char *text) {
    const char *p = text;
    if (!text || strncmp(p, "gmk-review 1 ", 13) != 0) return false;
    p += 13;
    long nodes, positions;
    if (!read_long(&p, 1, 1000000000000L, &nodes) || nodes != rv->nodes ||
        !read_long(&p, 1, GMK_MAX_MOVES + 1, &positions) || positions != rv->positions)
        return false;
    gmk_review_search *got = calloc((size_t)positions, sizeof *got);
    if (!got) return false;
    bool ok = true;
    for (long i = 0; ok && i < positions; i++) {
        long score, forced, pv_len;
        gmk_review_search *s = &got[i];
        ok = read_point(&p, rv->size, &s->best) &&
             read_long(&p, -GMK_SCORE_WIN, GMK_SCORE_WIN, &score) && read_long(&p, 0, 1, &forced) &&
             read_long(&p, 0, GMK_REVIEW_PV, &pv_len);
        for (long k = 0; ok && k < pv_len; k++) ok = read_point(&p, rv->size, &s->pv[k]);
        if (ok) {
            s->score = (int)score;
            s->forced = forced == 1;
            s->pv_len = (int)pv_len;
            s->done = true;
        }
    }
    if (ok) {
        for (long i = 0; i < positions; i++) rv->search[i] = got[i];
        rv->searched = rv->positions;
        label_moves(rv);
    }
    free(got);
    return ok;
}
