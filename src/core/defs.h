/* defs.h: the vocabulary every core module shares.
 *
 * Colours, rules, board geometry and positions. A position (gmk_pos) is an index into a padded
 * square array of GMK_STRIDE x GMK_STRIDE cells: the playing area of N x N cells (N = 5..22)
 * sits at offset GMK_PAD in both directions and everything around it is a wall. The padding is
 * wide enough that any on-board cell plus up to 5 steps in any direction stays inside the array,
 * so line scans never need bounds checks. x is the column from the left and y the row from the
 * top, both 0-based (the Gomocup convention). Any module may include this header. */
#ifndef GMK_DEFS_H
#define GMK_DEFS_H

#include <stdbool.h>
#include <stdint.h>

#define GMK_MIN_SIZE 5
#define GMK_MAX_SIZE 22
#define GMK_DEFAULT_SIZE 15
#define GMK_PAD 5
#define GMK_STRIDE 32
#define GMK_CELLS (GMK_STRIDE * GMK_STRIDE)
#define GMK_MAX_MOVES (GMK_MAX_SIZE * GMK_MAX_SIZE)

typedef int gmk_pos;
#define GMK_POS_NONE (-1)

typedef enum { GMK_EMPTY = 0, GMK_BLACK = 1, GMK_WHITE = 2, GMK_WALL = 3 } gmk_color;

typedef enum {
    GMK_RULE_FREESTYLE = 0, /* five or more wins */
    GMK_RULE_STANDARD = 1,  /* exactly five wins, for both colours */
    GMK_RULE_RENJU = 2,     /* black: exactly five and forbidden moves; white: five or more */
    GMK_RULE_CARO = 3,      /* exactly five, not blocked at both ends by opponent stones */
    GMK_RULE_COUNT = 4
} gmk_rule;

/* The four line directions, as steps in the padded array. */
enum { GMK_DIRS = 4 };
static const int gmk_dir_step[GMK_DIRS] = {1, GMK_STRIDE, GMK_STRIDE + 1, GMK_STRIDE - 1};

static inline gmk_color gmk_opponent(gmk_color c) {
    return (gmk_color)(3 - c);
}
static inline gmk_pos gmk_pos_xy(int x, int y) {
    return (y + GMK_PAD) * GMK_STRIDE + (x + GMK_PAD);
}
static inline int gmk_pos_x(gmk_pos p) {
    return p % GMK_STRIDE - GMK_PAD;
}
static inline int gmk_pos_y(gmk_pos p) {
    return p / GMK_STRIDE - GMK_PAD;
}
static inline bool gmk_xy_on_board(int x, int y, int size) {
    return x >= 0 && y >= 0 && x < size && y < size;
}

#endif
