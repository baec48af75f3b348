/* The compute pool (see compute_pool.h). One mutex guards the four queues, the slot counts and the
 * state of every offered sub-task. Main workers wait on `work`, a join on `task_ended`, the express
 * thread on `express_work`, and compute_pool_wait_idle() on `idle`. The pool's entry in the server's
 * timer (`expiry`, always armed: for the earliest deadline of a waiting job, or never) takes out the
 * jobs whose deadline passed; the queues are short (queue_limit each, plus at most one continuation
 * per open stream), so it scans them whole. Its place in the lock order: server/README.md#locks. */
#include "server/compute_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/common/monotonic.h"
#include "server/thread_safety.h"

typedef struct job_queue {
    compute_job *head, *tail;
    unsigned length;
    int64_t waiting_ns; /* the charges of the jobs waiting in it */
    int64_t running_ns; /* the charges of the jobs taken from it that still run */
    int64_t mean_ns;    /* the measured run time of its jobs, a moving mean (MEAN_WEIGHT) */
} job_queue;

/* Each run moves its lane's mean run time 1/MEAN_WEIGHT of the way to its own. */
#define MEAN_WEIGHT 8
/* The limits of admission in nanoseconds: the longest wait a job is admitted to (compute_pool.h), and
 * what one express job is charged at most (it is demoted after its slice). */
#define MAX_WAIT_NS ((int64_t)COMPUTE_MAX_WAIT_MS * 1000000)
#define EXPRESS_SLICE_NS ((int64_t)COMPUTE_EXPRESS_SLICE_MS * 1000000)
/* The most a main-lane job is charged, an hour: a hopeless count's estimate runs to years (it is refused
 * 422 where it runs). A lane's sums of charges then stay inside int64_t: --queue's most (a million)
 * waiting jobs plus the running ones at an hour each is under 4e18 ns. */
#define MOST_CHARGE_NS ((int64_t)3600 * 1000000000)
#define UNKNOWN_CHARGE_NS ((int64_t)COMPUTE_UNKNOWN_CHARGE_MS * 1000000)

/* Sub-tasks offered by running jobs (core/common/fork_join.h), oldest first. */
typedef struct task_queue {
    parallel_task *head, *tail;
} task_queue;

/* A sub-task's state (parallel_task.state), under the pool's lock; it only moves forward. */
enum { TASK_OFFERED, TASK_TAKEN, TASK_ENDED };

struct compute_pool {
    mutex lock;
    pthread_cond_t work;         /* main lane: a job was queued or slots came free */
    pthread_cond_t express_work; /* express lane: a job was queued */
    pthread_cond_t idle;         /* a job finished */
    pthread_cond_t task_ended;   /* a taken sub-task ended */
    job_queue express, main, continuations;
    task_queue tasks;
    parallel_executor executor; /* offers go to `tasks` */
    unsigned workers, queue_limit;
    unsigned busy;          /* main slots in use: running jobs and sub-tasks */
    unsigned tasks_running; /* of those, the sub-tasks: each slot is free again when its sub-task ends */
    bool express_busy;
    unsigned continuations_running;
    unsigned refusing; /* jobs taken out of a queue whose refuse callback has not returned */
    bool admitting;
    bool halted; /* not even continuations are taken */
    bool shutting_down;
    uint64_t rejected[COMPUTE_STOPPED + 1], expired; /* by compute_admission */
    uint64_t waited[COMPUTE_WAIT_BUCKETS + 1];
    double waited_seconds;
    pthread_t *threads;
    unsigned started;
    pthread_t express_thread;
    bool express_started;
    timer *timer;
    timer_entry expiry;    /* armed for the earliest deadline of a waiting job */
    atomic_bool accepting; /* what compute_pool_accepting() says, published as the lock is let go */
};

static void push_back(job_queue *queue, compute_job *job) {
    job->next = NULL;
    queue->waiting_ns += job->charge_ns;
    if (queue->tail != NULL) queue->tail->next = job;
    else queue->head = job;
    queue->tail = job;
    queue->length++;
}

