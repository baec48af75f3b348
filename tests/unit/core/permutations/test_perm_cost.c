/* The rank's cost model (core/permutations/perm_cost.h): fitted to runs made by a power, it gives the
 * power back spread over its threads; the model calibrated here rises with the item count. Times of
 * real runs are machine-dependent, so only the model's structure is asserted. The largest item count
 * that fits a time, of the rank with its items read and written, is tested with them
 * (tests/unit/api/permutations/test_rank_estimate.c). */
#include <criterion/criterion.h>
#include <math.h>

#include "core/permutations/perm_cost.h"

Test(perm_cost, a_fitted_power_is_spread_over_its_threads) {
    double items[] = {4096, 16384, 65536}, seconds[3];
    for (int i = 0; i < 3; i++) seconds[i] = 2e-9 * pow(items[i], 1.5);
    perm_cost one = perm_cost_fit(items, seconds, 3, 1), two = perm_cost_fit(items, seconds, 3, 2);
    double want = 2e-9 * pow(1e6, 1.5);
    cr_assert(fabs(perm_cost_seconds(&one, 1e6) - want) <= 1e-9 * want, "%g", perm_cost_seconds(&one, 1e6));
    cr_assert(fabs(perm_cost_seconds(&two, 1e6) - want / 2) <= 1e-9 * want, "%g", perm_cost_seconds(&two, 1e6));
}

Test(perm_cost, the_calibrated_model_rises) {
    perm_cost cost;
    cr_assert(perm_cost_calibrate(&cost));
    cr_assert(cost.threads >= 1 && cost.threads <= PERM_COST_MAX_THREADS, "%u", cost.threads);
    cr_assert_eq(cost.one_thread.size, PERM_COST_FIRST_ITEMS * pow(PERM_COST_STEP, PERM_COST_SIZES - 1),
                 "anchored at the largest count timed");
    /* processor time: a 16 times larger rank cannot take less of it */
    cr_assert_gt(growth_exponent(&cost.one_thread), 0);
    for (double n = PERM_COST_FIRST_ITEMS; n < 1e9; n *= 10)
        cr_assert_lt(perm_cost_seconds(&cost, n), perm_cost_seconds(&cost, n * 10), "%g items", n);
}
