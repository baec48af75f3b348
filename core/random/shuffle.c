/* Fisher-Yates, inside-out and naive shuffles of 0..n-1 with paired dice, and the derangement and
 * single-cycle shuffles (see shuffle.h). */
#include "core/random/shuffle.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "core/common/fork_join.h"
#include "core/random/bounded_random.h"
#include "core/random/dice_relay.h"

enum { POLL_EVERY = 1 << 16 }; /* elements (or moved elements for naive) between deadline polls */

static void swap(uint32_t *a, size_t i, size_t j) {
    uint32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

typedef struct identity_part {
    uint32_t *a;
    size_t begin, end;
} identity_part;

static void fill_identity_part(void *part) {
    identity_part *p = part;
    for (size_t i = p->begin; i < p->end; i++) p->a[i] = (uint32_t)i;
}

/* Values from which the identity is written by two threads (core/common/fork_join.h): on a freshly
 * allocated array most of its cost is the kernel zeroing the pages as they are first touched, which
 * the two halves then do at once. */
enum { IDENTITY_SPLIT_VALUES = 1 << 20 };

static void identity(uint32_t *a, size_t n) {
    identity_part low = {a, 0, n / 2}, high = {a, n / 2, n};
    fork_join(n >= IDENTITY_SPLIT_VALUES, fill_identity_part, &low, fill_identity_part, &high);
}

/* Pairs of dice drawn ahead of their swaps. The swaps land on random squares of an array far larger
 * than the caches for big n, so each would wait for memory; drawing the dice in batches ahead and
 * prefetching their squares DICE_AHEAD pairs before their swaps lets those waits overlap. The dice come
 * in the same order as when drawn just in time, so the shuffle for a seed is unchanged. */
enum { DICE_AHEAD = 16 };
/* Pairs drawn at a time on this thread when no relay draws them (8 KiB of dice). */
enum { LOCAL_BATCH_PAIRS = 1024 };

/* The swaps of one batch of pairs: a[i] with a[dice[k][0]] and a[i - 1] with a[dice[k][1]] for
 * i = top - 2k, each pair's squares prefetched DICE_AHEAD pairs before it. */
static void swap_batch(uint32_t *a, size_t top, const uint32_t (*dice)[2], size_t count) {
    for (size_t k = 0; k < count && k < DICE_AHEAD; k++) {
        __builtin_prefetch(&a[dice[k][0]], 1);
        __builtin_prefetch(&a[dice[k][1]], 1);
    }
    for (size_t k = 0, i = top; k < count; k++, i -= 2) {
        if (k + DICE_AHEAD < count) {
            __builtin_prefetch(&a[dice[k + DICE_AHEAD][0]], 1);
            __builtin_prefetch(&a[dice[k + DICE_AHEAD][1]], 1);
        }
        swap(a, i, dice[k][0]);
        swap(a, i - 1, dice[k][1]);
    }
}

/* For i = top, top - 2, ... while i >= stop: swaps a[i] with a[j1], j1 < i + 1 - less, and a[i - 1]
 * with a[j2], j2 < i - less (less = 0: Fisher-Yates; 1: Sattolo's single cycle). *next_i is the first i
 * left undone. The caller guarantees top >= stop >= 2 or top < stop. From DICE_RELAY_MIN_STEPS pairs
 * the dice are drawn by a helper task while this one swaps (dice_relay.h), else here in batches:
 * same dice, same order. */
static core_status paired_swaps(rng *r, uint32_t *a, size_t top, size_t stop, size_t less, size_t *next_i,
                                const deadline *limit) {
    size_t steps = top >= stop ? (top - stop) / 2 + 1 : 0;
    *next_i = top - 2 * steps;
    core_status status = CORE_OK;
    size_t i = top, count, since_poll = 0;
    dice_relay *relay = steps >= DICE_RELAY_MIN_STEPS ? dice_relay_start(r, top, less, steps) : NULL;
    if (relay != NULL) {
        for (const uint32_t(*dice)[2]; (dice = dice_relay_next(relay, &count)) != NULL; i -= 2 * count) {
            swap_batch(a, i, dice, count);
            if ((since_poll += 2 * count) >= POLL_EVERY) {
                since_poll = 0;
                if (deadline_expired(limit)) {
                    status = CORE_DEADLINE;
                    break;
                }
            }
        }
        dice_relay_finish(relay);
        return status;
    }
    uint32_t dice[LOCAL_BATCH_PAIRS][2];
    for (size_t done = 0; done < steps; done += count, i -= 2 * count) {
        count = steps - done < LOCAL_BATCH_PAIRS ? steps - done : LOCAL_BATCH_PAIRS;
        for (size_t k = 0; k < count; k++) {
            uint64_t j1, j2;
            bounded_random_pair(r, i - 2 * k + 1 - less, i - 2 * k - less, &j1, &j2);
            dice[k][0] = (uint32_t)j1;
            dice[k][1] = (uint32_t)j2;
        }
        swap_batch(a, i, (const uint32_t(*)[2])dice, count);
        if ((since_poll += 2 * count) >= POLL_EVERY) {
            since_poll = 0;
            if (deadline_expired(limit)) return CORE_DEADLINE;
        }
    }
    return CORE_OK;
}

/* The identity, then a[i] swapped with a[j], j < i + 1 - less, for i from n - 1 down to 1: Fisher-Yates
 * (less = 0) or Sattolo's single cycle (less = 1). paired_swaps does the pairs down to 2 + less; the
 * one step it may leave draws from 2, and Sattolo's last step (j < 1) is a[1] with a[0]. */
static core_status swap_down(rng *r, uint32_t *a, size_t n, size_t less, const deadline *limit) {
    identity(a, n);
    if (n < 2) return CORE_OK;
    size_t i;
    if (paired_swaps(r, a, n - 1, 2 + less, less, &i, limit) != CORE_OK) return CORE_DEADLINE;
    if (i == 1 + less) swap(a, i, bounded_random(r, 2));
    if (less == 1) swap(a, 1, 0);
    return CORE_OK;
}

/* Inside-out step: value i goes to position j, whose value moves to the new position i. */
static void place(uint32_t *a, size_t i, size_t j) {
    if (j != i) a[i] = a[j];
    a[j] = (uint32_t)i;
}

static core_status inside_out(rng *r, uint32_t *a, size_t n, const deadline *limit) {
    if (n == 0) return CORE_OK;
    a[0] = 0;
    size_t i = 1;
    for (size_t until_poll = POLL_EVERY; i + 1 < n; i += 2) {
        uint64_t j1, j2;
        bounded_random_pair(r, i + 1, i + 2, &j1, &j2);
        place(a, i, j1);
        place(a, i + 1, j2);
        if ((until_poll -= 2) == 0) {
            if (deadline_expired(limit)) return CORE_DEADLINE;
            until_poll = POLL_EVERY;
        }
    }
    if (i < n) place(a, i, bounded_random(r, i + 1));
    return CORE_OK;
}

/* Naive step: a[0..k) is the result so far, a[k..n) the remaining values in their original order;
 * the value at position j (>= k) is removed from the remaining ones and appended to the result.
 * Returns the number of values moved. */
static size_t take(uint32_t *a, size_t k, size_t j) {
    uint32_t chosen = a[j];
    memmove(a + k + 1, a + k, (j - k) * sizeof *a);
    a[k] = chosen;
    return j - k + 1;
}

static core_status naive(rng *r, uint32_t *a, size_t n, const deadline *limit) {
    identity(a, n);
    size_t k = 0, moved = 0;
    for (; k + 2 < n; k += 2) {
        uint64_t j1, j2;
        bounded_random_pair(r, n - k, n - k - 1, &j1, &j2);
        moved += take(a, k, k + j1);
        moved += take(a, k + 1, k + 1 + j2);
        if (moved >= POLL_EVERY) {
            if (deadline_expired(limit)) return CORE_DEADLINE;
            moved = 0;
        }
    }
    if (k + 1 < n) take(a, k, k + bounded_random(r, n - k));
    return CORE_OK;
}

typedef enum { ATTEMPT_DERANGED, ATTEMPT_FIXED_POINT, ATTEMPT_DEADLINE } attempt_outcome;

/* One attempt at a derangement: Fisher-Yates stopped at the first settled fixed point. */
static attempt_outcome derangement_attempt(rng *r, uint32_t *a, size_t n, size_t *until_poll, const deadline *limit) {
    identity(a, n);
    size_t i = n - 1;
    for (; i >= 2; i -= 2) {
        uint64_t j1, j2;
        bounded_random_pair(r, i + 1, i, &j1, &j2);
        swap(a, i, j1);
        if (a[i] == i) return ATTEMPT_FIXED_POINT;
        swap(a, i - 1, j2);
        if (a[i - 1] == i - 1) return ATTEMPT_FIXED_POINT;
        if ((*until_poll -= 2) == 0) {
            if (deadline_expired(limit)) return ATTEMPT_DEADLINE;
            *until_poll = POLL_EVERY;
        }
    }
    if (i == 1) {
        swap(a, 1, bounded_random(r, 2));
        if (a[1] == 1) return ATTEMPT_FIXED_POINT;
    }
    return a[0] != 0 ? ATTEMPT_DERANGED : ATTEMPT_FIXED_POINT;
}

static core_status derangement(rng *r, uint32_t *a, size_t n, const deadline *limit) {
    if (n == 0) return CORE_OK;
    if (n == 1) return CORE_DEADLINE; /* none exists: a search that could never end (callers check first) */
    size_t until_poll = POLL_EVERY;
    for (;;) {
        switch (derangement_attempt(r, a, n, &until_poll, limit)) {
        case ATTEMPT_DERANGED: return CORE_OK;
        case ATTEMPT_DEADLINE: return CORE_DEADLINE;
        case ATTEMPT_FIXED_POINT: break;
        }
    }
}

core_status shuffle_permutation(shuffle_algorithm algorithm, rng *r, uint32_t *perm, size_t n, const deadline *limit) {
    switch (algorithm) {
    case SHUFFLE_INSIDE_OUT: return inside_out(r, perm, n, limit);
    case SHUFFLE_NAIVE: return naive(r, perm, n, limit);
    case SHUFFLE_DERANGEMENT: return derangement(r, perm, n, limit);
    case SHUFFLE_CYCLE: return swap_down(r, perm, n, 1, limit);
    case SHUFFLE_FISHER_YATES: break;
    }
    return swap_down(r, perm, n, 0, limit);
}

enum { HUGE_PAGE_BYTES = 2 << 20 };

void shuffle_advise_memory(uint32_t *perm, size_t n) {
    uintptr_t begin = ((uintptr_t)perm + HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1);
    uintptr_t end = ((uintptr_t)(perm + n)) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1);
    if (end > begin) madvise((void *)begin, end - begin, MADV_HUGEPAGE); /* refused: 4 KiB pages, as before */
}