static compute_job *pop_front(job_queue *queue) {
    compute_job *job = queue->head;
    queue->head = job->next;
    if (queue->head == NULL) queue->tail = NULL;
    queue->length--;
    queue->waiting_ns -= job->charge_ns;
    job->next = NULL;
    return job;
}

static unsigned express_idle(const compute_pool *pool) REQUIRES(pool->lock) { return pool->express_busy ? 0u : 1u; }

/* Main slots a waiting job can count on at once: the idle ones and those lent to sub-tasks, since a
 * worker takes a waiting job before any further sub-task (main_has_work) and sub-tasks are short. */
static unsigned main_idle(const compute_pool *pool) REQUIRES(pool->lock) {
    unsigned held_by_jobs = pool->busy - pool->tasks_running;
    return held_by_jobs < pool->workers ? pool->workers - held_by_jobs : 0;
}

/* Room for one more waiting job: idle threads take jobs at once, and up to queue_limit may wait. */
static bool express_has_room(const compute_pool *pool) REQUIRES(pool->lock) {
    return pool->express.length < express_idle(pool) + pool->queue_limit;
}

static bool main_has_room(const compute_pool *pool) REQUIRES(pool->lock) {
    return pool->main.length < main_idle(pool) + pool->queue_limit;
}

/* What a job will wait in `queue`, served by `threads` threads of which `idle` are idle: nothing when
 * an idle thread takes it, else the work ahead of it shared by the threads. */
static int64_t expected_wait_ns(const job_queue *queue, unsigned threads, unsigned idle) {
    if (queue->length < idle) return 0;
    return (queue->waiting_ns + queue->running_ns) / (int64_t)threads;
}

/* Whether a job can afford `wait_ns`: no wait is always affordable (an idle thread takes it at once, and
 * its own deadline, if already past, is answered where it runs); otherwise a wait of at most what it
 * can afford, the smaller of its time left and COMPUTE_MAX_WAIT_MS. A longer wait is COMPUTE_PAST_ITS_LIMIT
 * when its own time left is the smaller (its limit could not be met: deadline_exceeded), else
 * COMPUTE_TOO_LONG_A_WAIT (the server is overloaded). A job whose deadline expired affords no wait: one
 * whose client left while it ran on the express lane is not queued after the sweep that looked for it
 * (compute_pool_expire_now). */
static compute_admission afford_wait(const compute_job *job, int64_t wait_ns) {
    if (wait_ns == 0) return COMPUTE_QUEUED;
    if (deadline_expired(&job->deadline)) return COMPUTE_PAST_ITS_LIMIT; /* its time is up, or its client left */
    if (job->deadline.at_ns != 0) {
        int64_t left = job->deadline.at_ns - monotonic_now_ns();
        if (left < MAX_WAIT_NS) return wait_ns > left ? COMPUTE_PAST_ITS_LIMIT : COMPUTE_QUEUED;
    }
    return wait_ns > MAX_WAIT_NS ? COMPUTE_TOO_LONG_A_WAIT : COMPUTE_QUEUED;
}

/* Whether new work would be admitted now (compute_pool_accepting). */
static bool accepting_now(const compute_pool *pool) REQUIRES(pool->lock) {
    return pool->admitting && express_has_room(pool) && main_has_room(pool) &&
           expected_wait_ns(&pool->express, 1, express_idle(pool)) <= MAX_WAIT_NS &&
           expected_wait_ns(&pool->main, pool->workers, main_idle(pool)) <= MAX_WAIT_NS;
}

/* Every release of the lock, a wait's included, publishes what compute_pool_accepting() says, so that
 * readiness is read on an I/O thread without the lock. */
static void let_go(compute_pool *pool) RELEASE(pool->lock) {
    atomic_store_explicit(&pool->accepting, accepting_now(pool), memory_order_relaxed);
    mutex_unlock(&pool->lock);
}

static void wait_for(compute_pool *pool, pthread_cond_t *cond) REQUIRES(pool->lock) {
    atomic_store_explicit(&pool->accepting, accepting_now(pool), memory_order_relaxed);
    mutex_wait(cond, &pool->lock);
}

