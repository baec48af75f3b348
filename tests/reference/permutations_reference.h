/* Independent ground truth for the permutation tests, written apart from core/permutations/: the
 * textbook step from one permutation to the next in lexicographic order (Knuth, TAOCP 7.2.1.2,
 * Algorithm L), shared by the unit and the integration tests. */
#ifndef PUZZLED_TESTS_PERMUTATIONS_REFERENCE_H
#define PUZZLED_TESTS_PERMUTATIONS_REFERENCE_H

#include <stdbool.h>

/* Steps p[0..n) (distinct values) to the next permutation in lexicographic order; false after the
 * last, leaving p as it was. */
bool reference_next_permutation(int *p, int n);

#endif
