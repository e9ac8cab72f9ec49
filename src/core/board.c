/* board.c: make, undo and the incremental line patterns (see board.h). */
#include "board.h"

#include "weights.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static uint64_t zobrist_table[3][GMK_CELLS];
static pthread_once_t zobrist_once = PTHREAD_ONCE_INIT;

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void build_zobrist(void) {
    uint64_t state = 0x5EED0F60u;
    for (int c = 0; c < 3; c++)
        for (int p = 0; p < GMK_CELLS; p++) zobrist_table[c][p] = splitmix64(&state);
}

uint64_t gmk_zobrist(gmk_color c, gmk_pos p) {
    pthread_once(&zobrist_once, build_zobrist);
    return zobrist_table[c][p];
}

/* What make changed, ply by ply: the cells (keys and patterns) as they were, and the sums. */
enum { JOURNAL_CELLS_PER_PLY = 4 * 2 * GMK_LINE_HALF };

typedef struct {
    gmk_pos pos; /* the move, a check on undo */
    int first;   /* its first saved cell */
    int count[3][GMK_TH_COUNT];
    int32_t weight_sum[3];
    int32_t combo_sum[3][2];
    uint8_t combo_count[3][GMK_COMBO_COUNT];
} journal_ply;

struct gmk_board_journal {
    int depth;     /* plies recorded */
    int skipped;   /* plies made past GMK_JOURNAL_PLIES, undone the plain way */
    int base;      /* the board's move_count when attached */
    int saved_top; /* saved cells in use */
    journal_ply ply[GMK_JOURNAL_PLIES];
    gmk_pos saved_pos[GMK_JOURNAL_PLIES * JOURNAL_CELLS_PER_PLY];
    gmk_cell saved[GMK_JOURNAL_PLIES * JOURNAL_CELLS_PER_PLY];
};

gmk_board_journal *gmk_board_journal_new(void) {
    return calloc(1, sizeof(gmk_board_journal));
}

void gmk_board_journal_free(gmk_board_journal *j) {
    free(j);
}

size_t gmk_board_journal_bytes(void) {
    return sizeof(gmk_board_journal);
}

void gmk_board_attach_journal(gmk_board *b, gmk_board_journal *j) {
    b->journal = j;
    if (!j) return;
    j->depth = 0;
    j->skipped = 0;
    j->saved_top = 0;
    j->base = b->move_count;
}

/* The journal's frame for the move about to be made, or NULL (none, or too deep). */
static journal_ply *journal_open(gmk_board *b, gmk_pos p) {
    gmk_board_journal *j = b->journal;
    if (!j) return NULL;
    if (j->skipped || j->depth >= GMK_JOURNAL_PLIES) {
        j->skipped++;
        return NULL;
    }
    journal_ply *f = &j->ply[j->depth++];
    f->pos = p;
    f->first = j->saved_top;
    memcpy(f->count, b->count, sizeof f->count);
    memcpy(f->weight_sum, b->weight_sum, sizeof f->weight_sum);
    memcpy(f->combo_sum, b->combo_sum, sizeof f->combo_sum);
    memcpy(f->combo_count, b->combo_count, sizeof f->combo_count);
    return f; /* the cell of the move itself keeps its keys and patterns under the stone */
}

static inline void journal_save(gmk_board *b, gmk_pos q) {
    gmk_board_journal *j = b->journal;
    j->saved_pos[j->saved_top] = q;
    j->saved[j->saved_top++] = b->cell[q];
}

/* Undoes the last move from the journal; false when it was not journaled. */
static bool journal_undo(gmk_board *b, gmk_pos p) {
    gmk_board_journal *j = b->journal;
    if (!j || b->move_count < j->base) return false;
    if (j->skipped) {
        j->skipped--;
        return false;
    }
    if (j->depth == 0) return false;
    journal_ply *f = &j->ply[--j->depth];
    assert(f->pos == p);
    (void)p;
    for (int i = j->saved_top - 1; i >= f->first; i--) b->cell[j->saved_pos[i]] = j->saved[i];
    j->saved_top = f->first;
    memcpy(b->count, f->count, sizeof f->count);
    memcpy(b->weight_sum, f->weight_sum, sizeof f->weight_sum);
    memcpy(b->combo_sum, f->combo_sum, sizeof f->combo_sum);
    memcpy(b->combo_count, f->combo_count, sizeof f->combo_count);
    return true;
}

/* Colour c's threat at a cell with this tally. */
static inline uint8_t tally_threat(const gmk_pattern_tables *t, uint32_t tally, gmk_color c) {
    return t->threat_by_tally[c][(tally >> (c == GMK_BLACK ? 0 : 16)) & 0xFFFF];
}

