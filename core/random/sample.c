/* The sparse partial Fisher-Yates (see sample.h): the positions moved so far live in an
 * open-addressing hash table keyed by position, at most three quarters full (12 bytes a slot, so
 * 16-32 bytes per value drawn); when n is small enough that a plain array of n values takes no more
 * memory than that table would, the array is used instead (O(n) = O(k) to fill). */
#include "core/random/sample.h"

#include <stdlib.h>

#include "core/random/bounded_random.h"

enum { POLL_EVERY = 1 << 16 };

#define EMPTY UINT64_MAX

typedef struct moved_positions {
    uint32_t *dense; /* the whole array, when n is small; else NULL and the table below */
    uint64_t *keys;  /* a position, or EMPTY */
    uint32_t *values;
    size_t mask; /* slots - 1, a power of two minus one */
} moved_positions;

static size_t slot_of(const moved_positions *m, uint64_t key) {
    size_t slot = (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & m->mask; /* Fibonacci hashing */
    while (m->keys[slot] != EMPTY && m->keys[slot] != key) slot = (slot + 1) & m->mask;
    return slot;
}

/* The value at `position`: its own index unless it was moved. */
static uint32_t value_at(const moved_positions *m, uint64_t position) {
    if (m->dense != NULL) return m->dense[position];
    size_t slot = slot_of(m, position);
    return m->keys[slot] == EMPTY ? (uint32_t)position : m->values[slot];
}

static void set_value(moved_positions *m, uint64_t position, uint32_t value) {
    if (m->dense != NULL) {
        m->dense[position] = value;
        return;
    }
    size_t slot = slot_of(m, position);
    m->keys[slot] = position;
    m->values[slot] = value;
}

/* Step t of the partial shuffle with its die j: output a[j], then a[j] = a[i]. */
static void take(moved_positions *m, uint32_t *out, size_t t, uint64_t i, uint64_t j) {
    out[t] = value_at(m, j);
    set_value(m, j, value_at(m, i));
}

/* Allocates the array or the table for k steps over n positions. */
static bool moved_positions_init(moved_positions *m, uint64_t n, size_t k) {
    size_t slots = 16;
    while (slots < k + k / 3) slots *= 2;
    *m = (moved_positions){.mask = slots - 1};
    if (n <= 3 * (uint64_t)slots) {
        m->dense = malloc((n ? n : 1) * sizeof *m->dense);
        for (uint64_t i = 0; m->dense != NULL && i < n; i++) m->dense[i] = (uint32_t)i;
        return m->dense != NULL;
    }
    m->keys = malloc(slots * sizeof *m->keys);
    m->values = malloc(slots * sizeof *m->values);
    for (size_t s = 0; m->keys != NULL && s < slots; s++) m->keys[s] = EMPTY;
    return m->keys != NULL && m->values != NULL;
}

static void moved_positions_free(moved_positions *m) {
    free(m->dense);
    free(m->keys);
    free(m->values);
}

core_status shuffle_sample(rng *r, uint32_t *out, uint64_t n, size_t k, const deadline *limit) {
    moved_positions m;
    if (!moved_positions_init(&m, n, k)) {
        moved_positions_free(&m);
        return CORE_NO_MEMORY;
    }
    core_status status = CORE_OK;
    size_t t = 0;
    for (size_t until_poll = POLL_EVERY; t + 1 < k && n - 2 - t >= 1; t += 2) { /* both bounds at least 2 */
        uint64_t i = n - 1 - t, j1, j2;
        bounded_random_pair(r, i + 1, i, &j1, &j2);
        take(&m, out, t, i, j1);
        take(&m, out, t + 1, i - 1, j2);
        if ((until_poll -= 2) == 0) {
            if (deadline_expired(limit)) {
                status = CORE_DEADLINE;
                break;
            }
            until_poll = POLL_EVERY;
        }
    }
    for (; status == CORE_OK && t < k; t++) {
        uint64_t i = n - 1 - t;
        take(&m, out, t, i, i >= 1 ? bounded_random(r, i + 1) : 0);
    }
    moved_positions_free(&m);
    return status;
}
