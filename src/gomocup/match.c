/* match.c: engine-vs-engine matches (see match.h). */
#include "match.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/gmk.h"
#include "core/record.h"
#include "proc.h"
#include "protocol.h"

enum {
    START_TIMEOUT_MS = 10000, /* for the OK to START */
    END_GRACE_MS = 1000,      /* for an engine to exit after END */
    LINE_MAX_LEN = 4096,
};
#define NO_LIMIT_MS (3600 * 1000LL) /* a move's deadline when no time control is set */

/* ---- statistics (pure) ---- */

static double elo_of(double score) {
    return -400.0 * log10(1.0 / score - 1.0);
}

void gmk_match_elo(int wins, int losses, int draws, double *elo, double *margin) {
    int n = wins + losses + draws;
    *elo = 0;
    *margin = 0;
    if (n == 0) return;
    double mu = (wins + 0.5 * draws) / n;
    if (mu <= 0 || mu >= 1) {
        *elo = mu <= 0 ? -9999 : 9999;
        *margin = 9999;
        return;
    }
    double var =
        (wins * (1 - mu) * (1 - mu) + losses * mu * mu + draws * (0.5 - mu) * (0.5 - mu)) / n;
    double se = sqrt(var / n);
    double lo = mu - 1.959964 * se, hi = mu + 1.959964 * se;
    *elo = elo_of(mu);
    if (lo <= 0 || hi >= 1)
        *margin = 9999;
    else
        *margin = (elo_of(hi) - elo_of(lo)) / 2;
}

double gmk_match_llr(int wins, int losses, int draws, double elo0, double elo1) {
    int n = wins + losses + draws;
    if (n == 0) return 0;
    double w = wins, l = losses, d = draws;
    double mu = (w + d / 2) / n;
    double var = (w + d / 4) / n - mu * mu;
    if (var <= 1e-9) { /* every game ended alike: smooth with half a win and half a loss */
        w += 0.5;
        l += 0.5;
        double m = w + l + d;
        mu = (w + d / 2) / m;
        var = (w + d / 4) / m - mu * mu;
    }
    double s0 = 1 / (1 + pow(10, -elo0 / 400)), s1 = 1 / (1 + pow(10, -elo1 / 400));
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var);
}

void gmk_match_sprt_bounds(double alpha, double beta, double *lower, double *upper) {
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}

bool gmk_match_parse_opening(const char *line, int size, gmk_move_list *out, char *err,
                             size_t errlen) {
    int c = size / 2, count = 0;
    const char *s = line;
    bool taken[GMK_CELLS] = {false};
    for (;;) {
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '\0' || *s == '\n' || *s == '\r') break;
        long v[2];
        for (int k = 0; k < 2; k++) {
            while (*s == ' ' || *s == '\t') s++;
            char *end;
            errno = 0;
            v[k] = strtol(s, &end, 10);
            if (end == s || errno || v[k] < -50 || v[k] > 50) {
                snprintf(err, errlen, "at character %d: expected an offset number",
                         (int)(s - line) + 1);
                return false;
            }
            s = end;
            while (*s == ' ' || *s == '\t') s++;
            if (k == 0) {
                if (*s != ',') {
                    snprintf(err, errlen, "at character %d: expected ',' between dx and dy",
                             (int)(s - line) + 1);
                    return false;
                }
                s++;
            }
        }
        int x = c + (int)v[0], y = c + (int)v[1];
        if (!gmk_xy_on_board(x, y, size)) {
            snprintf(err, errlen, "stone %d (%ld,%ld) is off the %dx%d board", count + 1, v[0],
                     v[1], size, size);
            return false;
        }
        gmk_pos p = gmk_pos_xy(x, y);
        if (taken[p]) {
            snprintf(err, errlen, "stone %d (%ld,%ld) is given twice", count + 1, v[0], v[1]);
            return false;
        }
        if (count >= size * size) {
            snprintf(err, errlen, "too many stones");
            return false;
        }
        taken[p] = true;
        out->pos[count] = p;
        out->color[count] = count % 2 == 0 ? GMK_BLACK : GMK_WHITE;
        count++;
        if (*s == ',') s++;
    }
    out->size = size;
    out->count = count;
    return true;
}

