/* Sieve of Eratosthenes with smallest factors, Legendre's formula, and products of prime powers by
 * the left-to-right binary method of exponentiation (Knuth, TAOCP vol. 2, 4.6.3) shared by all the
 * primes at once: prod p^e_p = prod_k (prod of the p whose e_p has bit k)^(2^k), evaluated from the
 * top bit down (square, then multiply by that bit's primes), so the big work is a few squarings of
 * numbers below the result's size instead of one power per prime. */
#include "core/common/prime_powers.h"

#include <stdlib.h>


size_t primes_sieve(uint32_t limit, uint32_t *primes, uint16_t *factor_index) {
    size_t count = 0;
    for (uint32_t v = 2; v <= limit; v++) factor_index[v] = UINT16_MAX;
    for (uint32_t v = 2; v <= limit; v++) {
        if (factor_index[v] != UINT16_MAX) continue;
        primes[count] = v;
        for (uint32_t multiple = v; multiple <= limit; multiple += v)
            if (factor_index[multiple] == UINT16_MAX) factor_index[multiple] = (uint16_t)count;
        count++;
    }
    return count;
}

uint32_t factorial_exponent(uint64_t m, uint32_t p) {
    uint64_t exponent = 0;
    for (m /= p; m > 0; m /= p) exponent += m;
    return (uint32_t)exponent;
}

void word_product(mpz_t out, const uint64_t *words, size_t count) {
    if (count == 1) {
        mpz_set_ui(out, words[0]);
        return;
    }
    size_t half = count / 2;
    mpz_t right;
    mpz_init(right);
    word_product(out, words, half);
    word_product(right, words + half, count - half);
    mpz_mul(out, out, right);
    mpz_clear(right);
}

/* out = the product of the primes whose exponent has bit `bit`: packed into words (primes below 2^16,
 * four to a word), then a product tree; word by word into out when there is no room for the words. */
static void bit_product(mpz_t out, const uint32_t *primes, const uint32_t *exponents, size_t count, int bit,
                        uint64_t *words) {
    size_t used = 0;
    uint64_t word = 1;
    mpz_set_ui(out, 1);
    for (size_t i = 0; i < count; i++) {
        if (!(exponents[i] >> bit & 1)) continue;
        if (word >> 48 != 0) {
            if (words != NULL) words[used++] = word;
            else mpz_mul_ui(out, out, word);
            word = 1;
        }
        word *= primes[i];
    }
    if (words == NULL) {
        mpz_mul_ui(out, out, word);
        return;
    }
    words[used++] = word;
    word_product(out, words, used);
}

void prime_power_product(mpz_t out, const uint32_t *primes, const uint32_t *exponents, size_t count) {
    uint32_t all_bits = 0;
    for (size_t i = 0; i < count; i++) all_bits |= exponents[i];
    mpz_set_ui(out, 1);
    if (all_bits == 0) return;
    int top = 31;
    while (!(all_bits >> top & 1)) top--;
    uint64_t *words = malloc(count * sizeof *words); /* NULL: the slower way, same product */
    mpz_t factor;
    mpz_init(factor);
    for (int bit = top; bit >= 0; bit--) {
        mpz_mul(out, out, out);
        if (!(all_bits >> bit & 1)) continue;
        bit_product(factor, primes, exponents, count, bit, words);
        mpz_mul(out, out, factor);
    }
    mpz_clear(factor);
    free(words);
}
