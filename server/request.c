/* One request's life in the libmicrohttpd glue (server/http.c starts the daemons that call these).
 *
 * Threading. libmicrohttpd's I/O threads (--threads, epoll) read each request, route it, parse and
 * type-check its fields, and answer at once whatever is cheap and bounded: errors (400, 404, 405,
 * 413, 414), CORS preflights, conditional GETs that match (304), and the routes marked ON_IO_THREAD
 * (/healthz, /readyz, /openapi.yaml, /metrics), and the requests whose endpoint only sets up a
 * bounded stream (api_endpoint.starts_at_once: queens mode "first" of the construction). Everything
 * else becomes a job on the compute pool (server/compute_pool.h): the connection is suspended, a
 * worker runs the endpoint, and its completion publishes the result and wakes the connection, whose
 * access handler is then called again and queues the answer. The request's lifetime (a reference
 * count, one lock, a state that only moves forward, one wake function) is server/request.h, and its
 * picture server/README.md. A full queue is answered at once with 503 "overloaded" and Retry-After. Streamed
 * answers are produced on the pool too, bounded ones on the I/O thread (server/stream.c).
 *
 * Keep-alive: the answer is queued only after the headers (and body) are read, never on the first
 * call, or MHD closes the connection after answering.
 *
 * Progress: a request with Accept: text/event-stream on a route marked ROUTE_PROGRESS runs the same
 * way, and its answer is an event stream (server/event_stream.h) that the I/O thread starts once the
 * computation has begun; such a job skips the express slice, so that its progress never starts over,
 * as does a job whose endpoint sees from its fields that it takes long (api_endpoint.long_running).
 *
 * A client that leaves: libmicrohttpd does not look at a suspended connection, so while a plain
 * request's job waits or runs, the server's timer looks at its socket every CLIENT_WATCH_MS
 * (watch_client; an event stream's tick does the same for a followed computation). A client that
 * closed its end cancels the job: its deadlines expire at once, the worker stops at its next poll,
 * and the connection is closed without an answer.
 *
 * Slow clients: each connection starts with the short --request-timeout-ms inactivity timeout while
 * its request arrives, and a request that has not fully arrived by then (counted from its first
 * line) is dropped; once the answer is queued the timeout becomes --idle-timeout-ms, for sending and
 * for the idle keep-alive wait. */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <microhttpd.h>

#include "api/cost_estimates.h"
#include "api/fields.h"
#include "api/json_allocation.h"
#include "server/access_log.h"
#include "server/alloc_failure.h"
#include "server/clients.h"
#include "server/compression.h"
#include "server/compute_pool.h"
#include "server/cors.h"
#include "server/etag.h"
#include "server/event_stream.h"
#include "server/http_internal.h"
#include "server/lifecycle_hooks.h"
#include "server/metrics.h"
#include "server/printable.h"
#include "server/request.h"
#include "server/request_id.h"
#include "server/routes.h"
#include "server/static_gzip.h"
#include "server/stream.h"
#include "server/strict_http.h"
#include "server/suspension.h"
#include "server/timer.h"

/* A small request's slice on the I/O thread (api_endpoint.estimate_seconds): what its handler may take
 * there before it stops at its deadline and goes to the pool, starting over with the rest of its time
 * limit. It bounds how long the I/O thread's other connections wait for it. */
#define IO_THREAD_SLICE_MS 1
/* What a refused request is told to wait before retrying (Retry-After, seconds), unless the pool
 * predicted its wait: then that wait rounded up, at most RETRY_AFTER_MOST_SECONDS (a wait predicted from
 * charges of up to an hour each is no better a guess past a minute). */
#define RETRY_AFTER_SECONDS 1u
#define RETRY_AFTER_MOST_SECONDS 60u
/* An announced body over --max-body up to this size is read and dropped before the 413, so that the
 * client, still sending, reads the answer; a larger one is refused at once and the connection closed. */
#define DISCARD_BODY_BYTES ((uint64_t)16 << 20)
/* How often the timer looks whether the client of a plain request whose job waits or runs has closed
 * its connection (watch_client): a left client's work stops within this and its next deadline poll. */
#define CLIENT_WATCH_MS 20
/* The headers a page may read on a cross-origin answer. */
#define EXPOSED_HEADERS "X-Request-Id, Retry-After, ETag, Content-Encoding, RateLimit-Policy, RateLimit"

