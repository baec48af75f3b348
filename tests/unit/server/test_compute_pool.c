/* The compute pool (server/compute_pool.c): every admitted job runs or is refused exactly once, the
 * queue limits and the express-then-main order hold, waiting jobs are refused at their deadline and
 * at a stop. Sub-tasks offered through the pool's executor (core/common/fork_join.h) each run
 * exactly once, on an idle main worker in a main slot or, when none is free, on the thread that joins
 * them; nested offers and deadlines that pass mid-way end too. Admission by waiting time: a burst of
 * cheap jobs is admitted whatever its count, and long work is refused at once as soon as the work
 * ahead would keep it waiting past COMPUTE_MAX_WAIT_MS or its deadline, while a waiting job whose client
 * left counts no longer. Jobs and sub-tasks block on a gate the
 * test opens, so what is running and what is waiting is known at every step; waits are bounded by a
 * generous deadline and never measured. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "server/compute_pool.h"

/* The server's timer, which expires the waiting jobs (one per test: each runs in its own process). */
static timer *expiry;

static compute_pool *pool_with_timer(unsigned workers, unsigned queue_limit) {
    expiry = timer_start();
    cr_assert_not_null(expiry);
    return compute_pool_create(workers, queue_limit, expiry);
}

static void pool_and_timer_destroy(compute_pool *pool) {
    compute_pool_destroy(pool);
    timer_stop(expiry);
}

typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool open;
} gate;

typedef struct test_job {
    compute_job job;    /* first */
    gate *gate;         /* NULL: the job ends at once */
    gate *refusal_gate; /* NULL: a refusal returns at once */
    atomic_int ran, refused, started;
    compute_lane lane;
    compute_refusal reason;
    bool demote;        /* from the express lane, go on to the main lane */
    bool cut_short;     /* its run says it did not measure its work (its client left, say) */
    unsigned sleeps_ms; /* it runs at least this long (nanosleep never sleeps less) */
    compute_pool *pool;
} test_job;

static void gate_init(gate *g) {
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->changed, NULL);
    g->open = false;
}

