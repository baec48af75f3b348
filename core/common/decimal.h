/* Decimal text of big integers, on two cores when the number is large: split at a power of ten
 * 10^k (k about half the digits) and the halves converted at once, the high one straight into the
 * output, the low one zero-padded to exactly k digits behind it; reading splits the digit string the
 * same way and joins the halves as high * 10^k + low. Below DECIMAL_SPLIT_BITS (and for each half)
 * this is GMP's own mpz_get_str / mpz_set_str, so the text is always exactly GMP's. */
#ifndef PUZZLED_CORE_DECIMAL_H
#define PUZZLED_CORE_DECIMAL_H

#include <stddef.h>

#include <gmp.h>

/* Numbers of at least this many bits are split (smaller ones gain less than a thread costs). */
#define DECIMAL_SPLIT_BITS ((size_t)1 << 20)

/* Room decimal_write needs for v: its digits, a sign and the terminating NUL. */
size_t decimal_room(const mpz_t v);

/* Writes v in decimal (a '-' first when negative) and a NUL to out (decimal_room(v) bytes); returns
 * the length without the NUL. Without memory for the low half's text, the whole is GMP's alone. */
size_t decimal_write(char *out, const mpz_t v);

/* decimal_write as a fork_join task (core/common/fork_join.h), for a caller that has other work to
 * do meanwhile: writes `value` at `text` (decimal_room bytes) and sets `length`. */
typedef struct decimal_text {
    mpz_srcptr value;
    char *text;
    size_t length;
} decimal_text;

void decimal_write_task(void *decimal_text);

/* Two numbers at once, each whole on its own thread (for two numbers of about the same size this
 * beats splitting each in turn: no division by 10^k on the critical path): first at first_out and
 * second at second_out, areas of decimal_room bytes that do not overlap; their lengths without NUL. */
void decimal_write_pair(char *first_out, const mpz_t first, size_t *first_length, char *second_out, const mpz_t second,
                        size_t *second_length);

/* v = the number written by `digits`: NUL-terminated, only '0'..'9', at least one. Without memory for
 * a copy of the high half, the whole is GMP's alone. */
void decimal_read(mpz_t v, const char *digits);

#endif
