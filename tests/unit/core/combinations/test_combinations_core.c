/* Core combinations: counts, iteration, rank and unrank against brute-force enumeration of position
 * subsets on small random multisets, counts against inclusion-exclusion on larger ones, and rank /
 * unrank round trips at 100,000 items. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/combinations/comb_count.h"
#include "core/combinations/comb_iter.h"
#include "core/combinations/comb_rank.h"

enum { MAX_N = 9, MAX_LIST = 512 };

/* Brute force: every k-subset of positions of the sorted items by counting through bit masks, kept
 * as class sequences with their positions, then sorted lexicographically (by positions; for
 * `distinct` by classes, keeping each class sequence once). */
typedef struct entry {
    uint32_t classes[MAX_N];
    uint32_t positions[MAX_N];
} entry;

static int compare_positions(const void *a, const void *b) {
    const entry *x = a, *y = b;
    for (size_t i = 0; i < MAX_N; i++)
        if (x->positions[i] != y->positions[i]) return x->positions[i] < y->positions[i] ? -1 : 1;
    return 0;
}

static int compare_classes(const void *a, const void *b) {
    const entry *x = a, *y = b;
    for (size_t i = 0; i < MAX_N; i++)
        if (x->classes[i] != y->classes[i]) return x->classes[i] < y->classes[i] ? -1 : 1;
    return compare_positions(a, b);
}

static size_t brute_force(entry *all, const size_t *mult, size_t m, size_t k, bool distinct) {
    uint32_t class_of[MAX_N];
    size_t n = 0;
    for (size_t c = 0; c < m; c++)
        for (size_t i = 0; i < mult[c]; i++) class_of[n++] = (uint32_t)c;
    size_t count = 0;
    for (unsigned mask = 0; mask < 1u << n; mask++) {
        if ((size_t)__builtin_popcount(mask) != k) continue;
        entry e;
        memset(&e, 0, sizeof e);
        size_t at = 0;
        for (size_t p = 0; p < n; p++)
            if (mask >> p & 1) {
                e.positions[at] = (uint32_t)p;
                e.classes[at++] = class_of[p];
            }
        all[count++] = e;
    }
    qsort(all, count, sizeof *all, distinct ? compare_classes : compare_positions);
    if (!distinct) return count;
    size_t kept = 0; /* sorted by classes then positions: the first of each run has the earliest positions */
    for (size_t i = 0; i < count; i++)
        if (kept == 0 || memcmp(all[kept - 1].classes, all[i].classes, sizeof all[i].classes) != 0)
            all[kept++] = all[i];
    return kept;
}

static size_t random_multiset(size_t *mult, unsigned *seed) {
    size_t n = (size_t)(rand_r(seed) % (MAX_N + 1));
    size_t m = n ? 1 + (size_t)(rand_r(seed) % n) : 0;
    for (size_t c = 0; c < m; c++) mult[c] = 1;
    for (size_t i = m; i < n; i++) mult[rand_r(seed) % m]++;
    return m;
}

