/* board.h: the position: stones, side to move, move history, Zobrist key, and the line
 * patterns of every empty cell, kept up to date incrementally by make and undo.
 *
 * Invariants: cell[p].key[d] always describes the 10 neighbours of p along direction d; for
 * every empty on-board cell, pair/tally/weights/threat/combo match the tables of the board's
 * rule for both colours, and count[color][threat], weight_sum[color], combo_sum[color] and
 * combo_count[color][class] add them up. Debug
 * builds (GMK_CHECK_BOARD defined) verify this against a full recomputation after every make and
 * undo.
 *
 * make and undo do not judge legality (rules.h does); they only require an empty on-board
 * point. The board is a plain value: copying it with memcpy gives an independent position
 * (once its undo journal, if it has one, is attached anew or detached: see below).
 * Anyone may call these functions; a board must not be shared between threads while one of
 * them changes it. */
#ifndef GMK_BOARD_H
#define GMK_BOARD_H

#include <stddef.h>

#include "defs.h"
#include "pattern.h"

typedef struct {
    uint32_t key[GMK_DIRS]; /* line keys, see pattern.h */
    uint8_t pair[GMK_DIRS]; /* [dir] both colours' patterns made by playing here (a pair) */
    uint32_t tally;         /* gmk_pattern_tally of black's patterns | of white's << 16 */
    uint32_t weights;       /* summed pattern weights of black | of white << 16 */
    uint8_t threat[3];      /* [color] gmk_threat */
    uint8_t combo[3];       /* [color] combination class (pattern.h), 0 when forbidden */
} gmk_cell;

/* The pattern colour c makes along direction d by playing the cell. */
static inline uint8_t gmk_cell_pattern(const gmk_cell *cell, gmk_color c, int d) {
    return gmk_pair_pattern(cell->pair[d], c);
}
static inline void gmk_cell_patterns(const gmk_cell *cell, gmk_color c, uint8_t pat[GMK_DIRS]) {
    for (int d = 0; d < GMK_DIRS; d++) pat[d] = gmk_pair_pattern(cell->pair[d], c);
}

typedef struct gmk_board_journal gmk_board_journal;

typedef struct {
    int size;
    gmk_rule rule;
    const gmk_pattern_tables *tables;
    uint8_t stone[GMK_CELLS]; /* gmk_color; GMK_WALL off the board */
    gmk_cell cell[GMK_CELLS];
    gmk_color side; /* to move */
    int reach;      /* how far a stone's line keys reach: 4 in freestyle, else 5 */
    int move_count;
    gmk_pos moves[GMK_MAX_MOVES];
    uint64_t hash;
    uint8_t near[GMK_CELLS];    /* stones within 2 cells (the 5x5 square around the cell) */
    int count[3][GMK_TH_COUNT]; /* empty cells per colour and threat */
    /* [color] the pattern weights of the empty cells, but for those where colour's threat is
     * GMK_TH_FORBID (gmk_board_score_sum adds the threats' bonuses from count) */
    int32_t weight_sum[3];
    /* [color][0] the empty cells' mine_combo weights (weights.h) of their class for colour,
     * [color][1] their theirs_combo weights */
    int32_t combo_sum[3][2];
    uint8_t combo_count[3][GMK_COMBO_COUNT]; /* [color][class] empty cells of that class */
    gmk_board_journal *journal; /* NULL, or where make saves what undo puts back (below) */
} gmk_board;

typedef enum { GMK_OK = 0, GMK_ERR_SIZE, GMK_ERR_RULE } gmk_board_status;

/* Sets up an empty board. size must be GMK_MIN_SIZE..GMK_MAX_SIZE. */
gmk_board_status gmk_board_init(gmk_board *b, int size, gmk_rule rule);

/* Places the stone of the side to move on empty on-board point p. */
void gmk_board_make(gmk_board *b, gmk_pos p);

/* Places a stone of colour c on empty on-board point p, as a move of c; the opponent of c is
 * then to move. For setting up positions that did not arise by alternating moves. */
void gmk_board_put(gmk_board *b, gmk_pos p, gmk_color c);

/* Takes back the last move. Does nothing on an empty history. */
void gmk_board_undo(gmk_board *b);

/* Colour c's shape score at empty p: its pattern weights plus the bonus for its threat (0 on a
 * renju black point that may be forbidden). */
static inline int gmk_board_cell_score(const gmk_board *b, gmk_pos p, gmk_color c) {
    const gmk_cell *cell = &b->cell[p];
    int shift = c == GMK_BLACK ? 0 : 16;
    return gmk_score_of(b->tables->threat_bonus[c], (gmk_threat)cell->threat[c],
                        (int)((cell->weights >> shift) & 0xFFFF));
}

/* The sum of colour c's shape scores over the empty cells. The board keeps the weights' sum and
 * the count of each threat, so the bonuses are added here rather than cell by cell on every
 * update. */
static inline int32_t gmk_board_score_sum(const gmk_board *b, gmk_color c) {
    const int16_t *bonus = b->tables->threat_bonus[c];
    int32_t sum = b->weight_sum[c];
    for (int t = GMK_TH_NONE; t < GMK_TH_FORBID; t++) sum += bonus[t] * b->count[c][t];
    return sum;
}

static inline gmk_color gmk_board_side(const gmk_board *b) {
    return b->side;
}
static inline gmk_pos gmk_board_last(const gmk_board *b) {
    return b->move_count ? b->moves[b->move_count - 1] : GMK_POS_NONE;
}
static inline bool gmk_board_on(const gmk_board *b, int x, int y) {
    return gmk_xy_on_board(x, y, b->size);
}
static inline bool gmk_board_empty_at(const gmk_board *b, gmk_pos p) {
    return p >= 0 && p < GMK_CELLS && b->stone[p] == GMK_EMPTY;
}
static inline bool gmk_board_full(const gmk_board *b) {
    return b->move_count >= b->size * b->size;
}

/* An undo journal: make saves every cell it changes and the sums, and undo copies them back
 * instead of recomputing the patterns (undo was over a third of a search's instructions).
 * A searcher attaches one to its own copy of the position; the journal belongs to that one
 * board: attach it again after copying a board, and never copy a board while it has one
 * (the copy would share it). Past GMK_JOURNAL_PLIES moves deep, undo recomputes as without
 * a journal. */
enum { GMK_JOURNAL_PLIES = 160 };

/* A new empty journal (NULL when out of memory); free with gmk_board_journal_free. */
gmk_board_journal *gmk_board_journal_new(void);
void gmk_board_journal_free(gmk_board_journal *j);
/* The memory a journal takes, for budgets. */
size_t gmk_board_journal_bytes(void);

/* Makes j (may be NULL: none) the journal of b, emptied; the moves already on b are undone
 * the plain way. */
void gmk_board_attach_journal(gmk_board *b, gmk_board_journal *j);

/* Zobrist key of a stone; the side to move is implied by the stone count. */
uint64_t gmk_zobrist(gmk_color c, gmk_pos p);

/* Recomputes every derived field from the stones and compares; returns false on a mismatch.
 * Used by debug builds and tests. */
bool gmk_board_check(const gmk_board *b);

#endif
