/* timeman.c: time budget (see timeman.h). */
#include "timeman.h"

enum { DEFAULT_OVERHEAD_MS = 30 };

gmk_time_budget gmk_timeman_budget(const gmk_limits *limits, int moves_played) {
    gmk_time_budget t = {0, 0};
    int64_t overhead = limits->overhead_ms > 0 ? limits->overhead_ms : DEFAULT_OVERHEAD_MS;
    int64_t hard = 0, soft = 0;
    if (limits->turn_ms > 0) {
        hard = limits->turn_ms - overhead;
        soft = hard * 9 / 10; /* a fixed time a move: use most of it */
    }
    if (limits->time_left_ms > 0) {
        /* plan for at least 25 more moves of ours, fewer late in the game */
        int moves_left = 40 - moves_played / 4;
        if (moves_left < 15) moves_left = 15;
        int64_t share = limits->time_left_ms / moves_left + limits->increment_ms * 3 / 4;
        int64_t cap = limits->time_left_ms / 5 + limits->increment_ms / 2 - overhead;
        if (hard == 0 || cap < hard) hard = cap;
        if (soft == 0 || share < soft) soft = share;
    }
    if (hard == 0 && soft == 0) return t;
    if (hard < 1) hard = 1;
    if (soft > hard) soft = hard;
    if (soft < 1) soft = 1;
    t.hard_ms = hard;
    t.soft_ms = soft;
    return t;
}

int64_t gmk_timeman_scale(const gmk_time_budget *t, int factor_percent) {
    if (t->soft_ms == 0) return 0;
    int64_t s = t->soft_ms * factor_percent / 100;
    if (s > t->hard_ms) s = t->hard_ms;
    if (s < 1) s = 1;
    return s;
}

int64_t gmk_timeman_stop_ms(const gmk_time_budget *t) {
    if (t->hard_ms == 0) return 0;
    int64_t s = t->soft_ms * 2, h = t->hard_ms - t->hard_ms / 20;
    if (h < 1) h = 1;
    return s < h ? s : h;
}

bool gmk_timeman_next_fits(const gmk_time_budget *t, int factor_percent, int64_t elapsed,
                           int64_t last_ms, int64_t prev_ms) {
    if (t->soft_ms == 0) return true;
    int64_t target = gmk_timeman_scale(t, factor_percent);
    if (elapsed >= target) return false;
    /* ratio in tenths */
    int64_t ratio = prev_ms > 0 ? last_ms * 10 / prev_ms : 30;
    if (ratio < 15) ratio = 15;
    if (ratio > 50) ratio = 50;
    int64_t predicted = last_ms * ratio / 10;
    return elapsed + predicted / 2 <= target;
}
