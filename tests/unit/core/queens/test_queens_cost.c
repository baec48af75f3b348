/* The n-queens count's cost model (core/queens/queens_cost.h): the sampled boards' times are the
 * model's within their range and stand for the smaller boards; beyond, times made exactly by
 * C n^n r^n give that growth back; the largest n that fits a time is the model's inverse; the
 * calibration's times are positive and the model rises with n. */
#include <criterion/criterion.h>
#include <math.h>

#include "core/queens/queens_cost.h"
#include "core/queens/queens_solutions.h"

static double shaped(double n, double r) { return 1e-12 * pow(n, n) * pow(r, n); }

static queens_cost shaped_model(double r, unsigned threads) {
    double seconds[QUEENS_COST_BOARDS];
    for (int i = 0; i < QUEENS_COST_BOARDS; i++) seconds[i] = shaped(QUEENS_COST_FIRST_N + i, r);
    return queens_cost_fit(seconds, threads);
}

static void expect_close(double got, double want, const char *what) {
    cr_assert(fabs(got - want) <= 1e-9 * fabs(want), "%s: %.12g, want %.12g", what, got, want);
}

Test(queens_cost, the_sampled_boards_are_the_model_and_stand_below) {
    double seconds[QUEENS_COST_BOARDS];
    for (int i = 0; i < QUEENS_COST_BOARDS; i++) seconds[i] = 1e-3 * (i + 1) * (i + 1);
    queens_cost cost = queens_cost_fit(seconds, 2);
    for (int i = 0; i < QUEENS_COST_BOARDS; i++)
        expect_close(queens_cost_seconds(&cost, QUEENS_COST_FIRST_N + i), seconds[i] / 2, "a sampled board");
    for (int n = 1; n < QUEENS_COST_FIRST_N; n++)
        expect_close(queens_cost_seconds(&cost, n), seconds[0] / 2, "below: the first sampled board");
}

Test(queens_cost, beyond_the_samples_the_fitted_growth_is_given_back) {
    queens_cost cost = shaped_model(0.14, 1);
    for (int n = QUEENS_COST_LAST_N + 1; n <= QUEENS_MAX_N; n++)
        expect_close(queens_cost_seconds(&cost, n), shaped(n, 0.14), "beyond");
    expect_close(cost.beyond.factor, 0.14, "r");
}

Test(queens_cost, only_the_largest_samples_set_the_growth) {
    /* the smallest boards flattened by fixed costs (ten times their shaped time) move nothing beyond */
    double seconds[QUEENS_COST_BOARDS];
    for (int i = 0; i < QUEENS_COST_BOARDS; i++) {
        seconds[i] = shaped(QUEENS_COST_FIRST_N + i, 0.14);
        if (i < QUEENS_COST_BOARDS - QUEENS_COST_FITTED) seconds[i] *= 10;
    }
    queens_cost cost = queens_cost_fit(seconds, 1);
    expect_close(queens_cost_seconds(&cost, 20), shaped(20, 0.14), "n = 20");
}

Test(queens_cost, the_largest_n_that_fits_is_the_inverse) {
    queens_cost cost = shaped_model(0.14, 2);
    for (double limit = 1e-9; limit < 1e30; limit *= 3.3) {
        int fits = queens_cost_largest_n(&cost, limit);
        cr_assert(fits == 0 || queens_cost_seconds(&cost, fits) <= limit, "%d fits %g s", fits, limit);
        cr_assert(fits == QUEENS_MAX_N || queens_cost_seconds(&cost, fits + 1) > limit, "%d + 1 does not fit %g s",
                  fits, limit);
    }
    cr_assert_eq(queens_cost_largest_n(&cost, HUGE_VAL), QUEENS_MAX_N, "no limit: the largest board");
    cr_assert_eq(queens_cost_largest_n(&cost, 0), 0, "no time: none");
}

Test(queens_cost, the_calibration_times_every_board_and_rises_with_n) {
    queens_cost cost = queens_cost_calibrate();
    cr_assert_geq(cost.threads, 1);
    for (int i = 0; i < QUEENS_COST_BOARDS; i++)
        cr_assert(cost.sampled[i] > 0 && isfinite(cost.sampled[i]), "n = %d: %g", QUEENS_COST_FIRST_N + i,
                  cost.sampled[i]);
    for (int n = QUEENS_COST_LAST_N; n < QUEENS_MAX_N; n++)
        cr_assert_lt(queens_cost_seconds(&cost, n), queens_cost_seconds(&cost, n + 1), "n = %d", n);
}
