/* The cost models' fit (core/common/growth_fit.h): runs made exactly by a model give that model back,
 * whatever their order, with or without a known term; the largest size that fits a time is the model's
 * inverse; noise on small sizes moves the fit but not the anchor. */
#include <criterion/criterion.h>
#include <math.h>

#include "core/common/growth_fit.h"

static double n_to_the_n(double n) { return n * log(n); }

static void expect_close(double got, double want, const char *what) {
    cr_assert(fabs(got - want) <= 1e-9 * fabs(want), "%s: %.12g, want %.12g", what, got, want);
}

Test(growth_fit, runs_of_a_plain_exponential_give_it_back) {
    double sizes[] = {7, 5, 8, 6}, seconds[4];
    for (int i = 0; i < 4; i++) seconds[i] = 2e-3 * pow(3, sizes[i]);
    growth_model m = growth_fit(sizes, seconds, 4, NULL);
    expect_close(m.factor, 3, "factor");
    cr_assert_eq(m.size, 8, "anchored at the largest size");
    expect_close(growth_seconds(&m, 20), 2e-3 * pow(3, 20), "20");
    expect_close(growth_seconds(&m, 3), 2e-3 * pow(3, 3), "below the runs");
}

Test(growth_fit, a_known_term_leaves_only_its_factor_to_fit) {
    /* the n-queens shape: C n^n r^n with r = 0.1 */
    double sizes[] = {12, 13, 14}, seconds[3];
    for (int i = 0; i < 3; i++) seconds[i] = 1e-12 * pow(sizes[i], sizes[i]) * pow(0.1, sizes[i]);
    growth_model m = growth_fit(sizes, seconds, 3, n_to_the_n);
    expect_close(m.factor, 0.1, "r");
    expect_close(growth_seconds(&m, 30), 1e-12 * pow(30, 30) * pow(0.1, 30), "30");
    /* the same runs read as a plain exponential grow by their last step's ratio or less: fitted to
     * small sizes, it says too little for large ones, which the known term corrects */
    growth_model plain = growth_fit(sizes, seconds, 3, NULL);
    cr_assert_lt(growth_seconds(&plain, 30), growth_seconds(&m, 30) / 1000);
}

Test(growth_fit, the_largest_size_that_fits_is_the_inverse) {
    double sizes[] = {1, 2}, seconds[] = {1e-3, 1e-2};
    growth_model m = growth_fit(sizes, seconds, 2, NULL); /* 10^(size - 4) s */
    cr_assert_eq(growth_largest_size(&m, 1.5, 1, 32), 4);
    cr_assert_eq(growth_largest_size(&m, 0.5, 1, 32), 3);
    cr_assert_eq(growth_largest_size(&m, 2e9, 1, 32), 13);
    cr_assert_eq(growth_largest_size(&m, 1e99, 1, 32), 32, "capped at the largest size asked");
    cr_assert_eq(growth_largest_size(&m, 1e-6, 1, 32), 0, "none fits: smallest - 1");
}

Test(growth_fit, noise_moves_the_factor_and_the_anchor_stays_measured) {
    /* 10 x per step with the smallest run doubled by noise: the least-squares slope is a little under
     * 10, and the model passes through the largest run as measured */
    double sizes[] = {1, 2, 3}, seconds[] = {2e-3, 1e-2, 1e-1};
    growth_model m = growth_fit(sizes, seconds, 3, NULL);
    expect_close(m.factor, sqrt(50), "the slope through the three runs");
    expect_close(growth_seconds(&m, 3), 1e-1, "the anchor");
}
