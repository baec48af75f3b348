/* Rank and unrank k-combinations (see comb_count.h for the two kinds and their order), exactly:
 *  - subsets: the combinatorial number system, walking the positions once with the binomial of the
 *    subsets still possible updated by one small multiplication and exact division per position
 *    (O(n) such steps on numbers of log2 C(n, k) bits);
 *  - distinct sub-multisets: a sub-multiset is its count of each class, and lexicographic order of
 *    ascending sequences is "more of the smallest class first"; the number of completions after
 *    choosing class c's count is a coefficient of the series of the classes after c, obtained from
 *    the whole product by dividing out one class at a time (O(m * k) big-number additions). */
#ifndef PUZZLED_CORE_COMB_RANK_H
#define PUZZLED_CORE_COMB_RANK_H

#include <stdint.h>

#include <gmp.h>

#include "core/combinations/comb_count.h"

/* The 0-based rank of `combination`, k ascending class ids forming a sub-multiset of the items. For
 * combinations that are not distinct, a repeated value has several occurrences: this is the rank of
 * the first (each class taking its earliest positions), as Python's list.index would find it. */
core_status comb_rank(mpz_t rank, const comb_spec *spec, const uint32_t *combination, const deadline *dl);

/* The combination of rank `rank` (below comb_count) as k ascending positions into the sorted items
 * (a distinct sub-multiset takes each class's earliest positions). */
core_status comb_unrank_positions(uint32_t *positions, const comb_spec *spec, const mpz_t rank, const deadline *dl);

/* The same combination as k ascending class ids. */
core_status comb_unrank(uint32_t *combination, const comb_spec *spec, const mpz_t rank, const deadline *dl);

#endif