static void gate_open(gate *g) {
    pthread_mutex_lock(&g->lock);
    g->open = true;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

static void gate_wait(gate *g) {
    pthread_mutex_lock(&g->lock);
    while (!g->open) pthread_cond_wait(&g->changed, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

static bool run(compute_job *job) {
    test_job *t = (test_job *)job;
    t->lane = job->lane;
    if (t->demote && job->lane == COMPUTE_EXPRESS) {
        cr_assert_eq(compute_pool_demote(t->pool, job), COMPUTE_QUEUED);
        atomic_fetch_add(&t->started, 1); /* after the demotion, so a test that sees it sees the job queued */
        return false;
    }
    atomic_fetch_add(&t->started, 1);
    if (t->gate != NULL) gate_wait(t->gate);
    if (t->sleeps_ms != 0) {
        struct timespec nap = {t->sleeps_ms / 1000, (long)(t->sleeps_ms % 1000) * 1000000};
        nanosleep(&nap, NULL);
    }
    bool measured = !t->cut_short; /* read before the last touch: the test may reuse the job after */
    atomic_fetch_add(&t->ran, 1);
    return measured;
}

static void refuse(compute_job *job, compute_refusal reason) {
    test_job *t = (test_job *)job;
    t->reason = reason;
    atomic_fetch_add(&t->refused, 1);
    if (t->refusal_gate != NULL) gate_wait(t->refusal_gate);
}

static void job_init(test_job *t, compute_pool *pool, gate *g, bool demote) {
    *t = (test_job){.gate = g, .demote = demote, .pool = pool};
    t->job.run = run;
    t->job.refuse = refuse;
}

/* Polls `flag` until it reaches `value` (bounded: 10 s). */
static bool eventually(atomic_int *flag, int value) {
    deadline limit = deadline_after_ms(10000);
    struct timespec step = {0, 1000000};
    while (atomic_load(flag) != value && !deadline_expired(&limit)) nanosleep(&step, NULL);
    return atomic_load(flag) == value;
}

Test(compute_pool, a_new_job_runs_on_the_express_lane) {
    compute_pool *pool = pool_with_timer(2, 1);
    test_job t;
    job_init(&t, pool, NULL, false);
    cr_assert_eq(compute_pool_submit(pool, &t.job), COMPUTE_QUEUED);
    cr_assert(eventually(&t.ran, 1));
    cr_assert_eq(t.lane, COMPUTE_EXPRESS);
    cr_assert(compute_pool_wait_idle(pool, NULL));
    pool_and_timer_destroy(pool);
}

/* A job estimated at `cost_ms` (no deadline unless given). */
static void costly_job_init(test_job *t, compute_pool *pool, gate *g, int64_t cost_ms) {
    job_init(t, pool, g, false);
    t->job.cost_ns = cost_ms * 1000000;
}

enum { BURST = 64, CHEAP_US = 10, LONG_MS = 400, NO_COUNT_LIMIT = 1000 };

Test(compute_pool, a_burst_of_cheap_jobs_is_admitted_whatever_its_count) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_timer(1, NO_COUNT_LIMIT);
    static test_job jobs[BURST + 1];
    costly_job_init(&jobs[0], pool, &g, LONG_MS); /* holds the express thread: all the others wait */
    cr_assert_eq(compute_pool_submit(pool, &jobs[0].job), COMPUTE_QUEUED);
    cr_assert(eventually(&jobs[0].started, 1));
    for (int i = 1; i <= BURST; i++) {
        job_init(&jobs[i], pool, NULL, false);
        jobs[i].job.cost_ns = CHEAP_US * 1000;
        /* the slice the running job may take (20 ms) and the cheap ones ahead: far below a second */
        cr_assert_eq(compute_pool_submit(pool, &jobs[i].job), COMPUTE_QUEUED, "cheap job %d", i);
    }
    cr_assert_eq(compute_pool_stats_read(pool).express_waiting, BURST);
    gate_open(&g);
    for (int i = 0; i <= BURST; i++) cr_assert(eventually(&jobs[i].ran, 1));
    cr_assert(compute_pool_wait_idle(pool, NULL));
    pool_and_timer_destroy(pool);
}

Test(compute_pool, long_work_is_refused_at_once_when_the_work_ahead_passes_the_longest_wait) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_timer(1, NO_COUNT_LIMIT);
    test_job jobs[4];
    costly_job_init(&jobs[0], pool, &g, LONG_MS); /* on the one worker */
    cr_assert_eq(compute_pool_demote(pool, &jobs[0].job), COMPUTE_QUEUED);
    cr_assert(eventually(&jobs[0].started, 1));
    /* 400 ms run, so the next waits 400 ms, the one after 800 ms; a third would wait 1.2 s, over
     * COMPUTE_MAX_WAIT_MS. */
    for (int i = 1; i < 3; i++) {
        costly_job_init(&jobs[i], pool, &g, LONG_MS);
        cr_assert_eq(compute_pool_demote(pool, &jobs[i].job), COMPUTE_QUEUED, "job %d", i);
    }
    costly_job_init(&jobs[3], pool, &g, LONG_MS);
    cr_assert_eq(compute_pool_demote(pool, &jobs[3].job), COMPUTE_TOO_LONG_A_WAIT);
    cr_assert_eq(jobs[3].job.wait_ns, 3 * LONG_MS * 1000000LL, "the predicted wait, for its Retry-After");
    /* a job whose deadline comes before the work ahead ends is refused too, however cheap, as past its limit */
    test_job hurried;
    costly_job_init(&hurried, pool, &g, 0);
    hurried.job.deadline = deadline_after_ms(LONG_MS / 4);
    cr_assert_eq(compute_pool_demote(pool, &hurried.job), COMPUTE_PAST_ITS_LIMIT);
    compute_pool_stats stats = compute_pool_stats_read(pool);
    cr_assert_eq(stats.rejected[COMPUTE_TOO_LONG_A_WAIT], 1);
    cr_assert_eq(stats.rejected[COMPUTE_PAST_ITS_LIMIT], 1);
    cr_assert_eq(stats.main_waiting, 2);
    gate_open(&g);
    for (int i = 0; i < 3; i++) cr_assert(eventually(&jobs[i].ran, 1));
    cr_assert(compute_pool_wait_idle(pool, NULL));
    pool_and_timer_destroy(pool);
}

/* A waiting job whose client left (its deadline's abandon flag raised) leaves its queue as soon as the
 * expiry is brought forward, refused as expired without running, while the job ahead still runs: its
 * charge no longer counts in the wait, so a newcomer it would have kept out is admitted. */
Test(compute_pool, a_waiting_job_whose_client_left_stops_counting_in_the_wait) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_timer(1, NO_COUNT_LIMIT);
    test_job running, left, newcomer, late;
    costly_job_init(&running, pool, &g, LONG_MS); /* on the one worker */
    cr_assert_eq(compute_pool_demote(pool, &running.job), COMPUTE_QUEUED);
    cr_assert(eventually(&running.started, 1));
    atomic_bool client_gone = false;
    costly_job_init(&left, pool, &g, 2 * LONG_MS);
    left.job.deadline = deadline_after_ms(600000); /* far off: it is its client's leaving that expires it */
    left.job.deadline.abandoned = &client_gone;
    cr_assert_eq(compute_pool_demote(pool, &left.job), COMPUTE_QUEUED, "400 ms ahead of it");
    costly_job_init(&newcomer, pool, &g, LONG_MS);
    cr_assert_eq(compute_pool_demote(pool, &newcomer.job), COMPUTE_TOO_LONG_A_WAIT, "1.2 s ahead of it");
    atomic_store(&client_gone, true);
    compute_pool_expire_now(pool);
    cr_assert(eventually(&left.refused, 1));
    cr_assert_eq(left.reason, COMPUTE_EXPIRED);
    compute_pool_stats stats = compute_pool_stats_read(pool);
    cr_assert_eq(stats.main_waiting, 0);
    cr_assert_eq(stats.main_wait_seconds, LONG_MS / 1000.0, "only the running job's charge is left");
    cr_assert_eq(stats.expired, 0, "a client that left is not a deadline that passed");
    cr_assert_eq(compute_pool_demote(pool, &newcomer.job), COMPUTE_QUEUED, "400 ms ahead of it now");
    /* a job whose client left before it is queued again (while it ran on the express lane) waits for nothing */
    costly_job_init(&late, pool, &g, 0);
    late.job.deadline.abandoned = &client_gone;
    cr_assert_eq(compute_pool_demote(pool, &late.job), COMPUTE_PAST_ITS_LIMIT);
    cr_assert_eq(atomic_load(&running.ran) + atomic_load(&left.ran), 0, "all of it while the job ahead ran");
    gate_open(&g);
    cr_assert(eventually(&running.ran, 1));
    cr_assert(eventually(&newcomer.ran, 1));
    cr_assert(compute_pool_wait_idle(pool, NULL));
    cr_assert_eq(atomic_load(&left.ran), 0);
    pool_and_timer_destroy(pool);
}

