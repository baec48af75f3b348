/* Unit tests for core/combinations/comb_count: counts against the brute-force list of
 * tests/reference/combinations_reference.h on random multisets (sets, repeats, distinct or not, k up to
 * n + 1), and distinct counts of many equal classes against inclusion-exclusion. */
#include <criterion/criterion.h>

#include "combinations_reference.h"
#include "core/combinations/comb_count.h"

enum { TRIALS = 600 };

static void count_matches(const comb_reference_case *c, int trial, unsigned *seed) {
    (void)seed;
    comb_spec spec = {c->mult, c->m, c->k, c->distinct};
    mpz_t count;
    mpz_init(count);
    cr_assert_eq(comb_count(count, &spec, NULL), CORE_OK);
    cr_assert_eq(mpz_cmp_ui(count, c->count), 0, "trial %d: n %zu k %zu", trial, c->n, c->k);
    mpz_clear(count);
}

Test(comb_count, counts_match_brute_force_on_random_multisets) {
    comb_reference_each_random_case(TRIALS, count_matches);
}

/* m classes of `each` copies: sum_j (-1)^j C(m, j) C(k - j (each + 1) + m - 1, m - 1) sub-multisets of
 * size k (inclusion-exclusion over the classes taken more than `each` times). */
static void equal_classes_count(mpz_t out, unsigned long m, unsigned long each, unsigned long k) {
    mpz_t term;
    mpz_init(term);
    mpz_set_ui(out, 0);
    for (unsigned long j = 0; j <= m && j * (each + 1) <= k; j++) {
        mpz_bin_uiui(term, m, j);
        mpz_t ways;
        mpz_init(ways);
        mpz_bin_uiui(ways, k - j * (each + 1) + m - 1, m - 1);
        mpz_mul(term, term, ways);
        if (j % 2) mpz_sub(out, out, term);
        else mpz_add(out, out, term);
        mpz_clear(ways);
    }
    mpz_clear(term);
}

Test(comb_count, distinct_counts_match_inclusion_exclusion) {
    size_t mult[300];
    mpz_t got, want;
    mpz_inits(got, want, NULL);
    for (size_t m = 1; m <= 300; m += 37)
        for (size_t each = 1; each <= 9; each += 4)
            for (size_t k = 0; k <= m * each; k += 1 + m * each / 7) {
                for (size_t c = 0; c < m; c++) mult[c] = each;
                comb_spec spec = {mult, m, k, true};
                cr_assert_eq(comb_count(got, &spec, NULL), CORE_OK);
                equal_classes_count(want, m, each, k);
                cr_assert_eq(mpz_cmp(got, want), 0, "m %zu each %zu k %zu", m, each, k);
            }
    mpz_clears(got, want, NULL);
}
