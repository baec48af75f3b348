/* The rank's cost model (core/permutations/perm_cost.h): fitted to runs made by a power, it gives the
 * power back spread over its threads; the largest item count that fits a time is consistent with the
 * estimate both ways (it fits, one more does not), capped at the most asked, 0 when none fits; the
 * model calibrated here rises with the item count and answers the same way. Times of real runs are
 * machine-dependent, so only the model's structure is asserted. */
#include <criterion/criterion.h>
#include <math.h>

#include "core/permutations/perm_cost.h"

/* Item counts up to the largest --max-rank-items allows (2^31). */
#define MOST_ITEMS ((size_t)1 << 31)

/* largest fits `seconds` and largest + 1 does not (unless largest is `most`). */
static void expect_largest_consistent(const perm_cost *cost, double seconds, size_t most) {
    size_t largest = perm_cost_largest_items(cost, seconds, most);
    cr_assert(largest <= most, "%zu", largest);
    if (largest > 0)
        cr_assert(perm_cost_seconds(cost, (double)largest) <= seconds, "%zu items fit %g s: %g s", largest, seconds,
                  perm_cost_seconds(cost, (double)largest));
    if (largest < most)
        cr_assert(perm_cost_seconds(cost, (double)largest + 1) > seconds, "%zu items do not fit %g s: %g s",
                  largest + 1, seconds, perm_cost_seconds(cost, (double)largest + 1));
}

Test(perm_cost, a_fitted_power_is_spread_over_its_threads) {
    double items[] = {4096, 16384, 65536}, seconds[3];
    for (int i = 0; i < 3; i++) seconds[i] = 2e-9 * pow(items[i], 1.5);
    perm_cost one = perm_cost_fit(items, seconds, 3, 1), two = perm_cost_fit(items, seconds, 3, 2);
    double want = 2e-9 * pow(1e6, 1.5);
    cr_assert(fabs(perm_cost_seconds(&one, 1e6) - want) <= 1e-9 * want, "%g", perm_cost_seconds(&one, 1e6));
    cr_assert(fabs(perm_cost_seconds(&two, 1e6) - want / 2) <= 1e-9 * want, "%g", perm_cost_seconds(&two, 1e6));
    /* on two threads a second fits as many items as two seconds on one */
    cr_assert_eq(perm_cost_largest_items(&two, 1, MOST_ITEMS), perm_cost_largest_items(&one, 2, MOST_ITEMS));
}

Test(perm_cost, the_largest_count_that_fits_agrees_with_the_estimate) {
    double items[] = {4096, 65536}, seconds[] = {2.6e-4, 1.9e-2};
    perm_cost cost = perm_cost_fit(items, seconds, 2, 2);
    for (double limit = 1e-7; limit < 1e7; limit *= 2.9) {
        expect_largest_consistent(&cost, limit, MOST_ITEMS);
        expect_largest_consistent(&cost, limit, 1000000);
    }
    cr_assert_eq(perm_cost_largest_items(&cost, 1e-30, MOST_ITEMS), 0, "none fits");
    cr_assert_eq(perm_cost_largest_items(&cost, 1e30, 1000000), 1000000, "capped at the most asked");
}

Test(perm_cost, the_calibrated_model_rises_and_answers_both_ways) {
    perm_cost cost;
    cr_assert(perm_cost_calibrate(&cost));
    cr_assert(cost.threads >= 1 && cost.threads <= PERM_COST_MAX_THREADS, "%u", cost.threads);
    cr_assert_eq(cost.one_thread.size, PERM_COST_FIRST_ITEMS * pow(PERM_COST_STEP, PERM_COST_SIZES - 1),
                 "anchored at the largest count timed");
    /* processor time: a 16 times larger rank cannot take less of it */
    cr_assert_gt(growth_exponent(&cost.one_thread), 0);
    for (double n = PERM_COST_FIRST_ITEMS; n < 1e9; n *= 10)
        cr_assert_lt(perm_cost_seconds(&cost, n), perm_cost_seconds(&cost, n * 10), "%g items", n);
    for (double limit = 1e-4; limit < 1e5; limit *= 7) expect_largest_consistent(&cost, limit, MOST_ITEMS);
}
