/* Exactly uniform random permutations of 0..n-1 by three algorithms, all drawing their random
 * indices ("dice") from an rng through bounded_random.h. The dice are rolled two at a time with the
 * batched method (bounded_random_pair), the last one alone when their number is odd. For a given
 * generator state the result is fixed (the seed stream documented in docs/shuffle.md):
 *  - fisher-yates (Durstenfeld): for i = n-1 down to 1, j = die(i+1), swap a[i] and a[j];
 *    dice bounds n, n-1, ..., 2.
 *  - inside-out: a[0] = 0; for i = 1 to n-1, j = die(i+1), a[i] = a[j], a[j] = i;
 *    dice bounds 2, 3, ..., n.
 *  - naive: for k = 0 to n-2, j = die(n-k), remove the j-th of the not yet chosen values (kept in
 *    their original order) and append it to the result; dice bounds n, n-1, ..., 2. O(n^2).
 * Two shuffles restricted to some permutations, uniform over those:
 *  - derangement (no fixed point; n = 1 has none and gives CORE_DEADLINE at once): Fisher-Yates as above, restarted from the identity
 *    as soon as a position it settles holds its own value (position i is final once it has been
 *    swapped, so that attempt could only end in rejection). Each attempt succeeds with probability
 *    D(n)/n! -> 1/e, and a failed one stops at its first fixed point: on average about 1.72 n swaps
 *    rather than the e n of rejecting whole shuffles.
 *  - cycle (a single n-cycle, Sattolo's algorithm): for i = n-1 down to 1, j = die(i), swap a[i] and
 *    a[j]; dice bounds n-1, ..., 2 (the last step, i = 1, swaps with 0 without a die). */
#ifndef PUZZLED_CORE_SHUFFLE_H
#define PUZZLED_CORE_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/random/rng.h"

/* The largest n (2^32): values fit in 32 bits and two dice bounds multiply to less than 2^64. */
#define SHUFFLE_MAX_N ((uint64_t)1 << 32)

typedef enum shuffle_algorithm {
    SHUFFLE_FISHER_YATES,
    SHUFFLE_INSIDE_OUT,
    SHUFFLE_NAIVE,
    SHUFFLE_DERANGEMENT,
    SHUFFLE_CYCLE,
} shuffle_algorithm;

/* Writes a uniformly random permutation of 0..n-1 into perm[0..n) (its previous contents are
 * ignored); n <= SHUFFLE_MAX_N. Polls `limit` (may be NULL) every few thousand steps. */
core_status shuffle_permutation(shuffle_algorithm algorithm, rng *r, uint32_t *perm, size_t n, const deadline *limit);

/* Called once on a freshly allocated, still untouched `perm` of n values: asks the kernel for huge
 * pages (2 MiB, where it grants them on request) on the aligned part of an array larger than the
 * caches. Every swap lands on a random square, so with 4 KiB pages nearly each one also misses the
 * TLB; 2 MiB pages cut those page walks (docs/performance.md). Only advice: the answer does not change. */
void shuffle_advise_memory(uint32_t *perm, size_t n);

#endif