/* With a thread idle there is no wait to judge: a job is admitted even with its deadline already past
 * (it is then run, or refused as expired through its callback), so what answers it is where it runs
 * (a hopeless count's 422, say), never the admission. */
Test(compute_pool, a_job_with_no_wait_is_admitted_whatever_its_deadline) {
    compute_pool *pool = pool_with_timer(1, 1);
    test_job t;
    costly_job_init(&t, pool, NULL, LONG_MS);
    t.job.deadline = deadline_after_ms(1);
    struct timespec past_it = {0, 5000000};
    nanosleep(&past_it, NULL);
    cr_assert_eq(compute_pool_demote(pool, &t.job), COMPUTE_QUEUED);
    deadline limit = deadline_after_ms(10000);
    struct timespec step = {0, 1000000};
    while (atomic_load(&t.ran) + atomic_load(&t.refused) == 0 && !deadline_expired(&limit)) nanosleep(&step, NULL);
    cr_assert_eq(atomic_load(&t.ran) + atomic_load(&t.refused), 1, "run or refused, once");
    cr_assert(compute_pool_wait_idle(pool, NULL));
    pool_and_timer_destroy(pool);
}

Test(compute_pool, demoted_jobs_fill_the_workers_then_the_queue_then_are_refused) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_timer(2, 1);
    test_job jobs[4];
    for (int i = 0; i < 3; i++) {
        job_init(&jobs[i], pool, &g, true);
        cr_assert_eq(compute_pool_submit(pool, &jobs[i].job), COMPUTE_QUEUED);
        cr_assert(eventually(&jobs[i].started, i < 2 ? 2 : 1), "job %d reached its lane", i);
    }
    /* Two on the main workers, one waiting: the main queue (limit 1) is full. */
    cr_assert_not(compute_pool_accepting(pool));
    compute_pool_stats stats = compute_pool_stats_read(pool);
    cr_assert_eq(stats.busy, 2);
    cr_assert_eq(stats.main_waiting, 1);
    job_init(&jobs[3], pool, &g, false);
    cr_assert_eq(compute_pool_demote(pool, &jobs[3].job), COMPUTE_FULL);
    gate_open(&g);
    for (int i = 0; i < 3; i++) cr_assert(eventually(&jobs[i].ran, 1));
    for (int i = 0; i < 3; i++) cr_assert_eq(jobs[i].lane, COMPUTE_MAIN);
    cr_assert(compute_pool_wait_idle(pool, NULL));
    cr_assert(compute_pool_accepting(pool));
    cr_assert_eq(compute_pool_stats_read(pool).rejected[COMPUTE_FULL], 1);
    pool_and_timer_destroy(pool);
}

