/* pattern.c: line classification by a small dynamic program, and the lookup tables built from
 * it. The classification follows the definitions of RULES.md section 2: a five ends the game,
 * a four has one completion point, an open four two (for renju black: the two ends of one
 * straight four), and each lower shape is one stone away from the shape above it. */
#include "pattern.h"

#include "weights.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { OWN = 1, OPP = 2, WALL = 3, CENTRE = GMK_LINE_HALF };

/* Length of the own run through index i, and the cells just beyond it. */
static int run_through(const uint8_t *c, int i, uint8_t *left, uint8_t *right) {
    int l = i, r = i;
    while (l > 0 && c[l - 1] == OWN) l--;
    while (r < GMK_LINE_LEN - 1 && c[r + 1] == OWN) r++;
    *left = l > 0 ? c[l - 1] : WALL;
    *right = r < GMK_LINE_LEN - 1 ? c[r + 1] : WALL;
    return r - l + 1;
}

static bool is_five(int len, uint8_t left, uint8_t right, gmk_line_variant v) {
    switch (v) {
    case GMK_LINE_FREE: return len >= 5;
    case GMK_LINE_EXACT:
    case GMK_LINE_RENJU_BLACK: return len == 5;
    case GMK_LINE_CARO: return len == 5 && !(left == OPP && right == OPP);
    default: return false;
    }
}

static uint32_t key_of(const uint8_t *c) {
    uint32_t key = 0;
    for (int k = -GMK_LINE_HALF; k <= GMK_LINE_HALF; k++)
        if (k != 0) key |= (uint32_t)c[CENTRE + k] << gmk_key_shift(k);
    return key;
}

/* The DP. memo, when given, caches results by key (0xFF = not yet known). */
static gmk_pattern classify(uint8_t *c, gmk_line_variant v, uint8_t *memo) {
    uint32_t key = 0;
    if (memo) {
        key = key_of(c);
        if (memo[key] != 0xFF) return (gmk_pattern)memo[key];
    }
    gmk_pattern result = GMK_PAT_DEAD;
    uint8_t left, right;
    int len = run_through(c, CENTRE, &left, &right);
    if (is_five(len, left, right, v)) {
        result = GMK_PAT_F5;
        goto done;
    }
    if (len >= 6) {
        result = GMK_PAT_OL;
        goto done;
    }
    int five_points[GMK_LINE_LEN], n = 0;
    for (int q = 0; q < GMK_LINE_LEN; q++) {
        if (c[q] != 0) continue;
        c[q] = OWN;
        uint8_t l2, r2;
        int len2 = run_through(c, CENTRE, &l2, &r2);
        /* the run must contain q: it does when q touches the run through the centre */
        bool joined = true;
        for (int i = (q < CENTRE ? q : CENTRE); i <= (q < CENTRE ? CENTRE : q); i++)
            if (c[i] != OWN) joined = false;
        if (joined && is_five(len2, l2, r2, v)) five_points[n++] = q;
        c[q] = 0;
    }
    if (n > 0) {
        int pairs = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (five_points[j] - five_points[i] == 5) pairs++;
        int fours = n - pairs;
        if (v == GMK_LINE_RENJU_BLACK)
            result = fours >= 2 ? GMK_PAT_DF4 : pairs > 0 ? GMK_PAT_F4 : GMK_PAT_B4;
        else
            result = n >= 2 ? GMK_PAT_F4 : GMK_PAT_B4;
        goto done;
    }
    for (int q = 0; q < GMK_LINE_LEN; q++) {
        if (c[q] != 0) continue;
        c[q] = OWN;
        gmk_pattern child = classify(c, v, memo);
        c[q] = 0;
        gmk_pattern up = GMK_PAT_DEAD;
        switch (child) {
        case GMK_PAT_F4: up = GMK_PAT_F3; break;
        case GMK_PAT_B4: up = GMK_PAT_B3; break;
        case GMK_PAT_F3: up = GMK_PAT_F2; break;
        case GMK_PAT_B3: up = GMK_PAT_B2; break;
        case GMK_PAT_F2: up = GMK_PAT_F1; break;
        case GMK_PAT_B2: up = GMK_PAT_B1; break;
        default: break;
        }
        if (up > result) result = up;
    }
done:
    if (memo) memo[key] = (uint8_t)result;
    return result;
}

