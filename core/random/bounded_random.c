/* The rejection paths of the bounded random integer methods (see bounded_random.h): taken with
 * probability below bound / 2^64, so they may divide. */
#include "core/random/bounded_random.h"

uint64_t bounded_random_retry(rng *r, uint64_t bound, uint64_t leftover, uint64_t result) {
    uint64_t threshold = -bound % bound; /* 2^64 mod bound */
    while (leftover < threshold) {
        bounded_random_u128 m = (bounded_random_u128)rng_next(r) * bound;
        leftover = (uint64_t)m;
        result = (uint64_t)(m >> 64);
    }
    return result;
}

void bounded_random_pair_retry(rng *r, uint64_t bound1, uint64_t bound2, uint64_t leftover, uint64_t *out1,
                               uint64_t *out2) {
    uint64_t product = bound1 * bound2;
    uint64_t threshold = -product % product; /* 2^64 mod (bound1 * bound2) */
    while (leftover < threshold) {
        bounded_random_u128 m = (bounded_random_u128)rng_next(r) * bound1;
        *out1 = (uint64_t)(m >> 64);
        m = (bounded_random_u128)(uint64_t)m * bound2;
        *out2 = (uint64_t)(m >> 64);
        leftover = (uint64_t)m;
    }
}
