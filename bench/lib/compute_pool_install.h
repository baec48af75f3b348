/* The compute pool a benchmark's parallel work runs on, set up as the server sets up its own
 * (server/http.c): the expiry timer, one main worker per core, and the pool's executor installed for
 * core/common/fork_join.h. Without it every offered sub-task runs on the caller's thread at its join,
 * so the "every core" figures of a benchmark that computes in process would be one thread's.
 * The pool lives until the process exits. Header-only (a static function): each benchmark is its
 * own executable. */
#ifndef PUZZLED_BENCH_COMPUTE_POOL_INSTALL_H
#define PUZZLED_BENCH_COMPUTE_POOL_INSTALL_H

#include <stdbool.h>
#include <unistd.h>

#include "server/compute_pool.h"

/* False when the timer's or the workers' threads cannot be had. */
static inline bool compute_pool_install_per_core(void) {
    timer *expiry = timer_start();
    if (expiry == NULL) return false;
    const unsigned job_queue_limit = 0; /* a benchmark offers sub-tasks, which no queue limit bounds */
    compute_pool *pool = compute_pool_create((unsigned)sysconf(_SC_NPROCESSORS_ONLN), job_queue_limit, expiry);
    if (pool == NULL) return false;
    fork_join_install(compute_pool_executor(pool));
    return true;
}

#endif
