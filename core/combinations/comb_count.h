/* The k-combinations of a set or multiset, and how many there are.
 *
 * Items are described by class multiplicities, classes ascending by value, as if sorted: the items
 * are positions 0..n-1 of the sorted list, class c holding mult[c] consecutive positions. Two kinds:
 *  - not distinct: the k-subsets of positions, in lexicographic order of positions, which is
 *    itertools.combinations(sorted(items), k): C(n, k) of them, repeats and all;
 *  - distinct: each sub-multiset of size k once, as its ascending sequence of classes, in
 *    lexicographic order: [x^k] prod_c (1 + x + ... + x^mult[c]) of them (C(n, k) for a set). */
#ifndef PUZZLED_CORE_COMB_COUNT_H
#define PUZZLED_CORE_COMB_COUNT_H

#include <stdbool.h>
#include <stddef.h>

#include <gmp.h>

#include "core/common/deadline.h"
#include "core/common/status.h"

typedef struct comb_spec {
    const size_t *mult; /* m class multiplicities, each at least 1 */
    size_t m;
    size_t k; /* combination size (no combinations when above the item count) */
    bool distinct;
} comb_spec;

/* The number of items: the sum of the multiplicities. */
size_t comb_item_count(const comb_spec *spec);

/* True when the combinations are the k-subsets of positions (not distinct, or no class repeats). */
bool comb_is_subsets(const comb_spec *spec);

/* The number of combinations `spec` describes. Distinct multisets take a dynamic programme over the
 * classes (O(m * k) big-number additions, deadline polled); everything else is one binomial. */
core_status comb_count(mpz_t out, const comb_spec *spec, const deadline *dl);

#endif