/* The request object (server/request.h, and its picture in server/README.md). */
struct request_context {
    compute_job job; /* first: the job's address is the context's */
    http_server *server;
    bool admin; /* arrived on the admin listener */
    struct MHD_Connection *connection;
    struct timespec started;
    char method[16];
    char path[256];
    char request_id[REQUEST_ID_MAX_LENGTH + 1];
    char client[CLIENT_ADDRESS_SIZE];
    bool holds_share;     /* counted in the client's computing requests in progress */
    client_quota quota;   /* the client's token bucket once admission looked at it: RateLimit headers */
    bool target_too_long; /* the request line's target is over --max-url: 414 */
    bool body_too_large;  /* more than --max-body arrived; answered 413 at the end */
    byte_buffer body;
    const route *route;
    api_request req;
    api_response res;
    bool answered_ok;          /* the endpoint answered (else req.error says why) */
    coding_preference codings; /* from Accept-Encoding */
    bool compressible;         /* a JSON answer computed on a worker: it may be gzip'd and says Vary */
    bool gzip;                 /* the answer is (a complete body) or will be (a stream) gzip-compressed */
    pthread_mutex_t lock;      /* guards refs, state and suspended, and the producers' shared fields */
    unsigned refs;             /* libmicrohttpd's side, the job, the producers (server/request.h) */
    request_state state;       /* only moves forward */
    bool suspended;            /* the connection waits for request_wake() */
    bool pure;                 /* the answer is a pure function of the request: it gets an ETag */
    char etag[ETAG_SIZE];      /* "" until worked out (for a pure answer) */
    bool streamed;
    bool wants_events;       /* Accept: text/event-stream on a route with progress */
    bool long_running;       /* known from its fields to outlast the express slice: skips it */
    double estimate_seconds; /* its endpoint's estimate of its work (api_endpoint.estimate_seconds); <0: none */
    event_stream *events;    /* with wants_events, from the job's submission on; else NULL */
    stream *stream;          /* a chunked body's producer, once its answer is queued; else NULL */
    bool answered_deadline;  /* the answer queued is a deadline_exceeded error */
    unsigned retry_after_s;  /* a refusal by the pool for its predicted wait: Retry-After; else 0 */
    atomic_bool
        client_gone;   /* its client closed the connection while its job waited or ran: the job's deadlines expire */
    timer_entry watch; /* a plain job's client watch on the server's timer (watch_client) */
    bool fails_allocation;    /* armed the allocation-failure countdown (server/alloc_failure.h) */
    lifecycle_point pause_at; /* test builds: where the request pauses (server/lifecycle_hooks.h) */
    int status;
    uint64_t bytes_sent;
};

static void watch_client(timer_entry *entry);

static double elapsed_ms(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - since->tv_sec) * 1e3 + (double)(now.tv_nsec - since->tv_nsec) / 1e6;
}

/* Called by MHD as soon as a request line is read: the context lives until the request completes. */
void *http_request_begin(void *cls, const char *uri, struct MHD_Connection *connection) {
    const listener *side = cls;
    http_server *server = side->server;
    request_context *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL) return NULL;
    ctx->server = server;
    ctx->admin = side->admin;
    ctx->connection = connection;
    clock_gettime(CLOCK_MONOTONIC, &ctx->started);
    pthread_mutex_init(&ctx->lock, NULL);
    ctx->refs = 1; /* libmicrohttpd's, until http_request_end */
    ctx->state = REQUEST_ARRIVING;
    atomic_init(&ctx->client_gone, false);
    timer_entry_init(&ctx->watch, watch_client);
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
    if (ctx->holds_share) clients_release(server->clients, ctx->client);
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

void request_lock(request_context *ctx) { pthread_mutex_lock(&ctx->lock); }

void request_unlock(request_context *ctx) { pthread_mutex_unlock(&ctx->lock); }

request_state request_state_of(const request_context *ctx) { return ctx->state; }

void request_hold(request_context *ctx) { ctx->refs++; }

void request_release(request_context *ctx) {
    pthread_mutex_lock(&ctx->lock);
    bool last = --ctx->refs == 0;
    pthread_mutex_unlock(&ctx->lock);
    if (last) request_free(ctx);
}

