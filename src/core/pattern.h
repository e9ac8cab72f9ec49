/* pattern.h: line patterns and per-cell threat codes, from lookup tables.
 *
 * A line key packs the 10 neighbours of a cell along one direction (5 on each side, 2 bits each:
 * empty, black, white, wall) into 20 bits; the cell itself is left out. For each rule and colour
 * a table turns a key into the pattern that colour makes on that line by playing the cell (five,
 * open four, four, open three, ...). The four directional patterns of a cell combine into a
 * threat code and a shape score. Tables are built once, on first use of a rule, and are
 * read-only afterwards; every function here is safe to call from any thread.
 *
 * The classifier that builds the tables (gmk_pattern_classify_line) is public so that tests can
 * compare the tables with a direct scan. */
#ifndef GMK_PATTERN_H
#define GMK_PATTERN_H

#include "defs.h"

/* What a colour makes on one line by playing a cell, weakest first. */
typedef enum {
    GMK_PAT_DEAD = 0, /* cannot make five on this line */
    GMK_PAT_OL,       /* makes a six or longer that does not win (renju black: forbidden) */
    GMK_PAT_B1,       /* one stone, one way to grow */
    GMK_PAT_F1,
    GMK_PAT_B2,  /* closed two */
    GMK_PAT_F2,  /* open two */
    GMK_PAT_B3,  /* closed three 眠三: one move from a four */
    GMK_PAT_F3,  /* open three 活三: one move from an open four */
    GMK_PAT_B4,  /* four 冲四: one point makes five */
    GMK_PAT_F4,  /* open four 活四: two points make five */
    GMK_PAT_DF4, /* renju black only: two fours on one line (forbidden) */
    GMK_PAT_F5,  /* five: the move wins */
    GMK_PAT_COUNT
} gmk_pattern;

/* Combined threat of one cell for one colour, weakest first. */
typedef enum {
    GMK_TH_NONE = 0,
    GMK_TH_THREE,        /* one open three */
    GMK_TH_DOUBLE_THREE, /* two or more open threes */
    GMK_TH_FOUR,         /* a four (closed) */
    GMK_TH_FOUR_THREE,   /* a four and an open three */
    GMK_TH_OPEN_FOUR,    /* an open four or two fours: wins next move */
    GMK_TH_FIVE,         /* wins now */
    GMK_TH_FORBID,       /* renju black: may be forbidden; the exact check decides */
    GMK_TH_COUNT
} gmk_threat;

/* The rule variants a line can be judged by. Renju uses RENJU_BLACK for black and FREE for
 * white; the other rules use one variant for both colours. */
typedef enum {
    GMK_LINE_FREE = 0,
    GMK_LINE_EXACT,
    GMK_LINE_RENJU_BLACK,
    GMK_LINE_CARO,
    GMK_LINE_VARIANTS
} gmk_line_variant;

enum { GMK_LINE_HALF = 5, GMK_LINE_LEN = 2 * GMK_LINE_HALF + 1, GMK_KEY_BITS = 20 };

/* The variant that judges `color`'s lines under `rule`. */
gmk_line_variant gmk_line_variant_of(gmk_rule rule, gmk_color color);

/* Classifies a line of GMK_LINE_LEN cells seen by the colour that owns index GMK_LINE_HALF:
 * cells hold 0 empty, 1 own stone, 2 opponent stone, 3 wall. cells[GMK_LINE_HALF] must be 1.
 * This is the slow, direct definition the tables are built from. */
gmk_pattern gmk_pattern_classify_line(const uint8_t cells[GMK_LINE_LEN], gmk_line_variant v);

/* Bit shift of the neighbour at offset k (k = -5..5, k != 0) inside a line key. */
static inline int gmk_key_shift(int k) {
    return 2 * (k < 0 ? k + GMK_LINE_HALF : k + GMK_LINE_HALF - 1);
}

/* A key has 364 possible values per side (walls only at the far end), so the line tables are
 * indexed by a compact index of 364 * 364 entries. Under freestyle a cell five away never
 * changes a pattern (every five through the cell lies within four cells of it), so the
 * freestyle tables ignore the far cell of each side: 121 values per side, 14,641 entries, and
 * the table of both colours' patterns (14 KB) stays in the first-level cache. */
enum {
    GMK_SIDE_STATES = 364,
    GMK_LINE_ENTRIES = GMK_SIDE_STATES * GMK_SIDE_STATES,
    GMK_NEAR_SIDE_STATES = 121,
    GMK_NEAR_LINE_ENTRIES = GMK_NEAR_SIDE_STATES * GMK_NEAR_SIDE_STATES
};

