/* The compute pool: the threads that run every request that computes, so the libmicrohttpd I/O
 * threads only read, validate and write, and stay free for /healthz however long the computations.
 *
 * Two lanes, a two-level feedback queue:
 *  - every new job first waits in the express queue for the one express thread, which gives it a
 *    short slice (COMPUTE_EXPRESS_SLICE_MS). Most requests (a ladder, a rank, a small listing) end
 *    within it, so they are answered in milliseconds however busy the workers are;
 *  - a job that needs more is demoted (its runner calls compute_pool_demote()) to the main queue,
 *    served by `workers` threads, and starts over there with the rest of its time.
 * Admission by waiting time, not by count (in the spirit of CoDel, Nichols and Jacobson, "Controlling
 * Queue Delay", ACM Queue 2012, which judges a queue by the time its items spend in it, not its length;
 * folly's executors/Codel.h, once Wangle's, sheds a server's requests by their queueing delay): a job
 * is charged its estimated work (compute_job.cost_ns, from api_endpoint.estimate_seconds), or, without
 * one, the measured mean run time of its lane's jobs; on the express lane at most the slice. A new or
 * demoted job waits for about (the charges of the jobs waiting and running in its lane) / (the lane's
 * threads), or nothing when a thread of the lane is idle; submit and demote refuse it at once
 * when that wait is over what it can afford, the smaller of its time left and COMPUTE_MAX_WAIT_MS:
 * COMPUTE_PAST_ITS_LIMIT when its time left is the smaller (the caller answers 503 "deadline_exceeded",
 * as the timer would at the deadline: waiting counts), else COMPUTE_TOO_LONG_A_WAIT (503 "overloaded"
 * with Retry-After from the predicted wait). No wait (an idle thread) is always affordable. A burst
 * of cheap jobs is admitted however many come; a flood of long ones is refused at once, and those
 * admitted start in time. The lane's mean, charged to jobs without an estimate, counts only the runs
 * that measure their work (a run cut short because its client left or the stop cancelled it does not),
 * and is charged at most COMPUTE_UNKNOWN_CHARGE_MS. `queue_limit` (--queue) bounds the count of waiting
 * jobs in each lane beyond what idle threads take at once (COMPUTE_FULL) only as a memory guard: its
 * default is set so high that the waiting time decides. A waiting job that
 * reaches its deadline is taken out by the server's timer (server/timer.h) and refused without running, so a
 * request's time limit counts from its arrival, not from when a thread got free; so is a waiting job whose
 * deadline is cancelled (its client left), at once when compute_pool_expire_now() is called, so that work
 * nobody waits for no longer counts in its lane's wait and refuses nobody. Continuations of
 * admitted work (the next piece of a stream) skip the limits: main workers take them first, and the
 * express thread takes them when it has no new job.
 *
 * The pool also runs the sub-tasks that running jobs offer (core/common/fork_join.h, through
 * compute_pool_executor()): an idle main worker takes the oldest when no continuation or demoted job
 * waits, in a main slot like a job, so requests never keep more than `workers` main threads (plus
 * the express thread) busy; a sub-task nobody takes is run by the job that offered it, at its join.
 * These are the only threads that compute: no thread is created per request.
 *
 * The server's threads, a fixed number (tests/concurrency/run.py samples /proc/PID/task under a mixed
 * load and asserts it): main (waits for the stop signals) + --threads libmicrohttpd I/O threads + 1
 * for the admin daemon when --admin-port is set + --workers main workers + the express thread + the
 * server's timer thread (server/timer.h: queue expiry, progress ticks, client-gone checks). With
 * --threads 2 --workers 2 and no admin port: 7.
 *
 * Job callbacks run on pool threads; they must not block on anything but their own computation. */
#ifndef PUZZLED_SERVER_COMPUTE_POOL_H
#define PUZZLED_SERVER_COMPUTE_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/fork_join.h"
#include "server/timer.h"

/* The express thread's slice for a new job before it is demoted to the main queue. */
#define COMPUTE_EXPRESS_SLICE_MS 20
/* The target: the longest predicted wait in a queue a job is admitted to, whatever its time limit; the
 * shortest a client refused at once is told to wait before retrying (Retry-After: 1 s), so that waiting
 * in the queue is never worse than a retry. */
#define COMPUTE_MAX_WAIT_MS 1000
/* The most a job without an estimate is charged, whatever its lane's mean: a tenth of the longest wait,
 * so that ten of them per thread are ahead before one is refused, and a few long runs that raised the
 * mean cannot refuse newcomers while the threads are merely busy. */
#define COMPUTE_UNKNOWN_CHARGE_MS 100
/* compute_job.cost_ns of a job whose work is not estimated. */
#define COMPUTE_COST_UNKNOWN (-1)

typedef enum compute_lane {
    COMPUTE_EXPRESS,      /* a new job's first slice, on the express thread */
    COMPUTE_MAIN,         /* a demoted job, on a main worker */
    COMPUTE_CONTINUATION, /* the next piece of admitted work, on either */
} compute_lane;

