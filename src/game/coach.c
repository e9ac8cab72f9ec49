/* coach.c: the coach's sentences (coach.h). */
#include "game/coach.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/threat.h"

enum { MAX_GROUPS = 32, MAX_STONES = 8, VCF_NODES = 200000, VCT_NODES = 200000 };

typedef struct {
    char *buf;
    size_t cap, len;
    int count;
    bool zh;
} out;

static void say(out *o, const char *en, const char *zh, ...) __attribute__((format(printf, 2, 0)));

static void say(out *o, const char *en, const char *zh, ...) {
    char line[512];
    va_list ap;
    va_start(ap, zh);
    vsnprintf(line, sizeof line, o->zh ? zh : en, ap);
    va_end(ap);
    size_t n = strlen(line);
    if (o->len + n + 2 > o->cap) return;
    memcpy(o->buf + o->len, line, n);
    o->len += n;
    o->buf[o->len++] = '\n';
    o->buf[o->len] = '\0';
    o->count++;
}

static const char *color_en(gmk_color c) {
    return c == GMK_BLACK ? "Black" : "White";
}
static const char *color_zh(gmk_color c) {
    return c == GMK_BLACK ? "黑方" : "白方";
}

/* "h8 h9 h10", the points sorted by column then row. */
static int cmp_pos(const void *a, const void *b) {
    gmk_pos p = *(const gmk_pos *)a, q = *(const gmk_pos *)b;
    int dx = gmk_pos_x(p) - gmk_pos_x(q);
    return dx ? dx : gmk_pos_y(q) - gmk_pos_y(p);
}

static void names(const gmk_pos *ps, int n, int size, bool sort, char *buf, size_t cap) {
    gmk_pos s[GMK_THREAT_MAX_SEQ];
    if (n > GMK_THREAT_MAX_SEQ) n = GMK_THREAT_MAX_SEQ;
    memcpy(s, ps, sizeof(gmk_pos) * (size_t)n);
    if (sort) qsort(s, (size_t)n, sizeof s[0], cmp_pos);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + 6 < cap; i++) {
        char p[4];
        gmk_notation_point(s[i], size, p);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "", p);
    }
}

/* "g7", "g7 or k7" ("g7 或 k7"). */
static void either(const gmk_pos *in, int n, int size, bool zh, char *buf, size_t cap) {
    gmk_pos ps[4];
    if (n > 4) n = 4;
    memcpy(ps, in, sizeof(gmk_pos) * (size_t)n);
    qsort(ps, (size_t)n, sizeof ps[0], cmp_pos);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + 10 < cap; i++) {
        char p[4];
        gmk_notation_point(ps[i], size, p);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? (zh ? " 或 " : " or ") : "", p);
    }
}

/* c's stones on the line through empty p along d that a move at p joins: out to four cells on
 * each side, across empty points, up to the first opponent stone or wall. */
static int line_stones(const gmk_board *b, gmk_pos p, int d, gmk_color c, gmk_pos *st) {
    int n = 0;
    for (int sgn = -1; sgn <= 1; sgn += 2)
        for (int k = 1; k <= 4; k++) {
            gmk_pos q = p + sgn * k * gmk_dir_step[d];
            if (b->stone[q] == c) {
                if (n < MAX_STONES) st[n++] = q;
            } else if (b->stone[q] != GMK_EMPTY) {
                break;
            }
        }
    return n;
}

/* c's stones next to p along d, without gaps (the stones a five at p completes). */
static int run_stones(const gmk_board *b, gmk_pos p, int d, gmk_color c, gmk_pos *st) {
    int n = 0;
    for (int sgn = -1; sgn <= 1; sgn += 2)
        for (gmk_pos q = p + sgn * gmk_dir_step[d]; b->stone[q] == c && n < MAX_STONES;
             q += sgn * gmk_dir_step[d])
            st[n++] = q;
    return n;
}

typedef struct {
    int n;
    gmk_pos stones[MAX_STONES];
    int npoints;
    gmk_pos points[4];
} group;

