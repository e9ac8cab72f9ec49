/* swap.c: the opening rules swap and swap2 (see swap.h). */
#include "swap.h"

#include <string.h>

/* Three-stone openings (black, white, black) as offsets from the centre: the first
 * three-stone lines of Piskvork's opening list (../shared/testdata/openings). */
static const int openings[GMK_SWAP_CANDIDATES][6] = {
    {0, 0, 1, 0, 1, 3}, {0, 0, 1, 1, 0, 3}, {0, 0, 1, 0, 0, 3},
    {0, 0, 1, 1, 1, 3}, {0, 0, 1, 0, 3, 0}, {0, 0, 1, 1, -1, 3},
};
/* The proposal on boards too small for any of them (5x5, 6x6). */
static const int compact[6] = {0, 0, 1, 0, 0, 1};

const char *gmk_opening_name(gmk_opening o) {
    switch (o) {
    case GMK_OPENING_FREE: return "free";
    case GMK_OPENING_SWAP: return "swap";
    case GMK_OPENING_SWAP2: return "swap2";
    default: return "?";
    }
}

bool gmk_opening_parse(const char *text, gmk_opening *out) {
    if (!text) return false;
    if (strcmp(text, "free") == 0 || strcmp(text, "none") == 0) {
        *out = GMK_OPENING_FREE;
    } else if (strcmp(text, "swap") == 0 || strcmp(text, "swap1") == 0) {
        *out = GMK_OPENING_SWAP;
    } else if (strcmp(text, "swap2") == 0) {
        *out = GMK_OPENING_SWAP2;
    } else {
        return false;
    }
    return true;
}

const char *gmk_swap_phase_name(gmk_swap_phase p) {
    switch (p) {
    case GMK_SWAP_PLACE3: return "place3";
    case GMK_SWAP_CHOOSE: return "choose";
    case GMK_SWAP_PLACE2: return "place2";
    case GMK_SWAP_CHOOSE5: return "choose5";
    default: return "";
    }
}

const char *gmk_swap_choice_name(gmk_swap_choice c) {
    switch (c) {
    case GMK_SWAP_TAKE_BLACK: return "black";
    case GMK_SWAP_TAKE_WHITE: return "white";
    case GMK_SWAP_PLACE_TWO: return "place2";
    default: return "?";
    }
}

bool gmk_swap_choice_parse(const char *text, gmk_swap_choice *out) {
    if (!text) return false;
    for (int c = GMK_SWAP_TAKE_BLACK; c <= GMK_SWAP_PLACE_TWO; c++)
        if (strcmp(text, gmk_swap_choice_name((gmk_swap_choice)c)) == 0) {
            *out = (gmk_swap_choice)c;
            return true;
        }
    return false;
}

bool gmk_swap_choice_allowed(gmk_opening o, gmk_swap_phase p, gmk_swap_choice c) {
    if (p == GMK_SWAP_CHOOSE)
        return c == GMK_SWAP_TAKE_BLACK || c == GMK_SWAP_TAKE_WHITE ||
               (c == GMK_SWAP_PLACE_TWO && o == GMK_OPENING_SWAP2);
    if (p == GMK_SWAP_CHOOSE5) return c == GMK_SWAP_TAKE_BLACK || c == GMK_SWAP_TAKE_WHITE;
    return false;
}

gmk_swap_phase gmk_swap_first_phase(gmk_opening o) {
    return o == GMK_OPENING_SWAP || o == GMK_OPENING_SWAP2 ? GMK_SWAP_PLACE3 : GMK_SWAP_NONE;
}

gmk_swap_phase gmk_swap_after_stone(gmk_swap_phase p, int stones) {
    if (p == GMK_SWAP_PLACE3 && stones >= 3) return GMK_SWAP_CHOOSE;
    if (p == GMK_SWAP_PLACE2 && stones >= 5) return GMK_SWAP_CHOOSE5;
    return p;
}

static bool fits(const int *o, int c, int size) {
    for (int s = 0; s < 3; s++)
        if (!gmk_xy_on_board(c + o[2 * s], c + o[2 * s + 1], size)) return false;
    return true;
}

static void put(const int *o, int c, gmk_pos out[3]) {
    for (int s = 0; s < 3; s++) out[s] = gmk_pos_xy(c + o[2 * s], c + o[2 * s + 1]);
}

int gmk_swap_candidates(int size, gmk_pos out[][3]) {
    int c = size / 2, n = 0;
    for (int k = 0; k < GMK_SWAP_CANDIDATES; k++)
        if (fits(openings[k], c, size)) put(openings[k], c, out[n++]);
    if (n == 0) put(compact, c, out[n++]);
    return n;
}

int gmk_swap_pick(const int *scores, int n) {
    int best = -1, best_abs = 0;
    for (int k = 0; k < n; k++) {
        int a = scores[k] < 0 ? -scores[k] : scores[k];
        if (best < 0 || a < best_abs) {
            best = k;
            best_abs = a;
        }
    }
    return best;
}

bool gmk_swap_takes_black(int score_for_white) {
    return score_for_white < 0;
}
