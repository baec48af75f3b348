/* Where a computing request runs, and its job on the compute pool (server/compute_pool.h).
 *
 * Small work (an estimate of at most API_SMALL_WORK_SECONDS) and hopeless work (which its handler
 * refuses 422 before any work) run where they arrived, on the I/O thread, within a slice of their
 * time limit. Everything else becomes a job: the connection is suspended, a worker runs the endpoint,
 * and the job's completion publishes the result and wakes the connection, whose access handler is
 * then called again and queues the answer. A new job gets a slice on the express lane first, and
 * starts over on the main lane with the rest of its time when the slice was not enough; a job that
 * follows its progress, or whose endpoint sees from its fields that it takes long
 * (api_endpoint.long_running), skips the slice, so that its progress or its work never starts over.
 *
 * A client that leaves: libmicrohttpd does not look at a suspended connection, so while a plain
 * request's job waits or runs, the server's timer looks at its socket every CLIENT_WATCH_MS (the
 * client watch; an event stream's tick does the same for a followed computation). A client that
 * closed its end cancels the job: its deadlines expire at once, a waiting job is taken out of its
 * queue (its charge no longer delays or refuses the requests behind it), a running one stops at its
 * next poll, and the connection is closed without an answer. */
#include <stddef.h>

#include "api/cost_estimates.h"
#include "core/common/monotonic.h"
#include "server/metrics.h"
#include "server/request_internal.h"
#include "server/suspension.h"

/* A small request's slice on the I/O thread (api_endpoint.estimate_seconds): what its handler may take
 * there before it stops at its deadline and goes to the pool, starting over with the rest of its time
 * limit. It bounds how long the I/O thread's other connections wait for it. */
#define IO_THREAD_SLICE_MS 1
/* How often the timer looks whether the client of a plain request whose job waits or runs has closed
 * its connection (watch_client): a left client's work stops within this and its next deadline poll. */
#define CLIENT_WATCH_MS 20

/* A followed computation's outcome becomes its stream's last event. */
static void set_last_event(request_context *ctx) {
    if (ctx->answered_ok) event_stream_set_result(ctx->events, &ctx->res.body);
    else event_stream_set_error(ctx->events, &ctx->req.error);
}

/* The job is done (run or refused): its result is published as the request becomes
 * REQUEST_COMPUTED (unless it ended: the client left), the connection is woken, and the job's
 * reference goes, the job's last touch of the request. */
static void complete_job(request_context *ctx) {
    lifecycle_hook_pause(ctx->pause_at, LIFECYCLE_COMPLETE);
    if (ctx->events != NULL) set_last_event(ctx);
    request_lock(ctx);
    if (request_state_of(ctx) < REQUEST_COMPUTED) request_move(ctx, REQUEST_COMPUTED);
    request_wake(ctx);
    request_unlock(ctx);
    request_release(ctx);
}

static void move_to_main_lane(request_context *ctx) {
    compute_admission admission = compute_pool_demote(ctx->server->pool, &ctx->job);
    if (admission == COMPUTE_QUEUED) return;
    admission_refuse(ctx, admission);
    complete_job(ctx);
}

/* Runs the endpoint within a slice of `ms` of the request's time limit. True when the slice was not
 * enough while time is left: the answer is cleared, and the request starts over elsewhere. */
static bool run_slice_outlasted(request_context *ctx, uint64_t ms) {
    api_request *req = &ctx->req;
    req->deadline = deadline_after_ms(ms);
    req->deadline.cancelled = req->time_limit.cancelled;
    req->deadline.abandoned = req->time_limit.abandoned;
    if (req->time_limit.at_ns != 0 && req->time_limit.at_ns < req->deadline.at_ns)
        req->deadline.at_ns = req->time_limit.at_ns;
    endpoint_run(ctx);
    req->deadline = req->time_limit;
    if (ctx->answered_ok || req->error.kind != API_DEADLINE_EXCEEDED || deadline_expired(&req->time_limit))
        return false;
    endpoint_reset_answer(ctx);
    return true;
}