/* Adds point p for the stones st (sorted), merging with a group of the same stones. */
static void add_group(group *g, int *count, gmk_pos *st, int n, gmk_pos p) {
    qsort(st, (size_t)n, sizeof st[0], cmp_pos);
    for (int i = 0; i < *count; i++)
        if (g[i].n == n && memcmp(g[i].stones, st, sizeof(gmk_pos) * (size_t)n) == 0) {
            if (g[i].npoints < 4) g[i].points[g[i].npoints++] = p;
            return;
        }
    if (*count >= MAX_GROUPS) return;
    group *x = &g[(*count)++];
    x->n = n;
    memcpy(x->stones, st, sizeof(gmk_pos) * (size_t)n);
    x->npoints = 1;
    x->points[0] = p;
}

/* c's fours (a point that makes five) and open threes (a point that makes an open four). */
static void threats(const gmk_board *b, gmk_color c, group *fours, int *nf, group *threes,
                    int *nt) {
    *nf = *nt = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (b->stone[p] != GMK_EMPTY) continue;
            for (int d = 0; d < GMK_DIRS; d++) {
                int pat = gmk_cell_pattern(&b->cell[p], c, d);
                gmk_pos st[MAX_STONES];
                if (pat == GMK_PAT_F5) {
                    int n = run_stones(b, p, d, c, st);
                    if (n >= 4) add_group(fours, nf, st, n, p);
                } else if (pat == GMK_PAT_F4) {
                    int n = line_stones(b, p, d, c, st);
                    if (n == 3) add_group(threes, nt, st, n, p);
                }
            }
        }
}

static void describe_side(out *o, const gmk_board *b, gmk_color c) {
    group fours[MAX_GROUPS], threes[MAX_GROUPS];
    int nf, nt;
    threats(b, c, fours, &nf, threes, &nt);
    char st[64], pts[48];
    for (int i = 0; i < nf; i++) {
        names(fours[i].stones, fours[i].n, b->size, true, st, sizeof st);
        either(fours[i].points, fours[i].npoints, b->size, o->zh, pts, sizeof pts);
        if (fours[i].npoints >= 2)
            say(o, "%s has an open four (%s): five at %s, and both cannot be stopped.",
                "%s有活四（%s）：%s 都能成五，挡不住。", o->zh ? color_zh(c) : color_en(c), st,
                pts);
        else
            say(o, "%s has a four (%s): five at %s.", "%s有冲四（%s）：%s 成五。",
                o->zh ? color_zh(c) : color_en(c), st, pts);
    }
    for (int i = 0; i < nt; i++) {
        names(threes[i].stones, threes[i].n, b->size, true, st, sizeof st);
        either(threes[i].points, threes[i].npoints, b->size, o->zh, pts, sizeof pts);
        say(o, "%s has an open three (%s): %s makes an open four.",
            "%s有活三（%s）：下 %s 成活四。", o->zh ? color_zh(c) : color_en(c), st, pts);
    }
}

/* The side to move's forced win: 1 by fours, 2 by threes and fours, 0 none found. */
static int forced_win(const gmk_board *board, gmk_pos *seq, int *len) {
    gmk_board b = *board;
    gmk_threat_ctx ctx;
    if (!gmk_threat_ctx_init(&ctx, 1 << 16)) return 0;
    int found = 0;
    ctx.node_limit = VCF_NODES;
    if (gmk_vcf(&b, &ctx, 40, seq, len))
        found = 1;
    else {
        gmk_threat_ctx_clear(&ctx);
        ctx.nodes = 0;
        ctx.node_limit = VCT_NODES;
        if (gmk_vct(&b, &ctx, 8, seq, len)) found = 2;
    }
    gmk_threat_ctx_free(&ctx);
    return found;
}

