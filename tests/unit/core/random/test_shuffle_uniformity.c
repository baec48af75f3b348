/* Exact uniformity of the three shuffles: chi-square over all n! outcomes for n = 3..5 and over the
 * (position, value) table for larger n, with seeded and secure generators. The same checkers are fed
 * deliberately broken shuffles (modulo-biased, off-by-one) to show they would catch them.
 * Critical values are for p = 1e-6, so a correct shuffle fails by bad luck about once in a million
 * runs (seeded tests are deterministic). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/random/bounded_random.h"
#include "core/random/shuffle.h"

typedef void (*shuffle_under_test)(rng *r, uint32_t *perm, size_t n);

static void fisher_yates(rng *r, uint32_t *perm, size_t n) { shuffle_permutation(SHUFFLE_FISHER_YATES, r, perm, n, NULL); }
static void inside_out(rng *r, uint32_t *perm, size_t n) { shuffle_permutation(SHUFFLE_INSIDE_OUT, r, perm, n, NULL); }
static void naive(rng *r, uint32_t *perm, size_t n) { shuffle_permutation(SHUFFLE_NAIVE, r, perm, n, NULL); }

/* Broken on purpose: Fisher-Yates with j = (4-bit random value) % (i+1), the modulo bias of
 * rand() % (i+1) made large enough to see. */