static void wait_for_until(compute_pool *pool, pthread_cond_t *cond, int64_t at_ns) REQUIRES(pool->lock) {
    atomic_store_explicit(&pool->accepting, accepting_now(pool), memory_order_relaxed);
    mutex_wait_until(cond, &pool->lock, at_ns);
}

static bool is_idle(const compute_pool *pool) REQUIRES(pool->lock) {
    return pool->busy == 0 && !pool->express_busy && pool->continuations_running == 0 && pool->refusing == 0 &&
           pool->express.head == NULL && pool->main.head == NULL && pool->continuations.head == NULL;
}

/* Counts the time a job taken from a queue waited (the metrics' histogram). */
static void count_wait(compute_pool *pool, int64_t waited_ns) REQUIRES(pool->lock) {
    static const double bounds[COMPUTE_WAIT_BUCKETS] = COMPUTE_WAIT_BOUNDS;
    double seconds = (double)waited_ns / 1e9;
    size_t bucket = 0;
    while (bucket < COMPUTE_WAIT_BUCKETS && seconds > bounds[bucket]) bucket++;
    pool->waited[bucket]++;
    pool->waited_seconds += seconds;
}

/* Runs a job taken from `from` (NULL: a continuation, not charged), and counts its run in the lane's
 * mean when it measures the job's work. The job's memory may be gone once run returns: what is needed after is read before. */
static void run_job(compute_pool *pool, compute_job *job, compute_lane lane, job_queue *from) REQUIRES(pool->lock) {
    job->lane = lane;
    int64_t charge_ns = job->charge_ns, started_ns = monotonic_now_ns();
    if (from != NULL) {
        from->running_ns += charge_ns;
        count_wait(pool, started_ns - job->queued_ns);
    }
    if (lane == COMPUTE_CONTINUATION) pool->continuations_running++;
    let_go(pool);
    bool measured = job->run(job);
    int64_t ran_ns = monotonic_now_ns() - started_ns;
    mutex_lock(&pool->lock);
    if (from != NULL) {
        from->running_ns -= charge_ns;
        if (measured) from->mean_ns += (ran_ns - from->mean_ns) / MEAN_WEIGHT;
    }
    if (lane == COMPUTE_CONTINUATION) pool->continuations_running--;
    pthread_cond_broadcast(&pool->idle);
}

/* Takes the oldest offered sub-task and runs it in a main slot. */
static void run_task(compute_pool *pool) REQUIRES(pool->lock) {
    parallel_task *task = pool->tasks.head;
    pool->tasks.head = task->next;
    if (pool->tasks.head == NULL) pool->tasks.tail = NULL;
    task->next = NULL;
    task->state = TASK_TAKEN;
    pool->tasks_running++;
    let_go(pool);
    task->run(task->arg);
    mutex_lock(&pool->lock);
    pool->tasks_running--;
    task->state = TASK_ENDED; /* the last touch: the join may return and the task's memory go */
    pthread_cond_broadcast(&pool->task_ended);
}

/* Work for a main worker, most urgent first: continuations of admitted work, demoted jobs, then the
 * sub-tasks of running ones (so a sub-task never holds back a waiting request). */
static bool main_has_work(const compute_pool *pool) REQUIRES(pool->lock) {
    return pool->busy < pool->workers &&
           (pool->continuations.head != NULL || pool->main.head != NULL || pool->tasks.head != NULL);
}

static void *main_worker(void *arg) {
    compute_pool *pool = arg;
    mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->shutting_down && !main_has_work(pool)) wait_for(pool, &pool->work);
        if (pool->shutting_down) break;
        pool->busy++;
        if (pool->continuations.head != NULL)
            run_job(pool, pop_front(&pool->continuations), COMPUTE_CONTINUATION, NULL);
        else if (pool->main.head != NULL) run_job(pool, pop_front(&pool->main), COMPUTE_MAIN, &pool->main);
        else run_task(pool);
        pool->busy--;
        pthread_cond_signal(&pool->work);
    }
    let_go(pool);
    return NULL;
}

