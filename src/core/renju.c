/* renju.c: the reference algorithm of RULES.md 2.3, on a scratch copy of the stones. */
#include "renju.h"

#include <string.h>

typedef struct {
    uint8_t s[GMK_CELLS];
} scratch;

static int run_len(const scratch *w, gmk_pos p, int step) {
    int n = 1;
    for (gmk_pos q = p + step; w->s[q] == GMK_BLACK; q += step) n++;
    for (gmk_pos q = p - step; w->s[q] == GMK_BLACK; q -= step) n++;
    return n;
}

/* q empty: would black at q make an exact five along step? */
static bool exact5_if(scratch *w, gmk_pos q, int step) {
    w->s[q] = GMK_BLACK;
    bool five = run_len(w, q, step) == 5;
    w->s[q] = GMK_EMPTY;
    return five;
}

static bool five_any_dir(scratch *w, gmk_pos q) {
    for (int d = 0; d < GMK_DIRS; d++)
        if (exact5_if(w, q, gmk_dir_step[d])) return true;
    return false;
}

/* p is black. */
static int fours_on_line(scratch *w, gmk_pos p, int step) {
    int ks[8], n = 0;
    for (int sign = -1; sign <= 1; sign += 2) {
        for (int k = 1; k <= 4; k++) {
            gmk_pos q = p + sign * k * step;
            if (w->s[q] == GMK_BLACK) continue;
            if (w->s[q] == GMK_EMPTY && exact5_if(w, q, step)) ks[n++] = sign * k;
            break; /* past the first non-black cell, cells between are not all black */
        }
    }
    int fours = n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (ks[j] - ks[i] == 5) fours--;
    return fours;
}

/* p and q are black; is the run through p along step a straight four containing q? */
static bool straight_four_through(scratch *w, gmk_pos p, gmk_pos q, int step) {
    gmk_pos lo = p, hi = p;
    while (w->s[lo - step] == GMK_BLACK) lo -= step;
    while (w->s[hi + step] == GMK_BLACK) hi += step;
    if ((hi - lo) / step + 1 != 4) return false;
    bool contains = false;
    for (gmk_pos r = lo; r <= hi; r += step)
        if (r == q) contains = true;
    if (!contains) return false;
    gmk_pos e1 = lo - step, e2 = hi + step;
    if (w->s[e1] != GMK_EMPTY || w->s[e2] != GMK_EMPTY) return false;
    return exact5_if(w, e1, step) && exact5_if(w, e2, step);
}

static gmk_forbid_kind classify(scratch *w, gmk_pos p);

static bool real_three_on_line(scratch *w, gmk_pos p, int step) {
    for (int k = -3; k <= 3; k++) {
        if (k == 0) continue;
        gmk_pos q = p + k * step;
        if (w->s[q] != GMK_EMPTY) continue;
        w->s[q] = GMK_BLACK;
        bool sf = straight_four_through(w, p, q, step);
        w->s[q] = GMK_EMPTY;
        if (!sf) continue;
        if (five_any_dir(w, q)) continue;
        if (gmk_forbid_is_foul(classify(w, q))) continue;
        return true;
    }
    return false;
}

static gmk_forbid_kind classify(scratch *w, gmk_pos p) {
    gmk_forbid_kind r = GMK_FORBID_NONE;
    int f[GMK_DIRS], fours = 0, threes = 0;
    w->s[p] = GMK_BLACK;
    for (int d = 0; d < GMK_DIRS; d++)
        if (run_len(w, p, gmk_dir_step[d]) == 5) {
            r = GMK_FORBID_FIVE;
            goto out;
        }
    for (int d = 0; d < GMK_DIRS; d++)
        if (run_len(w, p, gmk_dir_step[d]) >= 6) {
            r = GMK_FORBID_OVERLINE;
            goto out;
        }
    for (int d = 0; d < GMK_DIRS; d++) fours += f[d] = fours_on_line(w, p, gmk_dir_step[d]);
    if (fours >= 2) {
        r = GMK_FORBID_DOUBLE_FOUR;
        goto out;
    }
    for (int d = 0; d < GMK_DIRS; d++)
        if (!f[d] && real_three_on_line(w, p, gmk_dir_step[d]) && ++threes >= 2) {
            r = GMK_FORBID_DOUBLE_THREE;
            goto out;
        }
out:
    w->s[p] = GMK_EMPTY;
    return r;
}

gmk_forbid_kind gmk_renju_classify(const gmk_board *b, gmk_pos p) {
    if (!gmk_board_empty_at(b, p)) return GMK_FORBID_NONE;
    scratch w;
    memcpy(w.s, b->stone, sizeof w.s);
    return classify(&w, p);
}

gmk_forbid_kind gmk_renju_forbidden(const gmk_board *b, gmk_pos p) {
    if (!gmk_renju_is_candidate(b, p)) return GMK_FORBID_NONE;
    gmk_forbid_kind k = gmk_renju_classify(b, p);
    return gmk_forbid_is_foul(k) ? k : GMK_FORBID_NONE;
}

const char *gmk_forbid_name(gmk_forbid_kind k) {
    switch (k) {
    case GMK_FORBID_OVERLINE: return "overline";
    case GMK_FORBID_DOUBLE_FOUR: return "double-four";
    case GMK_FORBID_DOUBLE_THREE: return "double-three";
    default: return "";
    }
}