/* What a cell adds to colour c's weight sum: its pattern weights, or 0 on a point that may be
 * forbidden. */
static inline int32_t weight_share(uint32_t weights, uint8_t threat, gmk_color c) {
    return threat == GMK_TH_FORBID ? 0 : (int32_t)((weights >> (c == GMK_BLACK ? 0 : 16)) & 0xFFFF);
}

/* Combination classes of both colours from the cell's patterns (a forbidden cell has none). */
static inline void cell_combos(const gmk_pattern_tables *t, gmk_cell *cell) {
    uint32_t minor = t->pair_minor[cell->pair[0]] + t->pair_minor[cell->pair[1]] +
                     t->pair_minor[cell->pair[2]] + t->pair_minor[cell->pair[3]];
    cell->combo[GMK_BLACK] =
        cell->threat[GMK_BLACK] == GMK_TH_FORBID ? 0 : t->combo_by_minor[minor & 0xFFFF];
    cell->combo[GMK_WHITE] =
        cell->threat[GMK_WHITE] == GMK_TH_FORBID ? 0 : t->combo_by_minor[minor >> 16];
}

/* Derived state of one empty cell from its keys. */
static void cell_recompute(const gmk_board *b, gmk_cell *cell) {
    const gmk_pattern_tables *t = b->tables;
    cell->tally = cell->weights = 0;
    for (int d = 0; d < GMK_DIRS; d++) {
        uint8_t pair = t->line_pair[gmk_line_index(t, cell->key[d])];
        cell->pair[d] = pair;
        cell->tally += t->pair_tally[pair];
        cell->weights += t->pair_weights[pair];
    }
    cell->threat[GMK_BLACK] = tally_threat(t, cell->tally, GMK_BLACK);
    cell->threat[GMK_WHITE] = tally_threat(t, cell->tally, GMK_WHITE);
    cell_combos(t, cell);
}

static void cell_add(gmk_board *b, const gmk_cell *cell, int sign) {
    const gmk_eval_weight_set *w = &b->tables->weights->eval;
    for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
        b->count[c][cell->threat[c]] += sign;
        b->weight_sum[c] += sign * weight_share(cell->weights, cell->threat[c], c);
        b->combo_sum[c][0] += sign * w->mine_combo[cell->combo[c]];
        b->combo_sum[c][1] += sign * w->theirs_combo[cell->combo[c]];
        b->combo_count[c][cell->combo[c]] += (uint8_t)sign;
    }
}

/* Moves a cell's weight in colour c's combination sums from class old to its class now. */
static void combo_change(gmk_board *b, gmk_color c, int old, const gmk_cell *cell) {
    const gmk_eval_weight_set *w = &b->tables->weights->eval;
    b->combo_sum[c][0] += w->mine_combo[cell->combo[c]] - w->mine_combo[old];
    b->combo_sum[c][1] += w->theirs_combo[cell->combo[c]] - w->theirs_combo[old];
    b->combo_count[c][old]--;
    b->combo_count[c][cell->combo[c]]++;
}

/* Recomputes the patterns of an empty cell along direction d after its key changed. The change
 * of the colours' weight sums is added to *black_sum and *white_sum, locals of the caller that
 * stay in registers (adding to the board's sums cell by cell chains every update through
 * memory); a threat count changes only when the cell's threat does. */
static inline __attribute__((always_inline)) void
cell_refresh_dir(gmk_board *b, gmk_cell *cell, int d, int32_t *black_sum, int32_t *white_sum) {
    const gmk_pattern_tables *t = b->tables;
    uint8_t np = t->line_pair[gmk_line_index(t, cell->key[d])];
    uint8_t op = cell->pair[d];
    if (np == op) return;
    cell->pair[d] = np;
    uint32_t old_weights = cell->weights;
    cell->tally += t->pair_tally[np] - t->pair_tally[op];
    cell->weights += t->pair_weights[np] - t->pair_weights[op];
    for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
        uint8_t ot = cell->threat[c], nt = tally_threat(t, cell->tally, c);
        *(c == GMK_BLACK ? black_sum : white_sum) +=
            weight_share(cell->weights, nt, c) - weight_share(old_weights, ot, c);
        if (nt != ot) {
            cell->threat[c] = nt;
            b->count[c][ot]--;
            b->count[c][nt]++;
        }
    }
    uint8_t old_black = cell->combo[GMK_BLACK], old_white = cell->combo[GMK_WHITE];
    cell_combos(t, cell);
    if (cell->combo[GMK_BLACK] != old_black) combo_change(b, GMK_BLACK, old_black, cell);
    if (cell->combo[GMK_WHITE] != old_white) combo_change(b, GMK_WHITE, old_white, cell);
}

