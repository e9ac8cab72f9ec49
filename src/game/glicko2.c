/* glicko2.c: Glicko-2 (glicko2.h), the steps of Glickman's "Example of the Glicko-2 system":
 * convert to the Glicko-2 scale (mu, phi), compute v and delta, find the new volatility by the
 * Illinois algorithm (step 5), then phi* , the new phi and mu, and convert back. */
#include "game/glicko2.h"

#include <math.h>

#define GLICKO_SCALE 173.7178
#define PI 3.14159265358979323846

gmk_glicko gmk_glicko_new(void) {
    return (gmk_glicko){1500, 350, 0.06};
}

static double g_of(double phi) {
    return 1 / sqrt(1 + 3 * phi * phi / (PI * PI));
}

static double e_of(double mu, double mu_j, double phi_j) {
    return 1 / (1 + exp(-g_of(phi_j) * (mu - mu_j)));
}

gmk_glicko gmk_glicko_update(gmk_glicko player, const gmk_glicko_game *games, int n, double tau) {
    double mu = (player.rating - 1500) / GLICKO_SCALE;
    double phi = player.deviation / GLICKO_SCALE;
    double sigma = player.volatility;
    if (n <= 0) {
        double grown = sqrt(phi * phi + sigma * sigma) * GLICKO_SCALE;
        player.deviation = grown > 350 ? 350 : grown;
        return player;
    }
    double v_inv = 0, sum = 0;
    for (int j = 0; j < n; j++) {
        double mu_j = (games[j].rating - 1500) / GLICKO_SCALE;
        double phi_j = games[j].deviation / GLICKO_SCALE;
        double g = g_of(phi_j), e = e_of(mu, mu_j, phi_j);
        v_inv += g * g * e * (1 - e);
        sum += g * (games[j].score - e);
    }
    double v = 1 / v_inv, delta = v * sum;
    /* step 5: the new volatility, f(x) = 0 by the Illinois algorithm */
    double a = log(sigma * sigma), eps = 0.000001;
    double d2 = delta * delta, p2 = phi * phi;
#define F(x)                                                                                       \
    (exp(x) * (d2 - p2 - v - exp(x)) / (2 * (p2 + v + exp(x)) * (p2 + v + exp(x))) -               \
     ((x)-a) / (tau * tau))
    double A = a, B;
    if (d2 > p2 + v) {
        B = log(d2 - p2 - v);
    } else {
        int k = 1;
        while (F(a - k * tau) < 0 && k < 1000) k++;
        B = a - k * tau;
    }
    double fa = F(A), fb = F(B);
    for (int it = 0; fabs(B - A) > eps && it < 200; it++) {
        double C = A + (A - B) * fa / (fb - fa), fc = F(C);
        if (fc * fb <= 0) {
            A = B;
            fa = fb;
        } else {
            fa /= 2;
        }
        B = C;
        fb = fc;
    }
#undef F
    double sigma2 = exp(A / 2);
    double phi_star = sqrt(p2 + sigma2 * sigma2);
    double phi2 = 1 / sqrt(1 / (phi_star * phi_star) + 1 / v);
    double mu2 = mu + phi2 * phi2 * sum;
    gmk_glicko out = {mu2 * GLICKO_SCALE + 1500, phi2 * GLICKO_SCALE, sigma2};
    return out;
}
