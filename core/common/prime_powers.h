/* Primes, their exponents in factorials, and products of prime powers given by their exponents: what
 * cancelling known common factors exactly needs (the rank of a multiset permutation,
 * core/permutations/rank_cancel.c). */
#ifndef PUZZLED_CORE_PRIME_POWERS_H
#define PUZZLED_CORE_PRIME_POWERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

/* The primes up to `limit` (at most 2^16, so a prime's index fits 16 bits), ascending, and for each
 * v in 2..limit the index of its smallest prime factor (factor_index[v]; entries 0 and 1 unused).
 * primes needs room for limit / 2 + 1 entries, factor_index for limit + 1. Returns how many primes. */
size_t primes_sieve(uint32_t limit, uint32_t *primes, uint16_t *factor_index);

/* The exponent of prime p in m! (Legendre's formula: the sum of floor(m / p^k)). */
uint32_t factorial_exponent(uint64_t m, uint32_t p);

/* out = the product of words[0..count-1] (count >= 1), by a balanced product tree. */
void word_product(mpz_t out, const uint64_t *words, size_t count);

/* out = prod primes[i]^exponents[i] over i < count (primes below 2^16). */
void prime_power_product(mpz_t out, const uint32_t *primes, const uint32_t *exponents, size_t count);

#endif