/* The 24 cells of the 5x5 square around a cell, as offsets. */
static const int near_offset[24] = {-2 * GMK_STRIDE - 2,
                                    -2 * GMK_STRIDE - 1,
                                    -2 * GMK_STRIDE,
                                    -2 * GMK_STRIDE + 1,
                                    -2 * GMK_STRIDE + 2,
                                    -GMK_STRIDE - 2,
                                    -GMK_STRIDE - 1,
                                    -GMK_STRIDE,
                                    -GMK_STRIDE + 1,
                                    -GMK_STRIDE + 2,
                                    -2,
                                    -1,
                                    1,
                                    2,
                                    GMK_STRIDE - 2,
                                    GMK_STRIDE - 1,
                                    GMK_STRIDE,
                                    GMK_STRIDE + 1,
                                    GMK_STRIDE + 2,
                                    2 * GMK_STRIDE - 2,
                                    2 * GMK_STRIDE - 1,
                                    2 * GMK_STRIDE,
                                    2 * GMK_STRIDE + 1,
                                    2 * GMK_STRIDE + 2};

static void near_add(gmk_board *b, gmk_pos p, int delta) {
    for (int i = 0; i < 24; i++) b->near[p + near_offset[i]] += (uint8_t)delta;
}

/* Keys hold the stones within b->reach cells; beyond that, what an empty board has there. */
static void compute_keys(const gmk_board *b, gmk_pos p, uint32_t key[GMK_DIRS]) {
    for (int d = 0; d < GMK_DIRS; d++) {
        key[d] = 0;
        for (int k = -GMK_LINE_HALF; k <= GMK_LINE_HALF; k++) {
            if (k == 0) continue;
            uint32_t cell = b->stone[p + k * gmk_dir_step[d]];
            if ((k > b->reach || -k > b->reach) && cell != GMK_WALL) cell = GMK_EMPTY;
            key[d] |= cell << gmk_key_shift(k);
        }
    }
}

gmk_board_status gmk_board_init(gmk_board *b, int size, gmk_rule rule) {
    if (size < GMK_MIN_SIZE || size > GMK_MAX_SIZE) return GMK_ERR_SIZE;
    if ((unsigned)rule >= GMK_RULE_COUNT) return GMK_ERR_RULE;
    memset(b, 0, sizeof *b);
    b->size = size;
    b->rule = rule;
    b->side = GMK_BLACK;
    /* five or more: a stone 5 cells away never changes a line's pattern (pattern.h) */
    b->reach = rule == GMK_RULE_FREESTYLE ? GMK_LINE_HALF - 1 : GMK_LINE_HALF;
    b->tables = gmk_pattern_tables_for(rule);
    pthread_once(&zobrist_once, build_zobrist);
    for (gmk_pos p = 0; p < GMK_CELLS; p++)
        b->stone[p] = gmk_board_on(b, gmk_pos_x(p), gmk_pos_y(p)) ? GMK_EMPTY : GMK_WALL;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            compute_keys(b, p, b->cell[p].key);
            cell_recompute(b, &b->cell[p]);
            cell_add(b, &b->cell[p], +1);
        }
    return GMK_OK;
}

void gmk_board_make(gmk_board *b, gmk_pos p) {
    gmk_board_put(b, p, b->side);
}

void gmk_board_put(gmk_board *b, gmk_pos p, gmk_color c) {
    assert(gmk_board_empty_at(b, p));
    journal_ply *f = journal_open(b, p);
    b->side = gmk_opponent(c);
    cell_add(b, &b->cell[p], -1);
    b->stone[p] = (uint8_t)c;
    b->hash ^= zobrist_table[c][p];
    b->moves[b->move_count++] = p;
    near_add(b, p, 1);
    int32_t black_sum = 0, white_sum = 0;
    for (int d = 0; d < GMK_DIRS; d++) {
        int step = gmk_dir_step[d];
        /* p is at offset +k of the cell k steps back, and at -k of the cell k steps ahead */
        uint32_t back = (uint32_t)c << gmk_key_shift(1), ahead = (uint32_t)c << gmk_key_shift(-1);
        for (int k = 1; k <= b->reach; k++, back <<= 2) {
            gmk_pos q = p - k * step;
            if (b->stone[q] == GMK_WALL) break;
            if (f) journal_save(b, q);
            b->cell[q].key[d] |= back;
            if (b->stone[q] == GMK_EMPTY)
                cell_refresh_dir(b, &b->cell[q], d, &black_sum, &white_sum);
        }
        for (int k = 1; k <= b->reach; k++, ahead >>= 2) {
            gmk_pos q = p + k * step;
            if (b->stone[q] == GMK_WALL) break;
            if (f) journal_save(b, q);
            b->cell[q].key[d] |= ahead;
            if (b->stone[q] == GMK_EMPTY)
                cell_refresh_dir(b, &b->cell[q], d, &black_sum, &white_sum);
        }
    }
    b->weight_sum[GMK_BLACK] += black_sum;
    b->weight_sum[GMK_WHITE] += white_sum;
#ifdef GMK_CHECK_BOARD
    assert(gmk_board_check(b));
#endif
}

