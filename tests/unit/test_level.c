/* test_level.c: the difficulty ladder is well formed: enough levels, a gentle bottom, steps
 * that only ever get stronger, names, and the time caps the issue asks for. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "game/level.h"

static int depth_rank(const gmk_limits *l) {
    return l->depth ? l->depth : 1000; /* 0 = as deep as time allows */
}
static int width_rank(const gmk_limits *l) {
    return l->max_candidates ? l->max_candidates : 1000;
}
static int64_t nodes_rank(const gmk_limits *l) {
    return l->nodes ? l->nodes : INT64_MAX; /* 0 = no node limit */
}

Test(level, at_least_six_levels) {
    cr_assert_geq(gmk_level_count(), 6);
    cr_assert(gmk_level_valid(GMK_LEVEL_MIN));
    cr_assert(gmk_level_valid(gmk_level_count()));
    cr_assert(gmk_level_valid(GMK_LEVEL_DEFAULT));
    cr_assert_not(gmk_level_valid(0));
    cr_assert_not(gmk_level_valid(gmk_level_count() + 1));
}

Test(level, level_one_is_a_beginner) {
    gmk_limits l;
    cr_assert(gmk_level_limits(1, 0, 42, &l));
    cr_assert(l.shape_only);
    cr_assert_eq(l.depth, 2);
    cr_assert(l.max_candidates > 0 && l.max_candidates <= 10);
    cr_assert_gt(l.choose_margin, 0);
    cr_assert_eq(l.seed, 42u);
}

/* Whether each level beats the one below is measured by matches (bench/); this only catches
 * a row that is weaker than the one below it in every way, or the same. Depth and width may
 * give way to node budgets, so no single limit has to grow. */
Test(level, no_level_is_weaker_in_every_way_than_the_one_below) {
    for (int lv = 2; lv <= gmk_level_count(); lv++) {
        gmk_limits lo, hi;
        cr_assert(gmk_level_limits(lv - 1, 0, 1, &lo));
        cr_assert(gmk_level_limits(lv, 0, 1, &hi));
        cr_assert_leq(hi.choose_margin, lo.choose_margin, "level %d looser than %d", lv, lv - 1);
        cr_assert(!hi.shape_only || lo.shape_only, "level %d back to shapes only", lv);
        bool stronger = depth_rank(&hi) > depth_rank(&lo) || width_rank(&hi) > width_rank(&lo) ||
                        nodes_rank(&hi) > nodes_rank(&lo) || hi.choose_margin < lo.choose_margin ||
                        (lo.shape_only && !hi.shape_only);
        cr_assert(stronger, "level %d is no stronger than level %d in any limit", lv, lv - 1);
    }
}

Test(level, time_caps) {
    int top = gmk_level_count();
    for (int lv = 1; lv < top; lv++) {
        gmk_limits l;
        gmk_level_limits(lv, 60000, 1, &l);
        cr_assert(l.turn_ms > 0 && l.turn_ms <= 1000, "level %d may take %lld ms", lv,
                  (long long)l.turn_ms);
    }
    gmk_limits l;
    gmk_level_limits(top, 3000, 1, &l);
    cr_assert_eq(l.turn_ms, 3000);
    cr_assert_eq(l.depth, 0);
    cr_assert_eq(l.choose_margin, 0);
    cr_assert_not(l.shape_only);
    gmk_level_limits(top, 0, 1, &l);
    cr_assert_eq(l.turn_ms, GMK_LEVEL_TOP_DEFAULT_MS);
    gmk_level_limits(top, 1, 1, &l);
    cr_assert_eq(l.turn_ms, GMK_LEVEL_TOP_MIN_MS);
}

Test(level, names) {
    for (int a = 1; a <= gmk_level_count(); a++) {
        cr_assert_gt(strlen(gmk_level_name(a)), 0);
        cr_assert_gt(strlen(gmk_level_name_zh(a)), 0);
        for (int b = a + 1; b <= gmk_level_count(); b++) {
            cr_assert_str_neq(gmk_level_name(a), gmk_level_name(b));
            cr_assert_str_neq(gmk_level_name_zh(a), gmk_level_name_zh(b));
        }
    }
    cr_assert_str_eq(gmk_level_name(1), "Beginner");
    cr_assert_str_eq(gmk_level_name(99), "?");
}

Test(level, invalid_level_leaves_limits_alone) {
    gmk_limits l = {.depth = 77};
    cr_assert_not(gmk_level_limits(0, 0, 0, &l));
    cr_assert_not(gmk_level_limits(gmk_level_count() + 1, 0, 0, &l));
    cr_assert_eq(l.depth, 77);
}

Test(level, hint_is_quick_and_strong) {
    gmk_limits l;
    gmk_level_hint_limits(1, 0, &l);
    cr_assert(l.turn_ms > 0 && l.turn_ms <= 1000);
    cr_assert_eq(l.choose_margin, 0);
    cr_assert_not(l.shape_only);
}

Test(level, threads_only_for_the_searches_bound_by_time) {
    for (int level = 1; level <= gmk_level_count(); level++) {
        gmk_limits l;
        cr_assert(gmk_level_limits(level, 0, 0, &l));
        gmk_level_add_threads(&l, 4);
        bool time_only = l.nodes == 0 && l.depth == 0;
        cr_assert_eq(l.threads, time_only ? 4 : 0, "level %d", level);
    }
    gmk_limits top;
    gmk_level_limits(gmk_level_count(), 0, 0, &top);
    gmk_level_add_threads(&top, 1000);
    cr_assert_eq(top.threads, GMK_MAX_THREADS);
    gmk_limits hint;
    gmk_level_hint_limits(1, 0, &hint);
    gmk_level_add_threads(&hint, 2);
    cr_assert_eq(hint.threads, 2);
    gmk_level_add_threads(&hint, 0); /* 0: leaves the limits alone */
    cr_assert_eq(hint.threads, 2);
}
