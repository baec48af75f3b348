/* Cooperative time limits: a point on the monotonic clock that long computations poll and stop at,
 * and an optional flag that ends them early (the server raises it when a stop has waited its drain
 * time, so running computations end as if their time were up). */
#ifndef PUZZLED_CORE_DEADLINE_H
#define PUZZLED_CORE_DEADLINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct deadline {
    int64_t at_ns;                /* CLOCK_MONOTONIC nanoseconds; 0 means "no limit" */
    const atomic_bool *cancelled; /* NULL, or a flag that expires the deadline at once when raised */
} deadline;

/* A deadline `ms` milliseconds from now. */
deadline deadline_after_ms(uint64_t ms);

/* A deadline that never expires (for tests and benchmarks). */
deadline deadline_none(void);

/* True once the deadline has passed or its cancel flag is up. Costs one vDSO clock read: call it
 * every few thousand steps. */
bool deadline_expired(const deadline *d);

/* Milliseconds left (0 once expired; UINT64_MAX for no limit). */
uint64_t deadline_remaining_ms(const deadline *d);

#endif