/* Before the job's last touch: its run was cut short (its client left, its follower abandoned it, or
 * the stop cancelled it), so its time says nothing of its work (compute_job.run's result). */
static bool cut_short(request_context *ctx) {
    return atomic_load(&ctx->client_gone) || atomic_load(&ctx->server->cancelled) ||
           (ctx->events != NULL && progress_abandoned(event_stream_progress(ctx->events)));
}

/* The express lane: the endpoint runs with a slice of its time; if the slice was not enough, it goes
 * to the main lane and starts over there with the rest of its time (or is refused: queue full). True
 * when its run measured its work (a whole slice does). */
static bool run_express_slice(request_context *ctx) {
    if (run_slice_outlasted(ctx, COMPUTE_EXPRESS_SLICE_MS)) {
        move_to_main_lane(ctx); /* the job may run, and the request end, at once: nothing after */
        return true;
    }
    bool measured = !cut_short(ctx);
    complete_job(ctx);
    return measured;
}

static bool run_job(compute_job *job) {
    request_context *ctx = (request_context *)job;
    lifecycle_hook_pause(ctx->pause_at, LIFECYCLE_RUNNING);
    if (deadline_expired(&ctx->req.time_limit)) {
        api_fail_deadline(&ctx->req);
        ctx->answered_ok = false;
        complete_job(ctx);
        return false; /* none of its work was done */
    }
    if (job->lane == COMPUTE_EXPRESS && (ctx->events != NULL || ctx->long_running)) {
        move_to_main_lane(ctx); /* its progress must not start over after a slice, nor its work */
        return false;
    }
    if (job->lane == COMPUTE_EXPRESS) return run_express_slice(ctx);
    endpoint_run(ctx);
    bool measured = !cut_short(ctx);
    complete_job(ctx);
    return measured;
}

static void refuse_job(compute_job *job, compute_refusal reason) {
    request_context *ctx = (request_context *)job;
    if (reason == COMPUTE_EXPIRED) {
        api_fail_deadline(&ctx->req);
        ctx->answered_ok = false;
    } else {
        admission_refuse(ctx, COMPUTE_STOPPED);
    }
    complete_job(ctx);
}

/* For Accept: text/event-stream: the stream, and the computation's deadlines carry its progress
 * record. False when out of memory. */
static bool follow_progress(request_context *ctx) {
    event_stream *events = event_stream_create(ctx, ctx->connection, ctx->started_ns, ctx->server->timer);
    if (events == NULL) return false;
    request_lock(ctx); /* its tick may already look at the request */
    ctx->events = events;
    request_unlock(ctx);
    ctx->req.time_limit.progress = event_stream_progress(ctx->events);
    ctx->req.deadline.progress = ctx->req.time_limit.progress;
    return true;
}

/* On the timer thread, every CLIENT_WATCH_MS while a plain request's job waits or runs: a client that
 * closed its connection cancels the job (its deadlines expire at once; the request ends without an
 * answer). Once the job is done, the request ended or the client left, the watch's reference goes, its
 * last touch of the request. */
static void watch_client(timer_entry *entry) {
    request_context *ctx = (request_context *)((char *)entry - offsetof(request_context, watch));
    request_lock(ctx);
    bool watching = request_state_of(ctx) == REQUEST_COMPUTING;
    if (watching && suspension_client_gone(ctx->connection)) {
        atomic_store(&ctx->client_gone, true);
        metrics_client_gone();
        compute_pool_expire_now(ctx->server->pool); /* a waiting job leaves its queue, and its lane's wait */
        watching = false;
    }
    /* from its own callback: never fails (server/timer.h) */
    if (watching) timer_arm(ctx->server->timer, &ctx->watch, monotonic_now_ns() + CLIENT_WATCH_MS * 1000000LL);
    request_unlock(ctx);
    if (!watching) request_release(ctx);
}