static void say_win(out *o, const gmk_board *b, gmk_color c, int kind, const gmk_pos *seq,
                    int len) {
    char line[GMK_THREAT_MAX_SEQ * 5];
    names(seq, len, b->size, false, line, sizeof line);
    if (kind == 1)
        say(o, "%s wins by fours (VCF): %s.", "%s有连续冲四胜（VCF）：%s。",
            o->zh ? color_zh(c) : color_en(c), line);
    else
        say(o, "%s wins by threes and fours (VCT): %s.", "%s有连续活三冲四胜（VCT）：%s。",
            o->zh ? color_zh(c) : color_en(c), line);
}

int gmk_coach_position(const gmk_board *b, bool zh, char *buf, size_t cap) {
    out o = {buf, cap, 0, 0, zh};
    if (cap) buf[0] = '\0';
    gmk_color side = gmk_board_side(b);
    describe_side(&o, b, side);
    describe_side(&o, b, gmk_opponent(side));
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len = 0, kind = forced_win(b, seq, &len);
    if (kind)
        say_win(&o, b, side, kind, seq, len);
    else
        say(&o, "%s, to move, has no forced win by fours or threes.",
            "轮到%s，没有连续冲四或活三的必胜。", zh ? color_zh(side) : color_en(side));
    return o.count;
}

int gmk_coach_forbidden(const gmk_board *b, gmk_pos p, bool zh, char *buf, size_t cap) {
    out o = {buf, cap, 0, 0, zh};
    if (cap) buf[0] = '\0';
    char name[4], st[64];
    gmk_notation_point(p, b->size, name);
    if (b->rule != GMK_RULE_RENJU || !gmk_board_empty_at(b, p)) {
        say(&o, "%s is not forbidden: only black has forbidden points, in renju.",
            "%s 不是禁手：只有连珠规则下的黑棋有禁手。", name);
        return o.count;
    }
    gmk_forbid_kind k = gmk_renju_forbidden(b, p);
    if (!gmk_forbid_is_foul(k)) {
        say(&o, "%s is not forbidden for black.", "%s 对黑棋不是禁手。", name);
        return o.count;
    }
    int want = k == GMK_FORBID_DOUBLE_THREE  ? GMK_PAT_F3
               : k == GMK_FORBID_DOUBLE_FOUR ? GMK_PAT_B4
                                             : GMK_PAT_OL;
    gmk_pos lines[GMK_DIRS][MAX_STONES];
    int nl = 0, nst[GMK_DIRS];
    for (int d = 0; d < GMK_DIRS; d++) {
        int pat = gmk_cell_pattern(&b->cell[p], GMK_BLACK, d);
        bool match = k == GMK_FORBID_DOUBLE_FOUR
                         ? (pat == GMK_PAT_B4 || pat == GMK_PAT_F4 || pat == GMK_PAT_DF4)
                         : pat == want;
        if (!match) continue;
        nst[nl] = k == GMK_FORBID_OVERLINE ? run_stones(b, p, d, GMK_BLACK, lines[nl])
                                           : line_stones(b, p, d, GMK_BLACK, lines[nl]);
        nl++;
    }
    if (k == GMK_FORBID_OVERLINE) {
        names(lines[0], nl ? nst[0] : 0, b->size, true, st, sizeof st);
        say(&o, "%s is forbidden for black: an overline, six or more in a row with %s.",
            "%s 是黑棋禁手：长连，与 %s 连成六子以上。", name, st);
    } else if (k == GMK_FORBID_DOUBLE_FOUR) {
        say(&o, "%s is forbidden for black: a double four, two fours at once.",
            "%s 是黑棋禁手：四四，一子同时成两个四。", name);
    } else {
        say(&o, "%s is forbidden for black: a double three, two open threes at once.",
            "%s 是黑棋禁手：三三，一子同时成两个活三。", name);
    }
    if (k != GMK_FORBID_OVERLINE)
        for (int i = 0; i < nl; i++) {
            names(lines[i], nst[i], b->size, true, st, sizeof st);
            say(&o, "With %s: %s.", "与 %s：%s。", st,
                zh ? (k == GMK_FORBID_DOUBLE_FOUR ? "成四" : "成活三")
                   : (k == GMK_FORBID_DOUBLE_FOUR ? "a four" : "an open three"));
        }
    return o.count;
}