static void *express_worker(void *arg) {
    compute_pool *pool = arg;
    mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->shutting_down && pool->express.head == NULL && pool->continuations.head == NULL)
            wait_for(pool, &pool->express_work);
        if (pool->shutting_down) break;
        bool fresh = pool->express.head != NULL;
        compute_job *job = pop_front(fresh ? &pool->express : &pool->continuations);
        pool->express_busy = true;
        run_job(pool, job, fresh ? COMPUTE_EXPRESS : COMPUTE_CONTINUATION, fresh ? &pool->express : NULL);
        pool->express_busy = false;
    }
    let_go(pool);
    return NULL;
}

/* Moves the jobs of `queue` whose deadline has passed (every job, when `all`) onto `refused`, and
 * lowers *next_at_ns to the earliest deadline left (0: none yet). */
static void take_refused(job_queue *queue, bool all, compute_job **refused, int64_t *next_at_ns) {
    compute_job **link = &queue->head;
    queue->tail = NULL;
    while (*link != NULL) {
        compute_job *job = *link;
        if (all || deadline_expired(&job->deadline)) {
            *link = job->next;
            queue->length--;
            queue->waiting_ns -= job->charge_ns;
            job->next = *refused;
            *refused = job;
            continue;
        }
        if (job->deadline.at_ns != 0 && (*next_at_ns == 0 || job->deadline.at_ns < *next_at_ns))
            *next_at_ns = job->deadline.at_ns;
        queue->tail = job;
        link = &job->next;
    }
}

/* Called with the lock held, which it releases while the callbacks run: the jobs count as refusing
 * until theirs have returned, so the pool is not idle before (a refused request resumes its
 * connection in its callback, and the stop must not find it still suspended). */
static void refuse_all(compute_pool *pool, compute_job *list, compute_refusal reason) REQUIRES(pool->lock) {
    unsigned count = 0;
    for (compute_job *job = list; job != NULL; job = job->next) count++;
    pool->refusing += count;
    let_go(pool);
    while (list != NULL) {
        compute_job *next = list->next;
        list->next = NULL;
        list->refuse(list, reason);
        list = next;
    }
    mutex_lock(&pool->lock);
    pool->refusing -= count;
    pthread_cond_broadcast(&pool->idle);
}

/* On the timer thread: refuses the waiting jobs whose deadline passed or was cancelled (their client
 * left: compute_pool_expire_now), and arms the entry for the earliest deadline left. */
static void expire_waiting(timer_entry *entry) {
    compute_pool *pool = (compute_pool *)((char *)entry - offsetof(compute_pool, expiry));
    mutex_lock(&pool->lock);
    int64_t next_at_ns = 0;
    compute_job *expired = NULL;
    take_refused(&pool->express, false, &expired, &next_at_ns);
    take_refused(&pool->main, false, &expired, &next_at_ns);
    timer_arm(pool->timer, &pool->expiry,
              next_at_ns != 0 ? next_at_ns : TIMER_NEVER); /* from its own callback: never fails */
    int64_t now_ns = monotonic_now_ns();
    for (compute_job *job = expired; job != NULL; job = job->next)
        if (job->deadline.at_ns != 0 && job->deadline.at_ns <= now_ns) pool->expired++; /* not a client that left */
    if (expired != NULL) refuse_all(pool, expired, COMPUTE_EXPIRED);
    let_go(pool);
}

static void offer_task(void *owner, parallel_task *task) {
    compute_pool *pool = owner;
    mutex_lock(&pool->lock);
    task->state = TASK_OFFERED;
    task->next = NULL;
    if (pool->tasks.tail != NULL) pool->tasks.tail->next = task;
    else pool->tasks.head = task;
    pool->tasks.tail = task;
    if (pool->busy < pool->workers) pthread_cond_signal(&pool->work);
    let_go(pool);
}

