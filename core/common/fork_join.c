/* fork_join: pthread_create for the second task (when asked to run in parallel), the first here, then
 * pthread_join. */
#include "core/common/fork_join.h"

#include <pthread.h>
#include <stddef.h>

typedef struct helper_task {
    fork_join_task run;
    void *arg;
} helper_task;

static void *run_helper(void *task) {
    helper_task *t = task;
    t->run(t->arg);
    return NULL;
}

void fork_join(bool parallel, fork_join_task first, void *first_arg, fork_join_task second, void *second_arg) {
    helper_task task = {second, second_arg};
    pthread_t helper;
    bool started = parallel && pthread_create(&helper, NULL, run_helper, &task) == 0;
    first(first_arg);
    if (started) pthread_join(helper, NULL);
    else second(second_arg);
}
