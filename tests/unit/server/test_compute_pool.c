/* The compute pool (server/compute_pool.c): every admitted job runs or is refused exactly once, the
 * queue limits and the express-then-main order hold, waiting jobs are refused at their deadline and
 * at a stop, and lent slots keep main workers parked. Jobs block on a gate the test opens, so what
 * is running and what is waiting is known at every step; waits are bounded by a generous deadline
 * and never measured. */
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
    bool demote; /* from the express lane, go on to the main lane */
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

static void run(compute_job *job) {
    test_job *t = (test_job *)job;
    t->lane = job->lane;
    atomic_fetch_add(&t->started, 1);
    if (t->demote && job->lane == COMPUTE_EXPRESS) {
        cr_assert_eq(compute_pool_demote(t->pool, job), COMPUTE_QUEUED);
        return;
    }
    if (t->gate != NULL) gate_wait(t->gate);
    atomic_fetch_add(&t->ran, 1);
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
    cr_assert_eq(compute_pool_borrow(pool, 4), 0, "nothing is lent while jobs wait");
    gate_open(&g);
    for (int i = 0; i < 3; i++) cr_assert(eventually(&jobs[i].ran, 1));
    for (int i = 0; i < 3; i++) cr_assert_eq(jobs[i].lane, COMPUTE_MAIN);
    cr_assert(compute_pool_wait_idle(pool, NULL));
    cr_assert(compute_pool_accepting(pool));
    cr_assert_eq(compute_pool_stats_read(pool).rejected, 1);
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

Test(compute_pool, lent_slots_keep_workers_parked_until_given_back) {
    compute_pool *pool = pool_with_timer(2, 1);
    cr_assert_eq(compute_pool_borrow(pool, 5), 2);
    test_job t;
    job_init(&t, pool, NULL, true);
    cr_assert_eq(compute_pool_submit(pool, &t.job), COMPUTE_QUEUED);
    cr_assert(eventually(&t.started, 1));
    struct timespec pause = {0, 20000000};
    nanosleep(&pause, NULL);
    cr_assert_eq(atomic_load(&t.ran), 0, "no main worker is free while both slots are lent");
    compute_pool_give_back(pool, 2);
    cr_assert(eventually(&t.ran, 1));
    cr_assert(compute_pool_wait_idle(pool, NULL));
    pool_and_timer_destroy(pool);
}
