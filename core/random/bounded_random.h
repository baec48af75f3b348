/* Uniform integers in [0, bound) from 64-bit random words, without modulo bias.
 *  - bounded_random: Lemire's nearly divisionless method (2019): the high word of x * bound, with a
 *    rejection (and its one division) only when the low word falls below bound.
 *  - bounded_random_pair: the batched method of Brackett-Rozinsky and Lemire (2024): two dice from one
 *    word, x * b1 gives the first in the high word, the low word times b2 the second; the low word
 *    left is rejected when below 2^64 mod (b1 * b2). It needs b1 * b2 < 2^64.
 * The fast paths are inline; the rejection loops live in bounded_random.c. */
#ifndef PUZZLED_CORE_BOUNDED_RANDOM_H
#define PUZZLED_CORE_BOUNDED_RANDOM_H

#include <stdint.h>

#include "core/random/rng.h"

typedef unsigned __int128 bounded_random_u128;

/* The slow paths: redraw while the leftover is in the biased region. */
uint64_t bounded_random_retry(rng *r, uint64_t bound, uint64_t leftover, uint64_t result);
void bounded_random_pair_retry(rng *r, uint64_t bound1, uint64_t bound2, uint64_t leftover, uint64_t *out1,
                               uint64_t *out2);

/* A uniform integer in [0, bound); bound >= 1. */
static inline uint64_t bounded_random(rng *r, uint64_t bound) {
    bounded_random_u128 m = (bounded_random_u128)rng_next(r) * bound;
    uint64_t leftover = (uint64_t)m;
    if (leftover < bound) return bounded_random_retry(r, bound, leftover, (uint64_t)(m >> 64));
    return (uint64_t)(m >> 64);
}

/* Two independent uniform integers, *out1 in [0, bound1) and *out2 in [0, bound2), from one word
 * (usually); bound1, bound2 >= 1 and bound1 * bound2 < 2^64. */
static inline void bounded_random_pair(rng *r, uint64_t bound1, uint64_t bound2, uint64_t *out1, uint64_t *out2) {
    bounded_random_u128 m = (bounded_random_u128)rng_next(r) * bound1;
    *out1 = (uint64_t)(m >> 64);
    m = (bounded_random_u128)(uint64_t)m * bound2;
    *out2 = (uint64_t)(m >> 64);
    uint64_t leftover = (uint64_t)m;
    if (leftover < bound1 * bound2) bounded_random_pair_retry(r, bound1, bound2, leftover, out1, out2);
}

#endif
