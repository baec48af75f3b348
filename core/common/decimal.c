/* Decimal conversion split in two at 10^k and run with fork_join (see decimal.h). The division by 10^k
 * (writing) or the multiplication by it (reading) stays on the caller's thread: it is the one step
 * GMP's own divide and conquer takes first as well, so the split costs one power of ten extra and
 * saves about half of the rest of the wall time. */
#include "core/common/decimal.h"

#include <stdlib.h>
#include <string.h>

#include "core/common/fork_join.h"

/* DECIMAL_SPLIT_BITS in decimal digits (log10(2) = 0.30103). */
#define DECIMAL_SPLIT_DIGITS (DECIMAL_SPLIT_BITS * 30103 / 100000)

size_t decimal_room(const mpz_t v) { return mpz_sizeinbase(v, 10) + 2; }

/* GMP's conversion of a whole number, as a fork_join task. */
static void write_whole(void *number) {
    decimal_text *h = number;
    mpz_get_str(h->text, 10, h->value);
    h->length = strlen(h->text);
}

size_t decimal_write(char *out, const mpz_t v) {
    size_t low_digits = mpz_sizeinbase(v, 10) / 2;
    char *low_text = mpz_sizeinbase(v, 2) >= DECIMAL_SPLIT_BITS ? malloc(low_digits + 2) : NULL;
    if (low_text == NULL) {
        mpz_get_str(out, 10, v);
        return strlen(out);
    }
    size_t at = 0;
    if (mpz_sgn(v) < 0) out[at++] = '-';
    mpz_t high, low, power;
    mpz_inits(high, low, power, NULL);
    mpz_ui_pow_ui(power, 10, low_digits);
    mpz_tdiv_qr(high, low, v, power); /* |v| = |high| 10^k + |low|, |high| >= 1 */
    mpz_abs(high, high);
    mpz_abs(low, low);
    decimal_text high_half = {high, out + at, 0}, low_half = {low, low_text, 0};
    fork_join(true, write_whole, &high_half, write_whole, &low_half);
    at += high_half.length;
    memset(out + at, '0', low_digits - low_half.length);
    at += low_digits - low_half.length;
    memcpy(out + at, low_text, low_half.length + 1);
    at += low_half.length;
    mpz_clears(high, low, power, NULL);
    free(low_text);
    return at;
}

void decimal_write_task(void *number) {
    decimal_text *t = number;
    t->length = decimal_write(t->text, t->value);
}

void decimal_write_pair(char *first_out, const mpz_t first, size_t *first_length, char *second_out, const mpz_t second,
                        size_t *second_length) {
    decimal_text first_text = {first, first_out, 0}, second_text = {second, second_out, 0};
    bool parallel = mpz_sizeinbase(first, 2) >= FORK_JOIN_MIN_BITS || mpz_sizeinbase(second, 2) >= FORK_JOIN_MIN_BITS;
    fork_join(parallel, write_whole, &first_text, write_whole, &second_text);
    *first_length = first_text.length;
    *second_length = second_text.length;
}

typedef struct half_number {
    mpz_ptr value;
    const char *digits;
    mpz_ptr power; /* NULL, or 10^(length of digits) to compute */
    size_t power_digits;
} half_number;

static void read_half(void *half) {
    half_number *h = half;
    mpz_set_str(h->value, h->digits, 10);
    if (h->power != NULL) mpz_ui_pow_ui(h->power, 10, h->power_digits);
}

void decimal_read(mpz_t v, const char *digits) {
    size_t length = strlen(digits), low_digits = length / 2;
    char *high_text = length >= DECIMAL_SPLIT_DIGITS ? malloc(length - low_digits + 1) : NULL;
    if (high_text == NULL) {
        mpz_set_str(v, digits, 10);
        return;
    }
    memcpy(high_text, digits, length - low_digits);
    high_text[length - low_digits] = '\0';
    mpz_t low, power;
    mpz_inits(low, power, NULL);
    half_number high_half = {v, high_text, NULL, 0}, low_half = {low, digits + length - low_digits, power, low_digits};
    fork_join(true, read_half, &high_half, read_half, &low_half);
    mpz_mul(v, v, power);
    mpz_add(v, v, low);
    mpz_clears(low, power, NULL);
    free(high_text);
}
