/* The sparse partial Fisher-Yates (see sample.h): the positions moved so far live in an
 * open-addressing hash table of at least twice k slots, keyed by position. */
#include "core/random/sample.h"

#include <stdlib.h>

#include "core/random/bounded_random.h"

enum { POLL_EVERY = 1 << 16 };

#define EMPTY UINT64_MAX

typedef struct moved_positions {
    uint64_t *keys;  /* a position, or EMPTY */
    uint32_t *values;
    size_t mask;     /* slots - 1, a power of two minus one */
} moved_positions;

static size_t slot_of(const moved_positions *m, uint64_t key) {
    size_t slot = (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & m->mask; /* Fibonacci hashing */
    while (m->keys[slot] != EMPTY && m->keys[slot] != key) slot = (slot + 1) & m->mask;
    return slot;
}

/* The value at `position`: its own index unless it was moved. */
static uint32_t value_at(const moved_positions *m, uint64_t position) {
    size_t slot = slot_of(m, position);
    return m->keys[slot] == EMPTY ? (uint32_t)position : m->values[slot];
}

static void set_value(moved_positions *m, uint64_t position, uint32_t value) {
    size_t slot = slot_of(m, position);
    m->keys[slot] = position;
    m->values[slot] = value;
}

/* Step t of the partial shuffle with its die j: output a[j], then a[j] = a[i]. */
static void take(moved_positions *m, uint32_t *out, size_t t, uint64_t i, uint64_t j) {
    out[t] = value_at(m, j);
    set_value(m, j, value_at(m, i));
}

core_status shuffle_sample(rng *r, uint32_t *out, uint64_t n, size_t k, const deadline *limit) {
    size_t slots = 16;
    while (slots < 2 * k) slots *= 2;
    moved_positions m = {malloc(slots * sizeof *m.keys), malloc(slots * sizeof *m.values), slots - 1};
    if (m.keys == NULL || m.values == NULL) {
        free(m.keys);
        free(m.values);
        return CORE_NO_MEMORY;
    }
    for (size_t s = 0; s < slots; s++) m.keys[s] = EMPTY;
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
    free(m.keys);
    free(m.values);
    return status;
}