/* Under the lock: something the suspended connection waits for has come. */
static bool something_due(request_context *ctx) {
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

void http_request_end(void *cls, struct MHD_Connection *connection, void **con_cls,
                      enum MHD_RequestTerminationCode termination) {
    (void)cls;
    (void)connection;
    request_context *ctx = *con_cls;
    if (ctx == NULL) return;
    static const char *const outcomes[] = {
        [MHD_REQUEST_TERMINATED_COMPLETED_OK] = "ok",
        [MHD_REQUEST_TERMINATED_WITH_ERROR] = "aborted", /* the client left mid-answer, or a stream failed */
        [MHD_REQUEST_TERMINATED_TIMEOUT_REACHED] = "timeout",
        [MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN] = "shutdown",
        [MHD_REQUEST_TERMINATED_READ_ERROR] = "client-gone",
        [MHD_REQUEST_TERMINATED_CLIENT_ABORT] = "client-gone",
    };
    const char *outcome = atomic_load(&ctx->client_gone) ? "client-gone" /* closed by its client watch */
                          : (size_t)termination < sizeof outcomes / sizeof outcomes[0] && outcomes[termination]
                              ? outcomes[termination]
                              : "error";
    double ms = elapsed_ms(&ctx->started);
    if (strcmp(ctx->method, "HEAD") == 0) ctx->bytes_sent = 0; /* the headers alone went out */
    if (ctx->method[0] != '\0') {
        access_entry entry = {ctx->request_id, ctx->client,     ctx->method, ctx->path,
                              ctx->status,     ctx->bytes_sent, ms,          outcome};
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
    pthread_mutex_lock(&ctx->lock);
    /* a followed computation still running is abandoned: it stops at its next deadline poll */
    if (ctx->events != NULL && ctx->state < REQUEST_COMPUTED) progress_abandon(event_stream_progress(ctx->events));
    ctx->state = REQUEST_ENDED;
    /* An answer sent whole ends its computation: the client's share goes back now, not when a client
     * watch's last tick lets the request go. Any other end keeps it until the work has stopped. */
    bool share_back = ctx->holds_share && termination == MHD_REQUEST_TERMINATED_COMPLETED_OK;
    ctx->holds_share = ctx->holds_share && !share_back;
    pthread_mutex_unlock(&ctx->lock);
    if (share_back) clients_release(ctx->server->clients, ctx->client);
    request_release(ctx); /* libmicrohttpd's: the job and the producers may still hold theirs */
}

/* Caching: a 200 or 304 that is a pure function of the request may be kept; nothing else may. */
static void add_cache_headers(request_context *ctx, struct MHD_Response *response, int status) {
    if ((status == 200 || status == 304) && ctx->etag[0] != '\0') {
        char cache_control[48], tag[ETAG_SIZE + 2];
        if (ctx->route->endpoint->revalidate) snprintf(cache_control, sizeof cache_control, "public, no-cache");
        else snprintf(cache_control, sizeof cache_control, "public, max-age=%u", ctx->server->config->cache_max_age);
        /* gzip bytes depend on where pieces were flushed: the same content, not the same bytes: weak */
        snprintf(tag, sizeof tag, "%s%s", ctx->gzip ? "W/" : "", ctx->etag);
        MHD_add_response_header(response, MHD_HTTP_HEADER_ETAG, tag);
        MHD_add_response_header(response, MHD_HTTP_HEADER_CACHE_CONTROL, cache_control);
    } else {
        MHD_add_response_header(response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    }
}

/* Headers every answer carries. */
static void add_common_headers(request_context *ctx, struct MHD_Response *response, int status,
                               const char *content_type) {
    http_server *server = ctx->server;
    if (content_type != NULL) MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    const char *origin = cors_allowed_origin(server->config->cors_origin,
                                             MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, "Origin"));
    if (origin != NULL) {
        MHD_add_response_header(response, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        MHD_add_response_header(response, "Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
    if (cors_varies(server->config->cors_origin)) MHD_add_response_header(response, "Vary", "Origin");
    char policy[CLIENT_RATE_HEADER_SIZE], quota[CLIENT_RATE_HEADER_SIZE];
    if (clients_rate_headers(server->clients, &ctx->quota, policy, quota)) {
        MHD_add_response_header(response, "RateLimit-Policy", policy);
        MHD_add_response_header(response, "RateLimit", quota);
    }
    MHD_add_response_header(response, "X-Request-Id", ctx->request_id);
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    /* A page or a drawing names its Content-Security-Policy (api/service/web_pages.c, api/svg_writer.c);
     * an event stream's 200 is no drawing, and its job may still be writing the result. */
    if (ctx->events == NULL && ctx->res.content_security_policy != NULL && status == 200) {
        MHD_add_response_header(response, "Content-Security-Policy", ctx->res.content_security_policy);
        MHD_add_response_header(response, "Referrer-Policy", "no-referrer");
    }
    add_cache_headers(ctx, response, status);
    if (atomic_load(&server->draining)) MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
}

static enum MHD_Result queue(request_context *ctx, int status, struct MHD_Response *response,
                             const char *content_type) {
    if (response == NULL) return MHD_NO; /* out of memory: MHD closes the connection */
    /* a request's own fault costs no token, whether found before admission or after (the 429 is the
     * share's own answer, and says what is left) */
    if (status >= 400 && status < 500 && status != 429) clients_refund(ctx->server->clients, ctx->client, &ctx->quota);
    add_common_headers(ctx, response, status, content_type);
    /* libmicrohttpd 0.9.75 ends a chunked answer to HEAD with the last chunk's "0\r\n\r\n", a body
     * HEAD must not have: the headers of a stream go out without chunking instead (RFC 9110 9.3.2 lets
     * HEAD leave out Transfer-Encoding), and the connection closes after them */
    if (ctx->streamed && strcmp(ctx->method, "HEAD") == 0)
        MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
    ctx->status = status;
    pthread_mutex_lock(&ctx->lock); /* an event stream's 200 may be queued while its job runs */
    ctx->state = ctx->state == REQUEST_COMPUTING ? REQUEST_PROGRESSING : REQUEST_ANSWERING;
    pthread_mutex_unlock(&ctx->lock);
    MHD_set_connection_option(ctx->connection, MHD_CONNECTION_OPTION_TIMEOUT,
                              http_whole_seconds(ctx->server->config->idle_timeout_ms));
    enum MHD_Result result = MHD_queue_response(ctx->connection, (unsigned)status, response);
    MHD_destroy_response(response);
    return result;
}

/* A complete body from a buffer; takes the buffer's bytes. */
static struct MHD_Response *buffer_response(byte_buffer *body) {
    if (body->len == 0) return MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    struct MHD_Response *response = MHD_create_response_from_buffer(body->len, body->data, MHD_RESPMEM_MUST_FREE);
    if (response != NULL) bb_init(body); /* MHD owns the bytes now */
    return response;
}

/* The answer when there is no memory even for the error's text: a body that needs no allocation. */
static const char out_of_memory_body[] =
    "{\"error\":{\"code\":\"out_of_memory\",\"message\":\"the server ran out of memory; retry later\"}}";

static enum MHD_Result queue_error(request_context *ctx, const api_error *error, const char *allow) {
    ctx->answered_deadline = error->kind == API_DEADLINE_EXCEEDED;
    json_writer text;
    bb_init(&text);
    api_error_write(error, &text);
    if (text.out_of_memory) {
        bb_free(&text);
        ctx->bytes_sent = sizeof out_of_memory_body - 1;
        return queue(ctx, 500,
                     MHD_create_response_from_buffer(sizeof out_of_memory_body - 1, (void *)out_of_memory_body,
                                                     MHD_RESPMEM_PERSISTENT),
                     "application/json");
    }
    ctx->bytes_sent = text.len;
    struct MHD_Response *response = buffer_response(&text);
    bb_free(&text);
    if (response != NULL && allow != NULL) MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, allow);
    if (response != NULL &&
        (error->kind == API_OVERLOADED || error->kind == API_NOT_READY || error->kind == API_RATE_LIMITED)) {
        char seconds[16];
        snprintf(seconds, sizeof seconds, "%u",
                 ctx->retry_after_s         ? ctx->retry_after_s
                 : ctx->quota.retry_after_s ? ctx->quota.retry_after_s
                                            : RETRY_AFTER_SECONDS);
        MHD_add_response_header(response, MHD_HTTP_HEADER_RETRY_AFTER, seconds);
    }
    return queue(ctx, error->status, response, "application/json");
}

static enum MHD_Result fail(request_context *ctx, api_error_kind kind, const char *allow, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum MHD_Result fail(request_context *ctx, api_error_kind kind, const char *allow, const char *fmt, ...) {
    api_error error;
    va_list args;
    va_start(args, fmt);
    api_error_set(&error, kind, NULL, fmt, args);
    va_end(args);
    return queue_error(ctx, &error, allow);
}

static enum MHD_Result answer_preflight(request_context *ctx) {
    char allow[64];
    route_allow_header(ctx->route, allow, sizeof allow);
    struct MHD_Response *response = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (response == NULL) return MHD_NO;
    const char *requested =
        MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, "Access-Control-Request-Headers");
    MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, allow);
    MHD_add_response_header(response, "Access-Control-Allow-Methods", allow);
    MHD_add_response_header(response, "Access-Control-Allow-Headers",
                            requested != NULL ? requested : "Content-Type, Accept, X-Request-Id, If-None-Match");
    MHD_add_response_header(response, "Access-Control-Max-Age", "86400");
    return queue(ctx, 204, response, NULL);
}

typedef struct query_walk {
    api_request *req;
    const api_field *fields;
    bool ok;
} query_walk;

static enum MHD_Result add_query_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    query_walk *walk = cls;
    walk->ok = fields_add_query(walk->req, walk->fields, key, value);
    return walk->ok ? MHD_YES : MHD_NO;
}

/* On the I/O thread: the request's fields from the body and the query string, type-checked. */
static bool read_fields(request_context *ctx) {
    http_server *server = ctx->server;
    api_request *req = &ctx->req;
    if (ctx->body.out_of_memory) return api_fail_out_of_memory(req); /* the body could not be kept */
    const char *accept = MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    req->ndjson = accept != NULL && strstr(accept, "application/x-ndjson") != NULL;
    req->plain_text = accept != NULL && strstr(accept, "text/plain") != NULL;
    ctx->codings = compression_preference(
        MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
    req->limits = &server->config->limits;
    req->ready = !atomic_load(&server->draining) && compute_pool_accepting(server->pool);
    req->time_limit = deadline_after_ms(server->config->limits.time_limit_ms);
    req->time_limit_ms = server->config->limits.time_limit_ms;
    req->time_limit.cancelled = &server->cancelled;
    req->time_limit.abandoned = &ctx->client_gone;
    req->deadline = req->time_limit;
    const char *type = MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    bool post = strcmp(ctx->method, "POST") == 0;
    if (post && (ctx->route->methods & ROUTE_TEXT_BODY) && type != NULL && strncasecmp(type, "text/plain", 10) == 0) {
        req->text_body = ctx->body.data ? ctx->body.data : "";
        req->text_body_len = ctx->body.len;
        post = false; /* the fields come from the query string alone */
    }
    if (!fields_parse_body(req, post && ctx->body.data ? ctx->body.data : "", post ? ctx->body.len : 0)) return false;
    query_walk walk = {req, ctx->route->endpoint->fields, true};
    MHD_get_connection_values(ctx->connection, MHD_GET_ARGUMENT_KIND, add_query_argument, &walk);
    return walk.ok && fields_check(req, ctx->route->endpoint->fields);
}

/* On a worker: decides whether the answer goes out gzip'd, and compresses a complete body now (a
 * stream is compressed piece by piece as it is produced); on an I/O thread, only a web page, from its
 * start-up gzip. False when out of memory. */
static bool compress_answer(request_context *ctx) {
    api_response *res = &ctx->res;
    const byte_buffer *precompressed = static_gzip_find(ctx->server->pages_gzip, ctx->route);
    ctx->compressible = ctx->events == NULL && (ctx->route->thread == ON_WORKER || precompressed != NULL) &&
                        compression_applies_to(res->content_type);
    bool streamed = res->stream_state != NULL;
    /* a page's gzip is made already: worth sending whatever the file's size */
    size_t size = streamed || precompressed != NULL ? COMPRESSION_SIZE_UNKNOWN : res->body.len;
    ctx->gzip = ctx->compressible && compression_use_gzip(ctx->codings, size);
    if (ctx->gzip && precompressed != NULL) { /* a web page: gzip'd at start-up (server/static_gzip.h) */
        res->fixed_body = precompressed->data;
        res->fixed_length = precompressed->len;
        return true;
    }
    return !ctx->gzip || streamed || gzip_body(&res->body);
}

/* Fills ctx->etag from the request alone (server/etag.h). */
static void tag_answer(request_context *ctx) {
    char representation[40]; /* the media types and the codings the client takes shape the bytes */
    snprintf(representation, sizeof representation, "%s%s gzip=%u identity=%u", ctx->req.ndjson ? "ndjson" : "json",
             ctx->req.plain_text ? " text" : "", ctx->codings.gzip, ctx->codings.identity);
    etag_of_request(ctx->etag, ctx->server->fingerprint, ctx->route->path, representation, ctx->req.params,
                    ctx->req.text_body, ctx->req.text_body_len);
}

/* Runs the endpoint (on a worker, or inline for ON_IO_THREAD routes). */
static void run_endpoint(request_context *ctx) {
    api_request *req = &ctx->req;
    unsigned json_failures = json_allocation_failures();
    bool ok = false;
    if (!ctx->route->endpoint->handler(req, &ctx->res)) goto out;
    /* an event stream sends the answer as one event: a streamed one is made whole here */
    if (ctx->events != NULL && ctx->res.stream_state != NULL &&
        !api_collect_stream(req, &ctx->res, EVENT_RESULT_MAX_BYTES))
        goto out;
    /* cJSON_Add...() calls that ran out of memory leave a document short of fields */
    if (json_allocation_failures() != json_failures) {
        api_fail_out_of_memory(req);
        goto out;
    }
    if (ctx->pure && ctx->etag[0] == '\0') tag_answer(ctx);
    if (ctx->res.body.out_of_memory || !compress_answer(ctx)) {
        api_fail_out_of_memory(req);
        goto out;
    }
    ok = true;
out:
    if (!ok && req->error.status == 0)
        api_fail(req, API_INTERNAL_ERROR, NULL, "the endpoint failed without saying why");
    ctx->answered_ok = ok;
}

/* The 200 text/event-stream of a followed computation (server/event_stream.h). */
static enum MHD_Result queue_event_stream(request_context *ctx) {
    ctx->streamed = true;
    struct MHD_Response *response = event_stream_response(ctx->events, &ctx->bytes_sent);
    compression_add_headers(response, false); /* Vary as on every answer of the route; never gzip'd */
    return queue(ctx, 200, response, "text/event-stream");
}

static enum MHD_Result queue_answer(request_context *ctx) {
    api_response *res = &ctx->res;
    /* Answered plainly before the computation began: a client error, and a refusal to admit it (a full
     * queue, a stop: a real 503 with Retry-After, which clients and EventSource users retry). The rest
     * is streamed. */
    bool refused = ctx->req.error.kind == API_OVERLOADED;
    if (ctx->events != NULL &&
        (ctx->answered_ok || (ctx->req.error.status >= 500 && !refused) || event_stream_begun(ctx->events)))
        return queue_event_stream(ctx);
    if (!ctx->answered_ok) {
        if (res->stream_state != NULL) res->stream_free(res->stream_state);
        res->stream_state = NULL;
        return queue_error(ctx, &ctx->req.error, NULL);
    }
    struct MHD_Response *response;
    if (res->stream_state != NULL) {
        ctx->streamed = true;
        stream_outcome outcome =
            stream_response_create(res, ctx->gzip, ctx->server->pool, ctx, &ctx->bytes_sent, &ctx->stream, &response);
        if (outcome == STREAM_OVER_BUDGET) {
            ctx->streamed = false;
            api_fail(&ctx->req, API_OVERLOADED, NULL,
                     "the open streams hold the server's whole stream buffer budget (%zu MiB, its "
                     "--stream-budget-mb); retry after a moment",
                     ctx->server->config->stream_budget_mb);
            return queue_error(ctx, &ctx->req.error, NULL);
        }
    } else if (res->fixed_body != NULL) { /* lives as long as the process: MHD sends it in place */
        ctx->bytes_sent = res->fixed_length;
        response = MHD_create_response_from_buffer(res->fixed_length, (void *)res->fixed_body, MHD_RESPMEM_PERSISTENT);
    } else {
        ctx->bytes_sent = res->body.len;
        response = buffer_response(&res->body);
    }
    if (response == NULL) { /* no memory for the answer's start: a 500 instead of a closed connection */
        ctx->streamed = false;
        api_fail_out_of_memory(&ctx->req);
        return queue_error(ctx, &ctx->req.error, NULL);
    }
    if (ctx->compressible) compression_add_headers(response, ctx->gzip);
    return queue(ctx, res->status, response, res->content_type);
}

/* A followed computation's outcome becomes its stream's last event. */
static void set_last_event(request_context *ctx) {
    if (ctx->answered_ok) event_stream_set_result(ctx->events, ctx->res.body.data, ctx->res.body.len);
    else event_stream_set_error(ctx->events, &ctx->req.error);
}

/* The job is done (run or refused): its result is published as the request becomes
 * REQUEST_COMPUTED (unless it ended: the client left), the connection is woken, and the job's
 * reference goes, the job's last touch of the request. */
static void complete_job(request_context *ctx) {
    lifecycle_hook_pause(ctx->pause_at, LIFECYCLE_COMPLETE);
    if (ctx->events != NULL) set_last_event(ctx);
    pthread_mutex_lock(&ctx->lock);
    if (ctx->state < REQUEST_COMPUTED) ctx->state = REQUEST_COMPUTED;
    request_wake(ctx);
    pthread_mutex_unlock(&ctx->lock);
    request_release(ctx);
}

/* The Retry-After of a refusal for the wait the pool predicted (compute_job.wait_ns). */
static unsigned retry_after_wait(int64_t wait_ns) {
    int64_t seconds = (wait_ns + 999999999) / 1000000000;
    return seconds < RETRY_AFTER_SECONDS        ? RETRY_AFTER_SECONDS
           : seconds > RETRY_AFTER_MOST_SECONDS ? RETRY_AFTER_MOST_SECONDS
                                                : (unsigned)seconds;
}

/* Records the 503 for a request that the pool would not take: "deadline_exceeded" when its own time
 * limit would run out while it waits, "overloaded" otherwise, told to retry after its predicted wait. */
static void refuse_admission(request_context *ctx, compute_admission admission) {
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

/* Clears what a run of the endpoint left, so that it can run again. */
static void reset_answer(request_context *ctx) {
    api_response *res = &ctx->res;
    if (res->stream_state != NULL) res->stream_free(res->stream_state);
    byte_buffer body = res->body;
    bb_clear(&body);
    *res = (api_response){.status = 200, .content_type = "application/json", .body = body};
    ctx->req.error = (api_error){0};
}

static void move_to_main_lane(request_context *ctx) {
    compute_admission admission = compute_pool_demote(ctx->server->pool, &ctx->job);
    if (admission == COMPUTE_QUEUED) return;
    refuse_admission(ctx, admission);
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
    run_endpoint(ctx);
    req->deadline = req->time_limit;
    if (ctx->answered_ok || req->error.kind != API_DEADLINE_EXCEEDED || deadline_expired(&req->time_limit))
        return false;
    reset_answer(ctx);
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
    run_endpoint(ctx);
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
        refuse_admission(ctx, COMPUTE_STOPPED);
    }
    complete_job(ctx);
}

/* For Accept: text/event-stream: the stream, and the computation's deadlines carry its progress
 * record. False when out of memory. */
static bool follow_progress(request_context *ctx) {
    event_stream *events = event_stream_create(ctx, ctx->connection, &ctx->started, ctx->server->timer);
    if (events == NULL) return false;
    pthread_mutex_lock(&ctx->lock); /* its tick may already look at the request */
    ctx->events = events;
    pthread_mutex_unlock(&ctx->lock);
    ctx->req.time_limit.progress = event_stream_progress(ctx->events);
    ctx->req.deadline.progress = ctx->req.time_limit.progress;
    return true;
}

/* Counts a computing request in its client's share (released when the request ends), or queues the
 * 429 of a client over its --client-rate or with its share in progress into *refused. */
static bool admit_client(request_context *ctx, enum MHD_Result *refused) {
    client_verdict verdict = clients_admit(ctx->server->clients, ctx->client, &ctx->quota);
    if (verdict == CLIENT_RATE_LIMITED) {
        *refused =
            fail(ctx, API_RATE_LIMITED, NULL,
                 "this client (%s) is over its --client-rate of %u computing requests a second; retry after %u s",
                 ctx->client, ctx->server->config->client_rate, ctx->quota.retry_after_s);
        return false;
    }
    if (verdict == CLIENT_BUSY) {
        *refused = fail(ctx, API_RATE_LIMITED, NULL,
                        "this client (%s) already has its share of computing requests in progress; retry after "
                        "one ends",
                        ctx->client);
        return false;
    }
    ctx->holds_share = true;
    return true;
}

/* On the timer thread, every CLIENT_WATCH_MS while a plain request's job waits or runs: a client that
 * closed its connection cancels the job (its deadlines expire at once; the request ends without an
 * answer). Once the job is done, the request ended or the client left, or when the entry cannot be
 * armed again, the watch's reference goes, its last touch of the request. */
static void watch_client(timer_entry *entry) {
    request_context *ctx = (request_context *)((char *)entry - offsetof(request_context, watch));
    pthread_mutex_lock(&ctx->lock);
    bool watching = ctx->state == REQUEST_COMPUTING;
    if (watching && suspension_client_gone(ctx->connection)) {
        atomic_store(&ctx->client_gone, true);
        metrics_client_gone();
        watching = false;
    }
    if (watching) watching = timer_arm(ctx->server->timer, &ctx->watch, timer_now_ns() + CLIENT_WATCH_MS * 1000000LL);
    pthread_mutex_unlock(&ctx->lock);
    if (!watching) request_release(ctx);
}

/* Under the lock, as a plain request's job is queued: its client watch starts, holding a reference.
 * Without memory for its place in the timer, the request goes unwatched (its work stops at its time
 * limit, as before a client could be seen to leave). */
static void watch_client_start(request_context *ctx) {
    if (timer_arm(ctx->server->timer, &ctx->watch, timer_now_ns() + CLIENT_WATCH_MS * 1000000LL)) ctx->refs++;
}

/* Queues the request, counted in its client's share already, for the pool and suspends its
 * connection, or refuses it at once: a full queue (503). */
static enum MHD_Result enqueue(request_context *ctx) {
    clients *table = ctx->server->clients;
    if (ctx->wants_events && !follow_progress(ctx)) {
        clients_release(table, ctx->client);
        ctx->holds_share = false;
        return fail(ctx, API_OUT_OF_MEMORY, NULL, "the server ran out of memory; retry later");
    }
    ctx->job.run = run_job;
    ctx->job.refuse = refuse_job;
    ctx->job.deadline = ctx->req.time_limit;
    /* in nanoseconds, saturated: a hopeless count's estimate can pass int64_t (the pool caps charges) */
    ctx->job.cost_ns = ctx->estimate_seconds < 0                         ? COMPUTE_COST_UNKNOWN
                       : ctx->estimate_seconds * 1e9 < (double)INT64_MAX ? (int64_t)(ctx->estimate_seconds * 1e9)
                                                                         : INT64_MAX;
    /* under the lock the job's completion takes: it cannot wake the connection before it is suspended */
    pthread_mutex_lock(&ctx->lock);
    compute_admission admission = compute_pool_submit(ctx->server->pool, &ctx->job);
    if (admission == COMPUTE_QUEUED) {
        ctx->refs++; /* the job's, until complete_job */
        ctx->state = REQUEST_COMPUTING;
        if (ctx->events == NULL) watch_client_start(ctx); /* an event stream's tick watches its client */
        request_suspend(ctx);
        pthread_mutex_unlock(&ctx->lock);
        return MHD_YES;
    }
    pthread_mutex_unlock(&ctx->lock);
    clients_release(table, ctx->client);
    ctx->holds_share = false;
    refuse_admission(ctx, admission);
    if (ctx->events != NULL) set_last_event(ctx);
    pthread_mutex_lock(&ctx->lock); /* the refusal is the request's result */
    ctx->state = REQUEST_COMPUTED;
    pthread_mutex_unlock(&ctx->lock);
    return queue_answer(ctx);
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

/* Runs a small (or hopeless) request here on the I/O thread within IO_THREAD_SLICE_MS of its time limit, sparing the
 * hop to the pool and back (two thread wake-ups, the connection's suspension and resumption); work
 * that outlasts the slice goes to the pool and starts over there with the rest of its time, as the
 * express lane's does (run_express_slice). */
static enum MHD_Result run_on_io_thread(request_context *ctx) {
    return run_slice_outlasted(ctx, IO_THREAD_SLICE_MS) ? enqueue(ctx) : queue_answer(ctx);
}

/* A computing request: counted in its client's share (or refused 429), then run here when small or
 * hopeless, else queued for the pool. */
static enum MHD_Result compute(request_context *ctx) {
    enum MHD_Result refused;
    if (!admit_client(ctx, &refused)) return refused;
    return runs_on_io_thread(ctx) ? run_on_io_thread(ctx) : enqueue(ctx);
}

/* A request of a worker's route that its endpoint says computes nothing before its stream starts
 * (api_endpoint.starts_at_once) runs here on the I/O thread, unless it follows its progress (an event
 * stream) or the pool would refuse it (stopping, or its queue full: the 503 is then the same as for
 * any other computing request). */
static bool starts_at_once(request_context *ctx) {
    const api_endpoint *endpoint = ctx->route->endpoint;
    return endpoint->starts_at_once != NULL && !ctx->wants_events && ctx->req.ready &&
           endpoint->starts_at_once(&ctx->req);
}

/* The request has fully arrived: answer what is cheap here, hand the rest to the pool. */
static enum MHD_Result dispatch(request_context *ctx) {
    http_server *server = ctx->server;
    ctx->route = route_find(ctx->path);
    /* With --admin-port, /metrics lives there alone. */
    bool metrics = ctx->route != NULL && ctx->route->endpoint == &metrics_endpoint;
    if (ctx->admin ? !metrics : metrics && server->admin_daemon != NULL) ctx->route = NULL;
    if (ctx->route == NULL && ctx->admin) return fail(ctx, API_NOT_FOUND, NULL, "the admin port serves /metrics only");
    if (ctx->route == NULL) {
        char paths[768], shown[201];
        route_list_paths(paths, sizeof paths);
        printable_ascii(shown, sizeof shown, ctx->path);
        return fail(ctx, API_NOT_FOUND, NULL, "no endpoint at %s; the endpoints are %s", shown, paths);
    }
    if (strcmp(ctx->method, "OPTIONS") == 0) return answer_preflight(ctx);
    if ((route_method_bit(ctx->method) & ctx->route->methods) == 0) {
        char allow[64];
        route_allow_header(ctx->route, allow, sizeof allow);
        return fail(ctx, API_METHOD_NOT_ALLOWED, allow, "%.15s is not allowed on %s; use one of: %s", ctx->method,
                    ctx->route->path, allow);
    }
    if (ctx->body_too_large)
        return fail(ctx, API_PAYLOAD_TOO_LARGE, NULL,
                    "the request body is larger than %zu bytes (the server's --max-body)", server->config->max_body);
    ctx->wants_events = (ctx->route->methods & ROUTE_PROGRESS) && event_stream_requested(ctx->connection);
    /* an EventSource reconnecting after its stream's end: 204 stops it; nothing computed, nothing counted */
    if (ctx->wants_events && event_stream_reconnecting(ctx->connection))
        return queue(ctx, 204, MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT), NULL);
    if (!read_fields(ctx)) return queue_error(ctx, &ctx->req.error, NULL);
    const api_endpoint *endpoint = ctx->route->endpoint;
    ctx->estimate_seconds = endpoint->estimate_seconds != NULL ? endpoint->estimate_seconds(&ctx->req) : -1;
    ctx->long_running = (endpoint->long_running != NULL && endpoint->long_running(&ctx->req)) ||
                        ctx->estimate_seconds > COMPUTE_EXPRESS_SLICE_MS / 1e3;
    /* an event stream is never cached (Cache-Control: no-store) */
    ctx->pure = !ctx->wants_events && (endpoint->varies == NULL || !endpoint->varies(&ctx->req));
    const char *if_none_match =
        MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    /* The tag is worked out here only for a conditional GET (or HEAD); otherwise on the worker (run_endpoint). */
    if (ctx->pure && route_method_bit(ctx->method) == METHOD_GET && if_none_match != NULL) {
        tag_answer(ctx);
        if (etag_matches(if_none_match, ctx->etag))
            return queue(ctx, 304, MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT), NULL);
    }
    if (ctx->route->thread == ON_WORKER) {
        if (!starts_at_once(ctx)) return compute(ctx);
        enum MHD_Result refused; /* counted as the computing request it is, without the pool */
        if (!admit_client(ctx, &refused)) return refused;
    }
    run_endpoint(ctx);
    return queue_answer(ctx);
}

/* The first call for a request: remember what it is; refuse at once what breaks HTTP/1.1 rules
 * (server/strict_http.h), a target over --max-url, and an
 * announced body over --max-body when the client waits for 100-continue or the body is too large to
 * read and drop (the connection is then closed); a smaller oversized body is read and dropped, and
 * the 413 comes after it, so the client reads the answer instead of a broken pipe. */
static enum MHD_Result first_call(request_context *ctx, const char *url, const char *method, const char *version) {
    snprintf(ctx->method, sizeof ctx->method, "%s", method);
    snprintf(ctx->path, sizeof ctx->path, "%s", url);
    request_id_choose(ctx->request_id, MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, "X-Request-Id"));
    ctx->fails_allocation =
        alloc_failure_arm(MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, ALLOC_FAILURE_HEADER));
    ctx->pause_at =
        lifecycle_hook_point(MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, LIFECYCLE_PAUSE_HEADER));
    clients_identify(ctx->server->clients, ctx->connection, ctx->client);
    api_error refusal;
    if (!strict_http_check(ctx->connection, version, &refusal)) return queue_error(ctx, &refusal, NULL);
    if (ctx->target_too_long)
        return fail(ctx, API_URI_TOO_LONG, NULL,
                    "the request target (path and query) is longer than %zu bytes (the server's --max-url); send "
                    "large fields in a POST body",
                    ctx->server->config->max_url);
    const char *length = MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (length != NULL && strtoull(length, NULL, 10) > ctx->server->config->max_body) {
        ctx->body_too_large = true;
        const char *expect = MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_EXPECT);
        bool waits = expect != NULL && strcasecmp(expect, "100-continue") == 0;
        if (waits || strtoull(length, NULL, 10) > DISCARD_BODY_BYTES) return dispatch(ctx);
    }
    return MHD_YES;
}

