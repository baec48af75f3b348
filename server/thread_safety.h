/* Clang's thread-safety analysis (-Wthread-safety) over the locks where the server's threads meet:
 * each request's, the compute pool's, the timer's, the clients table's, the event streams'
 * registry's and the gauges'. The suite's thread-safety stage compiles server/ with clang and makes
 * every finding an error (docs/testing.md); other compilers see empty macros.
 *
 * A `mutex` is a pthread mutex that the analysis knows as a capability. It then checks that every
 * function marked REQUIRES(m) ("under the lock") is called with m held, and every one marked
 * EXCLUDES(m) ("not under the lock") without it; that a global marked GUARDED_BY(m) is touched only
 * under m; and that no path leaves a function holding a lock it took, or releases one it does not
 * hold. C gives a struct member no way to name its sibling in an attribute, so a struct's guarded
 * fields are reached through functions marked REQUIRES. The order in which the locks nest is
 * server/README.md#locks. */
#ifndef PUZZLED_SERVER_THREAD_SAFETY_H
#define PUZZLED_SERVER_THREAD_SAFETY_H

#include <pthread.h>
#include <stdint.h>

#include "core/common/monotonic.h"

#if defined(__clang__)
#define THREAD_ANNOTATION(x) __attribute__((x))
#else
#define THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(name) THREAD_ANNOTATION(capability(name))
#define GUARDED_BY(lock) THREAD_ANNOTATION(guarded_by(lock))
#define REQUIRES(...) THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define EXCLUDES(...) THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ACQUIRE(...) THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) THREAD_ANNOTATION(release_capability(__VA_ARGS__))
/* Only on the few functions below (and request_lock and request_unlock) that turn a pthread call into
 * a capability's acquisition or release: the analysis cannot see into pthreads. */
#define NO_THREAD_SAFETY_ANALYSIS THREAD_ANNOTATION(no_thread_safety_analysis)

typedef struct CAPABILITY("mutex") mutex {
    pthread_mutex_t m;
} mutex;

#define MUTEX_INITIALIZER \
    { PTHREAD_MUTEX_INITIALIZER }

static inline void mutex_init(mutex *lock) { pthread_mutex_init(&lock->m, NULL); }
static inline void mutex_destroy(mutex *lock) { pthread_mutex_destroy(&lock->m); }

static inline void mutex_lock(mutex *lock) ACQUIRE(lock) NO_THREAD_SAFETY_ANALYSIS { pthread_mutex_lock(&lock->m); }
static inline void mutex_unlock(mutex *lock) RELEASE(lock) NO_THREAD_SAFETY_ANALYSIS { pthread_mutex_unlock(&lock->m); }

/* Waits on `cond`, the lock released meanwhile and held again on return. */
static inline void mutex_wait(pthread_cond_t *cond, mutex *lock) REQUIRES(lock) { pthread_cond_wait(cond, &lock->m); }

/* The same, until `at_ns` (core/common/monotonic.h) at the latest. */
static inline void mutex_wait_until(pthread_cond_t *cond, mutex *lock, int64_t at_ns) REQUIRES(lock) {
    struct timespec at = monotonic_timespec(at_ns);
    pthread_cond_clockwait(cond, &lock->m, CLOCK_MONOTONIC, &at);
}

#endif
