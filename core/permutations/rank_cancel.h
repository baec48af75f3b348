/* Cancelling common factors out of the rank's binary splitting for multisets with repeats
 * (core/permutations/perm_rank.c), so that its numbers stay near the size of the answer: for 10^6
 * letters of a 26-letter text the top level's N, D and P would be about 18.5M, 18.5M and 13.8M bits
 * for a rank of 4.7M bits. How much can be cancelled, and why it is exact, is in rank_cancel.c. */
#ifndef PUZZLED_CORE_RANK_CANCEL_H
#define PUZZLED_CORE_RANK_CANCEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

/* Where the binary splitting (and so this plan) splits the items [a, b). */
static inline size_t rank_split_middle(size_t a, size_t b) { return a + (b - a) / 2; }

typedef struct rank_cancel {
    size_t n, threshold; /* ranges of the splitting at least `threshold` long are reduced */
    uint32_t *primes;    /* every prime up to the largest multiplicity */
    size_t prime_count;
    size_t *bounds;             /* the ends and middles of the ranges reduced, ascending */
    size_t bound_count, depths; /* depths: of the splitting's levels, how many have reduced ranges */
    uint32_t *suffix_p;         /* [k * prime_count + i]: exponent of primes[i] in prod_{j >= bounds[k]} mp[j] */
    uint32_t *ranges;           /* reduced ranges' exponents of S and P, two rows each (rank_cancel.c: range_rows) */
    uint32_t *scratch;          /* a join's exponent rows: one set for each half of the top level (two threads) */
    uint64_t *interval;         /* a short range's integers n - j while sieved: threshold of them for each half */
} rank_cancel;

/* A plan for the Lehmer multiplicities mp[0..n-1] (the count of item i's class among items i..n-1), or
 * false (c unusable, nothing held) when there is nothing worth cancelling, the multiplicities are too
 * large, or memory runs out: the splitting is exact without it. */
bool rank_cancel_init(rank_cancel *c, const size_t *mp, size_t n);

void rank_cancel_free(rank_cancel *c);

/* Whether the range [a, b) is reduced. */
static inline bool rank_cancel_applies(const rank_cancel *c, size_t a, size_t b) {
    return c != NULL && b - a >= c->threshold;
}

/* Joins the halves of the reduced range [a, b): the left's N, D and P in N, D, P, the right's in N2, D2
 * (its P is not needed), each either plain (a range shorter than the threshold) or reduced (D holding
 * only R; rank_cancel.c). Leaves [a, b)'s reduced form: N, R in D, P = 1, S's and P's exponents in the
 * plan. On two threads when `fork`. */
void rank_cancel_join(const rank_cancel *c, size_t a, size_t b, mpz_t N, mpz_t D, mpz_t P, mpz_t N2, mpz_t D2,
                      bool fork);

/* The whole range's D and P from its reduced form (D holding R; P then 1, since the rank is whole). */
void rank_cancel_finish(const rank_cancel *c, mpz_t D, mpz_t P);

#endif
