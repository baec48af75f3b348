/* Cooperative time limits: a point on the monotonic clock that long computations poll and stop at,
 * and two optional flags that end them early: one the server raises when a stop has waited its drain
 * time (for every computation), one it raises when the client of one computation left, so running
 * computations end as if their time were up. The deadline also carries where the
 * computation reports how far it got (core/common/progress.h), since every long computation already
 * holds its deadline where it polls; a follower that abandons that record expires the deadline. */
#ifndef PUZZLED_CORE_DEADLINE_H
#define PUZZLED_CORE_DEADLINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Declared, not included: this header is read by C++ benchmarks too, and progress.h holds C11
 * atomics that C++ cannot read. Users of the record include core/common/progress.h. */
typedef struct progress progress;

typedef struct deadline {
    int64_t at_ns;                /* core/common/monotonic.h nanoseconds; 0 means "no limit" */
    const atomic_bool *cancelled; /* NULL, or a flag that expires the deadline at once when raised */
    const atomic_bool *abandoned; /* the same, for one computation: nobody waits for its result */
    progress *progress;           /* NULL, or where the computation reports how far it got */
} deadline;

/* A deadline `ms` milliseconds from now. */
deadline deadline_after_ms(uint64_t ms);

/* A deadline that never expires (for tests and benchmarks). */
deadline deadline_none(void);

/* True once the deadline has passed or its cancel flag is up. Costs one vDSO clock read: call it
 * every few thousand steps. */
bool deadline_expired(const deadline *d);

/* The progress record a deadline carries, or NULL (also for a NULL deadline). */
static inline progress *progress_of(const deadline *d) { return d != NULL ? d->progress : NULL; }

/* Milliseconds left (0 once expired; UINT64_MAX for no limit). */
uint64_t deadline_remaining_ms(const deadline *d);

#endif
