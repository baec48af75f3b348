/* The two-thread decimal conversion against GMP's whole-number mpz_get_str / mpz_set_str: random
 * numbers of many sizes on both sides of DECIMAL_SPLIT_BITS, and the cases the split could get wrong
 * (a low half with leading zeros or all zeros or all nines, powers of ten and their neighbours, where
 * mpz_sizeinbase may count one digit too many, negative numbers, digit strings with leading zeros). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/common/decimal.h"

static void check_write(const mpz_t v) {
    char *expected = mpz_get_str(NULL, 10, v);
    char *text = malloc(decimal_room(v));
    size_t length = decimal_write(text, v);
    cr_assert_eq(length, strlen(expected), "length for a %zu-bit number", mpz_sizeinbase(v, 2));
    cr_assert(strcmp(text, expected) == 0, "digits of a %zu-bit number", mpz_sizeinbase(v, 2));
    free(text);
    free(expected);
}

static void check_read(const char *digits) {
    mpz_t expected, v;
    mpz_inits(expected, v, NULL);
    mpz_set_str(expected, digits, 10);
    mpz_set_ui(v, 12345); /* overwritten */
    decimal_read(v, digits);
    cr_assert(mpz_cmp(v, expected) == 0, "%zu digits", strlen(digits));
    mpz_clears(expected, v, NULL);
}

static void check_both(const mpz_t v) {
    check_write(v);
    if (mpz_sgn(v) >= 0) {
        char *digits = mpz_get_str(NULL, 10, v);
        check_read(digits);
        free(digits);
    }
}

Test(decimal, random_numbers_around_the_split_size) {
    gmp_randstate_t random;
    gmp_randinit_default(random);
    gmp_randseed_ui(random, 20261125);
    mpz_t v;
    mpz_init(v);
    const size_t bits[] = {1,
                           63,
                           64,
                           65,
                           1000,
                           DECIMAL_SPLIT_BITS - 1,
                           DECIMAL_SPLIT_BITS,
                           DECIMAL_SPLIT_BITS + 1,
                           DECIMAL_SPLIT_BITS + 3,
                           3 * DECIMAL_SPLIT_BITS / 2,
                           2 * DECIMAL_SPLIT_BITS + 7};
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
        for (int round = 0; round < 3; round++) {
            mpz_urandomb(v, random, bits[i]);
            mpz_setbit(v, bits[i] - 1); /* exactly bits[i] bits */
            check_both(v);
            mpz_neg(v, v);
            check_both(v);
        }
    }
    mpz_clear(v);
    gmp_randclear(random);
}

Test(decimal, zero_and_small_numbers) {
    mpz_t v;
    mpz_init(v);
    for (long x = -1000; x <= 1000; x += 7) {
        mpz_set_si(v, x);
        check_both(v);
    }
    mpz_set_ui(v, 0);
    check_both(v);
    mpz_clear(v);
}

/* 10^d and its neighbours, and numbers whose low half (the last floor(digits / 2) digits) is all
 * zeros, all nines or starts with zeros, for d digits around the split size. */
Test(decimal, split_boundaries) {
    const size_t split_digits = DECIMAL_SPLIT_BITS * 30103 / 100000;
    mpz_t v, power;
    mpz_inits(v, power, NULL);
    for (size_t d = split_digits - 2; d <= split_digits + 3; d++) {
        mpz_ui_pow_ui(power, 10, d);
        mpz_set(v, power);
        check_both(v);
        mpz_sub_ui(v, power, 1); /* all nines */
        check_both(v);
        mpz_add_ui(v, power, 1); /* 1, zeros, 1 */
        check_both(v);
        size_t low = (d + 1) / 2;
        mpz_ui_pow_ui(power, 10, low);
        mpz_mul_ui(v, power, 7); /* a low half of zeros */
        mpz_mul(v, v, power);
        mpz_add_ui(v, v, 42); /* ...and a low half that is 42 after its leading zeros */
        check_both(v);
    }
    mpz_clears(v, power, NULL);
}

Test(decimal, digit_strings_with_leading_zeros) {
    const size_t split_digits = DECIMAL_SPLIT_BITS * 30103 / 100000;
    const size_t lengths[] = {1, 2, 20, split_digits - 1, split_digits, split_digits + 1, 2 * split_digits + 1};
    srand(7);
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        size_t n = lengths[i];
        char *digits = malloc(n + 1);
        for (size_t j = 0; j < n; j++) digits[j] = (char)('0' + rand() % 10);
        digits[n] = '\0';
        check_read(digits);
        memset(digits, '0', n / 2 + 1 < n ? n / 2 + 1 : n); /* zeros across the middle */
        check_read(digits);
        memset(digits, '0', n); /* all zeros */
        check_read(digits);
        free(digits);
    }
}