/* A pool of one main worker that `busy` holds until `g` opens (demoted there from the express lane),
 * and `waiting` queued behind it with a 50 ms deadline, its refusal held until `refusal` opens (NULL:
 * not held). */
static compute_pool *pool_with_a_job_expiring_behind_a_busy_one(gate *g, test_job *busy, test_job *waiting,
                                                                gate *refusal) {
    compute_pool *pool = pool_with_timer(1, 4);
    job_init(busy, pool, g, true);
    compute_pool_submit(pool, &busy->job);
    cr_assert(eventually(&busy->started, 2));
    job_init(waiting, pool, NULL, true);
    waiting->refusal_gate = refusal;
    waiting->job.deadline = deadline_after_ms(50);
    compute_pool_submit(pool, &waiting->job);
    return pool;
}

Test(compute_pool, a_waiting_job_is_refused_at_its_deadline_without_running) {
    gate g;
    gate_init(&g);
    test_job busy, waiting;
    compute_pool *pool = pool_with_a_job_expiring_behind_a_busy_one(&g, &busy, &waiting, NULL);
    cr_assert(eventually(&waiting.refused, 1));
    cr_assert_eq(waiting.reason, COMPUTE_EXPIRED);
    cr_assert_eq(atomic_load(&waiting.ran), 0);
    cr_assert_eq(atomic_load(&busy.ran), 0, "refused while the job ahead still ran");
    gate_open(&g);
    cr_assert(compute_pool_wait_idle(pool, NULL));
    cr_assert_eq(compute_pool_stats_read(pool).expired, 1);
    pool_and_timer_destroy(pool);
}

/* The stop waits for the pool to be idle and then stops libmicrohttpd, which must find no connection
 * suspended: a refused request resumes its connection in its refusal, so the pool is not idle while
 * a refusal runs, though the job has left the queue and nothing else runs. */
Test(compute_pool, a_refusal_in_progress_keeps_the_pool_busy) {
    gate g, refusal;
    gate_init(&g);
    gate_init(&refusal);
    test_job busy, waiting;
    compute_pool *pool = pool_with_a_job_expiring_behind_a_busy_one(&g, &busy, &waiting, &refusal);
    cr_assert(eventually(&waiting.refused, 1), "the watch thread refuses the expired job");
    gate_open(&g);
    cr_assert(eventually(&busy.ran, 1));
    compute_pool_stats stats = compute_pool_stats_read(pool);
    cr_assert_eq(stats.express_waiting + stats.main_waiting, 0, "the refused job has left the queue");
    deadline soon = deadline_after_ms(20);
    cr_assert_not(compute_pool_wait_idle(pool, &soon), "the refusal still runs");
    gate_open(&refusal);
    cr_assert(compute_pool_wait_idle(pool, NULL));
    pool_and_timer_destroy(pool);
}

