/* Unit tests for core/combinations/comb_rank: unranking every rank and ranking every combination of
 * random multisets against the brute-force list of tests/reference/combinations_reference.h (repeated
 * values that are not distinct rank as their first occurrence), and round trips at 100,000 items. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "combinations_reference.h"
#include "core/combinations/comb_count.h"
#include "core/combinations/comb_rank.h"

enum { TRIALS = 600 };

static void ranks_match(const comb_reference_case *c, int trial, unsigned *seed) {
    (void)seed;
    comb_spec spec = {c->mult, c->m, c->k, c->distinct};
    mpz_t rank;
    mpz_init(rank);
    for (size_t i = 0; i < c->count; i++) {
        uint32_t got[COMB_REFERENCE_MAX_N] = {0};
        mpz_set_ui(rank, i);
        cr_assert_eq(comb_unrank_positions(got, &spec, rank, NULL), CORE_OK);
        cr_assert_arr_eq(got, c->list[i].positions, spec.k * sizeof *got, "trial %d: unrank %zu", trial, i);
        cr_assert_eq(comb_unrank(got, &spec, rank, NULL), CORE_OK);
        cr_assert_arr_eq(got, c->list[i].classes, spec.k * sizeof *got, "trial %d: unrank %zu", trial, i);
        cr_assert_eq(comb_rank(rank, &spec, c->list[i].classes, NULL), CORE_OK);
        cr_assert_eq(mpz_cmp_ui(rank, comb_reference_first_of_classes(c, i)), 0, "trial %d: rank of %zu", trial, i);
    }
    mpz_clear(rank);
}

Test(comb_rank, rank_and_unrank_match_brute_force_on_random_multisets) {
    comb_reference_each_random_case(TRIALS, ranks_match);
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

Test(comb_rank, round_trips_at_100000_items) {
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
