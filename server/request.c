/* One request's lifecycle in the libmicrohttpd glue (server/http.c starts the daemons that call
 * these): the object's creation at the request line, its references, its state that only moves
 * forward, the suspension of its connection and the wake that resumes it, its end (the access-log
 * line and the metrics), and the one free. What happens to a request in each state is in the other
 * server/request_*.c files (server/request_internal.h lists them); the picture of the whole life, with
 * who holds a reference in each state, is server/README.md.
 *
 * Keep-alive: the answer is queued only after the headers (and body) are read, never on the first
 * call, or libmicrohttpd closes the connection after answering. */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/common/monotonic.h"
#include "server/access_log.h"
#include "server/alloc_failure.h"
#include "server/metrics.h"
#include "server/request_internal.h"
#include "server/suspension.h"

/* http_request_begin zeroes the object up to its api_request alone. */
_Static_assert(offsetof(request_context, req) + sizeof(api_request) + _Alignof(request_context) >
                   sizeof(request_context),
               "the api_request is the request object's last member");

/* Called by libmicrohttpd as soon as a request line is read: the context lives until the last
 * reference goes. */
void *http_request_begin(void *cls, const char *uri, struct MHD_Connection *connection) {
    const listener *side = cls;
    http_server *server = side->server;
    request_context *ctx = malloc(sizeof *ctx);
    if (ctx == NULL) return NULL;
    /* all but the api_request, the last member, whose error's text is written before it is read */
    memset(ctx, 0, offsetof(request_context, req));
    api_request_init(&ctx->req);
    ctx->server = server;
    ctx->admin = side->admin;
    ctx->connection = connection;
    ctx->started_ns = monotonic_now_ns();
    pthread_mutex_init(&ctx->lock, NULL);
    ctx->refs = 1; /* libmicrohttpd's, until http_request_end */
    ctx->state = REQUEST_ARRIVING;
    atomic_init(&ctx->client_gone, false);
    bb_init(&ctx->body);
    ctx->res = (api_response){.status = 200, .content_type = "application/json"};
    bb_init(&ctx->res.body);
    ctx->target_too_long = strlen(uri) > server->config->max_url;
    gauge_add(&server->requests_open);
    metrics_request_began();
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT,
                              http_whole_seconds(server->config->request_timeout_ms));
    return ctx;
}

/* Frees what the request held, once no reference is left. */
static void request_free(request_context *ctx) {
    http_server *server = ctx->server;
    share_give_back(ctx);
    event_stream_free(ctx->events);
    stream_free(ctx->stream);
    if (ctx->res.stream_state != NULL) ctx->res.stream_free(ctx->res.stream_state);
    bb_free(&ctx->res.body);
    cJSON_Delete(ctx->req.params);
    bb_free(&ctx->body);
    pthread_mutex_destroy(&ctx->lock);
    bool fails_allocation = ctx->fails_allocation;
    free(ctx);
    gauge_sub(&server->requests_open);
    if (fails_allocation) alloc_failure_report();
}

double request_elapsed_ms(const request_context *ctx) { return (double)(monotonic_now_ns() - ctx->started_ns) / 1e6; }

/* The request is the capability (server/thread_safety.h): its lock is these two functions' alone. */
void request_lock(request_context *ctx) NO_THREAD_SAFETY_ANALYSIS { pthread_mutex_lock(&ctx->lock); }

void request_unlock(request_context *ctx) NO_THREAD_SAFETY_ANALYSIS { pthread_mutex_unlock(&ctx->lock); }

request_state request_state_of(const request_context *ctx) { return ctx->state; }

void request_move(request_context *ctx, request_state to) {
    assert(to > ctx->state);
    ctx->state = to;
}

void request_hold(request_context *ctx) { ctx->refs++; }

void request_release(request_context *ctx) {
    request_lock(ctx);
    bool last = --ctx->refs == 0;
    request_unlock(ctx);
    if (last) request_free(ctx);
}

/* Under the lock: something the suspended connection waits for has come. */
static bool something_due(request_context *ctx) REQUIRES(ctx) {
    if (ctx->state == REQUEST_COMPUTED) return true;
    if (ctx->events != NULL) return event_stream_due(ctx->events, ctx->state);
    if (ctx->stream != NULL) return ctx->state == REQUEST_ANSWERING && stream_due(ctx->stream);
    return false;
}

void request_suspend(request_context *ctx) {
    ctx->suspended = true;
    suspension_suspend(ctx->connection);
}

void request_wake(request_context *ctx) {
    if (!ctx->suspended || !something_due(ctx)) return;
    ctx->suspended = false;
    suspension_resume(ctx->connection);
}

