/* The libmicrohttpd glue (see http.h).
 *
 * Threading. libmicrohttpd's I/O threads (--threads, epoll) read each request, route it, parse and
 * type-check its fields, and answer at once whatever is cheap and bounded: errors (400, 404, 405,
 * 413), CORS preflights and the routes marked ON_IO_THREAD (/healthz, /readyz, /openapi.yaml).
 * Everything else becomes a job on the compute pool (server/compute_pool.h): the connection is
 * suspended, a worker runs the endpoint, and resumes the connection, whose access handler is then
 * called again and queues the answer. A full queue is answered at once with 503 "overloaded" and
 * Retry-After. Streamed answers are produced on the pool too (server/stream.c).
 *
 * Keep-alive: the answer is queued only after the headers (and body) are read, never on the first
 * call, or MHD closes the connection after answering.
 *
 * Slow clients: each connection starts with the short --request-timeout-ms inactivity timeout while
 * its request arrives, and a request that has not fully arrived by then (counted from its first
 * line) is dropped; once the answer is queued the timeout becomes --idle-timeout-ms, for sending and
 * for the idle keep-alive wait. Connections are capped in all and per client address. */
#include "server/http.h"

#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "api/fields.h"
#include "server/access_log.h"
#include "server/compression.h"
#include "server/compute_pool.h"
#include "server/routes.h"
#include "server/stream.h"

/* Connection memory: the read buffer for headers and the chunk size of streamed answers. */
#define CONNECTION_MEMORY_BYTES ((size_t)256 * 1024)
/* What a refused request is told to wait before retrying (Retry-After, seconds). */
#define RETRY_AFTER_SECONDS "1"
/* After the drain time, cancelled computations end at their next deadline poll: this bounds the wait. */
#define CANCEL_GRACE_MS 2000

struct http_server {
    struct MHD_Daemon *daemon;
    const puzzled_config *config;
    compute_pool *pool;
    api_thread_budget threads; /* lends idle workers to parallel counting */
    atomic_bool draining;      /* while stopping: answers say Connection: close, /readyz says 503 */
    atomic_bool cancelled;     /* raised when the drain time is up: running computations end */
    atomic_uint requests_open; /* begun and not yet completed */
};

typedef enum request_phase {
    PHASE_ARRIVING,  /* headers or body still coming */
    PHASE_COMPUTING, /* a job on the pool; the connection is suspended */
    PHASE_COMPUTED,  /* the job is done: queue its answer */
    PHASE_ANSWERED,
} request_phase;

typedef struct request_context {
    compute_job job; /* first: the job's address is the context's */
    http_server *server;
    struct MHD_Connection *connection;
    struct timespec started;
    char method[16];
    char path[256];
    bool body_too_large; /* more than --max-body arrived; answered 413 at the end */
    json_writer body;
    const route *route;
    api_request req;
    api_response res;
    bool answered_ok;    /* the endpoint answered (else req.error says why) */
    coding_preference codings; /* from Accept-Encoding */
    bool compressible;   /* a JSON answer computed on a worker: it may be gzip'd and says Vary */
    bool gzip;           /* the answer is (a complete body) or will be (a stream) gzip-compressed */
    pthread_mutex_t lock; /* guards phase and suspended between the I/O thread and a worker */
    request_phase phase;
    bool suspended;
    int status;
    uint64_t bytes_sent;
} request_context;

static double elapsed_ms(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - since->tv_sec) * 1e3 + (double)(now.tv_nsec - since->tv_nsec) / 1e6;
}

static unsigned whole_seconds(unsigned ms) { return (ms + 999) / 1000; }

/* Called by MHD as soon as a request line is read: the context lives until the request completes. */
static void *begin_request(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)uri;
    http_server *server = cls;
    request_context *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL) return NULL;
    ctx->server = server;
    ctx->connection = connection;
    clock_gettime(CLOCK_MONOTONIC, &ctx->started);
    pthread_mutex_init(&ctx->lock, NULL);
    jw_init(&ctx->body);
    ctx->res = (api_response){.status = 200, .content_type = "application/json"};
    jw_init(&ctx->res.body);
    atomic_fetch_add(&server->requests_open, 1);
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT,
                              whole_seconds(server->config->request_timeout_ms));
    return ctx;
}