Test(compute_pool, stopping_refuses_waiting_jobs_and_new_ones_but_lets_running_ones_finish) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_timer(1, 4);
    test_job running, waiting, late;
    job_init(&running, pool, &g, true);
    compute_pool_submit(pool, &running.job);
    cr_assert(eventually(&running.started, 2));
    job_init(&waiting, pool, NULL, true);
    compute_pool_submit(pool, &waiting.job);
    cr_assert(eventually(&waiting.started, 1));
    compute_pool_stop_admitting(pool);
    cr_assert_eq(atomic_load(&waiting.refused), 1);
    cr_assert_eq(waiting.reason, COMPUTE_STOPPING);
    job_init(&late, pool, NULL, false);
    cr_assert_eq(compute_pool_submit(pool, &late.job), COMPUTE_STOPPED);
    deadline soon = deadline_after_ms(20);
    cr_assert_not(compute_pool_wait_idle(pool, &soon), "the running job holds the pool");
    gate_open(&g);
    cr_assert(eventually(&running.ran, 1));
    cr_assert(compute_pool_wait_idle(pool, NULL));
    pool_and_timer_destroy(pool);
}

Test(compute_pool, continuations_skip_the_limits_until_the_pool_halts) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_timer(1, 0);
    test_job busy, piece, after_halt;
    job_init(&busy, pool, &g, true);
    compute_pool_submit(pool, &busy.job);
    cr_assert(eventually(&busy.started, 2));
    job_init(&piece, pool, NULL, false);
    cr_assert(compute_pool_continue(pool, &piece.job));
    cr_assert(eventually(&piece.ran, 1), "the express thread takes continuations when it has no new job");
    cr_assert_eq(piece.lane, COMPUTE_CONTINUATION);
    compute_pool_halt(pool);
    job_init(&after_halt, pool, NULL, false);
    cr_assert_not(compute_pool_continue(pool, &after_halt.job));
    gate_open(&g);
    cr_assert(compute_pool_wait_idle(pool, NULL));
    pool_and_timer_destroy(pool);
}

/* ---- sub-tasks (the pool's executor) ---- */

typedef struct test_task {
    gate *gate; /* NULL: the task ends at once */
    atomic_int started, ran;
    pthread_t thread;
} test_task;

static void run_task(void *arg) {
    test_task *t = arg;
    t->thread = pthread_self();
    atomic_fetch_add(&t->started, 1);
    if (t->gate != NULL) gate_wait(t->gate);
    atomic_fetch_add(&t->ran, 1);
}

/* A pool of `workers` whose executor is installed, as the server does at start-up. */
static compute_pool *pool_with_executor(unsigned workers) {
    compute_pool *pool = pool_with_timer(workers, 4);
    fork_join_install(compute_pool_executor(pool));
    return pool;
}

static void destroy_with_executor(compute_pool *pool) {
    cr_assert(compute_pool_wait_idle(pool, NULL));
    fork_join_install(NULL);
    pool_and_timer_destroy(pool);
}

Test(compute_pool_tasks, an_idle_worker_takes_an_offered_task_and_the_join_waits_for_it) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_executor(2);
    test_task t = {.gate = &g};
    parallel_task task;
    fork_join_offer(&task, run_task, &t);
    cr_assert(eventually(&t.started, 1), "a main worker took the task");
    cr_assert_not(pthread_equal(t.thread, pthread_self()));
    cr_assert_eq(compute_pool_stats_read(pool).busy, 1, "the task holds a main slot");
    gate_open(&g);
    fork_join_join(&task);
    cr_assert_eq(atomic_load(&t.ran), 1, "the join returned after the task ended");
    destroy_with_executor(pool);
}

/* Both main workers are held by jobs: nobody can take the sub-tasks, so the caller runs each at its
 * join, once, and the pool never runs them. */
