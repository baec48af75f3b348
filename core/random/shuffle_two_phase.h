/* Fisher-Yates and Sattolo's single cycle (shuffle.h) on two threads, with exactly the one-thread
 * answer: the steps i = n-1 down to `head` run on the caller's array while a helper runs the steps
 * below `head` on an identity of `head` values of its own, then the two are composed (see
 * shuffle_two_phase.c). Also the one-thread steps both share (defined in shuffle.c). */
#ifndef PUZZLED_CORE_SHUFFLE_TWO_PHASE_H
#define PUZZLED_CORE_SHUFFLE_TWO_PHASE_H

#include <stddef.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/random/rng.h"

/* n at or above which shuffle_swap_down_fastest uses two threads: below, the helper thread and the
 * composition cost more than the swaps they share out. */
enum { SHUFFLE_TWO_PHASE_MIN_N = 1 << 20 };

/* a[0..n) = 0..n-1. */
void shuffle_identity(uint32_t *a, size_t n);

/* The steps i = top, top - 2, ... while i >= stop, two per pair of dice (shuffle.c); *next_i is the
 * first i left undone. */
core_status shuffle_paired_swaps(rng *r, uint32_t *a, size_t top, size_t stop, size_t less, size_t *next_i,
                                 const deadline *limit);

/* The whole shuffle on the caller's thread: the identity, then a[i] swapped with a[die(i + 1 - less)]
 * for i = n-1 down to 1 (less = 0: Fisher-Yates, 1: the single cycle). */
core_status shuffle_swap_down(rng *r, uint32_t *a, size_t n, size_t less, const deadline *limit);

/* The same answer, and `r` left in the same state, as shuffle_swap_down, computed in two phases with
 * the helper's phase covering positions below `head` (rounded up to n's parity, so that the phases
 * split the dice between pairs, and kept within 1 + less .. n). Falls back to one thread when the
 * helper's array cannot be allocated. Tests give any `head`; the service uses
 * shuffle_swap_down_fastest. */
core_status shuffle_two_phase(rng *r, uint32_t *a, size_t n, size_t less, size_t head, const deadline *limit);

/* shuffle_two_phase with the measured best split for n >= SHUFFLE_TWO_PHASE_MIN_N, else
 * shuffle_swap_down. */
core_status shuffle_swap_down_fastest(rng *r, uint32_t *a, size_t n, size_t less, const deadline *limit);

#endif
