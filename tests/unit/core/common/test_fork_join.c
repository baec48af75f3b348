/* fork_join runs both tasks, the first on the caller's thread, and returns only after both ended
 * (what the second wrote is there to read); not asked to run them in parallel, it runs both on the
 * caller's thread. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdbool.h>

#include "core/common/fork_join.h"

typedef struct task_record {
    pthread_t thread;
    int runs;
    long sum;
} task_record;

static void record(void *arg) {
    task_record *r = arg;
    r->thread = pthread_self();
    r->runs++;
    for (long i = 1; i <= 100000; i++) r->sum += i;
}

Test(fork_join, runs_both_tasks_and_joins) {
    for (int round = 0; round < 50; round++) {
        task_record first = {0}, second = {0};
        fork_join(true, record, &first, record, &second);
        cr_assert_eq(first.runs, 1);
        cr_assert_eq(second.runs, 1);
        cr_assert(pthread_equal(first.thread, pthread_self()), "the first task runs on the caller's thread");
        cr_assert_eq(first.sum, 5000050000L);
        cr_assert_eq(second.sum, 5000050000L);
    }
}

Test(fork_join, runs_small_pieces_one_after_the_other_on_the_callers_thread) {
    task_record first = {0}, second = {0};
    fork_join(false, record, &first, record, &second);
    cr_assert_eq(first.runs, 1);
    cr_assert_eq(second.runs, 1);
    cr_assert(pthread_equal(first.thread, pthread_self()));
    cr_assert(pthread_equal(second.thread, pthread_self()), "no helper thread when not parallel");
    cr_assert_eq(second.sum, 5000050000L);
}