Test(compute_pool_tasks, on_a_full_pool_every_task_runs_once_on_the_joining_thread) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_executor(2);
    test_job jobs[2];
    for (int i = 0; i < 2; i++) {
        job_init(&jobs[i], pool, &g, true);
        compute_pool_submit(pool, &jobs[i].job);
        cr_assert(eventually(&jobs[i].started, 2), "job %d holds a main worker", i);
    }
    enum { TASKS = 5 };
    test_task t[TASKS] = {0};
    parallel_task tasks[TASKS];
    for (int i = 0; i < TASKS; i++) fork_join_offer(&tasks[i], run_task, &t[i]);
    fork_join_join_all(tasks, TASKS);
    for (int i = 0; i < TASKS; i++) {
        cr_assert_eq(atomic_load(&t[i].ran), 1, "task %d ran once", i);
        cr_assert(pthread_equal(t[i].thread, pthread_self()), "task %d ran on the joining thread", i);
    }
    gate_open(&g);
    destroy_with_executor(pool);
}

/* One task taken and held by a worker, the others withdrawn and run here: each runs once, and the
 * join of all returns only after the held one ended. */
Test(compute_pool_tasks, a_join_of_all_runs_what_nobody_took_and_waits_for_the_rest) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_executor(1);
    enum { TASKS = 4 };
    test_task t[TASKS] = {{.gate = &g}};
    parallel_task tasks[TASKS];
    fork_join_offer(&tasks[0], run_task, &t[0]);
    cr_assert(eventually(&t[0].started, 1), "the one worker took the first task");
    for (int i = 1; i < TASKS; i++) fork_join_offer(&tasks[i], run_task, &t[i]);
    gate_open(&g); /* before the join, which runs the others here */
    fork_join_join_all(tasks, TASKS);
    for (int i = 0; i < TASKS; i++) cr_assert_eq(atomic_load(&t[i].ran), 1, "task %d ran once", i);
    cr_assert_not(pthread_equal(t[0].thread, pthread_self()));
    destroy_with_executor(pool);
}

/* A demoted job waiting for the one main worker is taken before an offered task. */
Test(compute_pool_tasks, waiting_jobs_go_before_offered_tasks) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_executor(1);
    test_job busy, waiting;
    job_init(&busy, pool, &g, true);
    compute_pool_submit(pool, &busy.job);
    cr_assert(eventually(&busy.started, 2));
    job_init(&waiting, pool, NULL, true);
    compute_pool_submit(pool, &waiting.job);
    cr_assert(eventually(&waiting.started, 1), "demoted behind the busy job");
    test_task t = {0};
    parallel_task task;
    fork_join_offer(&task, run_task, &t);
    gate_open(&g);
    cr_assert(eventually(&t.ran, 1), "the worker takes the task after the waiting job");
    cr_assert_eq(atomic_load(&waiting.ran), 1, "the waiting job ran first");
    fork_join_join(&task);
    destroy_with_executor(pool);
}

/* A running task holds its main slot: a demoted job waits until it ends. */
Test(compute_pool_tasks, a_running_task_keeps_a_demoted_job_waiting) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_executor(1);
    test_task t = {.gate = &g};
    parallel_task task;
    fork_join_offer(&task, run_task, &t);
    cr_assert(eventually(&t.started, 1));
    test_job job;
    job_init(&job, pool, NULL, true);
    compute_pool_submit(pool, &job.job);
    cr_assert(eventually(&job.started, 1), "demoted from the express lane");
    compute_pool_stats stats = compute_pool_stats_read(pool);
    cr_assert_eq(stats.busy, 1);
    cr_assert_eq(stats.main_waiting, 1, "no main slot is free while the task runs");
    gate_open(&g);
    fork_join_join(&task);
    cr_assert(eventually(&job.ran, 1));
    destroy_with_executor(pool);
}

/* Two workers: one runs a long job, the other a sub-task. A job arriving then is not refused for its
 * wait: the sub-task's slot is lent, and its worker takes the job before any further sub-task. The
 * job after it would wait for the work of both, over COMPUTE_MAX_WAIT_MS, and is refused. */
