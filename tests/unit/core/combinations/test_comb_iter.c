/* Unit tests for core/combinations/comb_iter: iteration from a random offset to the end against the
 * brute-force list of tests/reference/combinations_reference.h on random multisets, with the count of
 * leading entries each step leaves unchanged. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "combinations_reference.h"
#include "core/combinations/comb_iter.h"

enum { TRIALS = 600 };

static void iteration_matches(const comb_reference_case *c, int trial, unsigned *seed) {
    if (c->count == 0) return;
    comb_spec spec = {c->mult, c->m, c->k, c->distinct};
    size_t offset = (size_t)rand_r(seed) % c->count, changed;
    mpz_t start;
    mpz_init_set_ui(start, offset);
    comb_iter it;
    cr_assert_eq(comb_iter_init(&it, &spec, start, NULL), CORE_OK);
    for (size_t i = offset; i < c->count; i++) {
        const uint32_t *got = comb_iter_next(&it, &changed);
        cr_assert_not_null(got, "trial %d: ended early at %zu of %zu", trial, i, c->count);
        cr_assert_arr_eq(got, c->list[i].classes, spec.k * sizeof *got, "trial %d: step %zu", trial, i);
        if (i > offset && spec.k > 0)
            cr_assert_arr_eq(got, c->list[i - 1].classes, changed * sizeof *got, "entries before changed");
    }
    cr_assert_null(comb_iter_next(&it, &changed), "trial %d: too many", trial);
    comb_iter_free(&it);
    mpz_clear(start);
}

Test(comb_iter, iteration_from_any_offset_matches_brute_force) {
    comb_reference_each_random_case(TRIALS, iteration_matches);
}
