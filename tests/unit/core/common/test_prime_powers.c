/* Primes and prime powers against plain arithmetic: the sieve's primes and smallest factors against
 * trial division up to 2^16, the exponent of p in m! against counting the factors of 1..m one by one,
 * and products of prime powers against GMP's powers multiplied one at a time, for seeded random
 * exponents (every prime with small exponents; a few hundred with small or large ones). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include <gmp.h>

#include "core/common/prime_powers.h"

enum { LIMIT = 1 << 16 };

static uint32_t smallest_factor(uint32_t v) {
    for (uint32_t d = 2; d * d <= v; d++)
        if (v % d == 0) return d;
    return v;
}

static uint32_t primes[LIMIT / 2 + 1];
static uint16_t factor_index[LIMIT + 1];

Test(prime_powers, sieve_matches_trial_division) {
    size_t count = primes_sieve(LIMIT, primes, factor_index), expected = 0;
    for (uint32_t v = 2; v <= LIMIT; v++) {
        uint32_t p = smallest_factor(v);
        if (p == v) cr_assert_eq(primes[expected++], v, "prime %u", v);
        cr_assert_eq(primes[factor_index[v]], p, "smallest factor of %u", v);
    }
    cr_assert_eq(count, expected);
    cr_assert_eq(primes_sieve(2, primes, factor_index), 1);
}

Test(prime_powers, factorial_exponent_counts_the_factors) {
    const uint32_t ps[] = {2, 3, 5, 7, 97, 65521};
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        uint32_t p = ps[k], counted = 0;
        for (uint64_t m = 0; m <= 300000; m++) {
            for (uint64_t v = m; v > 0 && v % p == 0; v /= p) counted++;
            if (m % 997 == 0 || m == 300000) cr_assert_eq(factorial_exponent(m, p), counted, "%u in %lu!", p, m);
        }
    }
}

Test(prime_powers, product_matches_powers_one_at_a_time) {
    size_t count = primes_sieve(LIMIT, primes, factor_index);
    uint32_t *exponents = malloc(count * sizeof *exponents);
    unsigned seed = 16;
    mpz_t product, expected, power;
    mpz_inits(product, expected, power, NULL);
    for (int trial = 0; trial < 12; trial++) {
        size_t used = trial % 3 == 0 ? count : 1 + (size_t)rand_r(&seed) % 200;
        for (size_t i = 0; i < count; i++) exponents[i] = 0;
        for (size_t i = 0; i < used; i++) {
            size_t at = trial % 3 == 0 ? i : (size_t)rand_r(&seed) % count;
            exponents[at] = trial % 3 == 0 || trial % 2 ? (uint32_t)rand_r(&seed) % 4 : (uint32_t)rand_r(&seed) % 3000;
        }
        prime_power_product(product, primes, exponents, count);
        mpz_set_ui(expected, 1);
        for (size_t i = 0; i < count; i++) {
            mpz_ui_pow_ui(power, primes[i], exponents[i]);
            mpz_mul(expected, expected, power);
        }
        cr_assert_eq(mpz_cmp(product, expected), 0, "trial %d", trial);
    }
    for (size_t i = 0; i < count; i++) exponents[i] = 0;
    prime_power_product(product, primes, exponents, count);
    cr_assert_eq(mpz_cmp_ui(product, 1), 0);
    mpz_clears(product, expected, power, NULL);
    free(exponents);
}