typedef enum compute_refusal {
    COMPUTE_EXPIRED,  /* its deadline passed, or was cancelled (its client left), while it waited */
    COMPUTE_STOPPING, /* the pool stopped admitting while the job waited */
} compute_refusal;

typedef struct compute_job compute_job;
struct compute_job {
    /* On a pool thread; job->lane says which. Returns whether its run time measures its work (false when
     * it was cut short: its client left, or the stop cancelled it), so that the lane's mean leaves it out. */
    bool (*run)(compute_job *job);
    void (*refuse)(compute_job *job, compute_refusal reason); /* instead of run; on the timer thread */
    deadline deadline; /* a waiting new or demoted job is refused at this point (at_ns 0: never) */
    int64_t cost_ns;   /* its estimated work on one thread, or COMPUTE_COST_UNKNOWN */
    compute_lane lane; /* set by the pool */
    int64_t charge_ns; /* set by the pool: what it counts for the job in its lane's waiting time */
    int64_t wait_ns;   /* set by the pool at admission: the wait it predicted (Retry-After when refused) */
    int64_t queued_ns; /* set by the pool: when it was queued (core/common/monotonic.h) */
    compute_job *next; /* the pool's queues */
};

typedef struct compute_pool compute_pool;

typedef enum compute_admission {
    COMPUTE_QUEUED,          /* the job will run (or be refused through its callback) */
    COMPUTE_PAST_ITS_LIMIT,  /* its own time limit would run out while it waits: answer 503 deadline_exceeded */
    COMPUTE_TOO_LONG_A_WAIT, /* it would wait over COMPUTE_MAX_WAIT_MS: answer 503 overloaded */
    COMPUTE_FULL,            /* the queue holds --queue jobs: answer 503 overloaded */
    COMPUTE_STOPPED,         /* the pool no longer admits new jobs (the server is stopping) */
} compute_admission;

/* Upper bounds, in seconds, of the buckets of the time jobs waited in a queue (the metrics' histogram). */
#define COMPUTE_WAIT_BOUNDS \
    { 0.0001, 0.001, 0.005, 0.02, 0.1, 0.25, 0.5, 1, 2.5 }
enum { COMPUTE_WAIT_BUCKETS = 9 };

typedef struct compute_pool_stats {
    unsigned workers; /* main worker threads */
    unsigned busy;    /* main slots in use: running jobs and sub-tasks */
    unsigned express_waiting, main_waiting;
    unsigned queue_limit;
    double express_wait_seconds, main_wait_seconds; /* what a new job would wait in each lane now */
    double express_mean_seconds, main_mean_seconds; /* each lane's measured mean run time */
    uint64_t rejected[COMPUTE_STOPPED + 1];         /* submits and demotions refused, by reason, since start */
    uint64_t expired;                               /* waiting jobs refused at their deadline, since start
                                                  (not those whose client left) */
    uint64_t waited[COMPUTE_WAIT_BUCKETS + 1];      /* jobs that left a queue to run, by time waited (not
                                                  cumulative; the last: above every bound) */
    double waited_seconds;                          /* their time waited, in all */
} compute_pool_stats;

/* Starts `workers` main threads and the express thread; waiting jobs expire on `expiry`'s thread.
 * NULL when threads or memory cannot be had. */
compute_pool *compute_pool_create(unsigned workers, unsigned queue_limit, timer *expiry);

/* Queues new work for the express lane. */
compute_admission compute_pool_submit(compute_pool *pool, compute_job *job);

/* From the express lane's run callback: queues the job for the main lane. */
compute_admission compute_pool_demote(compute_pool *pool, compute_job *job);

/* Queues the continuation of admitted work ahead of new work, whatever the queues hold; false
 * (nothing queued) only once the pool is halted. */
bool compute_pool_continue(compute_pool *pool, compute_job *job);

/* Refuses now, not at the earliest deadline, every waiting job whose deadline has expired: one the
 * caller just cancelled (its client left) included. From any thread: the refusals (COMPUTE_EXPIRED)
 * run on the timer's thread. */
void compute_pool_expire_now(compute_pool *pool);

/* The executor that hands offered sub-tasks to idle main workers (fork_join_install takes it). */
const parallel_executor *compute_pool_executor(compute_pool *pool);

/* True while new work would be admitted: not stopping, both queues below their count, and neither
 * lane's work would keep a new job waiting over COMPUTE_MAX_WAIT_MS (readiness). */
bool compute_pool_accepting(compute_pool *pool);

compute_pool_stats compute_pool_stats_read(compute_pool *pool);

/* Stops admitting new work and refuses every new or demoted job still waiting (COMPUTE_STOPPING);
 * running jobs and continuations go on. */
void compute_pool_stop_admitting(compute_pool *pool);

/* Takes no more jobs of any kind, continuations included (the last step of a stop, so that no
 * connection waits on the pool when the HTTP daemon stops). */
void compute_pool_halt(compute_pool *pool);

/* Waits until nothing runs or waits, or until `limit` passes (NULL: no limit); true when idle. */
bool compute_pool_wait_idle(compute_pool *pool, const deadline *limit);

/* Joins the threads and frees the pool; nothing may be running or waiting. */
void compute_pool_destroy(compute_pool *pool);

#endif