enum MHD_Result http_request_handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                    const char *version, const char *upload_data, size_t *upload_data_size,
                                    void **con_cls) {
    (void)cls;
    (void)connection;
    request_context *ctx = *con_cls;
    if (ctx == NULL) return MHD_NO;
    http_server *server = ctx->server;
    /* Resumed while the job runs (a followed computation that began, or whose client left), or
     * called again before anything is due: nothing due is checked, and the connection suspended,
     * under the lock the job's completion takes, so its wake-up is not lost. */
    if (ctx->job.run != NULL) lifecycle_hook_pause(ctx->pause_at, LIFECYCLE_RESUMED); /* submitted: called again */
    pthread_mutex_lock(&ctx->lock);
    request_state state = ctx->state;
    bool waits = state == REQUEST_COMPUTING && !something_due(ctx);
    if (waits) request_suspend(ctx);
    pthread_mutex_unlock(&ctx->lock);
    if (waits) return MHD_YES;
    if (state == REQUEST_COMPUTING) return event_stream_abandoned(ctx->events) ? MHD_NO : queue_event_stream(ctx);
    if (state == REQUEST_COMPUTED) return atomic_load(&ctx->client_gone) ? MHD_NO : queue_answer(ctx);
    if (state != REQUEST_ARRIVING) return MHD_YES;
    if (elapsed_ms(&ctx->started) > server->config->request_timeout_ms) return MHD_NO; /* too slow to arrive */
    if (ctx->method[0] == '\0') return first_call(ctx, url, method, version);
    if (*upload_data_size != 0) {
        if (!ctx->body_too_large && ctx->body.len + *upload_data_size <= server->config->max_body) {
            bb_append(&ctx->body, upload_data, *upload_data_size);
        } else {
            ctx->body_too_large = true; /* keep reading and dropping it; 413 at the end */
            bb_free(&ctx->body);
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    return dispatch(ctx);
}
