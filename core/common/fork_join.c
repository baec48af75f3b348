/* fork_join (see fork_join.h): one installed executor, read with acquire so that a thread that sees
 * it sees it whole; without one, every sub-task runs at its join. */
#include "core/common/fork_join.h"

#include <stdatomic.h>
#include <stddef.h>

static _Atomic(const parallel_executor *) installed;

void fork_join_install(const parallel_executor *executor) {
    atomic_store_explicit(&installed, executor, memory_order_release);
}

/* A task keeps the executor it was offered to, so its join reaches that one whatever is installed
 * by then. */
static const parallel_executor *executor_now(void) { return atomic_load_explicit(&installed, memory_order_acquire); }

void fork_join_offer(parallel_task *task, fork_join_task run, void *arg) {
    const parallel_executor *executor = executor_now();
    *task = (parallel_task){.run = run, .arg = arg, .executor = executor};
    if (executor != NULL) executor->offer(executor->owner, task);
}

bool fork_join_cancel(parallel_task *task) {
    const parallel_executor *executor = task->executor;
    if (executor == NULL || executor->withdraw(executor->owner, task)) return true;
    executor->wait(executor->owner, task);
    return false;
}

void fork_join_join(parallel_task *task) {
    if (fork_join_cancel(task)) task->run(task->arg);
}

/* A task withdrawn (or never offered) is run here and loses its executor, so the second pass waits
 * only for the ones other threads took. */
void fork_join_join_all(parallel_task *tasks, unsigned count) {
    for (unsigned i = 0; i < count; i++) {
        const parallel_executor *executor = tasks[i].executor;
        if (executor != NULL && !executor->withdraw(executor->owner, &tasks[i])) continue;
        tasks[i].executor = NULL;
        tasks[i].run(tasks[i].arg);
    }
    for (unsigned i = 0; i < count; i++)
        if (tasks[i].executor != NULL) tasks[i].executor->wait(tasks[i].executor->owner, &tasks[i]);
}

void fork_join(bool parallel, fork_join_task first, void *first_arg, fork_join_task second, void *second_arg) {
    if (!parallel) {
        first(first_arg);
        second(second_arg);
        return;
    }
    parallel_task helper;
    fork_join_offer(&helper, second, second_arg);
    first(first_arg);
    fork_join_join(&helper);
}
