/* Exact uniformity of the three shuffles: chi-square over all n! outcomes for n = 3..5 and over the
 * (position, value) table for larger n, with seeded and secure generators; of derangements and
 * single cycles over all of theirs for n = 4, 5, and of samples over all ordered draws. The same
 * checkers are fed deliberately broken variants (modulo-biased, off-by-one, fixed-up derangements,
 * samples that replace a repeat by the next free value) to show they would catch them.
 * Critical values are for p = 1e-6, so a correct shuffle fails by bad luck about once in a million
 * runs (seeded tests are deterministic). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/random/bounded_random.h"
#include "core/random/sample.h"
#include "core/random/shuffle.h"

typedef void (*shuffle_under_test)(rng *r, uint32_t *perm, size_t n);

static void fisher_yates(rng *r, uint32_t *perm, size_t n) {
    shuffle_permutation(SHUFFLE_FISHER_YATES, r, perm, n, NULL);
}
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
            cr_assert_not(all_outcomes_uniform(broken[b], &r, n, PER_OUTCOME), "broken shuffle %zu passed, n = %zu", b,
                          n);
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

/* Restricted shuffles: a chi-square over every allowed outcome (derangements, single cycles, ordered
 * samples), each outcome indexed as a number in base n (its entries are its digits); outcomes that
 * are not allowed must never appear. */
typedef void (*draw_under_test)(rng *r, uint32_t *out, size_t n, size_t k);
typedef bool (*outcome_allowed)(const uint32_t *p, size_t n, size_t k);

static bool digits_of(size_t index, uint32_t *p, size_t n, size_t k) {
    for (size_t i = 0; i < k; i++, index /= n) p[i] = (uint32_t)(index % n);
    return true;
}

static bool all_distinct(const uint32_t *p, size_t n, size_t k) {
    (void)n;
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; j < k; j++)
            if (p[i] == p[j]) return false;
    return true;
}

static bool no_fixed_point(const uint32_t *p, size_t n, size_t k) {
    for (size_t i = 0; i < k; i++)
        if (p[i] == i) return false;
    return all_distinct(p, n, k);
}

static bool one_cycle(const uint32_t *p, size_t n, size_t k) {
    if (!all_distinct(p, n, k)) return false;
    size_t length = 1;
    for (uint32_t at = p[0]; at != 0; at = p[at]) length++;
    return length == n;
}

static bool restricted_uniform(draw_under_test draw, outcome_allowed allowed, rng *r, size_t n, size_t k,
                               size_t samples_per_outcome) {
    size_t cells = 1;
    for (size_t i = 0; i < k; i++) cells *= n;
    uint64_t *observed = calloc(cells, sizeof *observed);
    bool *is_allowed = calloc(cells, sizeof *is_allowed);
    size_t outcomes = 0;
    uint32_t p[8];
    for (size_t c = 0; c < cells; c++) outcomes += is_allowed[c] = digits_of(c, p, n, k) && allowed(p, n, k);
    bool only_allowed = true;
    for (size_t s = 0; s < outcomes * samples_per_outcome; s++) {
        draw(r, p, n, k);
        size_t index = 0;
        for (size_t i = k; i-- > 0;) index = index * n + (p[i] < n ? p[i] : 0);
        only_allowed = only_allowed && allowed(p, n, k) && p[0] < n;
        observed[index]++;
    }
    double sum = 0; /* Pearson over the allowed cells */
    for (size_t c = 0; c < cells; c++) {
        if (!is_allowed[c]) continue;
        double d = (double)observed[c] - (double)samples_per_outcome;
        sum += d * d / (double)samples_per_outcome;
    }
    free(observed);
    free(is_allowed);
    return only_allowed && sum < critical_value((double)(outcomes - 1));
}

static void fisher_yates_draw(rng *r, uint32_t *p, size_t n, size_t k) {
    (void)k;
    fisher_yates(r, p, n);
}

static void off_by_one_draw(rng *r, uint32_t *p, size_t n, size_t k) {
    (void)k;
    off_by_one(r, p, n);
}

static void derangement(rng *r, uint32_t *p, size_t n, size_t k) {
    (void)k;
    cr_assert_eq(shuffle_permutation(SHUFFLE_DERANGEMENT, r, p, n, NULL), CORE_OK);
}

static void single_cycle(rng *r, uint32_t *p, size_t n, size_t k) {
    (void)k;
    cr_assert_eq(shuffle_permutation(SHUFFLE_CYCLE, r, p, n, NULL), CORE_OK);
}

static void sample(rng *r, uint32_t *p, size_t n, size_t k) { cr_assert_eq(shuffle_sample(r, p, n, k, NULL), CORE_OK); }

/* Broken on purpose: a shuffle whose fixed points are each swapped with the next position. Every
 * result is a derangement, but not uniformly. */