/* ---- the match ---- */

typedef enum {
    END_FIVE,
    END_FULL,
    END_MOVE_LIMIT,
    END_TIME,
    END_ILLEGAL,
    END_FOUL,
    END_ERROR,
    END_CRASH,
} end_kind;

static const char *const end_names[] = {"five in a row", "full board",     "move limit",  "time",
                                        "illegal move",  "forbidden move", "error reply", "crash"};

typedef struct {
    const gmk_match_options *o;
    FILE *out;
    gmk_move_list *openings;
    int nopenings, total;
    const char *names[2];
    pthread_mutex_t mu;
    int next;
    bool stop;
    gmk_match_summary sum;
    FILE *log, *sgf;
    int64_t t0;
    char write_error[512]; /* the first failed write of a record or the log, under mu */
} match_ctx;

typedef struct {
    int index, opening, black; /* black: the engine playing black */
    gmk_outcome outcome;
    end_kind how;
    gmk_reason rules_reason; /* with END_FIVE and END_FULL: the reason the rules gave */
    int culprit;             /* engine at fault for adjudications, else -1 */
    char detail[256];
    gmk_record rec;
    int64_t max_ms[2];
    int moves;
} game;

/* Notes the first write that failed (what, and errno). mu held. */
static void write_failed_locked(match_ctx *m, const char *what) {
    if (!m->write_error[0])
        snprintf(m->write_error, sizeof m->write_error, "cannot write %.300s: %s", what,
                 strerror(errno ? errno : EIO));
}

static void logf_line(match_ctx *m, int game_no, int engine, char dir, const char *text) {
    if (!m->log) return;
    pthread_mutex_lock(&m->mu);
    errno = 0;
    if (fprintf(m->log, "%9.3f game %d engine%d %c %s\n", (gmk_now_ms() - m->t0) / 1000.0,
                game_no + 1, engine + 1, dir, text) < 0 ||
        fflush(m->log) != 0)
        write_failed_locked(m, m->o->log_path);
    pthread_mutex_unlock(&m->mu);
}