gmk_pattern gmk_pattern_classify_line(const uint8_t cells[GMK_LINE_LEN], gmk_line_variant v) {
    uint8_t c[GMK_LINE_LEN];
    memcpy(c, cells, sizeof c);
    return classify(c, v, NULL);
}

gmk_line_variant gmk_line_variant_of(gmk_rule rule, gmk_color color) {
    switch (rule) {
    case GMK_RULE_STANDARD: return GMK_LINE_EXACT;
    case GMK_RULE_RENJU: return color == GMK_BLACK ? GMK_LINE_RENJU_BLACK : GMK_LINE_FREE;
    case GMK_RULE_CARO: return GMK_LINE_CARO;
    default: return GMK_LINE_FREE;
    }
}

gmk_threat gmk_threat_of(const uint8_t pat[GMK_DIRS], gmk_line_variant v) {
    int n[GMK_PAT_COUNT] = {0};
    for (int d = 0; d < GMK_DIRS; d++) n[pat[d]]++;
    if (n[GMK_PAT_F5]) return GMK_TH_FIVE;
    int fours = n[GMK_PAT_B4] + n[GMK_PAT_F4] + 2 * n[GMK_PAT_DF4];
    if (v == GMK_LINE_RENJU_BLACK && (n[GMK_PAT_OL] || fours >= 2 || n[GMK_PAT_F3] >= 2))
        return GMK_TH_FORBID;
    if (n[GMK_PAT_F4] || fours >= 2) return GMK_TH_OPEN_FOUR;
    if (fours == 1 && n[GMK_PAT_F3]) return GMK_TH_FOUR_THREE;
    if (fours == 1) return GMK_TH_FOUR;
    if (n[GMK_PAT_F3] >= 2) return GMK_TH_DOUBLE_THREE;
    if (n[GMK_PAT_F3]) return GMK_TH_THREE;
    return GMK_TH_NONE;
}

/* Counts in a mixed radix: open threes, open fours, fives and overlines 0..4 each, fours 0..8
 * (a double four counts two). Every other pattern weighs nothing in a threat. */
const uint16_t gmk_tally_weight[GMK_PAT_COUNT] = {
    [GMK_PAT_F3] = 1,   [GMK_PAT_F4] = 5,   [GMK_PAT_F5] = 25,
    [GMK_PAT_OL] = 125, [GMK_PAT_B4] = 625, [GMK_PAT_DF4] = 1250,
};

/* Open twos, closed threes, open threes and fours (a same-line double four is one) 0..4 each. */
const uint16_t gmk_minor_weight[GMK_PAT_COUNT] = {
    [GMK_PAT_F2] = 1, [GMK_PAT_B3] = 5, [GMK_PAT_F3] = 25, [GMK_PAT_B4] = 125, [GMK_PAT_DF4] = 125,
};

int gmk_combo_of(const uint8_t pat[GMK_DIRS]) {
    int twos = 0, closed_threes = 0, open_threes = 0, fours = 0;
    for (int d = 0; d < GMK_DIRS; d++) {
        twos += pat[d] == GMK_PAT_F2;
        closed_threes += pat[d] == GMK_PAT_B3;
        open_threes += pat[d] == GMK_PAT_F3;
        fours += pat[d] == GMK_PAT_B4 || pat[d] == GMK_PAT_DF4;
    }
    return (twos > 2 ? 2 : twos) + 3 * (closed_threes > 2 ? 2 : closed_threes) +
           9 * (open_threes > 0) + 18 * (fours > 0);
}