static bool withdraw_task(void *owner, parallel_task *task) {
    compute_pool *pool = owner;
    mutex_lock(&pool->lock);
    bool withdrawn = task->state == TASK_OFFERED;
    if (withdrawn) {
        parallel_task *before = NULL;
        for (parallel_task *at = pool->tasks.head; at != task; at = at->next) before = at;
        if (before != NULL) before->next = task->next;
        else pool->tasks.head = task->next;
        if (pool->tasks.tail == task) pool->tasks.tail = before;
        task->next = NULL;
    }
    let_go(pool);
    return withdrawn;
}

static void wait_task(void *owner, parallel_task *task) {
    compute_pool *pool = owner;
    mutex_lock(&pool->lock);
    while (task->state != TASK_ENDED) wait_for(pool, &pool->task_ended);
    let_go(pool);
}

compute_pool *compute_pool_create(unsigned workers, unsigned queue_limit, timer *expiry) {
    compute_pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL) return NULL;
    mutex_init(&pool->lock);
    atomic_init(&pool->accepting, true);
    pthread_cond_init(&pool->work, NULL);
    pthread_cond_init(&pool->express_work, NULL);
    pthread_cond_init(&pool->idle, NULL);
    pthread_cond_init(&pool->task_ended, NULL);
    pool->executor = (parallel_executor){pool, offer_task, withdraw_task, wait_task};
    pool->timer = expiry;
    timer_entry_init(&pool->expiry, expire_waiting);
    pool->workers = workers;
    pool->queue_limit = queue_limit;
    pool->admitting = true;
    bool ok = false;
    pool->threads = calloc(workers, sizeof *pool->threads);
    if (pool->threads == NULL) goto out;
    while (pool->started < workers && pthread_create(&pool->threads[pool->started], NULL, main_worker, pool) == 0)
        pool->started++;
    pool->express_started = pthread_create(&pool->express_thread, NULL, express_worker, pool) == 0;
    ok = pool->started == workers && pool->express_started && timer_arm(expiry, &pool->expiry, TIMER_NEVER);
out:
    if (!ok) {
        compute_pool_destroy(pool); /* joins the threads that did start */
        pool = NULL;
    }
    return pool;
}

/* Charges the job in `queue` (its estimate, or the lane's mean up to UNKNOWN_CHARGE_NS; at most
 * `most_ns`) and queues it, or refuses it: stopping, a wait longer than it can afford (past its limit,
 * or too long), or the queue at its count (the memory guard). */
static compute_admission admit(compute_pool *pool, compute_job *job, job_queue *queue, unsigned threads, unsigned idle,
                               int64_t most_ns, pthread_cond_t *wake) REQUIRES(pool->lock) {
    int64_t charge_ns = job->cost_ns >= 0                    ? job->cost_ns
                        : queue->mean_ns < UNKNOWN_CHARGE_NS ? queue->mean_ns
                                                             : UNKNOWN_CHARGE_NS;
    job->charge_ns = charge_ns < most_ns ? charge_ns : most_ns;
    job->wait_ns = expected_wait_ns(queue, threads, idle);
    compute_admission admission = !pool->admitting ? COMPUTE_STOPPED : afford_wait(job, job->wait_ns);
    if (admission == COMPUTE_QUEUED && queue->length >= idle + pool->queue_limit) admission = COMPUTE_FULL;
    if (admission == COMPUTE_QUEUED) {
        job->queued_ns = monotonic_now_ns();
        push_back(queue, job);
        pthread_cond_signal(wake);
        if (job->deadline.at_ns != 0)
            timer_arm(pool->timer, &pool->expiry, job->deadline.at_ns); /* armed: no room needed */
    } else {
        pool->rejected[admission]++;
    }
    return admission;
}

compute_admission compute_pool_submit(compute_pool *pool, compute_job *job) {
    mutex_lock(&pool->lock);
    compute_admission admission =
        admit(pool, job, &pool->express, 1, express_idle(pool), EXPRESS_SLICE_NS, &pool->express_work);
    let_go(pool);
    return admission;
}

