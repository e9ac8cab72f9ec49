/* level.c: the difficulty ladder table (see level.h). */
#include "level.h"

#include <string.h>

typedef struct {
    const char *name;
    const char *name_zh;
    bool shape_only;
    int depth;          /* 0: as deep as the other limits allow */
    int max_candidates; /* 0: engine default */
    int choose_margin;  /* centi-stones; 0: always the best */
    int64_t nodes;      /* 0: no node limit */
    int64_t turn_ms;    /* hard cap; 0 on the top level: the player's time */
} level_row;

/* Tune here. Every row but the last must stay under about 1 s a move on the reference machine
 * (turn_ms is the hard stop that guarantees it whatever the depth). The middle levels use node
 * budgets, so they play the same on a fast or a busy machine. Measured with bench/duel (see
 * docs/engine.md): each level beats the one below it. */
static const level_row ladder[] = {
    {"Beginner", "入门", true, 2, 6, 100, 0, 1000},
    {"Novice", "新手", true, 3, 10, 30, 0, 1000},
    {"Casual", "业余", false, 4, 10, 20, 0, 1000},
    {"Intermediate", "中级", false, 0, 0, 0, 30000, 1000},
    {"Advanced", "高级", false, 0, 0, 0, 120000, 1000},
    {"Expert", "专家", false, 0, 0, 0, 800000, 1000},
    {"Master", "大师", false, 0, 0, 0, 0, 0},
};

enum { LADDER_LEN = (int)(sizeof ladder / sizeof ladder[0]) };

int gmk_level_count(void) {
    return LADDER_LEN;
}

bool gmk_level_valid(int level) {
    return level >= GMK_LEVEL_MIN && level <= LADDER_LEN;
}

const char *gmk_level_name(int level) {
    return gmk_level_valid(level) ? ladder[level - 1].name : "?";
}

const char *gmk_level_name_zh(int level) {
    return gmk_level_valid(level) ? ladder[level - 1].name_zh : "?";
}

static int64_t clamp_top(int64_t top_ms) {
    if (top_ms <= 0) return GMK_LEVEL_TOP_DEFAULT_MS;
    if (top_ms < GMK_LEVEL_TOP_MIN_MS) return GMK_LEVEL_TOP_MIN_MS;
    if (top_ms > GMK_LEVEL_TOP_MAX_MS) return GMK_LEVEL_TOP_MAX_MS;
    return top_ms;
}

bool gmk_level_limits(int level, int64_t top_ms, uint64_t seed, gmk_limits *out) {
    if (!gmk_level_valid(level)) return false;
    const level_row *r = &ladder[level - 1];
    memset(out, 0, sizeof *out);
    out->shape_only = r->shape_only;
    out->depth = r->depth;
    out->max_candidates = r->max_candidates;
    out->choose_margin = r->choose_margin;
    out->nodes = r->nodes;
    out->seed = seed;
    out->turn_ms = r->turn_ms ? r->turn_ms : clamp_top(top_ms);
    return true;
}

void gmk_level_hint_limits(int level, int64_t top_ms, gmk_limits *out) {
    memset(out, 0, sizeof *out);
    int64_t ms = 1000;
    if (level == LADDER_LEN && clamp_top(top_ms) < ms) ms = clamp_top(top_ms);
    out->turn_ms = ms;
}

void gmk_level_add_threads(gmk_limits *l, int threads) {
    if (l->nodes > 0 || l->depth > 0 || threads <= 1) return;
    l->threads = threads > GMK_MAX_THREADS ? GMK_MAX_THREADS : threads;
}
