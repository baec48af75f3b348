/* The service's one clock: CLOCK_MONOTONIC in nanoseconds. Every deadline, timer entry, queue wait,
 * token bucket, progress record and elapsed time reads it here, so that all their times compare and
 * none moves when the wall clock is set. A thread that waits until such a time waits with
 * pthread_cond_clockwait(..., CLOCK_MONOTONIC, monotonic_timespec(at_ns)). */
#ifndef PUZZLED_CORE_MONOTONIC_H
#define PUZZLED_CORE_MONOTONIC_H

#include <stdint.h>
#include <time.h>

/* Now, in nanoseconds. */
int64_t monotonic_now_ns(void);

/* A time in nanoseconds as the timespec that pthread_cond_clockwait takes. */
struct timespec monotonic_timespec(int64_t at_ns);

#endif