int gmk_shape_score(const uint8_t pat[GMK_DIRS], gmk_rule rule, gmk_color c) {
    gmk_threat t = gmk_threat_of(pat, gmk_line_variant_of(rule, c));
    if (t == GMK_TH_FORBID) return 0;
    const gmk_shape_weights *w = gmk_shape_weights_of(gmk_weights_for(rule), c);
    int s = w->threat[t];
    for (int d = 0; d < GMK_DIRS; d++) s += w->pattern[pat[d]];
    return s;
}

/* Keys whose walls are not all at the outer ends of each side never occur on a board. */
static bool key_is_reachable(uint32_t key) {
    for (int side = -1; side <= 1; side += 2) {
        bool wall_seen = false;
        for (int dist = 1; dist <= GMK_LINE_HALF; dist++) {
            int cell = (key >> gmk_key_shift(side * dist)) & 3;
            if (cell == WALL)
                wall_seen = true;
            else if (wall_seen)
                return false;
        }
    }
    return true;
}

static uint32_t swap_colours(uint32_t key) {
    uint32_t ones = key & 0x55555u, twos = (key >> 1) & 0x55555u;
    uint32_t black = ones & ~twos, white = twos & ~ones;
    return (key & ~(black | (white << 1))) | (black << 1) | white;
}

static uint8_t *line_table[GMK_LINE_VARIANTS][3];
static uint8_t tally_table[GMK_LINE_VARIANTS][GMK_TALLY_COUNT];
static pthread_once_t variant_once[GMK_LINE_VARIANTS] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                         PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
/* The i-th of the PATTERN_COMBINATIONS ways to give a cell's four directions a pattern each. */
enum { PATTERN_COMBINATIONS = GMK_PAT_COUNT * GMK_PAT_COUNT * GMK_PAT_COUNT * GMK_PAT_COUNT };
static void nth_combination(int i, uint8_t pat[GMK_DIRS]) {
    for (int d = 0; d < GMK_DIRS; d++, i /= GMK_PAT_COUNT) pat[d] = (uint8_t)(i % GMK_PAT_COUNT);
}

/* Side numbering of the full keys (five cells a side) and of the near ones (four a side). */
static uint32_t left_base[1024], near_left_base[1024];
static uint16_t right_index[1024], near_right_index[1024];
static uint32_t pair_tally[GMK_PAIR_COUNT], pair_minor[GMK_PAIR_COUNT];
static uint8_t combo_by_minor[GMK_MINOR_TALLY_COUNT];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

/* Numbers the reachable codes of `slots` cells (2 bits each) of one side: in left codes slot 0
 * is the far cell, in right codes slot slots-1; walls may only fill the far end. Unreachable
 * codes get 0xFFFF. Returns the number of reachable codes. */
static int number_sides(int slots, uint16_t *left, uint16_t *right) {
    uint16_t next_left = 0, next_right = 0;
    for (uint32_t code = 0; code < (1u << (2 * slots)); code++) {
        left[code] = right[code] = 0xFFFF;
        bool left_ok = true, right_ok = true, wall_seen = false;
        for (int slot = slots - 1; slot >= 0; slot--) { /* near to far */
            int cell = (code >> (2 * slot)) & 3;
            if (cell == WALL)
                wall_seen = true;
            else if (wall_seen)
                left_ok = false;
        }
        wall_seen = false;
        for (int slot = 0; slot < slots; slot++) {
            int cell = (code >> (2 * slot)) & 3;
            if (cell == WALL)
                wall_seen = true;
            else if (wall_seen)
                right_ok = false;
        }
        if (left_ok) left[code] = next_left++;
        if (right_ok) right[code] = next_right++;
    }
    return next_left;
}

