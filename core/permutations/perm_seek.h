/* Finding the offset-th distinct arrangement in a given position order, slot by slot: the general
 * unranker behind PERM_ORDER_INPUT with repeats and distinct k-arrangements (k < n), where the
 * number of completions depends on which classes remain. Whole lexicographic arrangements use the
 * faster multiset_unrank (core/permutations/perm_rank.h). */
#ifndef PUZZLED_CORE_PERM_SEEK_H
#define PUZZLED_CORE_PERM_SEEK_H

#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "core/common/deadline.h"
#include "core/common/status.h"

/* cls[0..n-1]: the class at each position (every class below m present). Orders the distinct
 * k-arrangements by the position tuple in which every class takes its earliest unused positions,
 * lexicographically, and writes the offset-th such tuple (offset below their number) to
 * positions[0..k-1], the unused positions ascending to positions[k..n-1]. */
core_status distinct_seek(uint32_t *positions, const uint32_t *cls, size_t n, size_t m, size_t k, const mpz_t offset,
                          const deadline *dl);

/* The inverse for class sequences in lexicographic order: the rank of seq[0..k-1] (class ids, a
 * sub-multiset of mult[0..m-1]) among the distinct k-arrangements of that multiset, counting at each
 * slot the completions after every smaller class still available (the dynamic programme of
 * perm_count_distinct per candidate: the slow path, deadline polled). */
core_status distinct_rank(mpz_t rank, const uint32_t *seq, size_t k, const size_t *mult, size_t m, const deadline *dl);

#endif