static void end_request(void *cls, struct MHD_Connection *connection, void **con_cls,
                        enum MHD_RequestTerminationCode termination) {
    (void)connection;
    http_server *server = cls;
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
    const char *outcome = (size_t)termination < sizeof outcomes / sizeof outcomes[0] && outcomes[termination]
                              ? outcomes[termination]
                              : "error";
    if (ctx->method[0] != '\0')
        access_log_write(ctx->method, ctx->path, ctx->status, ctx->bytes_sent, elapsed_ms(&ctx->started), outcome);
    if (ctx->res.stream_state != NULL) ctx->res.stream_free(ctx->res.stream_state);
    jw_free(&ctx->res.body);
    cJSON_Delete(ctx->req.params);
    jw_free(&ctx->body);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
    *con_cls = NULL;
    atomic_fetch_sub(&server->requests_open, 1);
}

/* Headers every answer carries. */
static void add_common_headers(http_server *server, struct MHD_Response *response, const char *content_type) {
    if (content_type != NULL) MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    MHD_add_response_header(response, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, server->config->cors_origin);
    if (strcmp(server->config->cors_origin, "*") != 0) MHD_add_response_header(response, "Vary", "Origin");
    if (atomic_load(&server->draining)) MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
}

static enum MHD_Result queue(request_context *ctx, int status, struct MHD_Response *response,
                             const char *content_type) {
    if (response == NULL) return MHD_NO; /* out of memory: MHD closes the connection */
    add_common_headers(ctx->server, response, content_type);
    ctx->status = status;
    ctx->phase = PHASE_ANSWERED;
    MHD_set_connection_option(ctx->connection, MHD_CONNECTION_OPTION_TIMEOUT,
                              whole_seconds(ctx->server->config->idle_timeout_ms));
    enum MHD_Result result = MHD_queue_response(ctx->connection, (unsigned)status, response);
    MHD_destroy_response(response);
    return result;
}

/* A complete body from a writer; takes the writer's buffer. */
static struct MHD_Response *buffer_response(json_writer *body) {
    if (body->len == 0) return MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    struct MHD_Response *response = MHD_create_response_from_buffer(body->len, body->data, MHD_RESPMEM_MUST_FREE);
    if (response != NULL) jw_init(body); /* MHD owns the bytes now */
    return response;
}

static enum MHD_Result queue_error(request_context *ctx, const api_error *error, const char *allow) {
    json_writer text;
    jw_init(&text);
    jw_str(&text, "{\"error\":{\"code\":");
    jw_cstring(&text, error->code);
    jw_str(&text, ",\"message\":");
    jw_cstring(&text, error->message);
    if (error->field[0] != '\0') {
        jw_str(&text, ",\"field\":");
        jw_cstring(&text, error->field);
    }
    jw_str(&text, "}}");
    ctx->bytes_sent = text.len;
    struct MHD_Response *response = text.out_of_memory ? NULL : buffer_response(&text);
    jw_free(&text);
    if (response != NULL && allow != NULL) MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, allow);
    if (response != NULL && (error->kind == API_OVERLOADED || error->kind == API_NOT_READY))
        MHD_add_response_header(response, MHD_HTTP_HEADER_RETRY_AFTER, RETRY_AFTER_SECONDS);
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
                            requested != NULL ? requested : "Content-Type, Accept");
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
    const char *accept = MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    req->ndjson = accept != NULL && strstr(accept, "application/x-ndjson") != NULL;
    ctx->codings = compression_preference(
        MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
    req->limits = &server->config->limits;
    req->threads = &server->threads;
    req->ready = !atomic_load(&server->draining) && compute_pool_accepting(server->pool);
    req->time_limit = deadline_after_ms(server->config->limits.time_limit_ms);
    req->time_limit.cancelled = &server->cancelled;
    req->deadline = req->time_limit;
    bool post = strcmp(ctx->method, "POST") == 0;
    bool ok = fields_parse_body(req, post && ctx->body.data ? ctx->body.data : "", post ? ctx->body.len : 0);
    if (ok) {
        query_walk walk = {req, ctx->route->endpoint->fields, true};
        MHD_get_connection_values(ctx->connection, MHD_GET_ARGUMENT_KIND, add_query_argument, &walk);
        ok = walk.ok;
    }
    return ok && fields_check(req, ctx->route->endpoint->fields);
}

