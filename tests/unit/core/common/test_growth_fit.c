/* The cost models' fit (core/common/growth_fit.h): runs made exactly by a model give that model back,
 * whatever their order, with or without a known term, or as a power of the size; the largest size that
 * fits a time is the model's inverse, over short and long ranges; noise on small sizes moves the fit but
 * not the anchor; a timed run is run as many times as asked and its time is the fastest. */
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

Test(growth_fit, runs_of_a_power_give_it_back) {
    double sizes[] = {16384, 4096, 65536}, seconds[3];
    for (int i = 0; i < 3; i++) seconds[i] = 3e-9 * pow(sizes[i], 1.4);
    growth_model m = growth_fit_power(sizes, seconds, 3);
    expect_close(growth_exponent(&m), 1.4, "exponent");
    cr_assert_eq(m.size, 65536, "anchored at the largest size");
    expect_close(growth_seconds(&m, 1e8), 3e-9 * pow(1e8, 1.4), "10^8");
    expect_close(growth_seconds(&m, 100), 3e-9 * pow(100, 1.4), "below the runs");
}

/* The binary search's answer fits and the next size does not, on a long range of a power and on the
 * short one of a known term, at many times; it agrees with a walk up the sizes. */
Test(growth_fit, the_largest_size_is_found_both_ways_on_long_ranges) {
    double sizes[] = {4096, 65536}, seconds[] = {1e-4, 3e-2};
    growth_model power = growth_fit_power(sizes, seconds, 2);
    double boards[] = {12, 13, 14}, counted[3];
    for (int i = 0; i < 3; i++) counted[i] = 1e-12 * pow(boards[i], boards[i]) * pow(0.1, boards[i]);
    growth_model queens = growth_fit(boards, counted, 3, n_to_the_n);
    for (double limit = 1e-6; limit < 1e6; limit *= 3.7) {
        long fits = growth_largest_size(&power, limit, 1, 2147483648L);
        cr_assert(fits == 0 || growth_seconds(&power, (double)fits) <= limit, "%ld fits %g s", fits, limit);
        cr_assert(fits == 2147483648L || growth_seconds(&power, (double)fits + 1) > limit, "%ld + 1 does not fit %g s",
                  fits, limit);
        long walked = 0;
        for (long n = 1; n <= 32 && growth_seconds(&queens, (double)n) <= limit; n++) walked = n;
        cr_assert_eq(growth_largest_size(&queens, limit, 1, 32), walked, "%g s", limit);
    }
}

static void count_run(void *runs) { ++*(unsigned *)runs; }

Test(growth_fit, a_timed_run_runs_as_often_as_asked) {
    unsigned runs = 0;
    double fastest = growth_time_fastest(count_run, &runs, 3);
    cr_assert_eq(runs, 3);
    cr_assert(fastest >= 0 && fastest < HUGE_VAL, "%g", fastest);
}

Test(growth_fit, the_cores_are_at_least_one_and_at_most_asked) {
    cr_assert_eq(growth_cores(1), 1);
    unsigned cores = growth_cores(1024);
    cr_assert(cores >= 1 && cores <= 1024, "%u", cores);
    cr_assert_eq(growth_cores(2), cores < 2 ? cores : 2);
}
