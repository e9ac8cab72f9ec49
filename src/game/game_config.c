/* game_config.c: the settings of a game (mode, colours, rule, size, level) and the names of
 * the play modes (see session.h). */
#include <stdio.h>
#include <strings.h>

#include "level.h"
#include "session.h"

static void put_err(char *err, size_t errlen, const char *msg) {
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

gmk_game_config gmk_game_config_default(void) {
    gmk_game_config c = {
        .mode = GMK_PLAY_HVC,
        .human = GMK_BLACK,
        .rule = GMK_RULE_FREESTYLE,
        .size = GMK_DEFAULT_SIZE,
        .level = GMK_LEVEL_DEFAULT,
        .top_level_ms = 0,
        .black = NULL,
        .white = NULL,
    };
    return c;
}

bool gmk_game_config_valid(const gmk_game_config *cfg, char *err, size_t errlen) {
    if (cfg->mode < 0 || cfg->mode >= GMK_PLAY_MODE_COUNT) {
        put_err(err, errlen, "unknown mode");
        return false;
    }
    if (cfg->mode == GMK_PLAY_HVC && cfg->human != GMK_BLACK && cfg->human != GMK_WHITE) {
        put_err(err, errlen, "the human plays black or white");
        return false;
    }
    if (cfg->rule < 0 || cfg->rule >= GMK_RULE_COUNT) {
        put_err(err, errlen, "unknown rule");
        return false;
    }
    if (cfg->size < GMK_MIN_SIZE || cfg->size > GMK_MAX_SIZE) {
        put_err(err, errlen, "the board size must be 5 to 22");
        return false;
    }
    if (cfg->opening < 0 || cfg->opening >= GMK_OPENING_COUNT) {
        put_err(err, errlen, "unknown opening rule");
        return false;
    }
    if (cfg->online && cfg->mode != GMK_PLAY_HVH) {
        put_err(err, errlen, "an online game is between two humans");
        return false;
    }
    if (cfg->mode != GMK_PLAY_HVH && !gmk_level_valid(cfg->level)) {
        put_err(err, errlen, "no such level");
        return false;
    }
    return true;
}

const char *gmk_play_mode_name(gmk_play_mode m) {
    switch (m) {
    case GMK_PLAY_HVC: return "human-computer";
    case GMK_PLAY_HVH: return "human-human";
    case GMK_PLAY_CVC: return "computer-computer";
    default: return "?";
    }
}

bool gmk_play_mode_parse(const char *text, gmk_play_mode *out) {
    static const struct {
        const char *name;
        gmk_play_mode mode;
    } names[] = {
        {"human-computer", GMK_PLAY_HVC},    {"hvc", GMK_PLAY_HVC}, {"computer", GMK_PLAY_HVC},
        {"human-human", GMK_PLAY_HVH},       {"hvh", GMK_PLAY_HVH}, {"humans", GMK_PLAY_HVH},
        {"computer-computer", GMK_PLAY_CVC}, {"cvc", GMK_PLAY_CVC}, {"watch", GMK_PLAY_CVC},
    };
    if (!text) return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(text, names[i].name) == 0) {
            *out = names[i].mode;
            return true;
        }
    return false;
}
