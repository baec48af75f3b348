/* Truncated power series whose coefficient r counts the sub-multisets of size r of a multiset: the
 * product over its classes of (1 + x + ... + x^mult). Multiplying or dividing by one class's factor
 * costs O(degree) big-number additions: 1 + ... + x^m = (1 - x^(m+1)) / (1 - x), so a product is a
 * difference then a running sum, and a quotient a difference then a recurrence with step m + 1.
 * Shared by the counts (comb_count.c) and the multiset ranks (comb_rank.c). */
#ifndef PUZZLED_CORE_COMB_SERIES_H
#define PUZZLED_CORE_COMB_SERIES_H

#include <stddef.h>

#include <gmp.h>

#include "core/common/status.h"

typedef struct comb_series {
    mpz_t *coef; /* coefficients 0..cap */
    size_t cap;  /* the highest degree kept */
} comb_series;

/* The series 1 (the empty multiset), keeping degrees 0..cap. */
core_status comb_series_init(comb_series *s, size_t cap);
void comb_series_free(comb_series *s);

/* Multiplies by 1 + x + ... + x^mult, computing coefficients 0..upto (at most cap). Coefficients of
 * the product above `upto` must be zero or unused afterwards. */
void comb_series_times_class(comb_series *s, size_t mult, size_t upto);

/* Divides by 1 + x + ... + x^mult (exactly: the series must hold that factor), computing coefficients
 * 0..upto; those above upto are left stale. */
void comb_series_over_class(comb_series *s, size_t mult, size_t upto);

#endif
