/* rating.c: ratings of rated online games and of the computer levels (see rating.h). */
#include "game/rating.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "game/glicko2.h"
#include "game/level.h"

static const char *const TC_NAMES[GMK_TC_COUNT] = {"bullet", "blitz", "rapid", "classical",
                                                   "untimed"};

gmk_tc gmk_rating_tc_of(int64_t clock_ms, int64_t increment_ms) {
    if (clock_ms <= 0) return GMK_TC_UNTIMED;
    int64_t estimate_s = clock_ms / 1000 + 40 * (increment_ms / 1000);
    return estimate_s < 180    ? GMK_TC_BULLET
           : estimate_s < 480  ? GMK_TC_BLITZ
           : estimate_s < 1500 ? GMK_TC_RAPID
                               : GMK_TC_CLASSICAL;
}

const char *gmk_rating_tc_name(gmk_tc tc) {
    return tc >= 0 && tc < GMK_TC_COUNT ? TC_NAMES[tc] : "?";
}

bool gmk_rating_tc_parse(const char *name, gmk_tc *out) {
    for (int i = 0; name && i < GMK_TC_COUNT; i++)
        if (strcmp(name, TC_NAMES[i]) == 0) {
            *out = (gmk_tc)i;
            return true;
        }
    return false;
}

bool gmk_rating_provisional(double deviation) {
    return deviation > GMK_RATING_PROVISIONAL_RD;
}

/* The rating before the game: the stored one, or a new player's. */
static gmk_store_status before(gmk_store *s, int64_t account, gmk_rule rule, gmk_tc tc,
                               gmk_store_rating *r, char *err, size_t errlen) {
    gmk_store_status st = gmk_store_rating_get(s, account, (int)rule, (int)tc, r, err, errlen);
    if (st != GMK_STORE_NOT_FOUND) return st;
    gmk_glicko g = gmk_glicko_new();
    memset(r, 0, sizeof *r);
    r->account = account;
    r->rule = (int)rule;
    r->tc = (int)tc;
    r->rating = g.rating;
    r->deviation = g.deviation;
    r->volatility = g.volatility;
    return GMK_STORE_OK;
}

/* r after one game against opp with score (1, 0.5, 0). */
static gmk_store_rating after(const gmk_store_rating *r, const gmk_store_rating *opp, double score,
                              int64_t now_s) {
    gmk_glicko me = {r->rating, r->deviation, r->volatility};
    gmk_glicko_game game = {opp->rating, opp->deviation, score};
    gmk_glicko next = gmk_glicko_update(me, &game, 1, GMK_RATING_TAU);
    gmk_store_rating out = *r;
    out.rating = next.rating;
    out.deviation = next.deviation;
    out.volatility = next.volatility;
    out.games++;
    if (score > 0.75)
        out.wins++;
    else if (score < 0.25)
        out.losses++;
    else
        out.draws++;
    out.updated_s = now_s;
    return out;
}

gmk_store_status gmk_rating_record_game(gmk_store *s, gmk_rule rule, gmk_tc tc, int64_t black,
                                        int64_t white, int64_t game_id, gmk_outcome outcome,
                                        int64_t now_s, gmk_store_rating *black_after,
                                        gmk_store_rating *white_after, char *err, size_t errlen) {
    if (black <= 0 || white <= 0 || black == white || game_id <= 0 || tc < 0 ||
        tc >= GMK_TC_COUNT ||
        (outcome != GMK_BLACK_WINS && outcome != GMK_WHITE_WINS && outcome != GMK_DRAW)) {
        if (err && errlen) snprintf(err, errlen, "cannot rate the game: bad players or result");
        return GMK_STORE_INVALID;
    }
    gmk_store_rating b, w;
    gmk_store_status st = before(s, black, rule, tc, &b, err, errlen);
    if (st == GMK_STORE_OK) st = before(s, white, rule, tc, &w, err, errlen);
    if (st != GMK_STORE_OK) return st;
    double sb = outcome == GMK_BLACK_WINS ? 1 : outcome == GMK_WHITE_WINS ? 0 : 0.5;
    gmk_store_rating b2 = after(&b, &w, sb, now_s), w2 = after(&w, &b, 1 - sb, now_s);
    st = gmk_store_rating_put(s, &b2, game_id, err, errlen);
    if (st == GMK_STORE_OK) st = gmk_store_rating_put(s, &w2, game_id, err, errlen);
    if (st != GMK_STORE_OK) return st;
    if (black_after) *black_after = b2;
    if (white_after) *white_after = w2;
    return GMK_STORE_OK;
}

/* The ladder's measured scores of level L+1 against level L (docs/engine.md, "Figures",
 * build/duel on balanced_freestyle15, both colours): 2 v 1 72.0%, 3 v 2 96.0%, 4 v 3 86.0%,
 * 5 v 4 71.3%, 6 v 5 77.5%, 7 v 6 68.2%. Each becomes an Elo step, 400 log10(p / (1 - p))
 * (the scale Glicko-2 shares with Elo), added up from level 1, which is placed at LEVEL1
 * (a choice: a beginner who knows the rules; docs/accounts.md). */
#define LEVEL1 1000.0
static const double STEP_SCORES[] = {0.720, 0.960, 0.860, 0.713, 0.775, 0.682};

int gmk_rating_of_level(int level) {
    int steps = (int)(sizeof STEP_SCORES / sizeof STEP_SCORES[0]);
    if (level < GMK_LEVEL_MIN || level > gmk_level_count() || level - 1 > steps) return 0;
    double r = LEVEL1;
    for (int i = 0; i < level - 1; i++) r += 400 * log10(STEP_SCORES[i] / (1 - STEP_SCORES[i]));
    return (int)lround(r);
}