/* On a worker: decides whether the answer goes out gzip'd, and compresses a complete body now (a
 * stream is compressed piece by piece as it is produced). False when out of memory. */
static bool compress_answer(request_context *ctx) {
    api_response *res = &ctx->res;
    ctx->compressible = ctx->route->thread == ON_WORKER && compression_applies_to(res->content_type);
    bool streamed = res->stream_state != NULL;
    ctx->gzip = ctx->compressible &&
                compression_use_gzip(ctx->codings, streamed ? COMPRESSION_SIZE_UNKNOWN : res->body.len);
    return !ctx->gzip || streamed || gzip_body(&res->body);
}

/* Runs the endpoint (on a worker, or inline for ON_IO_THREAD routes). */
static void run_endpoint(request_context *ctx) {
    api_request *req = &ctx->req;
    bool ok = ctx->route->endpoint->handler(req, &ctx->res);
    if (ok && ctx->res.body.out_of_memory) ok = api_fail_out_of_memory(req);
    if (ok && !compress_answer(ctx)) ok = api_fail_out_of_memory(req);
    if (!ok && req->error.status == 0)
        api_fail(req, API_INTERNAL_ERROR, NULL, "the endpoint failed without saying why");
    ctx->answered_ok = ok;
}

static enum MHD_Result queue_answer(request_context *ctx) {
    api_response *res = &ctx->res;
    if (!ctx->answered_ok) {
        if (res->stream_state != NULL) res->stream_free(res->stream_state);
        res->stream_state = NULL;
        return queue_error(ctx, &ctx->req.error, NULL);
    }
    struct MHD_Response *response;
    if (res->stream_state != NULL) {
        response = stream_response_create(res, ctx->gzip, ctx->server->pool, ctx->connection, &ctx->bytes_sent);
    } else {
        ctx->bytes_sent = res->body.len;
        response = buffer_response(&res->body);
    }
    if (ctx->compressible) compression_add_headers(response, ctx->gzip);
    return queue(ctx, res->status, response, res->content_type);
}

/* The job is done (run or refused): hand the connection back to its I/O thread. */
static void finish_job(request_context *ctx) {
    pthread_mutex_lock(&ctx->lock);
    ctx->phase = PHASE_COMPUTED;
    if (ctx->suspended) {
        ctx->suspended = false;
        MHD_resume_connection(ctx->connection);
    }
    pthread_mutex_unlock(&ctx->lock);
}

/* Records the 503 "overloaded" for a request that the pool would not take. */
static void refuse_admission(request_context *ctx, compute_admission admission) {
    const puzzled_config *config = ctx->server->config;
    if (admission == COMPUTE_STOPPED) {
        api_fail(&ctx->req, API_OVERLOADED, NULL, "the server is stopping; retry, another replica will answer");
    } else {
        api_fail(&ctx->req, API_OVERLOADED, NULL,
                 "all %u workers are busy and %u requests already wait for one (the server's --workers and "
                 "--queue); retry after a moment",
                 config->workers, config->queue);
    }
    ctx->answered_ok = false;
}

/* Clears what a run of the endpoint left, so that it can run again. */
static void reset_answer(request_context *ctx) {
    api_response *res = &ctx->res;
    if (res->stream_state != NULL) res->stream_free(res->stream_state);
    json_writer body = res->body;
    jw_clear(&body);
    *res = (api_response){.status = 200, .content_type = "application/json", .body = body};
    ctx->req.error = (api_error){0};
}

/* The express lane: the endpoint runs with a slice of its time; if the slice was not enough, it goes
 * to the main lane and starts over there with the rest of its time (or is refused: queue full). */
static void run_express_slice(request_context *ctx) {
    api_request *req = &ctx->req;
    req->deadline = deadline_after_ms(COMPUTE_EXPRESS_SLICE_MS);
    req->deadline.cancelled = req->time_limit.cancelled;
    if (req->time_limit.at_ns != 0 && req->time_limit.at_ns < req->deadline.at_ns)
        req->deadline.at_ns = req->time_limit.at_ns;
    run_endpoint(ctx);
    req->deadline = req->time_limit;
    if (ctx->answered_ok || req->error.kind != API_DEADLINE_EXCEEDED || deadline_expired(&req->time_limit)) {
        finish_job(ctx);
        return;
    }
    reset_answer(ctx);
    compute_admission admission = compute_pool_demote(ctx->server->pool, &ctx->job);
    if (admission == COMPUTE_QUEUED) return;
    refuse_admission(ctx, admission);
    finish_job(ctx);
}

