/* The next (or previous) k-arrangement of an array of small integers in lexicographic order, as
 * std::next_permutation does for whole arrangements, repeats allowed. Inline so that callers with a
 * constant direction get the plain loop. */
#ifndef PUZZLED_CORE_NEXT_PERMUTATION_H
#define PUZZLED_CORE_NEXT_PERMUTATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline void reverse_range(uint32_t *a, size_t lo, size_t hi) {
    while (lo + 1 < hi) {
        uint32_t t = a[lo];
        a[lo++] = a[--hi];
        a[hi] = t;
    }
}

/* Steps a[0..k-1] to the next distinct k-prefix of the multiset a[0..n-1] (the previous one when
 * `backwards`). a[k..n-1] must be ascending (descending when backwards) and is again afterwards.
 * Returns the first changed index, or a value >= k when a[0..k-1] was the last (first) prefix. */
static inline size_t next_k_permutation(uint32_t *a, size_t n, size_t k, bool backwards) {
    reverse_range(a, k, n);
    if (n < 2) return n;
    size_t i = n - 1;
    while (i > 0 && (backwards ? a[i - 1] <= a[i] : a[i - 1] >= a[i])) i--;
    if (i == 0) return n;
    uint32_t pivot = a[i - 1];
    size_t j = n - 1;
    while (backwards ? a[j] >= pivot : a[j] <= pivot) j--;
    a[i - 1] = a[j];
    a[j] = pivot;
    reverse_range(a, i, n);
    return i - 1;
}

#endif