/* Under the lock, as a plain request's job is queued: its client watch starts, holding a reference.
 * Without memory for its place in the timer, the request goes unwatched (its work stops at its time
 * limit). */
static void watch_client_start(request_context *ctx) REQUIRES(ctx) {
    timer_entry_init(&ctx->watch, watch_client);
    if (timer_arm(ctx->server->timer, &ctx->watch, monotonic_now_ns() + CLIENT_WATCH_MS * 1000000LL)) request_hold(ctx);
}

/* Queues the request for the pool and suspends its connection, or refuses it at once (503). */
static enum MHD_Result enqueue(request_context *ctx) {
    if (ctx->wants_events && !follow_progress(ctx)) {
        share_give_back(ctx);
        return answer_fail(ctx, API_OUT_OF_MEMORY, NULL, "the server ran out of memory; retry later");
    }
    ctx->job.run = run_job;
    ctx->job.refuse = refuse_job;
    ctx->job.deadline = ctx->req.time_limit;
    /* in nanoseconds, saturated: a hopeless count's estimate can pass int64_t (the pool caps charges) */
    ctx->job.cost_ns = ctx->estimate_seconds < 0                         ? COMPUTE_COST_UNKNOWN
                       : ctx->estimate_seconds * 1e9 < (double)INT64_MAX ? (int64_t)(ctx->estimate_seconds * 1e9)
                                                                         : INT64_MAX;
    /* under the lock the job's completion takes: it cannot wake the connection before it is suspended */
    request_lock(ctx);
    compute_admission admission = compute_pool_submit(ctx->server->pool, &ctx->job);
    if (admission == COMPUTE_QUEUED) {
        request_hold(ctx); /* the job's, until complete_job */
        request_move(ctx, REQUEST_COMPUTING);
        if (ctx->events == NULL) watch_client_start(ctx); /* an event stream's tick watches its client */
        request_suspend(ctx);
        request_unlock(ctx);
        return MHD_YES;
    }
    request_unlock(ctx);
    share_give_back(ctx);
    admission_refuse(ctx, admission);
    if (ctx->events != NULL) set_last_event(ctx);
    request_lock(ctx); /* the refusal is the request's result */
    request_move(ctx, REQUEST_COMPUTED);
    request_unlock(ctx);
    return answer_result(ctx);
}

/* Work answered here on the I/O thread (api_endpoint.estimate_seconds): a small request (at most
 * API_SMALL_WORK_SECONDS), or a hopeless one (over API_HOPELESS_FACTOR times its time limit), which its
 * handler refuses 422 at once before any work (api/cost_estimates.h), whatever the pool's queue holds;
 * unless it follows its progress or pauses for a test (server/lifecycle_hooks.h), or the server is
 * stopping (the pool's 503 then answers it as any other). */
static bool runs_on_io_thread(request_context *ctx) {
    bool small = ctx->estimate_seconds >= 0 && ctx->estimate_seconds <= API_SMALL_WORK_SECONDS;
    bool hopeless = api_estimate_hopeless(ctx->estimate_seconds, api_time_limit_seconds(&ctx->req));
    return (small || hopeless) && !ctx->wants_events && ctx->pause_at == LIFECYCLE_NOWHERE &&
           !atomic_load(&ctx->server->draining);
}

/* Runs a small (or hopeless) request here within IO_THREAD_SLICE_MS of its time limit, sparing the
 * hop to the pool and back (two thread wake-ups, the connection's suspension and resumption); work
 * that outlasts the slice goes to the pool and starts over there with the rest of its time, as the
 * express lane's does. */
enum MHD_Result schedule_compute(request_context *ctx) {
    if (!runs_on_io_thread(ctx)) return enqueue(ctx);
    return run_slice_outlasted(ctx, IO_THREAD_SLICE_MS) ? enqueue(ctx) : answer_result(ctx);
}