Test(compute_pool_tasks, slots_lent_to_sub_tasks_count_as_free_for_admission) {
    gate g;
    gate_init(&g);
    compute_pool *pool = pool_with_executor(2);
    test_job running, arriving, after;
    costly_job_init(&running, pool, &g, 4 * COMPUTE_MAX_WAIT_MS);
    cr_assert_eq(compute_pool_demote(pool, &running.job), COMPUTE_QUEUED);
    cr_assert(eventually(&running.started, 1), "the long job holds a main worker");
    test_task t = {.gate = &g};
    parallel_task task;
    fork_join_offer(&task, run_task, &t);
    cr_assert(eventually(&t.started, 1), "the other worker took the task");
    costly_job_init(&arriving, pool, NULL, COMPUTE_MAX_WAIT_MS);
    costly_job_init(&after, pool, NULL, COMPUTE_MAX_WAIT_MS);
    cr_assert_eq(compute_pool_demote(pool, &arriving.job), COMPUTE_QUEUED, "the lent slot counts as free");
    cr_assert_eq(compute_pool_demote(pool, &after.job), COMPUTE_TOO_LONG_A_WAIT, "behind the work of both");
    gate_open(&g);
    fork_join_join(&task);
    cr_assert(eventually(&arriving.ran, 1));
    destroy_with_executor(pool);
}

/* A binary tree of fork_joins, each level offered to the pool: every leaf runs exactly once. */
typedef struct tree {
    int depth;
    atomic_int *leaves; /* one counter per leaf */
    int first_leaf;
} tree;

static void run_tree(void *arg) {
    tree *t = arg;
    if (t->depth == 0) {
        atomic_fetch_add(&t->leaves[t->first_leaf], 1);
        return;
    }
    tree left = {t->depth - 1, t->leaves, t->first_leaf};
    tree right = {t->depth - 1, t->leaves, t->first_leaf + (1 << (t->depth - 1))};
    fork_join(true, run_tree, &left, run_tree, &right);
}

Test(compute_pool_tasks, nested_fork_joins_run_every_leaf_once) {
    compute_pool *pool = pool_with_executor(2);
    enum { DEPTH = 8 };
    for (int round = 0; round < 20; round++) {
        atomic_int leaves[1 << DEPTH] = {0};
        tree root = {DEPTH, leaves, 0};
        run_tree(&root);
        for (int i = 0; i < 1 << DEPTH; i++) cr_assert_eq(atomic_load(&leaves[i]), 1, "leaf %d of round %d", i, round);
    }
    destroy_with_executor(pool);
}

/* Tasks that stop at a deadline which passes while they run: each still runs once and the join
 * returns, whether a worker took it or not. */
typedef struct polling_task {
    const deadline *dl;
    atomic_int ran;
} polling_task;

static void run_until_deadline(void *arg) {
    polling_task *t = arg;
    struct timespec step = {0, 1000000};
    while (!deadline_expired(t->dl)) nanosleep(&step, NULL);
    atomic_fetch_add(&t->ran, 1);
}

Test(compute_pool_tasks, tasks_stopped_by_their_deadline_all_end_and_join) {
    compute_pool *pool = pool_with_executor(2);
    deadline dl = deadline_after_ms(30);
    enum { TASKS = 4 };
    polling_task t[TASKS];
    parallel_task tasks[TASKS];
    for (int i = 0; i < TASKS; i++) {
        t[i] = (polling_task){.dl = &dl};
        fork_join_offer(&tasks[i], run_until_deadline, &t[i]);
    }
    fork_join_join_all(tasks, TASKS);
    for (int i = 0; i < TASKS; i++) cr_assert_eq(atomic_load(&t[i].ran), 1, "task %d ran once", i);
    cr_assert(deadline_expired(&dl));
    destroy_with_executor(pool);
}

