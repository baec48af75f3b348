/* The Fenwick tree against a plain array of counts: after every random update, every prefix sum and
 * every select agree with a linear scan, on sizes around powers of two (where `top` changes). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "core/common/fenwick.h"

static size_t scan_prefix(const size_t *counts, size_t i) {
    size_t sum = 0;
    for (size_t s = 0; s < i; s++) sum += counts[s];
    return sum;
}

static size_t scan_select(const size_t *counts, size_t n, size_t r) {
    size_t sum = 0;
    for (size_t s = 0; s < n; s++) {
        sum += counts[s];
        if (sum > r) return s;
    }
    return n;
}

static void check_against_scan(const fenwick *f, const size_t *counts, size_t n) {
    for (size_t i = 0; i <= n; i++)
        cr_assert_eq(fenwick_prefix(f, i), scan_prefix(counts, i), "prefix(%zu) of %zu slots", i, n);
    size_t total = scan_prefix(counts, n);
    for (size_t r = 0; r < total; r++)
        cr_assert_eq(fenwick_select(f, r), scan_select(counts, n, r), "select(%zu) of %zu slots", r, n);
}

Test(fenwick, agrees_with_a_linear_scan_under_random_updates) {
    const size_t sizes[] = {1, 2, 3, 7, 8, 9, 31, 32, 33, 100};
    srand(12345);
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t n = sizes[t];
        size_t *counts = malloc(n * sizeof *counts);
        for (size_t i = 0; i < n; i++) counts[i] = (size_t)(rand() % 4);
        fenwick f;
        cr_assert(fenwick_init(&f, n, counts));
        check_against_scan(&f, counts, n);
        for (int step = 0; step < 50; step++) {
            size_t slot = (size_t)rand() % n;
            if (counts[slot] > 0 && rand() % 2) {
                counts[slot]--;
                fenwick_add(&f, slot, (size_t)-1);
            } else {
                counts[slot]++;
                fenwick_add(&f, slot, 1);
            }
            check_against_scan(&f, counts, n);
        }
        fenwick_free(&f);
        free(counts);
    }
}

Test(fenwick, starts_with_one_unit_per_slot_without_counts) {
    fenwick f;
    cr_assert(fenwick_init(&f, 10, NULL));
    for (size_t r = 0; r < 10; r++) cr_assert_eq(fenwick_select(&f, r), r);
    fenwick_add(&f, 3, (size_t)-1); /* slot 3 taken: the 4th unit is now in slot 4 */
    cr_assert_eq(fenwick_select(&f, 3), 4);
    cr_assert_eq(fenwick_prefix(&f, 10), 9);
    fenwick_free(&f);
}
