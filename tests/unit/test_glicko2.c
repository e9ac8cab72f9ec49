/* test_glicko2.c: the Glicko-2 update (game/glicko2.h) against the worked example of Mark E.
 * Glickman, "Example of the Glicko-2 system" (2013): a player at 1500, RD 200, volatility 0.06,
 * tau 0.5, beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300); the paper's
 * result is rating 1464.06, RD 151.52, volatility 0.05999. */
#include <criterion/criterion.h>

#include "game/glicko2.h"

Test(glicko2, glickmans_worked_example) {
    gmk_glicko p = {1500, 200, 0.06};
    gmk_glicko_game games[3] = {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
    gmk_glicko q = gmk_glicko_update(p, games, 3, 0.5);
    cr_assert_float_eq(q.rating, 1464.06, 0.01, "rating %f", q.rating);
    cr_assert_float_eq(q.deviation, 151.52, 0.01, "RD %f", q.deviation);
    cr_assert_float_eq(q.volatility, 0.05999, 0.00001, "volatility %f", q.volatility);
}

Test(glicko2, wins_raise_losses_lower_idle_widens) {
    gmk_glicko p = gmk_glicko_new();
    gmk_glicko_game win = {1500, 100, 1}, loss = {1500, 100, 0};
    gmk_glicko up = gmk_glicko_update(p, &win, 1, 0.5), down = gmk_glicko_update(p, &loss, 1, 0.5);
    cr_assert_gt(up.rating, 1500);
    cr_assert_lt(down.rating, 1500);
    cr_assert_float_eq(up.rating - 1500, 1500 - down.rating, 1e-6, "symmetric");
    cr_assert_lt(up.deviation, 350);
    gmk_glicko idle = gmk_glicko_update((gmk_glicko){1600, 100, 0.06}, NULL, 0, 0.5);
    cr_assert_gt(idle.deviation, 100);
    cr_assert_float_eq(idle.rating, 1600, 1e-9);
}
