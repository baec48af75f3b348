/* fork_join without an installed executor (core alone, as in a tool or a unit test): every sub-task
 * runs exactly once on the caller's thread, at its join, and a cancel withdraws it unrun. The pool's
 * executor is tested with the pool (tests/unit/server/test_compute_pool.c). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdbool.h>

#include "core/common/fork_join.h"

typedef struct task_record {
    pthread_t thread;
    int runs;
} task_record;

static void record(void *arg) {
    task_record *r = arg;
    r->thread = pthread_self();
    r->runs++;
}

Test(fork_join, runs_both_tasks_on_the_callers_thread) {
    for (int parallel = 0; parallel < 2; parallel++) {
        task_record first = {0}, second = {0};
        fork_join(parallel, record, &first, record, &second);
        cr_assert_eq(first.runs, 1);
        cr_assert_eq(second.runs, 1);
        cr_assert(pthread_equal(first.thread, pthread_self()));
        cr_assert(pthread_equal(second.thread, pthread_self()), "no executor: the second runs here too");
    }
}

Test(fork_join, an_offered_task_runs_at_its_join_and_not_before) {
    task_record r = {0};
    parallel_task task;
    fork_join_offer(&task, record, &r);
    cr_assert_eq(r.runs, 0);
    fork_join_join(&task);
    cr_assert_eq(r.runs, 1);
}

Test(fork_join, a_join_of_all_runs_each_task_once) {
    enum { TASKS = 5 };
    task_record r[TASKS] = {0};
    parallel_task tasks[TASKS];
    for (int i = 0; i < TASKS; i++) fork_join_offer(&tasks[i], record, &r[i]);
    fork_join_join_all(tasks, TASKS);
    for (int i = 0; i < TASKS; i++) cr_assert_eq(r[i].runs, 1, "task %d", i);
}

Test(fork_join, a_cancelled_task_never_runs) {
    task_record r = {0};
    parallel_task task;
    fork_join_offer(&task, record, &r);
    cr_assert(fork_join_cancel(&task), "nobody took it");
    cr_assert_eq(r.runs, 0);
}
