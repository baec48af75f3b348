/* Rank and unrank, exactly with GMP:
 *  - a whole arrangement of a multiset among its distinct arrangements in lexicographic order
 *    (classes are small integers 0..m-1 compared as numbers);
 *  - a k-permutation of n positions (told apart by position) in lexicographic order.
 * Lehmer digits come from a Fenwick tree in O(n log n); the big numbers are assembled and taken apart
 * by divide and conquer (binary splitting, balanced divisions over one product tree), never by a
 * digit-by-digit Horner loop; the top level of each runs on two threads (core/common/fork_join.h).
 * For a multiset with repeats the rank's splitting cancels common factors on the way
 * (core/permutations/rank_cancel.h), so its numbers stay near the size of the answer. */
#ifndef PUZZLED_CORE_PERM_RANK_H
#define PUZZLED_CORE_PERM_RANK_H

#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "core/common/deadline.h"
#include "core/common/status.h"

/* The 0-based lexicographic rank of seq[0..n-1] (class ids below m) among the distinct arrangements
 * of its multiset, and their number. */
core_status multiset_rank(mpz_t rank, mpz_t total, const uint32_t *seq, size_t n, size_t m, const deadline *dl);

/* The arrangement of rank `rank` (which must be below the total) of the multiset with
 * multiplicities mult[0..m-1] into seq (sum of mult entries). All-distinct multisets take the
 * factorial-base path; others decode the first half of the items from the leading bits of
 * rank / total, check it exactly and recurse (see perm_rank.c). */
core_status multiset_unrank(uint32_t *seq, const size_t *mult, size_t m, const mpz_t rank, const deadline *dl);

/* The lexicographic rank of the k-permutation positions[0..k-1] (distinct, below n) among all n!/(n-k)!
 * of them, and that total: Lehmer digits from the Fenwick tree, assembled by binary splitting. */
core_status kperm_rank(mpz_t rank, mpz_t total, const uint32_t *positions, size_t n, size_t k, const deadline *dl);

/* The k-permutation of positions 0..n-1 of lexicographic rank `rank` (below n!/(n-k)!) into
 * positions[0..k-1]; positions[k..n-1] receive the unused positions in ascending order. */
core_status kperm_unrank(uint32_t *positions, size_t n, size_t k, const mpz_t rank, const deadline *dl);

#endif
