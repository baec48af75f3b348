/* Running pieces of one computation at once, on threads that already exist.
 *
 * The computation offers a sub-task to the installed executor (in the server: the compute pool's
 * idle main workers, server/compute_pool.h) and goes on with its own share. When it needs the
 * sub-task done, it joins: a sub-task no thread has taken yet is withdrawn and run on the caller's
 * thread there and then (work-first), and one a thread took is waited for. So every sub-task runs
 * exactly once, the answer never depends on whether a helper was free, and a full pool cannot
 * deadlock a join: the caller only ever waits for work that is already running. Nested use is fine
 * for the same reason.
 *
 * A sub-task lives in the caller's memory (on its stack, mostly) until joined, so offering allocates
 * nothing and cannot fail. Without an installed executor (a unit test, a tool) every sub-task runs
 * on the caller's thread at its join. The executor is installed once at start-up, before any
 * computation runs (http_server_start), and removed after the last one ended. */
#ifndef PUZZLED_CORE_FORK_JOIN_H
#define PUZZLED_CORE_FORK_JOIN_H

#include <stdbool.h>

typedef void (*fork_join_task)(void *arg);

/* One offered sub-task. `run` and `arg` are the caller's; the rest belongs to the executor from the
 * offer to the end of the join. */
typedef struct parallel_task parallel_task;
typedef struct parallel_executor parallel_executor;
struct parallel_task {
    fork_join_task run;
    void *arg;
    const parallel_executor *executor; /* the one it was offered to (NULL: none) */
    int state;                         /* the executor's, under its lock */
    parallel_task *next;               /* the executor's queue */
};

/* What runs offered sub-tasks. `withdraw` is true when no thread had taken the task (it is then out
 * of the executor's hands and has not run); false when one has, and then `wait` returns once it has
 * ended. */
struct parallel_executor {
    void *owner;
    void (*offer)(void *owner, parallel_task *task);
    bool (*withdraw)(void *owner, parallel_task *task);
    void (*wait)(void *owner, parallel_task *task);
};

/* Installs the executor every later offer goes to (NULL: none, sub-tasks run at their join). */
void fork_join_install(const parallel_executor *executor);

/* Offers `task` (run(arg)) to an idle thread; fork_join_join must follow, from the same thread. */
void fork_join_offer(parallel_task *task, fork_join_task run, void *arg);

/* Returns once the task has run: here, now, unless another thread took it (then after it ended). */
void fork_join_join(parallel_task *task);

/* fork_join_join of `count` tasks: first those no thread took, here, then waits for the others. */
void fork_join_join_all(parallel_task *tasks, unsigned count);

/* Withdraws the task if no thread took it (true: it will not run), else waits for it (false). For a
 * sub-task that is only worth running alongside the caller, such as drawing ahead. */
bool fork_join_cancel(parallel_task *task);

/* Pieces of numbers smaller than this many bits run one after the other: GMP converts 2^16 bits in
 * about 0.3 ms (2^14 bits: 34 us). Set when each piece started a thread (about 40 us); a hand-off to an
 * idle pool worker costs less, so the line errs on the side of not splitting
 * (docs/performance.md#current-figures). */
#define FORK_JOIN_MIN_BITS ((size_t)1 << 16)

/* Runs first(first_arg) and second(second_arg): at once when `parallel` and a thread is free (the
 * second offered, the first here), else one after the other on this thread. */
void fork_join(bool parallel, fork_join_task first, void *first_arg, fork_join_task second, void *second_arg);

#endif