compute_admission compute_pool_demote(compute_pool *pool, compute_job *job) {
    mutex_lock(&pool->lock);
    compute_admission admission =
        admit(pool, job, &pool->main, pool->workers, main_idle(pool), MOST_CHARGE_NS, &pool->work);
    let_go(pool);
    return admission;
}

bool compute_pool_continue(compute_pool *pool, compute_job *job) {
    mutex_lock(&pool->lock);
    bool taken = !pool->halted;
    if (taken) {
        push_back(&pool->continuations, job);
        pthread_cond_signal(&pool->work);
        pthread_cond_signal(&pool->express_work);
    }
    let_go(pool);
    return taken;
}

/* The expiry is brought forward: take_refused finds a cancelled deadline expired. */
void compute_pool_expire_now(compute_pool *pool) {
    timer_arm(pool->timer, &pool->expiry, monotonic_now_ns()); /* always armed: no room needed */
}

const parallel_executor *compute_pool_executor(compute_pool *pool) { return &pool->executor; }

bool compute_pool_accepting(compute_pool *pool) { return atomic_load_explicit(&pool->accepting, memory_order_relaxed); }

compute_pool_stats compute_pool_stats_read(compute_pool *pool) {
    mutex_lock(&pool->lock);
    compute_pool_stats stats = {
        .workers = pool->workers,
        .busy = pool->busy,
        .express_waiting = pool->express.length,
        .main_waiting = pool->main.length,
        .queue_limit = pool->queue_limit,
        .express_wait_seconds = (double)expected_wait_ns(&pool->express, 1, express_idle(pool)) / 1e9,
        .main_wait_seconds = (double)expected_wait_ns(&pool->main, pool->workers, main_idle(pool)) / 1e9,
        .express_mean_seconds = (double)pool->express.mean_ns / 1e9,
        .main_mean_seconds = (double)pool->main.mean_ns / 1e9,
        .expired = pool->expired,
        .waited_seconds = pool->waited_seconds,
    };
    memcpy(stats.rejected, pool->rejected, sizeof stats.rejected);
    memcpy(stats.waited, pool->waited, sizeof stats.waited);
    let_go(pool);
    return stats;
}

void compute_pool_stop_admitting(compute_pool *pool) {
    mutex_lock(&pool->lock);
    pool->admitting = false;
    int64_t next_at_ns = 0;
    compute_job *waiting = NULL;
    take_refused(&pool->express, true, &waiting, &next_at_ns);
    take_refused(&pool->main, true, &waiting, &next_at_ns);
    refuse_all(pool, waiting, COMPUTE_STOPPING);
    let_go(pool);
}

void compute_pool_halt(compute_pool *pool) {
    mutex_lock(&pool->lock);
    pool->halted = true;
    let_go(pool);
}

bool compute_pool_wait_idle(compute_pool *pool, const deadline *limit) {
    mutex_lock(&pool->lock);
    while (!is_idle(pool) && !deadline_expired(limit)) {
        if (limit == NULL || limit->at_ns == 0) {
            wait_for(pool, &pool->idle);
        } else {
            wait_for_until(pool, &pool->idle, limit->at_ns);
        }
    }
    bool idle = is_idle(pool);
    let_go(pool);
    return idle;
}

void compute_pool_destroy(compute_pool *pool) {
    mutex_lock(&pool->lock);
    pool->shutting_down = true;
    pthread_cond_broadcast(&pool->work);
    pthread_cond_broadcast(&pool->express_work);
    let_go(pool);
    timer_disarm(pool->timer, &pool->expiry);
    for (unsigned i = 0; i < pool->started; i++) pthread_join(pool->threads[i], NULL);
    if (pool->express_started) pthread_join(pool->express_thread, NULL);
    pthread_cond_destroy(&pool->work);
    pthread_cond_destroy(&pool->express_work);
    pthread_cond_destroy(&pool->idle);
    pthread_cond_destroy(&pool->task_ended);
    mutex_destroy(&pool->lock);
    free(pool->threads);
    free(pool);
}