/* A cell's threat depends only on how many of its four patterns are fives, open fours, fours
 * (a same-line double four counting two), open threes and overlines; its shape score is the sum
 * of the four pattern weights plus a bonus for the threat (0 for a renju black cell that may be
 * forbidden). So a cell keeps a tally, the sum of gmk_tally_weight over its four patterns, and
 * the sum of its pattern weights. Both change by a difference when one direction changes, and
 * the threat is read from a table of GMK_TALLY_COUNT bytes (a table over the full combination
 * of four patterns takes 83 KB and stalls the board updates on cache misses). */
enum { GMK_TALLY_COUNT = 5 * 5 * 5 * 5 * 9 };
extern const uint16_t gmk_tally_weight[GMK_PAT_COUNT];

/* Beside its threat, a cell has a combination class for each colour: how many of its four
 * patterns are open twos (0, 1, 2 or more) and closed threes (0, 1, 2 or more), and whether any
 * is an open three and any a four (GMK_COMBO_COUNT classes; gmk_combo_of). The evaluation gives
 * each class a weight (weights.h): a point that makes two twos, or a three and a two, at once is
 * worth more than its lines apart. The board reads the class from a minor tally, the sum of
 * gmk_minor_weight over the four patterns (twos, closed threes, open threes and fours counted
 * in base 5). */
enum { GMK_COMBO_COUNT = 36, GMK_MINOR_TALLY_COUNT = 625 };
extern const uint16_t gmk_minor_weight[GMK_PAT_COUNT];

/* The combination class of four directional patterns (the definition the tables use). */
int gmk_combo_of(const uint8_t pat[GMK_DIRS]);

/* The minor tally of four directional patterns, 0..GMK_MINOR_TALLY_COUNT - 1. */
static inline int gmk_minor_tally(const uint8_t pat[GMK_DIRS]) {
    return gmk_minor_weight[pat[0]] + gmk_minor_weight[pat[1]] + gmk_minor_weight[pat[2]] +
           gmk_minor_weight[pat[3]];
}

/* Both colours' patterns on one line in one byte: black's * GMK_PAT_COUNT + white's. */
enum { GMK_PAIR_COUNT = GMK_PAT_COUNT * GMK_PAT_COUNT };

static inline uint8_t gmk_pair_pattern(uint8_t pair, gmk_color c) {
    return (uint8_t)(c == GMK_BLACK ? pair / GMK_PAT_COUNT : pair % GMK_PAT_COUNT);
}

/* Tables for one rule: the pattern by colour and line index, and the threat by colour and tally.
 * Returned pointers stay valid for the life of the process. */
typedef struct {
    const uint32_t *left_base;         /* low 10 key bits -> side index * side states */
    const uint16_t *right_index;       /* high 10 key bits -> side index */
    const uint8_t *line[3];            /* [color] -> pattern, by line index */
    const uint8_t *line_pair;          /* both colours' patterns as a pair, same index */
    const uint8_t *threat_by_tally[3]; /* [color] -> gmk_threat, by tally */
    const uint32_t *pair_tally;        /* pair -> black's tally weight | white's << 16 */
    const uint32_t *pair_weights;      /* pair -> black's pattern weight | white's << 16 */
    const int16_t *threat_bonus[3];    /* [color] -> bonus by gmk_threat */
    const uint32_t *pair_minor;        /* pair -> black's minor weight | white's << 16 */
    const uint8_t *combo_by_minor;     /* minor tally -> combination class */
    const struct gmk_weights *weights; /* the rule's weights (core/weights.h) */
} gmk_pattern_tables;

const gmk_pattern_tables *gmk_pattern_tables_for(gmk_rule rule);

static inline uint32_t gmk_line_index(const gmk_pattern_tables *t, uint32_t key) {
    return t->left_base[key & 1023] + t->right_index[key >> 10];
}

/* The pattern colour c makes on a line with this key. */
static inline uint8_t gmk_pattern_lookup(const gmk_pattern_tables *t, gmk_color c, uint32_t key) {
    return t->line[c][gmk_line_index(t, key)];
}

/* The tally of four directional patterns (see above). */
static inline int gmk_pattern_tally(const uint8_t pat[GMK_DIRS]) {
    return gmk_tally_weight[pat[0]] + gmk_tally_weight[pat[1]] + gmk_tally_weight[pat[2]] +
           gmk_tally_weight[pat[3]];
}

/* The shape score of a cell with threat t whose pattern weights sum to weights, under a
 * colour's threat bonuses. */
static inline int gmk_score_of(const int16_t *threat_bonus, gmk_threat t, int weights) {
    return t == GMK_TH_FORBID ? 0 : weights + threat_bonus[t];
}

/* Combines four directional patterns into a threat code (the definition the tables use). */
gmk_threat gmk_threat_of(const uint8_t pat[GMK_DIRS], gmk_line_variant v);

/* Shape score of one cell for colour c under a rule's weights, from its four patterns. */
int gmk_shape_score(const uint8_t pat[GMK_DIRS], gmk_rule rule, gmk_color c);

const char *gmk_pattern_name(gmk_pattern p);

#endif