static void modulo_biased(rng *r, uint32_t *perm, size_t n) {
    for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
    for (size_t i = n - 1; i >= 1; i--) {
        size_t j = (size_t)(rng_next(r) >> 60) % (i + 1);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

/* Broken on purpose: Fisher-Yates with j drawn from [0, i) instead of [0, i] (an off-by-one that
 * yields only cyclic permutations: Sattolo's algorithm). */
static void off_by_one(rng *r, uint32_t *perm, size_t n) {
    for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
    for (size_t i = n - 1; i >= 1; i--) {
        size_t j = (size_t)bounded_random(r, i);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

/* Chi-square critical value for `df` degrees of freedom at p ~ 1e-6 (Wilson-Hilferty, z = 4.75). */
static double critical_value(double df) {
    double a = 2.0 / (9.0 * df);
    return df * pow(1.0 - a + 4.75 * sqrt(a), 3);
}

static double chi_square(const uint64_t *observed, size_t cells, double expected_each) {
    double sum = 0;
    for (size_t i = 0; i < cells; i++) {
        double d = (double)observed[i] - expected_each;
        sum += d * d / expected_each;
    }
    return sum;
}

/* The permutation's index in 0..n!-1 (its Lehmer code read as a factorial-base number). */
static size_t permutation_rank(const uint32_t *p, size_t n) {
    size_t rank = 0;
    for (size_t i = 0; i < n; i++) {
        size_t smaller_after = 0;
        for (size_t j = i + 1; j < n; j++) smaller_after += p[j] < p[i];
        rank = rank * (n - i) + smaller_after;
    }
    return rank;
}

static bool is_permutation(const uint32_t *p, size_t n) {
    bool *seen = calloc(n + 1, 1);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        ok = p[i] < n && !seen[p[i]];
        if (ok) seen[p[i]] = true;
    }
    free(seen);
    return ok;
}

/* Chi-square test that all n! outcomes are equally likely. */
static bool all_outcomes_uniform(shuffle_under_test shuffle, rng *r, size_t n, size_t samples_per_outcome) {
    size_t outcomes = 1;
    for (size_t k = 2; k <= n; k++) outcomes *= k;
    uint64_t *observed = calloc(outcomes, sizeof *observed);
    uint32_t perm[8];
    for (size_t s = 0; s < outcomes * samples_per_outcome; s++) {
        shuffle(r, perm, n);
        cr_assert(is_permutation(perm, n));
        observed[permutation_rank(perm, n)]++;
    }
    double statistic = chi_square(observed, outcomes, (double)samples_per_outcome);
    free(observed);
    return statistic < critical_value((double)(outcomes - 1));
}

/* Chi-square test that every value is equally likely at every position. The n cells one permutation
 * fills are dependent (one per row and column): under uniformity Pearson's statistic is n/(n-1) times
 * a chi-square with (n-1)^2 degrees of freedom, so it is scaled back by (n-1)/n. */
static bool positions_uniform(shuffle_under_test shuffle, rng *r, size_t n, size_t samples) {
    uint64_t *observed = calloc(n * n, sizeof *observed);
    uint32_t *perm = malloc(n * sizeof *perm);
    for (size_t s = 0; s < samples; s++) {
        shuffle(r, perm, n);
        for (size_t i = 0; i < n; i++) observed[i * n + perm[i]]++;
    }
    double statistic = chi_square(observed, n * n, (double)samples / (double)n) * (double)(n - 1) / (double)n;
    free(perm);
    free(observed);
    return statistic < critical_value((double)((n - 1) * (n - 1)));
}

enum { PER_OUTCOME = 5000 };

static void expect_all_outcomes_uniform(shuffle_under_test shuffle, uint64_t seed) {
    for (size_t n = 3; n <= 5; n++) {
        rng r;
        rng_seed_u64(&r, seed + n);
        cr_assert(all_outcomes_uniform(shuffle, &r, n, PER_OUTCOME), "n = %zu is not uniform", n);
    }
}

Test(shuffle_uniformity, fisher_yates_all_outcomes) { expect_all_outcomes_uniform(fisher_yates, 1000); }
Test(shuffle_uniformity, inside_out_all_outcomes) { expect_all_outcomes_uniform(inside_out, 2000); }
Test(shuffle_uniformity, naive_all_outcomes) { expect_all_outcomes_uniform(naive, 3000); }

Test(shuffle_uniformity, secure_generator_all_outcomes) {
    rng r;
    cr_assert(rng_seed_secure(&r));
    for (size_t n = 3; n <= 5; n++) cr_assert(all_outcomes_uniform(fisher_yates, &r, n, PER_OUTCOME));
}

/* Sizes with odd and even numbers of dice, so both endings of the paired draws are covered. */
static void expect_positions_uniform(shuffle_under_test shuffle, uint64_t seed) {
    static const size_t sizes[] = {10, 33, 52};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        rng r;
        rng_seed_u64(&r, seed + k);
        cr_assert(positions_uniform(shuffle, &r, sizes[k], sizes[k] * 1000), "n = %zu is not uniform", sizes[k]);
    }
}

Test(shuffle_uniformity, fisher_yates_positions) { expect_positions_uniform(fisher_yates, 4000); }
Test(shuffle_uniformity, inside_out_positions) { expect_positions_uniform(inside_out, 5000); }
Test(shuffle_uniformity, naive_positions) { expect_positions_uniform(naive, 6000); }

Test(shuffle_uniformity, secure_generator_positions) {
    rng r;
    cr_assert(rng_seed_secure(&r));
    cr_assert(positions_uniform(inside_out, &r, 52, 52000));
}

/* The checkers are not blind: the broken shuffles fail both of them. */
Test(shuffle_uniformity, checkers_reject_modulo_biased_and_off_by_one_shuffles) {
    shuffle_under_test broken[] = {modulo_biased, off_by_one};
    for (size_t b = 0; b < 2; b++) {
        for (size_t n = 3; n <= 5; n++) {
            rng r;
            rng_seed_u64(&r, 7000 + n);
            cr_assert_not(all_outcomes_uniform(broken[b], &r, n, PER_OUTCOME), "broken shuffle %zu passed, n = %zu", b, n);
        }
        rng r;
        rng_seed_u64(&r, 8000);
        cr_assert_not(positions_uniform(broken[b], &r, 10, 10000), "broken shuffle %zu passed positions", b);
    }
}

/* Large inputs come out as permutations (every value exactly once). */
Test(shuffle_uniformity, large_outputs_are_permutations) {
    enum { LARGE = 1000003, NAIVE_LARGE = 20001 };
    uint32_t *perm = malloc(LARGE * sizeof *perm);
    rng r;
    rng_seed_u64(&r, 99);
    fisher_yates(&r, perm, LARGE);
    cr_assert(is_permutation(perm, LARGE));
    inside_out(&r, perm, LARGE);
    cr_assert(is_permutation(perm, LARGE));
    naive(&r, perm, NAIVE_LARGE);
    cr_assert(is_permutation(perm, NAIVE_LARGE));
    free(perm);
}
