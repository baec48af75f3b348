/* The compute pool (see compute_pool.h). One mutex guards the four queues, the slot counts and the
 * state of every offered sub-task. Main workers wait on `work`, a join on `task_ended`, the express
 * thread on `express_work`, and compute_pool_wait_idle() on `idle`. The pool's entry in the server's
 * timer (`expiry`, always armed: for the earliest deadline of a waiting job, or never) takes out the
 * jobs whose deadline passed; the queues are short (queue_limit each, plus at most one continuation
 * per open stream), so it scans them whole. Lock order: the pool's, then the timer's. */
#include "server/compute_pool.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

typedef struct job_queue {
    compute_job *head, *tail;
    unsigned length;
} job_queue;

/* Sub-tasks offered by running jobs (core/common/fork_join.h), oldest first. */
typedef struct task_queue {
    parallel_task *head, *tail;
} task_queue;

/* A sub-task's state (parallel_task.state), under the pool's lock; it only moves forward. */
enum { TASK_OFFERED, TASK_TAKEN, TASK_ENDED };

struct compute_pool {
    pthread_mutex_t lock;
    pthread_cond_t work;         /* main lane: a job was queued or slots came free */
    pthread_cond_t express_work; /* express lane: a job was queued */
    pthread_cond_t idle;         /* a job finished */
    pthread_cond_t task_ended;   /* a taken sub-task ended */
    job_queue express, main, continuations;
    task_queue tasks;
    parallel_executor executor; /* offers go to `tasks` */
    unsigned workers, queue_limit;
    unsigned busy; /* main slots in use: running jobs and sub-tasks */
    bool express_busy;
    unsigned continuations_running;
    unsigned refusing; /* jobs taken out of a queue whose refuse callback has not returned */
    bool admitting;
    bool halted; /* not even continuations are taken */
    bool shutting_down;
    uint64_t rejected, expired;
    pthread_t *threads;
    unsigned started;
    pthread_t express_thread;
    bool express_started;
    timer *timer;
    timer_entry expiry; /* armed for the earliest deadline of a waiting job */
};

static void init_monotonic_cond(pthread_cond_t *cond) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(cond, &attr);
    pthread_condattr_destroy(&attr);
}

static struct timespec monotonic_time(int64_t at_ns) {
    return (struct timespec){.tv_sec = at_ns / 1000000000, .tv_nsec = at_ns % 1000000000};
}

static void push_back(job_queue *queue, compute_job *job) {
    job->next = NULL;
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
    job->next = NULL;
    return job;
}

/* Room for one more waiting job: idle threads take jobs at once, and up to queue_limit may wait. */
static bool express_has_room(const compute_pool *pool) {
    return pool->express.length < (pool->express_busy ? 0u : 1u) + pool->queue_limit;
}

static bool main_has_room(const compute_pool *pool) {
    unsigned idle = pool->busy < pool->workers ? pool->workers - pool->busy : 0;
    return pool->main.length < idle + pool->queue_limit;
}

static bool is_idle(const compute_pool *pool) {
    return pool->busy == 0 && !pool->express_busy && pool->continuations_running == 0 && pool->refusing == 0 &&
           pool->express.head == NULL && pool->main.head == NULL && pool->continuations.head == NULL;
}

static void run_job(compute_pool *pool, compute_job *job, compute_lane lane) {
    job->lane = lane;
    if (lane == COMPUTE_CONTINUATION) pool->continuations_running++;
    pthread_mutex_unlock(&pool->lock);
    job->run(job);
    pthread_mutex_lock(&pool->lock);
    if (lane == COMPUTE_CONTINUATION) pool->continuations_running--;
    pthread_cond_broadcast(&pool->idle);
}

/* Takes the oldest offered sub-task and runs it in a main slot. */
static void run_task(compute_pool *pool) {
    parallel_task *task = pool->tasks.head;
    pool->tasks.head = task->next;
    if (pool->tasks.head == NULL) pool->tasks.tail = NULL;
    task->next = NULL;
    task->state = TASK_TAKEN;
    pthread_mutex_unlock(&pool->lock);
    task->run(task->arg);
    pthread_mutex_lock(&pool->lock);
    task->state = TASK_ENDED; /* the last touch: the join may return and the task's memory go */
    pthread_cond_broadcast(&pool->task_ended);
}

/* Work for a main worker, most urgent first: continuations of admitted work, demoted jobs, then the
 * sub-tasks of running ones (so a sub-task never holds back a waiting request). */