/* A job without an estimate, demoted to the main lane of `pool` at once, held by `g` (NULL: not held). */
static void unknown_main_job(test_job *t, compute_pool *pool, gate *g) {
    job_init(t, pool, g, false);
    t->job.cost_ns = COMPUTE_COST_UNKNOWN;
    cr_assert_eq(compute_pool_demote(pool, &t->job), COMPUTE_QUEUED);
}

Test(compute_pool, a_run_cut_short_leaves_the_lane_mean_alone_and_a_measured_one_moves_it) {
    compute_pool *pool = pool_with_timer(1, NO_COUNT_LIMIT);
    test_job left;
    job_init(&left, pool, NULL, false);
    left.cut_short = true;
    left.sleeps_ms = 50;
    left.job.cost_ns = COMPUTE_COST_UNKNOWN;
    cr_assert_eq(compute_pool_demote(pool, &left.job), COMPUTE_QUEUED);
    cr_assert(eventually(&left.ran, 1));
    cr_assert(compute_pool_wait_idle(pool, NULL));
    cr_assert_eq(compute_pool_stats_read(pool).main_mean_seconds, 0, "a run whose client left is not counted");
    test_job measured;
    job_init(&measured, pool, NULL, false);
    measured.sleeps_ms = 8;
    measured.job.cost_ns = COMPUTE_COST_UNKNOWN;
    cr_assert_eq(compute_pool_demote(pool, &measured.job), COMPUTE_QUEUED);
    cr_assert(eventually(&measured.ran, 1));
    cr_assert(compute_pool_wait_idle(pool, NULL));
    /* at least 8 ms, an eighth of the way from 0 */
    cr_assert_geq(compute_pool_stats_read(pool).main_mean_seconds, 0.001);
    pool_and_timer_destroy(pool);
}

/* Long measured runs raise the mean past COMPUTE_UNKNOWN_CHARGE_MS; a job without an estimate is still
 * charged that at most, so as many wait as fill the longest wait at that charge, and no fewer. */
Test(compute_pool, the_charge_of_a_job_without_an_estimate_is_capped) {
    enum { UNKNOWN_PER_WAIT = COMPUTE_MAX_WAIT_MS / COMPUTE_UNKNOWN_CHARGE_MS };
    compute_pool *pool = pool_with_timer(1, NO_COUNT_LIMIT);
    test_job slow;
    job_init(&slow, pool, NULL, false);
    slow.sleeps_ms = COMPUTE_UNKNOWN_CHARGE_MS * 9; /* the mean moves an eighth of the way: past the cap */
    slow.job.cost_ns = COMPUTE_COST_UNKNOWN;
    cr_assert_eq(compute_pool_demote(pool, &slow.job), COMPUTE_QUEUED);
    cr_assert(eventually(&slow.ran, 1));
    cr_assert(compute_pool_wait_idle(pool, NULL));
    cr_assert_gt(compute_pool_stats_read(pool).main_mean_seconds, COMPUTE_UNKNOWN_CHARGE_MS / 1e3);
    gate g;
    gate_init(&g);
    static test_job jobs[UNKNOWN_PER_WAIT + 1];
    unknown_main_job(&jobs[0], pool, &g); /* on the one worker */
    cr_assert(eventually(&jobs[0].started, 1));
    for (int i = 1; i < UNKNOWN_PER_WAIT; i++) unknown_main_job(&jobs[i], pool, &g); /* each waits i x the cap */
    cr_assert_float_eq(compute_pool_stats_read(pool).main_wait_seconds, COMPUTE_MAX_WAIT_MS / 1e3, 1e-9);
    test_job refused;
    job_init(&refused, pool, &g, false);
    refused.job.cost_ns = COMPUTE_COST_UNKNOWN;
    unknown_main_job(&jobs[UNKNOWN_PER_WAIT], pool, &g); /* waits exactly the longest wait: admitted */
    cr_assert_eq(compute_pool_demote(pool, &refused.job), COMPUTE_TOO_LONG_A_WAIT);
    gate_open(&g);
    for (int i = 0; i <= UNKNOWN_PER_WAIT; i++) cr_assert(eventually(&jobs[i].ran, 1));
    cr_assert(compute_pool_wait_idle(pool, NULL));
    pool_and_timer_destroy(pool);
}