void gmk_board_undo(gmk_board *b) {
    if (b->move_count == 0) return;
    gmk_pos p = b->moves[--b->move_count];
    gmk_color c = (gmk_color)b->stone[p];
    b->side = c;
    b->stone[p] = GMK_EMPTY;
    near_add(b, p, -1);
    b->hash ^= zobrist_table[c][p];
    if (journal_undo(b, p)) {
#ifdef GMK_CHECK_BOARD
        assert(gmk_board_check(b));
#endif
        return;
    }
    int32_t black_sum = 0, white_sum = 0;
    for (int d = 0; d < GMK_DIRS; d++) {
        int step = gmk_dir_step[d];
        for (int sign = -1; sign <= 1; sign += 2) {
            gmk_pos q = p;
            for (int k = 1; k <= b->reach; k++) {
                q += sign * step;
                if (b->stone[q] == GMK_WALL) break;
                gmk_cell *cell = &b->cell[q];
                cell->key[d] &= ~((uint32_t)3 << gmk_key_shift(-sign * k));
                if (b->stone[q] == GMK_EMPTY) cell_refresh_dir(b, cell, d, &black_sum, &white_sum);
            }
        }
    }
    b->weight_sum[GMK_BLACK] += black_sum;
    b->weight_sum[GMK_WHITE] += white_sum;
    cell_recompute(b, &b->cell[p]);
    cell_add(b, &b->cell[p], +1);
#ifdef GMK_CHECK_BOARD
    assert(gmk_board_check(b));
#endif
}

bool gmk_board_check(const gmk_board *b) {
    int count[3][GMK_TH_COUNT] = {{0}};
    int32_t sum[3] = {0}, combo_sum[3][2] = {{0}};
    uint8_t combo_count[3][GMK_COMBO_COUNT] = {{0}};
    const gmk_eval_weight_set *w = &b->tables->weights->eval;
    uint64_t hash = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            gmk_pos p = gmk_pos_xy(x, y);
            gmk_cell fresh;
            compute_keys(b, p, fresh.key);
            if (memcmp(fresh.key, b->cell[p].key, sizeof fresh.key) != 0) return false;
            if (b->stone[p] != GMK_EMPTY) {
                hash ^= gmk_zobrist((gmk_color)b->stone[p], p);
                continue;
            }
            cell_recompute(b, &fresh);
            if (memcmp(fresh.pair, b->cell[p].pair, GMK_DIRS) != 0) return false;
            if (fresh.tally != b->cell[p].tally || fresh.weights != b->cell[p].weights)
                return false;
            for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
                if (fresh.threat[c] != b->cell[p].threat[c]) return false;
                if (fresh.combo[c] != b->cell[p].combo[c]) return false;
                count[c][fresh.threat[c]]++;
                sum[c] += weight_share(fresh.weights, fresh.threat[c], c);
                combo_sum[c][0] += w->mine_combo[fresh.combo[c]];
                combo_sum[c][1] += w->theirs_combo[fresh.combo[c]];
                combo_count[c][fresh.combo[c]]++;
            }
        }
    if (hash != b->hash) return false;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int n = 0;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++) {
                    gmk_pos q = gmk_pos_xy(x + dx, y + dy);
                    if ((dx || dy) && (b->stone[q] == GMK_BLACK || b->stone[q] == GMK_WHITE)) n++;
                }
            if (n != b->near[gmk_pos_xy(x, y)]) return false;
        }
    for (gmk_color c = GMK_BLACK; c <= GMK_WHITE; c++) {
        if (sum[c] != b->weight_sum[c]) return false;
        if (memcmp(combo_sum[c], b->combo_sum[c], sizeof combo_sum[c]) != 0) return false;
        if (memcmp(count[c], b->count[c], sizeof count[c]) != 0) return false;
        if (memcmp(combo_count[c], b->combo_count[c], sizeof combo_count[c]) != 0) return false;
    }
    for (int i = 0; i < b->move_count; i++)
        if (b->stone[b->moves[i]] != GMK_BLACK && b->stone[b->moves[i]] != GMK_WHITE) return false;
    return true;
}
