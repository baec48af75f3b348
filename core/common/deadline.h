/* Cooperative time limits: a point on the monotonic clock that long computations poll and stop at. */
#ifndef PUZZLED_CORE_DEADLINE_H
#define PUZZLED_CORE_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct deadline {
    int64_t at_ns; /* CLOCK_MONOTONIC nanoseconds; 0 means "no limit" */
} deadline;

/* A deadline `ms` milliseconds from now. */
deadline deadline_after_ms(uint64_t ms);

/* A deadline that never expires (for tests and benchmarks). */
deadline deadline_none(void);

/* True once the deadline has passed. Costs one vDSO clock read: call it every few thousand steps. */
bool deadline_expired(const deadline *d);

#endif
