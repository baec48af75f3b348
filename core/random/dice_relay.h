/* The paired dice of a long run of Fisher-Yates (or Sattolo) steps, drawn ahead by a helper task.
 *
 * Drawing a pair of dice (a xoshiro256** or ChaCha20 word, two 128-bit products) is about a quarter
 * of what a 10M-value shuffle costs on one core; the swaps, which wait on memory, are the rest. A relay
 * offers a helper task (core/common/fork_join.h) that draws the dice in batches while the caller swaps: the caller takes
 * the batches in order, each a plain array of pairs. The generator is only ever drawn from by one
 * thread at a time, batch after batch, in the order of the steps, so the dice (and the generator's
 * state afterwards) are exactly those drawn one by one on the caller's thread: the answer never depends
 * on the helper. When the helper is late, or no idle worker took it, the caller draws the next batch
 * itself. Measured in docs/performance.md#the-seeded-shuffle. */
#ifndef PUZZLED_CORE_DICE_RELAY_H
#define PUZZLED_CORE_DICE_RELAY_H

#include <stddef.h>
#include <stdint.h>

#include "core/random/rng.h"

/* Pairs per batch: a batch takes the caller about 0.5 ms to swap, so the hand-overs (a wake-up of the
 * helper each) are few, and the two buffers (2 x 512 KiB) stay in the caches. Batches of 16K pairs gave
 * the same swapping time but 40% more context switches and about 5 ms more CPU per 10M shuffle. */
enum { DICE_RELAY_BATCH_PAIRS = 64 * 1024 };

/* Steps below which a relay does not pay for its helper (set when the helper was a thread of its own,
 * about 40 us to start and join). */
#define DICE_RELAY_MIN_STEPS ((size_t)1 << 18)

typedef struct dice_relay dice_relay;

/* A relay of the dice of `steps` pairs of steps from `top` down: pair s is
 * bounded_random_pair(r, top - 2s + 1 - less, top - 2s - less), each die below 2^32. The relay draws
 * from `r` until dice_relay_finish. NULL when out of memory (the caller then draws its own dice). */
dice_relay *dice_relay_start(rng *r, size_t top, size_t less, size_t steps);

/* The next batch of pairs, in the order of the steps (`pairs[k][0]`, `pairs[k][1]`), valid until the
 * next call; `*count` pairs (the last batch may be short), or NULL after the last one. */
const uint32_t (*dice_relay_next(dice_relay *d, size_t *count))[2];

/* Stops the helper (at once, even with batches left: a shuffle out of time) and frees the relay. */
void dice_relay_finish(dice_relay *d);

#endif
