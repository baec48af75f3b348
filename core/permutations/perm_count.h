/* How many arrangements there are: k-permutations of n items, and distinct arrangements (all of it,
 * or k of it) of a multiset given by its class multiplicities. Exact, with GMP. */
#ifndef PUZZLED_CORE_PERM_COUNT_H
#define PUZZLED_CORE_PERM_COUNT_H

#include <stddef.h>

#include <gmp.h>

#include "core/common/deadline.h"
#include "core/common/status.h"

/* lo * (lo + 1) * ... * (hi - 1), 1 when hi <= lo; by binary splitting. */
void range_product(mpz_t out, unsigned long lo, unsigned long hi);

/* n! / (n - k)!: the k-permutations of n items told apart by position (0 when k > n). */
void perm_count_k(mpz_t out, size_t n, size_t k);

/* The distinct arrangements of length k of the multiset with multiplicities mult[0..m-1]:
 * (sum mult)! / prod mult[c]! when k is the whole size, else k! [x^k] prod_c sum_{t<=mult[c]} x^t/t!
 * by an integer dynamic programme over the classes (O(size * k) big-number steps, deadline polled). */
core_status perm_count_distinct(mpz_t out, const size_t *mult, size_t m, size_t k, const deadline *dl);

#endif