static bool main_has_work(const compute_pool *pool) {
    return pool->busy < pool->workers &&
           (pool->continuations.head != NULL || pool->main.head != NULL || pool->tasks.head != NULL);
}

static void *main_worker(void *arg) {
    compute_pool *pool = arg;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->shutting_down && !main_has_work(pool)) pthread_cond_wait(&pool->work, &pool->lock);
        if (pool->shutting_down) break;
        pool->busy++;
        if (pool->continuations.head != NULL) run_job(pool, pop_front(&pool->continuations), COMPUTE_CONTINUATION);
        else if (pool->main.head != NULL) run_job(pool, pop_front(&pool->main), COMPUTE_MAIN);
        else run_task(pool);
        pool->busy--;
        pthread_cond_signal(&pool->work);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static void *express_worker(void *arg) {
    compute_pool *pool = arg;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->shutting_down && pool->express.head == NULL && pool->continuations.head == NULL)
            pthread_cond_wait(&pool->express_work, &pool->lock);
        if (pool->shutting_down) break;
        bool fresh = pool->express.head != NULL;
        compute_job *job = pop_front(fresh ? &pool->express : &pool->continuations);
        pool->express_busy = true;
        run_job(pool, job, fresh ? COMPUTE_EXPRESS : COMPUTE_CONTINUATION);
        pool->express_busy = false;
    }
    pthread_mutex_unlock(&pool->lock);
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
static void refuse_all(compute_pool *pool, compute_job *list, compute_refusal reason) {
    unsigned count = 0;
    for (compute_job *job = list; job != NULL; job = job->next) count++;
    pool->refusing += count;
    pthread_mutex_unlock(&pool->lock);
    while (list != NULL) {
        compute_job *next = list->next;
        list->next = NULL;
        list->refuse(list, reason);
        list = next;
    }
    pthread_mutex_lock(&pool->lock);
    pool->refusing -= count;
    pthread_cond_broadcast(&pool->idle);
}

/* On the timer thread: refuses the waiting jobs whose deadline passed, and arms the entry for the
 * earliest deadline left. */
static void expire_waiting(timer_entry *entry) {
    compute_pool *pool = (compute_pool *)((char *)entry - offsetof(compute_pool, expiry));
    pthread_mutex_lock(&pool->lock);
    int64_t next_at_ns = 0;
    compute_job *expired = NULL;
    take_refused(&pool->express, false, &expired, &next_at_ns);
    take_refused(&pool->main, false, &expired, &next_at_ns);
    timer_arm(pool->timer, &pool->expiry, next_at_ns != 0 ? next_at_ns : TIMER_NEVER); /* its own place: room */
    for (compute_job *job = expired; job != NULL; job = job->next) pool->expired++;
    if (expired != NULL) refuse_all(pool, expired, COMPUTE_EXPIRED);
    pthread_mutex_unlock(&pool->lock);
}

static void offer_task(void *owner, parallel_task *task) {
    compute_pool *pool = owner;
    pthread_mutex_lock(&pool->lock);
    task->state = TASK_OFFERED;
    task->next = NULL;
    if (pool->tasks.tail != NULL) pool->tasks.tail->next = task;
    else pool->tasks.head = task;
    pool->tasks.tail = task;
    if (pool->busy < pool->workers) pthread_cond_signal(&pool->work);
    pthread_mutex_unlock(&pool->lock);
}

static bool withdraw_task(void *owner, parallel_task *task) {
    compute_pool *pool = owner;
    pthread_mutex_lock(&pool->lock);
    bool withdrawn = task->state == TASK_OFFERED;
    if (withdrawn) {
        parallel_task *before = NULL;
        for (parallel_task *at = pool->tasks.head; at != task; at = at->next) before = at;
        if (before != NULL) before->next = task->next;
        else pool->tasks.head = task->next;
        if (pool->tasks.tail == task) pool->tasks.tail = before;
        task->next = NULL;
    }
    pthread_mutex_unlock(&pool->lock);
    return withdrawn;
}