static void run_job(compute_job *job) {
    request_context *ctx = (request_context *)job;
    if (deadline_expired(&ctx->req.time_limit)) {
        api_fail_deadline(&ctx->req);
        ctx->answered_ok = false;
    } else if (job->lane == COMPUTE_EXPRESS) {
        run_express_slice(ctx);
        return;
    } else {
        run_endpoint(ctx);
    }
    finish_job(ctx);
}

static void refuse_job(compute_job *job, compute_refusal reason) {
    request_context *ctx = (request_context *)job;
    if (reason == COMPUTE_EXPIRED) {
        api_fail_deadline(&ctx->req);
        ctx->answered_ok = false;
    } else {
        refuse_admission(ctx, COMPUTE_STOPPED);
    }
    finish_job(ctx);
}

/* Queues the request for the pool and suspends its connection, or refuses it at once. */
static enum MHD_Result submit(request_context *ctx) {
    ctx->job.run = run_job;
    ctx->job.refuse = refuse_job;
    ctx->job.deadline = ctx->req.time_limit;
    pthread_mutex_lock(&ctx->lock);
    ctx->phase = PHASE_COMPUTING;
    compute_admission admission = compute_pool_submit(ctx->server->pool, &ctx->job);
    if (admission == COMPUTE_QUEUED) {
        ctx->suspended = true;
        MHD_suspend_connection(ctx->connection);
        pthread_mutex_unlock(&ctx->lock);
        return MHD_YES;
    }
    ctx->phase = PHASE_ARRIVING;
    pthread_mutex_unlock(&ctx->lock);
    refuse_admission(ctx, admission);
    return queue_answer(ctx);
}

