/* The pool's refusals of a request (server/compute_pool.h: admission by predicted waiting time),
 * written as the 503 its client gets: "deadline_exceeded" when its own time limit would run out while
 * it waits, "overloaded" otherwise; and the Retry-After of every answer that refuses a request for
 * now (a refusal by the pool, a client over its rate, a server not ready). */
#include "server/request_internal.h"

/* What a refused request is told to wait before retrying (Retry-After, seconds), unless the pool
 * predicted its wait: then that wait rounded up, at most RETRY_AFTER_MOST_SECONDS (a wait predicted from
 * charges of up to an hour each is no better a guess past a minute). */
#define RETRY_AFTER_SECONDS 1u
#define RETRY_AFTER_MOST_SECONDS 60u

/* The Retry-After of a refusal for the wait the pool predicted (compute_job.wait_ns). */
static unsigned retry_after_wait(int64_t wait_ns) {
    int64_t seconds = (wait_ns + 999999999) / 1000000000;
    return seconds < RETRY_AFTER_SECONDS        ? RETRY_AFTER_SECONDS
           : seconds > RETRY_AFTER_MOST_SECONDS ? RETRY_AFTER_MOST_SECONDS
                                                : (unsigned)seconds;
}

void admission_refuse(request_context *ctx, compute_admission admission) {
    const puzzled_config *config = ctx->server->config;
    if (admission == COMPUTE_TOO_LONG_A_WAIT || admission == COMPUTE_FULL)
        ctx->retry_after_s = retry_after_wait(ctx->job.wait_ns);
    if (admission == COMPUTE_PAST_ITS_LIMIT) {
        api_fail_deadline(&ctx->req);
    } else if (admission == COMPUTE_STOPPED) {
        api_fail(&ctx->req, API_OVERLOADED, NULL, "the server is stopping; retry, another replica will answer");
    } else if (admission == COMPUTE_TOO_LONG_A_WAIT) {
        api_fail(&ctx->req, API_OVERLOADED, NULL,
                 "the work already waiting for the server's %u workers would keep this request waiting about "
                 "%.1f s, over its %d ms target; retry after %u s",
                 config->workers, (double)ctx->job.wait_ns / 1e9, COMPUTE_MAX_WAIT_MS, ctx->retry_after_s);
    } else {
        api_fail(&ctx->req, API_OVERLOADED, NULL,
                 "%u requests already wait for the server's %u workers, the most its memory guard holds (the "
                 "server's --queue); retry after %u s",
                 config->queue, config->workers, ctx->retry_after_s);
    }
    ctx->answered_ok = false;
}

unsigned admission_retry_after(const request_context *ctx) {
    return ctx->retry_after_s         ? ctx->retry_after_s
           : ctx->quota.retry_after_s ? ctx->quota.retry_after_s
                                      : RETRY_AFTER_SECONDS;
}
