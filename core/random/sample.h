/* k of the values 0..n-1 drawn without replacement, in the order drawn (Python's random.sample,
 * Rust's partial_shuffle): the first k steps of Fisher-Yates from the top, a partial shuffle whose
 * array is kept sparse, so work and memory are O(k) even when n is 2^32 (16-32 bytes per value drawn).
 *
 * Step t = 0..k-1 takes i = n-1-t and j = die(i+1) (no die when i = 0: j = 0), outputs a[j] and
 * moves a[i] into position j; positions never written hold their own index. The dice are rolled two
 * at a time with the paired method, bounds n, n-1, ..., n-k+1 (those of at least 2), the last alone
 * when their number is odd. So with k = n (or n-1) the output is the Fisher-Yates shuffle of the same
 * seed read from its last position to its first. */
#ifndef PUZZLED_CORE_SAMPLE_H
#define PUZZLED_CORE_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/random/rng.h"

/* Writes k distinct values below n (n <= SHUFFLE_MAX_N, k <= n) into out[0..k). */
core_status shuffle_sample(rng *r, uint32_t *out, uint64_t n, size_t k, const deadline *limit);

#endif