/* libmicrohttpd's access handler, called for each piece of the request as it arrives, and again
 * each time its suspended connection is resumed. */
enum MHD_Result http_request_handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                    const char *version, const char *upload_data, size_t *upload_data_size,
                                    void **con_cls) {
    (void)cls;
    (void)connection;
    request_context *ctx = *con_cls;
    if (ctx == NULL) return MHD_NO;
    /* Resumed while the job runs (a followed computation that began, or whose client left), or
     * called again before anything is due: nothing due is checked, and the connection suspended,
     * under the lock the job's completion takes, so its wake-up is not lost. */
    if (ctx->job.run != NULL) lifecycle_hook_pause(ctx->pause_at, LIFECYCLE_RESUMED); /* submitted: called again */
    request_lock(ctx);
    request_state state = ctx->state;
    bool waits = state == REQUEST_COMPUTING && !something_due(ctx);
    if (waits) request_suspend(ctx);
    request_unlock(ctx);
    if (waits) return MHD_YES;
    if (state == REQUEST_COMPUTING) return event_stream_abandoned(ctx->events) ? MHD_NO : answer_event_stream(ctx);
    if (state == REQUEST_COMPUTED) return atomic_load(&ctx->client_gone) ? MHD_NO : answer_result(ctx);
    if (state != REQUEST_ARRIVING) return MHD_YES;
    return dispatch_arriving(ctx, url, method, version, upload_data, upload_data_size);
}

/* The access log's word for how the request ended. */
static const char *outcome_of(const request_context *ctx, enum MHD_RequestTerminationCode termination) {
    static const char *const outcomes[] = {
        [MHD_REQUEST_TERMINATED_COMPLETED_OK] = "ok",
        [MHD_REQUEST_TERMINATED_WITH_ERROR] = "aborted", /* the client left mid-answer, or a stream failed */
        [MHD_REQUEST_TERMINATED_TIMEOUT_REACHED] = "timeout",
        [MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN] = "shutdown",
        [MHD_REQUEST_TERMINATED_READ_ERROR] = "client-gone",
        [MHD_REQUEST_TERMINATED_CLIENT_ABORT] = "client-gone",
    };
    if (atomic_load(&ctx->client_gone)) return "client-gone"; /* closed by its client watch */
    bool known = (size_t)termination < sizeof outcomes / sizeof outcomes[0] && outcomes[termination] != NULL;
    return known ? outcomes[termination] : "error";
}

/* libmicrohttpd completed the request, or dropped it (the client left, a timeout), in whatever state
 * it was: its access-log line and metrics, REQUEST_ENDED, and libmicrohttpd's reference goes. */
void http_request_end(void *cls, struct MHD_Connection *connection, void **con_cls,
                      enum MHD_RequestTerminationCode termination) {
    (void)cls;
    (void)connection;
    request_context *ctx = *con_cls;
    if (ctx == NULL) return;
    double ms = request_elapsed_ms(ctx);
    if (strcmp(ctx->method, "HEAD") == 0) ctx->bytes_sent = 0; /* the headers alone went out */
    if (ctx->method[0] != '\0') {
        access_entry entry = {ctx->request_id, ctx->client,     ctx->method, ctx->path,
                              ctx->status,     ctx->bytes_sent, ms,          outcome_of(ctx, termination)};
        access_log_write(&entry);
    }
    request_record record = {
        .route = ctx->route,
        .method = ctx->method,
        .status = ctx->status,
        .seconds = ms / 1e3,
        .bytes = ctx->bytes_sent,
        .streamed = ctx->streamed,
        .aborted = termination != MHD_REQUEST_TERMINATED_COMPLETED_OK,
        .deadline_exceeded = ctx->answered_deadline && ctx->status == 503,
    };
    metrics_request_ended(&record);
    *con_cls = NULL;
    request_lock(ctx);
    /* a followed computation not done is abandoned: a running one stops at its next deadline poll, a
     * waiting one leaves its queue (and its lane's wait) at once */
    if (ctx->events != NULL && ctx->state < REQUEST_COMPUTED) {
        progress_abandon(event_stream_progress(ctx->events));
        compute_pool_expire_now(ctx->server->pool);
    }
    request_move(ctx, REQUEST_ENDED);
    /* An answer sent whole ends its computation: the client's share goes back now, not when a client
     * watch's last tick lets the request go. Any other end keeps it until the work has stopped. */
    bool share_back = termination == MHD_REQUEST_TERMINATED_COMPLETED_OK;
    request_unlock(ctx);
    if (share_back) share_give_back(ctx);
    request_release(ctx); /* libmicrohttpd's: the job and the producers may still hold theirs */
}