Test(combinations_core, count_iterate_rank_unrank_match_brute_force) {
    entry *all = malloc(MAX_LIST * sizeof *all);
    unsigned seed = 2026;
    mpz_t count, rank;
    mpz_inits(count, rank, NULL);
    for (int trial = 0; trial < 600; trial++) {
        size_t mult[MAX_N];
        size_t m = random_multiset(mult, &seed), n = 0;
        for (size_t c = 0; c < m; c++) n += mult[c];
        comb_spec spec = {mult, m, (size_t)(rand_r(&seed) % (n + 2)), trial % 2 == 1};
        size_t expected = spec.k <= n ? brute_force(all, mult, m, spec.k, spec.distinct) : 0;
        cr_assert_eq(comb_count(count, &spec, NULL), CORE_OK);
        cr_assert_eq(mpz_cmp_ui(count, expected), 0, "trial %d: n %zu k %zu", trial, n, spec.k);
        for (size_t i = 0; i < expected; i++) {
            uint32_t got[MAX_N] = {0};
            mpz_set_ui(rank, i);
            cr_assert_eq(comb_unrank_positions(got, &spec, rank, NULL), CORE_OK);
            cr_assert_arr_eq(got, all[i].positions, spec.k * sizeof *got, "trial %d: unrank %zu", trial, i);
            cr_assert_eq(comb_unrank(got, &spec, rank, NULL), CORE_OK);
            cr_assert_arr_eq(got, all[i].classes, spec.k * sizeof *got, "trial %d: unrank %zu", trial, i);
            cr_assert_eq(comb_rank(rank, &spec, all[i].classes, NULL), CORE_OK);
            size_t first = 0; /* the first occurrence of these classes in the list */
            while (memcmp(all[first].classes, all[i].classes, sizeof all[i].classes) != 0) first++;
            cr_assert_eq(mpz_cmp_ui(rank, first), 0, "trial %d: rank of %zu", trial, i);
        }
        if (expected == 0) continue;
        size_t offset = (size_t)rand_r(&seed) % expected, changed;
        mpz_set_ui(rank, offset);
        comb_iter it;
        cr_assert_eq(comb_iter_init(&it, &spec, rank, NULL), CORE_OK);
        for (size_t i = offset; i < expected; i++) {
            const uint32_t *got = comb_iter_next(&it, &changed);
            cr_assert_not_null(got, "trial %d: ended early at %zu of %zu", trial, i, expected);
            cr_assert_arr_eq(got, all[i].classes, spec.k * sizeof *got, "trial %d: step %zu", trial, i);
            if (i > offset && spec.k > 0)
                cr_assert_arr_eq(got, all[i - 1].classes, changed * sizeof *got, "entries before changed");
        }
        cr_assert_null(comb_iter_next(&it, &changed), "trial %d: too many", trial);
        comb_iter_free(&it);
    }
    mpz_clears(count, rank, NULL);
    free(all);
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

Test(combinations_core, distinct_counts_match_inclusion_exclusion) {
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

/* Unrank a random rank, check the combination is well formed, rank it back (for repeated values
 * that are not distinct, to the first occurrence of the same values). */
static void round_trip(const comb_spec *spec, unsigned long seed_value) {
    mpz_t count, rank, back;
    mpz_inits(count, rank, back, NULL);
    cr_assert_eq(comb_count(count, spec, NULL), CORE_OK);
    gmp_randstate_t state;
    gmp_randinit_default(state);
    gmp_randseed_ui(state, seed_value);
    mpz_urandomm(rank, state, count);
    uint32_t *combination = malloc(spec->k * sizeof *combination);
    cr_assert_eq(comb_unrank(combination, spec, rank, NULL), CORE_OK);
    size_t taken = 1;
    for (size_t i = 1; i < spec->k; i++) {
        cr_assert_leq(combination[i - 1], combination[i], "ascending");
        taken = combination[i] == combination[i - 1] ? taken + 1 : 1;
        cr_assert_leq(taken, spec->mult[combination[i]], "within the multiplicity");
    }
    cr_assert_eq(comb_rank(back, spec, combination, NULL), CORE_OK);
    if (spec->distinct || spec->m == comb_item_count(spec)) {
        cr_assert_eq(mpz_cmp(back, rank), 0, "round trip");
    } else { /* repeated values: the rank of the first occurrence of the same values */
        cr_assert_leq(mpz_cmp(back, rank), 0, "the first occurrence comes first");
        uint32_t *again = malloc(spec->k * sizeof *again);
        cr_assert_eq(comb_unrank(again, spec, back, NULL), CORE_OK);
        cr_assert_arr_eq(again, combination, spec->k * sizeof *again, "the same values");
        free(again);
    }
    free(combination);
    gmp_randclear(state);
    mpz_clears(count, rank, back, NULL);
}

Test(combinations_core, round_trips_at_100000_items) {
    enum { N = 100000 };
    size_t *mult = malloc(N * sizeof *mult);
    for (size_t c = 0; c < N; c++) mult[c] = 1;
    comb_spec set = {mult, N, N / 2, false};
    round_trip(&set, 1);
    set.k = 3;
    round_trip(&set, 2);
    set.k = N - 3;
    round_trip(&set, 3);
    for (size_t c = 0; c < 26; c++) mult[c] = N / 26 + (c < N % 26);
    comb_spec letters = {mult, 26, N / 2, true};
    round_trip(&letters, 4);
    letters.distinct = false;
    round_trip(&letters, 5);
    free(mult);
}