static void wait_task(void *owner, parallel_task *task) {
    compute_pool *pool = owner;
    pthread_mutex_lock(&pool->lock);
    while (task->state != TASK_ENDED) pthread_cond_wait(&pool->task_ended, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}

compute_pool *compute_pool_create(unsigned workers, unsigned queue_limit, timer *expiry) {
    compute_pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL) return NULL;
    pthread_mutex_init(&pool->lock, NULL);
    init_monotonic_cond(&pool->work);
    init_monotonic_cond(&pool->express_work);
    init_monotonic_cond(&pool->idle);
    init_monotonic_cond(&pool->task_ended);
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

static compute_admission admit(compute_pool *pool, compute_job *job, job_queue *queue, bool has_room,
                               pthread_cond_t *wake) {
    compute_admission admission = !pool->admitting ? COMPUTE_STOPPED : !has_room ? COMPUTE_FULL : COMPUTE_QUEUED;
    if (admission == COMPUTE_QUEUED) {
        push_back(queue, job);
        pthread_cond_signal(wake);
        if (job->deadline.at_ns != 0)
            timer_arm(pool->timer, &pool->expiry, job->deadline.at_ns); /* armed: no room needed */
    } else {
        pool->rejected++;
    }
    return admission;
}

compute_admission compute_pool_submit(compute_pool *pool, compute_job *job) {
    pthread_mutex_lock(&pool->lock);
    compute_admission admission = admit(pool, job, &pool->express, express_has_room(pool), &pool->express_work);
    pthread_mutex_unlock(&pool->lock);
    return admission;
}

compute_admission compute_pool_demote(compute_pool *pool, compute_job *job) {
    pthread_mutex_lock(&pool->lock);
    compute_admission admission = admit(pool, job, &pool->main, main_has_room(pool), &pool->work);
    pthread_mutex_unlock(&pool->lock);
    return admission;
}

bool compute_pool_continue(compute_pool *pool, compute_job *job) {
    pthread_mutex_lock(&pool->lock);
    bool taken = !pool->halted;
    if (taken) {
        push_back(&pool->continuations, job);
        pthread_cond_signal(&pool->work);
        pthread_cond_signal(&pool->express_work);
    }
    pthread_mutex_unlock(&pool->lock);
    return taken;
}

const parallel_executor *compute_pool_executor(compute_pool *pool) { return &pool->executor; }

bool compute_pool_accepting(compute_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    bool accepting = pool->admitting && express_has_room(pool) && main_has_room(pool);
    pthread_mutex_unlock(&pool->lock);
    return accepting;
}

compute_pool_stats compute_pool_stats_read(compute_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    compute_pool_stats stats = {
        .workers = pool->workers,
        .busy = pool->busy,
        .express_waiting = pool->express.length,
        .main_waiting = pool->main.length,
        .queue_limit = pool->queue_limit,
        .rejected = pool->rejected,
        .expired = pool->expired,
    };
    pthread_mutex_unlock(&pool->lock);
    return stats;
}

void compute_pool_stop_admitting(compute_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    pool->admitting = false;
    int64_t next_at_ns = 0;
    compute_job *waiting = NULL;
    take_refused(&pool->express, true, &waiting, &next_at_ns);
    take_refused(&pool->main, true, &waiting, &next_at_ns);
    refuse_all(pool, waiting, COMPUTE_STOPPING);
    pthread_mutex_unlock(&pool->lock);
}

void compute_pool_halt(compute_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    pool->halted = true;
    pthread_mutex_unlock(&pool->lock);
}

bool compute_pool_wait_idle(compute_pool *pool, const deadline *limit) {
    pthread_mutex_lock(&pool->lock);
    while (!is_idle(pool) && !deadline_expired(limit)) {
        if (limit == NULL || limit->at_ns == 0) {
            pthread_cond_wait(&pool->idle, &pool->lock);
        } else {
            struct timespec at = monotonic_time(limit->at_ns);
            pthread_cond_timedwait(&pool->idle, &pool->lock, &at);
        }
    }
    bool idle = is_idle(pool);
    pthread_mutex_unlock(&pool->lock);
    return idle;
}

void compute_pool_destroy(compute_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    pool->shutting_down = true;
    pthread_cond_broadcast(&pool->work);
    pthread_cond_broadcast(&pool->express_work);
    pthread_mutex_unlock(&pool->lock);
    timer_disarm(pool->timer, &pool->expiry);
    for (unsigned i = 0; i < pool->started; i++) pthread_join(pool->threads[i], NULL);
    if (pool->express_started) pthread_join(pool->express_thread, NULL);
    pthread_cond_destroy(&pool->work);
    pthread_cond_destroy(&pool->express_work);
    pthread_cond_destroy(&pool->idle);
    pthread_cond_destroy(&pool->task_ended);
    pthread_mutex_destroy(&pool->lock);
    free(pool->threads);
    free(pool);
}