static bool send(match_ctx *m, game *g, gmk_proc *p, int e, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static bool send(match_ctx *m, game *g, gmk_proc *p, int e, const char *fmt, ...) {
    char line[LINE_MAX_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    logf_line(m, g->index, e, '>', line);
    return gmk_proc_write_line(p, line);
}

static void set_end(game *g, end_kind how, gmk_outcome outcome, int culprit, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void set_end(game *g, end_kind how, gmk_outcome outcome, int culprit, const char *fmt, ...) {
    g->how = how;
    g->outcome = outcome;
    g->culprit = culprit;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->detail, sizeof g->detail, fmt, ap);
    va_end(ap);
}

/* A game the rules ended (a five, a full board, renju black without a legal point) ends as
 * the record's kind END_FIVE or END_FULL. */
static void set_rules_end(game *g, const gmk_result *res, const char *prefix) {
    bool draw = res->reason == GMK_REASON_FULL_BOARD || res->reason == GMK_REASON_NO_LEGAL_POINT;
    g->rules_reason = res->reason;
    set_end(g, draw ? END_FULL : END_FIVE, res->outcome, -1, "%s%s", prefix,
            gmk_reason_name(res->reason));
}

/* The engine e loses by adjudication. */
static gmk_outcome loss_of(const game *g, int e) {
    return e == g->black ? GMK_WHITE_WINS : GMK_BLACK_WINS;
}

static bool starts_with_word(const char *s, const char *word) {
    size_t n = strlen(word);
    if (strncasecmp(s, word, n) != 0) return false;
    return s[n] == '\0' || s[n] == ' ' || s[n] == '\t';
}

typedef enum { REPLY_MOVE, REPLY_TIMEOUT, REPLY_ERROR, REPLY_CRASH } reply_kind;

/* Reads until a move "x,y", skipping MESSAGE/DEBUG and unrecognised lines. *info_errors is
 * how many INFO lines were sent since the last move: INFO has no answer, so an ERROR before
 * the move may answer one of them (up to that many) rather than the move request. Such an
 * ERROR counts only if no move follows before the deadline. */
static reply_kind read_move(match_ctx *m, game *g, gmk_proc *p, int e, int64_t deadline, int *x,
                            int *y, char *text, size_t cap, int *info_errors) {
    char line[LINE_MAX_LEN];
    bool info_error = false;
    for (;;) {
        gmk_proc_status st = gmk_proc_read_line(p, deadline, line, sizeof line);
        if (st == GMK_PROC_TIMEOUT) return info_error ? REPLY_ERROR : REPLY_TIMEOUT;
        if (st == GMK_PROC_EOF) return REPLY_CRASH;
        logf_line(m, g->index, e, '<', line);
        const char *s = line;
        while (isspace((unsigned char)*s)) s++;
        if (*s == '\0' || starts_with_word(s, "MESSAGE") || starts_with_word(s, "DEBUG")) continue;
        if (starts_with_word(s, "ERROR") && *info_errors > 0) {
            (*info_errors)--;
            if (!info_error) snprintf(text, cap, "%s", s);
            info_error = true;
            continue;
        }
        if (starts_with_word(s, "ERROR") || starts_with_word(s, "UNKNOWN")) {
            snprintf(text, cap, "%s", s);
            return REPLY_ERROR;
        }
        if (starts_with_word(s, "SUGGEST")) {
            if (gmk_proto_parse_point(s + 7, x, y, NULL, 0)) send(m, g, p, e, "PLAY %d,%d", *x, *y);
            continue;
        }
        if (gmk_proto_parse_point(s, x, y, NULL, 0) && strchr(s, ',') == strrchr(s, ','))
            return REPLY_MOVE;
        /* anything else is logged and ignored */
    }
}

/* Starts engine e: START, then the INFO lines (counted in *infos). */
static bool start_engine(match_ctx *m, game *g, gmk_proc *p, int e, int *infos) {
    const gmk_match_options *o = m->o;
    if (!send(m, g, p, e, "START %d", o->size)) {
        set_end(g, END_CRASH, loss_of(g, e), e, "%s could not be started", m->names[e]);
        return false;
    }
    int64_t deadline = gmk_now_ms() + START_TIMEOUT_MS;
    char line[LINE_MAX_LEN];
    for (;;) {
        gmk_proc_status st = gmk_proc_read_line(p, deadline, line, sizeof line);
        if (st == GMK_PROC_TIMEOUT) {
            set_end(g, END_ERROR, loss_of(g, e), e, "%s did not answer START within %d ms",
                    m->names[e], START_TIMEOUT_MS);
            return false;
        }
        if (st == GMK_PROC_EOF) {
            char why[64];
            gmk_proc_describe_exit(p, why, sizeof why);
            set_end(g, END_CRASH, loss_of(g, e), e, "%s ended at START (%s)", m->names[e], why);
            return false;
        }
        logf_line(m, g->index, e, '<', line);
        if (strncasecmp(line, "OK", 2) == 0 && (line[2] == '\0' || isspace((unsigned char)line[2])))
            break;
        if (starts_with_word(line, "ERROR")) {
            set_end(g, END_ERROR, loss_of(g, e), e, "%s refused START: %s", m->names[e], line);
            return false;
        }
    }
    bool ok = send(m, g, p, e, "INFO timeout_turn %lld", (long long)o->turn_ms) &&
              send(m, g, p, e, "INFO timeout_match %lld", (long long)o->match_ms) &&
              send(m, g, p, e, "INFO max_memory %lld", (long long)o->max_memory) &&
              send(m, g, p, e, "INFO game_type 1") &&
              send(m, g, p, e, "INFO rule %d", gmk_rule_gomocup_number(o->rule));
    if (ok && o->increment_ms > 0)
        ok = send(m, g, p, e, "INFO time_increment %lld", (long long)o->increment_ms);
    for (int k = 0; ok && k < o->engine[e].ninfo; k++)
        ok = send(m, g, p, e, "INFO %s", o->engine[e].info[k]);
    *infos = 5 + (o->increment_ms > 0) + o->engine[e].ninfo;
    if (!ok) {
        set_end(g, END_CRASH, loss_of(g, e), e, "%s went away after START", m->names[e]);
        return false;
    }
    return true;
}

static void play_game(match_ctx *m, game *g) {
    const gmk_match_options *o = m->o;
    int pair = g->index / 2;
    g->black = g->index % 2; /* engine 1 is black in the first game of each pair */
    g->culprit = -1;
    g->opening = m->nopenings ? (o->opening_start + pair) % m->nopenings : -1;
    gmk_board bd;
    gmk_board_init(&bd, o->size, o->rule);
    gmk_record_init(&g->rec, o->size, o->rule);
    snprintf(g->rec.black, sizeof g->rec.black, "%s", m->names[g->black]);
    snprintf(g->rec.white, sizeof g->rec.white, "%s", m->names[1 - g->black]);
    if (g->opening >= 0) {
        const gmk_move_list *op = &m->openings[g->opening];
        for (int i = 0; i < op->count; i++) {
            gmk_board_make(&bd, op->pos[i]);
            gmk_record_add(&g->rec, op->pos[i], -1);
        }
    }
    gmk_color colour[2];
    colour[g->black] = GMK_BLACK;
    colour[1 - g->black] = GMK_WHITE;

    gmk_proc *proc[2] = {NULL, NULL};
    int infos[2] = {0, 0}; /* INFO lines sent to each engine since its last move */
    bool ended = false;
    for (int e = 0; e < 2 && !ended; e++) {
        char err[200];
        proc[e] = gmk_proc_spawn(o->engine[e].cmd, o->stderr_path, err, sizeof err);
        if (!proc[e]) {
            set_end(g, END_CRASH, loss_of(g, e), e, "%s: %s", m->names[e], err);
            ended = true;
        } else if (!start_engine(m, g, proc[e], e, &infos[e])) {
            ended = true;
        }
    }
    int64_t left[2] = {o->match_ms, o->match_ms};
    bool first[2] = {true, true};
    gmk_result res;
    gmk_rules_result(&bd, &res, NULL);
    if (!ended && res.outcome != GMK_ONGOING) {
        set_rules_end(g, &res, "the opening is already decided: ");
        ended = true;
    }
    while (!ended) {
        if (o->draw_after > 0 && bd.move_count >= o->draw_after) {
            set_end(g, END_MOVE_LIMIT, GMK_DRAW, -1, "draw after %d moves", bd.move_count);
            break;
        }
        int e = colour[0] == gmk_board_side(&bd) ? 0 : 1;
        gmk_proc *p = proc[e];
        bool ok = true;
        if (o->match_ms > 0) {
            ok = send(m, g, p, e, "INFO time_left %lld", (long long)left[e]);
            infos[e]++;
        }
        int64_t t0 = gmk_now_ms();
        if (ok && first[e]) {
            first[e] = false;
            if (bd.move_count == 0) {
                ok = send(m, g, p, e, "BEGIN");
            } else {
                ok = send(m, g, p, e, "BOARD");
                for (int i = 0; ok && i < bd.move_count; i++) {
                    gmk_pos q = bd.moves[i];
                    ok = send(m, g, p, e, "%d,%d,%d", gmk_pos_x(q), gmk_pos_y(q),
                              bd.stone[q] == colour[e] ? 1 : 2);
                }
                ok = ok && send(m, g, p, e, "DONE");
            }
        } else if (ok) {
            gmk_pos q = gmk_board_last(&bd);
            ok = send(m, g, p, e, "TURN %d,%d", gmk_pos_x(q), gmk_pos_y(q));
        }
        int64_t limit = o->turn_ms > 0 ? o->turn_ms : 0;
        if (o->match_ms > 0 && (limit == 0 || left[e] < limit)) limit = left[e] > 0 ? left[e] : 0;
        int64_t deadline =
            t0 + (o->turn_ms > 0 || o->match_ms > 0 ? limit : NO_LIMIT_MS) + o->tolerance_ms;
        int x = -1, y = -1;
        char text[LINE_MAX_LEN];
        reply_kind r = ok ? read_move(m, g, p, e, deadline, &x, &y, text, sizeof text, &infos[e])
                          : REPLY_CRASH;
        infos[e] = 0;
        int64_t spent = gmk_now_ms() - t0;
        if (spent > g->max_ms[e]) g->max_ms[e] = spent;
        const char *who = m->names[e];
        if (r == REPLY_CRASH) {
            char why[64];
            gmk_proc_describe_exit(p, why, sizeof why);
            set_end(g, END_CRASH, loss_of(g, e), e, "%s crashed (%s)", who, why);
            break;
        }
        if (r == REPLY_TIMEOUT) {
            set_end(g, END_TIME, loss_of(g, e), e, "%s gave no move within %lld ms", who,
                    (long long)(deadline - t0));
            break;
        }
        if (r == REPLY_ERROR) {
            set_end(g, END_ERROR, loss_of(g, e), e, "%s answered '%.120s'", who, text);
            break;
        }
        if (o->turn_ms > 0 && spent > o->turn_ms + o->tolerance_ms) {
            set_end(g, END_TIME, loss_of(g, e), e, "%s took %lld ms for a move (limit %lld + %lld)",
                    who, (long long)spent, (long long)o->turn_ms, (long long)o->tolerance_ms);
            break;
        }
        if (o->match_ms > 0) {
            left[e] -= spent;
            if (left[e] + o->tolerance_ms < 0) {
                set_end(g, END_TIME, loss_of(g, e), e, "%s ran out of game time (%lld ms over)",
                        who, (long long)-left[e]);
                break;
            }
            left[e] += o->increment_ms;
        }
        if (!gmk_xy_on_board(x, y, o->size)) {
            set_end(g, END_ILLEGAL, loss_of(g, e), e, "%s played %d,%d, off the board", who, x, y);
            break;
        }
        gmk_pos mv = gmk_pos_xy(x, y);
        gmk_forbid_kind kind;
        gmk_move_verdict v = gmk_rules_check_move(&bd, mv, &kind);
        if (v == GMK_MOVE_OCCUPIED) {
            set_end(g, END_ILLEGAL, loss_of(g, e), e, "%s played %d,%d, a taken point", who, x, y);
            break;
        }
        gmk_board_make(&bd, mv);
        gmk_record_add(&g->rec, mv, (int32_t)spent);
        g->moves++;
        if (v == GMK_MOVE_FORBIDDEN) {
            set_end(g, END_FOUL, GMK_WHITE_WINS, e, "%s played %d,%d, a %s", who, x, y,
                    gmk_forbid_name(kind));
            break;
        }
        gmk_rules_result_after_last(&bd, &res);
        if (res.outcome != GMK_ONGOING) {
            set_rules_end(g, &res, "");
            break;
        }
    }
    for (int e = 0; e < 2; e++)
        if (proc[e]) {
            send(m, g, proc[e], e, "END");
            gmk_proc_finish(proc[e], END_GRACE_MS);
        }
    g->rec.outcome = g->outcome;
    switch (g->how) {
    case END_FIVE:
    case END_FULL: g->rec.reason = g->rules_reason; break; /* only set_rules_end sets these */
    case END_TIME: g->rec.reason = GMK_REASON_TIME; break;
    case END_FOUL: g->rec.reason = GMK_REASON_FORBIDDEN; break;
    default: g->rec.reason = GMK_REASON_NONE; break;
    }
    g->rec.psq_code = (int)g->how <= END_MOVE_LIMIT ? 0 : (int)g->how - END_MOVE_LIMIT;
    snprintf(g->rec.note, sizeof g->rec.note, "%s: %.140s", end_names[g->how], g->detail);
}

static void write_outputs(match_ctx *m, game *g) {
    const gmk_match_options *o = m->o;
    size_t cap = 64 * 1024;
    char *buf = malloc(cap);
    if (!buf) return;
    if (o->psq_dir && gmk_record_write_psq(&g->rec, buf, cap) > 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/game-%04d.psq", o->psq_dir, g->index + 1);
        errno = 0;
        FILE *f = fopen(path, "w");
        bool ok = f && fputs(buf, f) >= 0;
        if (f && fclose(f) != 0) ok = false;
        if (!ok) {
            fprintf(m->out, "error: cannot write %s: %s\n", path, strerror(errno ? errno : EIO));
            write_failed_locked(m, path);
        }
    }
    if (m->sgf && gmk_record_write_sgf(&g->rec, buf, cap) > 0) {
        errno = 0;
        if (fputs(buf, m->sgf) < 0 || fflush(m->sgf) != 0) write_failed_locked(m, o->sgf_path);
    }
    free(buf);
}

static void print_game(match_ctx *m, const game *g) {
    const gmk_match_summary *s = &m->sum;
    const char *result = g->outcome == GMK_BLACK_WINS   ? "1-0"
                         : g->outcome == GMK_WHITE_WINS ? "0-1"
                                                        : "1/2";
    char opening[32] = "empty board";
    if (g->opening >= 0) snprintf(opening, sizeof opening, "opening %d", g->opening + 1);
    fprintf(m->out,
            "game %d/%d: %s (black) vs %s (white), %s: %s, %s, %d moves | %s: +%d -%d =%d "
            "%.1f%%",
            g->index + 1, m->total, m->names[g->black], m->names[1 - g->black], opening, result,
            g->detail, g->rec.count, m->names[0], s->wins, s->losses, s->draws,
            s->games ? 100.0 * (s->wins + 0.5 * s->draws) / s->games : 0.0);
    if (m->o->sprt) fprintf(m->out, " llr %.2f", s->llr);
    fputc('\n', m->out);
    fflush(m->out);
}

static void record_game(match_ctx *m, game *g) {
    pthread_mutex_lock(&m->mu);
    gmk_match_summary *s = &m->sum;
    s->games++;
    s->moves += g->moves;
    int winner = g->outcome == GMK_BLACK_WINS   ? g->black
                 : g->outcome == GMK_WHITE_WINS ? 1 - g->black
                                                : -1;
    if (winner == 0) s->wins++;
    if (winner == 1) s->losses++;
    if (winner < 0) s->draws++;
    if (g->outcome == GMK_BLACK_WINS) s->black_wins++;
    if (g->outcome == GMK_WHITE_WINS) s->white_wins++;
    if (g->culprit >= 0) {
        int c = g->culprit;
        if (g->how == END_TIME) s->time_losses[c]++;
        if (g->how == END_ILLEGAL) s->illegal[c]++;
        if (g->how == END_FOUL) s->fouls[c]++;
        if (g->how == END_ERROR) s->errors[c]++;
        if (g->how == END_CRASH) s->crashes[c]++;
    }
    for (int e = 0; e < 2; e++)
        if (g->max_ms[e] > s->max_move_ms[e]) s->max_move_ms[e] = g->max_ms[e];
    gmk_match_elo(s->wins, s->losses, s->draws, &s->elo, &s->elo_margin);
    s->score = (s->wins + 0.5 * s->draws) / s->games;
    if (m->o->sprt) {
        s->llr = gmk_match_llr(s->wins, s->losses, s->draws, m->o->elo0, m->o->elo1);
        if (s->llr >= s->llr_upper) s->sprt = GMK_SPRT_H1;
        if (s->llr <= s->llr_lower) s->sprt = GMK_SPRT_H0;
        if (s->sprt != GMK_SPRT_CONTINUE && !m->stop) {
            m->stop = true;
            s->stopped_early = m->next < m->total;
        }
    }
    write_outputs(m, g);
    if (!m->o->quiet) print_game(m, g);
    pthread_mutex_unlock(&m->mu);
}

static void *worker(void *arg) {
    match_ctx *m = arg;
    game *g = malloc(sizeof *g);
    if (!g) return NULL;
    for (;;) {
        pthread_mutex_lock(&m->mu);
        int idx = m->stop || m->next >= m->total ? -1 : m->next++;
        pthread_mutex_unlock(&m->mu);
        if (idx < 0) break;
        memset(g, 0, sizeof *g);
        g->index = idx;
        play_game(m, g);
        record_game(m, g);
    }
    free(g);
    return NULL;
}

static bool load_openings(match_ctx *m, char *err, size_t errlen) {
    const gmk_match_options *o = m->o;
    if (!o->openings) return true;
    FILE *f = fopen(o->openings, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", o->openings, strerror(errno));
        return false;
    }
    char line[4096];
    int lineno = 0, cap = 0;
    bool ok = true;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        const char *s = line;
        while (isspace((unsigned char)*s)) s++;
        if (*s == '\0' || *s == '#') continue;
        if (m->nopenings == cap) {
            cap = cap ? cap * 2 : 16;
            gmk_move_list *bigger = realloc(m->openings, (size_t)cap * sizeof *bigger);
            if (!bigger) {
                snprintf(err, errlen, "out of memory");
                ok = false;
                break;
            }
            m->openings = bigger;
        }
        char why[160];
        if (!gmk_match_parse_opening(s, o->size, &m->openings[m->nopenings], why, sizeof why)) {
            snprintf(err, errlen, "%s line %d: %s", o->openings, lineno, why);
            ok = false;
            break;
        }
        m->nopenings++;
    }
    fclose(f);
    if (ok && m->nopenings == 0) {
        snprintf(err, errlen, "%s holds no opening", o->openings);
        ok = false;
    }
    return ok;
}

void gmk_match_report(const gmk_match_options *o, const gmk_match_summary *s, FILE *out) {
    const char *n1 = o->engine[0].name ? o->engine[0].name : "engine1";
    const char *n2 = o->engine[1].name ? o->engine[1].name : "engine2";
    fprintf(out, "\nresult: %s vs %s: %d wins, %d losses, %d draws in %d games%s\n", n1, n2,
            s->wins, s->losses, s->draws, s->games, s->stopped_early ? " (stopped early)" : "");
    char elo[32], margin[32];
    if (s->elo >= 9999 || s->elo <= -9999)
        snprintf(elo, sizeof elo, "%sinf", s->elo > 0 ? "+" : "-");
    else
        snprintf(elo, sizeof elo, "%+.1f", s->elo);
    if (s->elo_margin >= 9999)
        snprintf(margin, sizeof margin, "inf");
    else
        snprintf(margin, sizeof margin, "%.1f", s->elo_margin);
    fprintf(out, "score: %.1f%%, elo %s +- %s (95%%)\n", 100 * s->score, elo, margin);
    fprintf(out, "colours: black won %d, white won %d, %d drawn; %d moves played by the engines\n",
            s->black_wins, s->white_wins, s->draws, s->moves);
    for (int e = 0; e < 2; e++)
        fprintf(out,
                "%s: longest move %lld ms; time losses %d, illegal moves %d, fouls %d, error "
                "replies %d, crashes %d\n",
                e == 0 ? n1 : n2, (long long)s->max_move_ms[e], s->time_losses[e], s->illegal[e],
                s->fouls[e], s->errors[e], s->crashes[e]);
    if (o->sprt)
        fprintf(out, "sprt: elo0 %g elo1 %g alpha %g beta %g: llr %.2f (%.2f, %.2f): %s\n", o->elo0,
                o->elo1, o->alpha, o->beta, s->llr, s->llr_lower, s->llr_upper,
                s->sprt == GMK_SPRT_H1   ? "H1 accepted"
                : s->sprt == GMK_SPRT_H0 ? "H0 accepted"
                                         : "no decision");
    fflush(out);
}

bool gmk_match_run(const gmk_match_options *o, FILE *out, gmk_match_summary *sum, char *err,
                   size_t errlen) {
    match_ctx m;
    memset(&m, 0, sizeof m);
    memset(sum, 0, sizeof *sum);
    m.o = o;
    m.out = out;
    m.names[0] = o->engine[0].name ? o->engine[0].name : "engine1";
    m.names[1] = o->engine[1].name ? o->engine[1].name : "engine2";
    m.t0 = gmk_now_ms();
    bool ok = false;
    pthread_t *threads = NULL;
    int started = 0;
    if (!o->engine[0].cmd || !o->engine[1].cmd) {
        snprintf(err, errlen, "two engine commands are needed");
        return false;
    }
    if (o->size < GMK_MIN_SIZE || o->size > GMK_MAX_SIZE) {
        snprintf(err, errlen, "board size %d is not supported (%d-%d)", o->size, GMK_MIN_SIZE,
                 GMK_MAX_SIZE);
        return false;
    }
    pthread_mutex_init(&m.mu, NULL);
    m.total = o->games > 0 ? o->games : 2 * o->rounds;
    if (m.total <= 0) {
        snprintf(err, errlen, "nothing to play: give --games or --rounds");
        goto done;
    }
    if (!load_openings(&m, err, errlen)) goto done;
    if (o->psq_dir && mkdir(o->psq_dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", o->psq_dir, strerror(errno));
        goto done;
    }
    if (o->sgf_path && !(m.sgf = fopen(o->sgf_path, "a"))) {
        snprintf(err, errlen, "cannot open %s: %s", o->sgf_path, strerror(errno));
        goto done;
    }
    if (o->log_path && !(m.log = fopen(o->log_path, "a"))) {
        snprintf(err, errlen, "cannot open %s: %s", o->log_path, strerror(errno));
        goto done;
    }
    if (o->sprt) gmk_match_sprt_bounds(o->alpha, o->beta, &m.sum.llr_lower, &m.sum.llr_upper);
    gmk_proc_ignore_sigpipe();
    signal(SIGXFSZ, SIG_IGN); /* past a file size limit, writes fail with EFBIG and are reported */
    int jobs = o->jobs > 0 ? o->jobs : 1;
    if (jobs > m.total) jobs = m.total;
    threads = calloc((size_t)jobs, sizeof *threads);
    if (!threads) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (int j = 0; j < jobs; j++) {
        if (pthread_create(&threads[j], NULL, worker, &m) != 0) break;
        started++;
    }
    if (started == 0) {
        snprintf(err, errlen, "cannot start a worker thread");
        goto done;
    }
    for (int j = 0; j < started; j++) pthread_join(threads[j], NULL);
    *sum = m.sum;
    gmk_match_report(o, sum, out);
    ok = true;
done:
    free(threads);
    free(m.openings);
    errno = 0;
    if (m.sgf && fclose(m.sgf) != 0) write_failed_locked(&m, o->sgf_path);
    errno = 0;
    if (m.log && fclose(m.log) != 0) write_failed_locked(&m, o->log_path);
    if (ok && m.write_error[0]) {
        snprintf(err, errlen, "%s: records are lost", m.write_error);
        ok = false;
    }
    if (ok && (fflush(out) != 0 || ferror(out))) {
        snprintf(err, errlen, "cannot write the report: %s", strerror(errno ? errno : EIO));
        ok = false;
    }
    pthread_mutex_destroy(&m.mu);
    return ok;
}