/* The request has fully arrived: answer what is cheap here, hand the rest to the pool. */
static enum MHD_Result dispatch(request_context *ctx) {
    http_server *server = ctx->server;
    ctx->route = route_find(ctx->path);
    if (ctx->route == NULL) {
        char paths[512];
        route_list_paths(paths, sizeof paths);
        return fail(ctx, API_NOT_FOUND, NULL, "no endpoint at %.200s; the endpoints are %s", ctx->path, paths);
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
    if (!read_fields(ctx)) return queue_error(ctx, &ctx->req.error, NULL);
    if (ctx->route->thread == ON_WORKER) return submit(ctx);
    run_endpoint(ctx);
    return queue_answer(ctx);
}

/* The first call for a request: remember what it is, refuse an announced oversized body at once. */
static enum MHD_Result first_call(request_context *ctx, const char *url, const char *method) {
    snprintf(ctx->method, sizeof ctx->method, "%s", method);
    snprintf(ctx->path, sizeof ctx->path, "%s", url);
    const char *length = MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (length != NULL && strtoull(length, NULL, 10) > ctx->server->config->max_body) {
        ctx->body_too_large = true;
        return dispatch(ctx); /* MHD skips 100-continue and closes */
    }
    return MHD_YES;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **con_cls) {
    (void)version;
    (void)connection;
    http_server *server = cls;
    request_context *ctx = *con_cls;
    if (ctx == NULL) return MHD_NO;
    pthread_mutex_lock(&ctx->lock);
    request_phase phase = ctx->phase;
    pthread_mutex_unlock(&ctx->lock);
    if (phase == PHASE_COMPUTED) return queue_answer(ctx);
    if (phase != PHASE_ARRIVING) return MHD_YES;
    if (elapsed_ms(&ctx->started) > server->config->request_timeout_ms) return MHD_NO; /* too slow to arrive */
    if (ctx->method[0] == '\0') return first_call(ctx, url, method);
    if (*upload_data_size != 0) {
        if (!ctx->body_too_large && ctx->body.len + *upload_data_size <= server->config->max_body) {
            jw_raw(&ctx->body, upload_data, *upload_data_size);
        } else {
            ctx->body_too_large = true; /* keep reading and dropping it; 413 at the end */
            jw_free(&ctx->body);
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    return dispatch(ctx);
}

static bool resolve(const char *host, unsigned port, struct sockaddr_storage *address, socklen_t *length) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    char service[8];
    snprintf(service, sizeof service, "%u", port);
    struct addrinfo *found = NULL;
    int status = getaddrinfo(host, service, &hints, &found);
    if (status != 0) {
        fprintf(stderr, "puzzled: cannot resolve host '%s': %s\n", host, gai_strerror(status));
        return false;
    }
    memcpy(address, found->ai_addr, found->ai_addrlen);
    *length = found->ai_addrlen;
    freeaddrinfo(found);
    return true;
}

static unsigned borrow_workers(void *owner, unsigned want) {
    return compute_pool_borrow(((http_server *)owner)->pool, want);
}

static void give_back_workers(void *owner, unsigned count) {
    compute_pool_give_back(((http_server *)owner)->pool, count);
}

http_server *http_server_start(const puzzled_config *config) {
    struct sockaddr_storage address;
    socklen_t address_length;
    if (!resolve(config->host, config->port, &address, &address_length)) return NULL;
    http_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    server->config = config;
    server->threads = (api_thread_budget){server, borrow_workers, give_back_workers};
    atomic_init(&server->draining, false);
    atomic_init(&server->cancelled, false);
    atomic_init(&server->requests_open, 0);
    server->pool = compute_pool_create(config->workers, config->queue);
    if (server->pool == NULL) {
        fprintf(stderr, "puzzled: cannot start %u compute workers\n", config->workers);
        free(server);
        return NULL;
    }
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
    if (address.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    server->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, handle, server, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)(config->threads > 1 ? config->threads : 0),
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)config->max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)config->max_connections_per_ip,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)whole_seconds(config->idle_timeout_ms),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, CONNECTION_MEMORY_BYTES, MHD_OPTION_URI_LOG_CALLBACK, begin_request,
        server, MHD_OPTION_NOTIFY_COMPLETED, end_request, server, MHD_OPTION_END);
    if (server->daemon == NULL) {
        fprintf(stderr,
                "puzzled: cannot listen on %s port %u (in use, not an address of this machine, or more "
                "--max-connections than open files allow)\n",
                config->host, config->port);
        compute_pool_destroy(server->pool);
        free(server);
        return NULL;
    }
    return server;
}

unsigned http_server_port(const http_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

/* Waits until no request is open (begun and not completed), or until `limit` passes. */
static void wait_for_open_requests(http_server *server, const deadline *limit) {
    struct timespec step = {.tv_sec = 0, .tv_nsec = 10 * 1000000};
    while (atomic_load(&server->requests_open) != 0 && !deadline_expired(limit)) nanosleep(&step, NULL);
}

/* The stop: no new connections, waiting requests refused (503 overloaded), running ones given the
 * drain time; then the rest cancelled (their computations end at the next deadline poll and answer
 * 503 deadline_exceeded) and given a short grace to send that answer. Last the pool is halted and
 * found idle, so that no connection is suspended when MHD stops. Idle keep-alive connections (a
 * proxy keeps some open to every replica) do not hold the stop up; MHD_stop_daemon closes them. */
void http_server_stop(http_server *server, unsigned drain_ms) {
    atomic_store(&server->draining, true);
    MHD_socket listener = MHD_quiesce_daemon(server->daemon);
    compute_pool_stop_admitting(server->pool);
    deadline drained = deadline_after_ms(drain_ms);
    wait_for_open_requests(server, &drained);
    atomic_store(&server->cancelled, true);
    deadline grace = deadline_after_ms(CANCEL_GRACE_MS);
    if (!compute_pool_wait_idle(server->pool, &grace)) {
        fprintf(stderr, "puzzled: a computation ignored its cancellation; waiting for it\n");
        compute_pool_wait_idle(server->pool, NULL);
    }
    wait_for_open_requests(server, &grace);
    compute_pool_halt(server->pool);
    compute_pool_wait_idle(server->pool, NULL);
    MHD_stop_daemon(server->daemon);
    if (listener != MHD_INVALID_SOCKET) close(listener);
    compute_pool_destroy(server->pool);
    free(server);
}