static void fixed_up_derangement(rng *r, uint32_t *p, size_t n, size_t k) {
    (void)k;
    fisher_yates(r, p, n);
    for (size_t i = 0; i < n; i++)
        if (p[i] == i) {
            uint32_t t = p[i];
            p[i] = p[(i + 1) % n];
            p[(i + 1) % n] = t;
        }
}

/* Broken on purpose: Sattolo's algorithm with the 4-bit modulo-biased dice of modulo_biased. */
static void modulo_biased_cycle(rng *r, uint32_t *p, size_t n, size_t k) {
    (void)k;
    for (size_t i = 0; i < n; i++) p[i] = (uint32_t)i;
    for (size_t i = n - 1; i >= 1; i--) {
        size_t j = (size_t)(rng_next(r) >> 60) % i;
        uint32_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* Broken on purpose: draws with replacement, a repeat replaced by the next value not yet drawn. */
static void next_free_sample(rng *r, uint32_t *p, size_t n, size_t k) {
    bool taken[8] = {false};
    for (size_t i = 0; i < k; i++) {
        size_t v = (size_t)bounded_random(r, n);
        while (taken[v]) v = (v + 1) % n;
        taken[v] = true;
        p[i] = (uint32_t)v;
    }
}

Test(shuffle_uniformity, derangements_of_4_and_5_are_uniform) {
    for (size_t n = 4; n <= 5; n++) {
        rng r;
        rng_seed_u64(&r, 9000 + n);
        cr_assert(restricted_uniform(derangement, no_fixed_point, &r, n, n, PER_OUTCOME), "n = %zu", n);
    }
}

Test(shuffle_uniformity, cycles_of_4_and_5_are_uniform) {
    for (size_t n = 4; n <= 5; n++) {
        rng r;
        rng_seed_u64(&r, 9100 + n);
        cr_assert(restricted_uniform(single_cycle, one_cycle, &r, n, n, PER_OUTCOME), "n = %zu", n);
    }
}

/* Odd and even k, so both endings of the paired dice are covered, and k = n. */
Test(shuffle_uniformity, samples_are_uniform_over_ordered_draws) {
    static const size_t sizes[][2] = {{5, 1}, {5, 2}, {6, 3}, {5, 5}, {7, 2}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        rng r;
        rng_seed_u64(&r, 9200 + s);
        cr_assert(restricted_uniform(sample, all_distinct, &r, sizes[s][0], sizes[s][1], PER_OUTCOME), "n %zu k %zu",
                  sizes[s][0], sizes[s][1]);
    }
}

Test(shuffle_uniformity, restricted_checkers_reject_biased_variants) {
    for (size_t n = 4; n <= 5; n++) {
        rng r;
        rng_seed_u64(&r, 9300 + n);
        cr_assert_not(restricted_uniform(fixed_up_derangement, no_fixed_point, &r, n, n, PER_OUTCOME), "n = %zu", n);
        cr_assert_not(restricted_uniform(off_by_one_draw, no_fixed_point, &r, n, n, PER_OUTCOME),
                      "Sattolo's cycles are not all derangements, n = %zu", n);
        cr_assert_not(restricted_uniform(modulo_biased_cycle, one_cycle, &r, n, n, PER_OUTCOME), "n = %zu", n);
        cr_assert_not(restricted_uniform(fisher_yates_draw, one_cycle, &r, n, n, PER_OUTCOME), "n = %zu", n);
        cr_assert_not(restricted_uniform(next_free_sample, all_distinct, &r, n, 2, PER_OUTCOME), "n = %zu", n);
    }
}

/* Large draws: a derangement and a cycle of a million, a sample of a thousand from 2^32. */
Test(shuffle_uniformity, large_restricted_draws_hold_their_property) {
    enum { LARGE = 1000003 };
    uint32_t *p = malloc(LARGE * sizeof *p);
    rng r;
    rng_seed_u64(&r, 77);
    cr_assert_eq(shuffle_permutation(SHUFFLE_DERANGEMENT, &r, p, LARGE, NULL), CORE_OK);
    cr_assert(is_permutation(p, LARGE));
    for (size_t i = 0; i < LARGE; i++) cr_assert_neq(p[i], i);
    cr_assert_eq(shuffle_permutation(SHUFFLE_CYCLE, &r, p, LARGE, NULL), CORE_OK);
    size_t length = 1;
    for (uint32_t at = p[0]; at != 0; at = p[at]) length++;
    cr_assert_eq(length, LARGE);
    cr_assert_eq(shuffle_sample(&r, p, SHUFFLE_MAX_N, 1000, NULL), CORE_OK);
    for (size_t i = 0; i < 1000; i++)
        for (size_t j = i + 1; j < 1000; j++) cr_assert_neq(p[i], p[j]);
    free(p);
}
