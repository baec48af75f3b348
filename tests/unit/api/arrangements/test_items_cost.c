/* The items' cost model (api/arrangements/items_cost.h): fitted to runs made by powers, it gives each
 * power back, reading and writing apart, and nothing for no items; the model calibrated here is
 * anchored at the largest count timed and rises with the item count. Times of real runs are
 * machine-dependent, so only the model's structure is asserted. */
#include <criterion/criterion.h>
#include <math.h>

#include "api/arrangements/items_cost.h"
#include "core/permutations/perm_cost.h"

static void expect_close(double got, double want, const char *what) {
    cr_assert(fabs(got - want) <= 1e-9 * want, "%s: %.12g, want %.12g", what, got, want);
}

Test(items_cost, fitted_powers_are_given_back_apart) {
    double items[] = {4096, 16384, 65536}, read[3], write[3];
    for (int i = 0; i < 3; i++) {
        read[i] = 6e-8 * pow(items[i], 1.1);
        write[i] = 4e-9 * items[i];
    }
    items_cost cost = items_cost_fit(items, read, write, 3);
    for (double n = 100; n < 1e9; n *= 7.3) {
        expect_close(items_cost_read_seconds(&cost, n), 6e-8 * pow(n, 1.1), "read");
        expect_close(items_cost_write_seconds(&cost, n), 4e-9 * n, "written");
    }
    cr_assert_eq(items_cost_read_seconds(&cost, 0), 0, "no items read");
    cr_assert_eq(items_cost_write_seconds(&cost, 0), 0, "no items written");
}

Test(items_cost, the_calibrated_model_rises) {
    items_cost cost;
    cr_assert(items_cost_calibrate(&cost));
    double largest = PERM_COST_FIRST_ITEMS * pow(PERM_COST_STEP, PERM_COST_SIZES - 1);
    cr_assert_eq(cost.read.size, largest, "anchored at the largest count timed");
    cr_assert_eq(cost.write.size, largest, "anchored at the largest count timed");
    cr_assert_gt(cost.read.seconds, 0);
    cr_assert_gt(cost.write.seconds, 0);
    /* processor time: 16 times more items cannot take less of it */
    cr_assert_gt(growth_exponent(&cost.read), 0);
    cr_assert_gt(growth_exponent(&cost.write), 0);
    for (double n = PERM_COST_FIRST_ITEMS; n < 1e9; n *= 10) {
        cr_assert_lt(items_cost_read_seconds(&cost, n), items_cost_read_seconds(&cost, n * 10), "%g items", n);
        cr_assert_lt(items_cost_write_seconds(&cost, n), items_cost_write_seconds(&cost, n * 10), "%g items", n);
    }
}