static void build_index(void) {
    uint16_t left[1024], near_left[256], near_right[256];
    int full = number_sides(GMK_LINE_HALF, left, right_index);
    int near = number_sides(GMK_LINE_HALF - 1, near_left, near_right);
    if (full != GMK_SIDE_STATES || near != GMK_NEAR_SIDE_STATES)
        abort(); /* fixed by the geometry */
    for (uint32_t code = 0; code < 1024; code++) {
        left_base[code] = left[code] == 0xFFFF ? 0 : (uint32_t)left[code] * GMK_SIDE_STATES;
        /* a near index drops the far cell: bits 0-1 of a left code, bits 8-9 of a right one */
        uint16_t nl = near_left[code >> 2], nr = near_right[code & 255];
        near_left_base[code] = nl == 0xFFFF ? 0 : (uint32_t)nl * GMK_NEAR_SIDE_STATES;
        near_right_index[code] = nr == 0xFFFF ? 0 : nr;
    }
    for (int pair = 0; pair < GMK_PAIR_COUNT; pair++) {
        uint8_t black = gmk_pair_pattern((uint8_t)pair, GMK_BLACK);
        uint8_t white = gmk_pair_pattern((uint8_t)pair, GMK_WHITE);
        pair_tally[pair] = gmk_tally_weight[black] | (uint32_t)gmk_tally_weight[white] << 16;
        pair_minor[pair] = gmk_minor_weight[black] | (uint32_t)gmk_minor_weight[white] << 16;
    }
    /* every combination of four patterns, so that each reachable minor tally is filled */
    uint8_t pat[GMK_DIRS];
    for (int i = 0; i < PATTERN_COMBINATIONS; i++) {
        nth_combination(i, pat);
        combo_by_minor[gmk_minor_tally(pat)] = (uint8_t)gmk_combo_of(pat);
    }
    for (uint32_t code = 0; code < 1024; code++) /* unreachable: any entry, never out of range */
        if (right_index[code] == 0xFFFF) right_index[code] = 0;
}

/* The full index of a reachable key, and the near one. */
static size_t full_index(uint32_t key) {
    return left_base[key & 1023] + right_index[key >> 10];
}
static size_t near_index(uint32_t key) {
    return near_left_base[key & 1023] + near_right_index[key >> 10];
}

static void build_variant(gmk_line_variant v) {
    size_t n = (size_t)1 << GMK_KEY_BITS;
    uint8_t *memo = malloc(n);
    uint8_t *own = malloc(GMK_LINE_ENTRIES), *flipped = malloc(GMK_LINE_ENTRIES);
    if (!memo || !own || !flipped) abort(); /* a few MB at start-up: nothing to do without */
    memset(memo, 0xFF, n);
    uint8_t c[GMK_LINE_LEN];
    for (uint32_t key = 0; key < n; key++) {
        if (!key_is_reachable(key)) continue;
        for (int k = -GMK_LINE_HALF; k <= GMK_LINE_HALF; k++)
            c[CENTRE + k] = k == 0 ? OWN : (key >> gmk_key_shift(k)) & 3;
        classify(c, v, memo);
    }
    for (uint32_t key = 0; key < n; key++) {
        if (!key_is_reachable(key)) continue;
        own[full_index(key)] = memo[key];
        flipped[full_index(key)] = memo[swap_colours(key)];
    }
    free(memo);
    line_table[v][GMK_BLACK] = own;
    line_table[v][GMK_WHITE] = flipped;
    /* every combination of four patterns, so that each reachable tally is filled */
    uint8_t pat[GMK_DIRS];
    for (int i = 0; i < PATTERN_COMBINATIONS; i++) {
        nth_combination(i, pat);
        tally_table[v][gmk_pattern_tally(pat)] = (uint8_t)gmk_threat_of(pat, v);
    }
}

static void build_free(void) {
    build_variant(GMK_LINE_FREE);
}
static void build_exact(void) {
    build_variant(GMK_LINE_EXACT);
}
static void build_renju_black(void) {
    build_variant(GMK_LINE_RENJU_BLACK);
}
static void build_caro(void) {
    build_variant(GMK_LINE_CARO);
}
static void (*const builders[GMK_LINE_VARIANTS])(void) = {build_free, build_exact,
                                                          build_renju_black, build_caro};

static gmk_pattern_tables rule_tables[GMK_RULE_COUNT];
static pthread_once_t rule_once[GMK_RULE_COUNT] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                   PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

