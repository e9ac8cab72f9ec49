/* brain_info.c: INFO keys (see docs/protocol.md). Every value is range-checked before it is
 * used: out-of-range numbers are clamped to what the brain can honour, or refused with an
 * ERROR line where no clamp makes sense (a level, a rule). Unknown keys are ignored. */
#include <string.h>

#include "brain_internal.h"
#include "core/pattern.h"
#include "core/scan.h"
#include "game/level.h"

static int64_t clamp(int64_t v, int64_t lo, int64_t hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

/* Re-reads the position under a new rule; building the new rule's pattern tables happens
 * here, when the rule is set, not on the clock of the next move. */
static void set_rule(gmk_brain *b, gmk_rule rule) {
    gmk_pattern_tables_for(rule);
    if (rule == b->rule) return;
    b->rule = rule;
    if (!b->started) return;
    gmk_board nb;
    gmk_board_init(&nb, b->size, rule);
    for (int i = 0; i < b->board.move_count; i++)
        gmk_board_put(&nb, b->board.moves[i], (gmk_color)b->board.stone[b->board.moves[i]]);
    nb.side = b->board.side;
    b->board = nb;
}

static void set_timeout_match(gmk_brain *b, int64_t v) {
    b->clock.timeout_match = v;
    /* Gomocup managers send timeout_match after START and may never send time_left: then the
     * brain counts its own time from the start of the game */
    if (!b->time_left_seen)
        b->clock.time_left = v > 0 ? clamp(v - b->game_used, 0, v) : GMK_BRAIN_UNLIMITED;
}

static const char *const numeric_keys[] = {
    "timeout_turn", "timeout_match", "time_left",  "time_increment", "max_memory",
    "game_type",    "rule",          "thread_num", "max_depth",      "max_node",
    "hash_size",    "show_detail",   "level",
};

void gmk_brain_info(gmk_brain *b, const gmk_proto_command *c) {
    const char *k = c->key;
    if (strcmp(k, "folder") == 0) {
        snprintf(b->set.folder, sizeof b->set.folder, "%s", c->value);
        return;
    }
    bool known = false;
    for (size_t i = 0; i < sizeof numeric_keys / sizeof numeric_keys[0]; i++)
        if (strcmp(k, numeric_keys[i]) == 0) known = true;
    if (!known) return; /* unknown keys are ignored */
    int64_t v;
    if (!gmk_proto_parse_int(c->value, &v)) {
        char shown[48];
        snprintf(shown, sizeof shown, "%.40s", c->value);
        gmk_scan_printable(shown); /* a tab, say: the reply stays one printable line */
        gmk_brain_reply(b, "ERROR INFO %s needs a number, got '%s'", k, shown);
        return;
    }
    if (strcmp(k, "timeout_turn") == 0) {
        b->clock.timeout_turn = clamp(v, 0, GMK_BRAIN_MAX_MS);
    } else if (strcmp(k, "timeout_match") == 0) {
        set_timeout_match(b, clamp(v, 0, GMK_BRAIN_MAX_MS));
    } else if (strcmp(k, "time_left") == 0) {
        b->clock.time_left = clamp(v, -GMK_BRAIN_MAX_MS, GMK_BRAIN_MAX_MS);
        b->time_left_seen = true;
    } else if (strcmp(k, "time_increment") == 0) {
        b->clock.increment = clamp(v, 0, GMK_BRAIN_MAX_MS);
    } else if (strcmp(k, "max_memory") == 0) {
        b->set.max_memory = clamp(v, 0, GMK_BRAIN_MAX_MEMORY);
        gmk_brain_apply_memory(b);
    } else if (strcmp(k, "hash_size") == 0) {
        b->set.hash_kb = clamp(v, 0, GMK_BRAIN_MAX_MEMORY / 1024);
        gmk_brain_apply_memory(b);
    } else if (strcmp(k, "rule") == 0) {
        gmk_rule r;
        if (!gmk_proto_rule_from_mask(v, &r)) {
            gmk_brain_reply(b, "ERROR INFO rule %lld is not a rule number", (long long)v);
            return;
        }
        set_rule(b, r);
    } else if (strcmp(k, "max_depth") == 0) {
        b->set.max_depth = (int)clamp(v, 0, GMK_BRAIN_MAX_DEPTH);
    } else if (strcmp(k, "max_node") == 0) {
        b->set.max_node = clamp(v, 0, INT64_MAX);
    } else if (strcmp(k, "show_detail") == 0) {
        b->set.show_detail = (int)clamp(v, 0, 3);
    } else if (strcmp(k, "thread_num") == 0) {
        /* kept for the engine's configuration (see gmk_brain_move_limits) */
        b->set.threads = (int)clamp(v, 1, GMK_BRAIN_MAX_THREADS);
    } else if (strcmp(k, "level") == 0) {
        if (v != 0 && (v < 0 || v > gmk_level_count() || !gmk_level_valid((int)v))) {
            gmk_brain_reply(b, "ERROR INFO level must be 0 (full strength) or 1-%d",
                            gmk_level_count());
            return;
        }
        b->set.level = (int)v;
    }
    /* game_type: accepted and ignored */
}