int gmk_coach_last_move(const gmk_board *board, bool zh, char *buf, size_t cap) {
    out o = {buf, cap, 0, 0, zh};
    if (cap) buf[0] = '\0';
    if (board->move_count == 0) {
        say(&o, "No move has been played yet.", "还没有落子。");
        return o.count;
    }
    gmk_board b = *board;
    gmk_pos last = gmk_board_last(&b);
    gmk_color mover = gmk_opponent(gmk_board_side(&b)), winner = gmk_board_side(&b);
    char name[4], st[64];
    gmk_notation_point(last, b.size, name);
    gmk_result r;
    gmk_rules_result_after_last(&b, &r);
    if (r.outcome == GMK_BLACK_WINS || r.outcome == GMK_WHITE_WINS) {
        if (r.reason == GMK_REASON_FIVE) {
            names(r.line, r.line_len, b.size, true, st, sizeof st);
            say(&o, "%s's %s made five: %s.", "%s的 %s 成五：%s。",
                zh ? color_zh(mover) : color_en(mover), name, st);
        } else {
            say(&o, "%s's %s was forbidden (%s), so %s wins.", "%s的 %s 是禁手（%s），%s胜。",
                zh ? color_zh(mover) : color_en(mover), name, gmk_forbid_name(r.forbid),
                zh ? color_zh(winner) : color_en(winner));
        }
        return o.count;
    }
    /* what the opponent has now */
    gmk_pos seq[GMK_THREAT_MAX_SEQ];
    int len = 0, kind = forced_win(&b, seq, &len);
    if (!kind) {
        say(&o, "%s's %s did not lose by force: %s has no forced win by fours or threes.",
            "%s的 %s 没有直接输棋：%s没有连续冲四或活三的必胜。",
            zh ? color_zh(mover) : color_en(mover), name, zh ? color_zh(winner) : color_en(winner));
        return o.count;
    }
    say(&o, "After %s's %s:", "%s下 %s 之后：", zh ? color_zh(mover) : color_en(mover), name);
    say_win(&o, &b, winner, kind, seq, len);
    /* before it: was the win there already, and what would have stopped it? */
    gmk_board before = b;
    gmk_board_undo(&before);
    gmk_pos seq2[GMK_THREAT_MAX_SEQ];
    int len2 = 0;
    /* a defence: a move of the mover, instead of the last one, after which the opponent has
     * no forced win; tried among the points of the opponent's winning line and its fours */
    gmk_pos cand[GMK_THREAT_MAX_SEQ + 8];
    int nc = 0;
    for (int i = 0; i < len && nc < 12; i += 2) cand[nc++] = seq[i]; /* the attacker's points */
    for (int y = 0; y < b.size && nc < 20; y++)
        for (int x = 0; x < b.size && nc < 20; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            if (b.stone[p] == GMK_EMPTY && b.cell[p].threat[winner] >= GMK_TH_FOUR) cand[nc++] = p;
        }
    for (int i = 0; i < nc; i++) {
        gmk_pos q = cand[i];
        if (q == last || !gmk_board_empty_at(&before, q) ||
            gmk_rules_check_move(&before, q, NULL) != GMK_MOVE_LEGAL)
            continue;
        gmk_board t = before;
        gmk_board_make(&t, q);
        if (!forced_win(&t, seq2, &len2)) {
            char qn[4];
            gmk_notation_point(q, b.size, qn);
            say(&o, "%s at %s instead would have stopped it.", "%s若下在 %s 就能防住。",
                zh ? color_zh(mover) : color_en(mover), qn);
            return o.count;
        }
    }
    say(&o, "No defence was found among the points of that line: the win was likely there before.",
        "在这条变化的要点上找不到防守：这一胜势很可能之前就已形成。");
    return o.count;
}