static void build_rule(gmk_rule rule) {
    gmk_pattern_tables *t = &rule_tables[rule];
    pthread_once(&index_once, build_index);
    bool near = rule == GMK_RULE_FREESTYLE; /* the board keys reach four cells (board.h) */
    t->left_base = near ? near_left_base : left_base;
    t->right_index = near ? near_right_index : right_index;
    size_t entries = near ? GMK_NEAR_LINE_ENTRIES : GMK_LINE_ENTRIES;
    uint8_t *pairs = calloc(entries, 1);
    if (!pairs) abort();
    t->pair_tally = pair_tally;
    /* the rule's pattern weights by pair, and its threat bonuses */
    const gmk_weights *w = gmk_weights_for(rule);
    const gmk_shape_weights *wb = gmk_shape_weights_of(w, GMK_BLACK);
    const gmk_shape_weights *ww = gmk_shape_weights_of(w, GMK_WHITE);
    uint32_t *pair_weights = malloc(GMK_PAIR_COUNT * sizeof *pair_weights);
    if (!pair_weights) abort();
    for (int pair = 0; pair < GMK_PAIR_COUNT; pair++)
        pair_weights[pair] =
            (uint32_t)(uint16_t)wb->pattern[gmk_pair_pattern((uint8_t)pair, GMK_BLACK)] |
            (uint32_t)(uint16_t)ww->pattern[gmk_pair_pattern((uint8_t)pair, GMK_WHITE)] << 16;
    t->pair_weights = pair_weights;
    t->pair_minor = pair_minor;
    t->combo_by_minor = combo_by_minor;
    t->threat_bonus[GMK_BLACK] = wb->threat;
    t->threat_bonus[GMK_WHITE] = ww->threat;
    t->weights = w;
    for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
        gmk_line_variant v = gmk_line_variant_of(rule, c);
        pthread_once(&variant_once[v], builders[v]);
        t->threat_by_tally[c] = tally_table[v];
        /* A variant's table in the "own = 1" encoding is the black view; the flipped one is
         * the white view. The near tables take each entry from one full key with the same
         * near cells (the tests compare every full key with the classifier). */
        if (!near) {
            t->line[c] = line_table[v][c];
            continue;
        }
        uint8_t *line = calloc(entries, 1);
        if (!line) abort();
        for (uint32_t key = 0; key < ((uint32_t)1 << GMK_KEY_BITS); key++)
            if (key_is_reachable(key)) line[near_index(key)] = line_table[v][c][full_index(key)];
        t->line[c] = line;
    }
    for (size_t i = 0; i < entries; i++)
        pairs[i] = (uint8_t)(t->line[GMK_BLACK][i] * GMK_PAT_COUNT + t->line[GMK_WHITE][i]);
    t->line_pair = pairs;
}

static void build_freestyle_rule(void) {
    build_rule(GMK_RULE_FREESTYLE);
}
static void build_standard_rule(void) {
    build_rule(GMK_RULE_STANDARD);
}
static void build_renju_rule(void) {
    build_rule(GMK_RULE_RENJU);
}
static void build_caro_rule(void) {
    build_rule(GMK_RULE_CARO);
}
static void (*const rule_builders[GMK_RULE_COUNT])(void) = {
    build_freestyle_rule, build_standard_rule, build_renju_rule, build_caro_rule};

const gmk_pattern_tables *gmk_pattern_tables_for(gmk_rule rule) {
    if ((unsigned)rule >= GMK_RULE_COUNT) rule = GMK_RULE_FREESTYLE;
    pthread_once(&rule_once[rule], rule_builders[rule]);
    return &rule_tables[rule];
}

const char *gmk_pattern_name(gmk_pattern p) {
    static const char *const names[GMK_PAT_COUNT] = {"dead", "overline", "B1", "F1", "B2",  "F2",
                                                     "B3",   "F3",       "B4", "F4", "DF4", "F5"};
    return (unsigned)p < GMK_PAT_COUNT ? names[p] : "?";
}
