/* The libmicrohttpd glue (see http.h). Every request gets a context when its URI arrives; the answer
 * is queued only after the headers (and body) are read, never on the first call, so keep-alive works
 * (answering on the first call makes MHD close the connection; see shared/notes). */
#include "server/http.h"

#include <netdb.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "api/fields.h"
#include "server/access_log.h"
#include "server/routes.h"
#include "server/stream.h"

struct http_server {
    struct MHD_Daemon *daemon;
    const puzzled_config *config;
    atomic_bool draining;      /* while stopping, answers say Connection: close */
    atomic_uint requests_open; /* begun and not yet completed */
};

typedef struct request_context {
    struct timespec started;
    char method[16];
    char path[256];
    bool headers_seen;   /* the access handler has been called once */
    bool body_too_large; /* more than --max-body arrived; answered 413 at the end */
    json_writer body;
    int status;
    uint64_t bytes_sent;
} request_context;

/* Called by MHD as soon as a request line is read: the context lives until the request completes. */
static void *begin_request(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)uri;
    (void)connection;
    http_server *server = cls;
    request_context *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL) return NULL;
    clock_gettime(CLOCK_MONOTONIC, &ctx->started);
    atomic_fetch_add(&server->requests_open, 1);
    return ctx;
}

static void end_request(void *cls, struct MHD_Connection *connection, void **con_cls,
                        enum MHD_RequestTerminationCode termination) {
    (void)connection;
    http_server *server = cls;
    request_context *ctx = *con_cls;
    if (ctx == NULL) return;
    atomic_fetch_sub(&server->requests_open, 1);
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
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (double)(now.tv_sec - ctx->started.tv_sec) * 1e3 +
                (double)(now.tv_nsec - ctx->started.tv_nsec) / 1e6;
    if (ctx->method[0] != '\0') access_log_write(ctx->method, ctx->path, ctx->status, ctx->bytes_sent, ms, outcome);
    jw_free(&ctx->body);
    free(ctx);
    *con_cls = NULL;
}

/* Headers every answer carries. */
static void add_common_headers(http_server *server, struct MHD_Response *response, const char *content_type) {
    if (content_type != NULL) MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    MHD_add_response_header(response, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, server->config->cors_origin);
    if (strcmp(server->config->cors_origin, "*") != 0) MHD_add_response_header(response, "Vary", "Origin");
    if (atomic_load(&server->draining)) MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
}

static enum MHD_Result queue(http_server *server, struct MHD_Connection *connection, request_context *ctx,
                             int status, struct MHD_Response *response, const char *content_type) {
    if (response == NULL) return MHD_NO; /* out of memory: MHD closes the connection */
    add_common_headers(server, response, content_type);
    ctx->status = status;
    enum MHD_Result result = MHD_queue_response(connection, (unsigned)status, response);
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

static enum MHD_Result queue_error(http_server *server, struct MHD_Connection *connection, request_context *ctx,
                                   const api_error *error, const char *allow) {
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
    return queue(server, connection, ctx, error->status, response, "application/json");
}

static enum MHD_Result fail(http_server *server, struct MHD_Connection *connection, request_context *ctx,
                            api_error_kind kind, const char *allow, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static enum MHD_Result fail(http_server *server, struct MHD_Connection *connection, request_context *ctx,
                            api_error_kind kind, const char *allow, const char *fmt, ...) {
    api_error error;
    va_list args;
    va_start(args, fmt);
    api_error_set(&error, kind, NULL, fmt, args);
    va_end(args);
    return queue_error(server, connection, ctx, &error, allow);
}

static enum MHD_Result answer_preflight(http_server *server, struct MHD_Connection *connection,
                                        request_context *ctx, const route *r) {
    char allow[64];
    route_allow_header(r, allow, sizeof allow);
    struct MHD_Response *response = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (response == NULL) return MHD_NO;
    const char *requested =
        MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Access-Control-Request-Headers");
    MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, allow);
    MHD_add_response_header(response, "Access-Control-Allow-Methods", allow);
    MHD_add_response_header(response, "Access-Control-Allow-Headers",
                            requested != NULL ? requested : "Content-Type, Accept");
    MHD_add_response_header(response, "Access-Control-Max-Age", "86400");
    return queue(server, connection, ctx, 204, response, NULL);
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

/* Parses, checks and runs the endpoint; on success `res` holds the answer. */
static bool run_endpoint(http_server *server, struct MHD_Connection *connection, request_context *ctx,
                         const char *method, const route *r, api_request *req, api_response *res) {
    const char *accept = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    req->ndjson = accept != NULL && strstr(accept, "application/x-ndjson") != NULL;
    req->limits = &server->config->limits;
    req->deadline = deadline_after_ms(server->config->limits.time_limit_ms);
    const char *type = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    bool post = strcmp(method, "POST") == 0;
    if (post && (r->methods & ROUTE_TEXT_BODY) && type != NULL && strncasecmp(type, "text/plain", 10) == 0) {
        req->text_body = ctx->body.data ? ctx->body.data : "";
        req->text_body_len = ctx->body.len;
        post = false; /* the fields come from the query string alone */
    }
    bool ok = post ? fields_parse_body(req, ctx->body.data ? ctx->body.data : "", ctx->body.len)
                   : fields_parse_body(req, "", 0);
    if (ok) {
        query_walk walk = {req, r->endpoint->fields, true};
        MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, add_query_argument, &walk);
        ok = walk.ok;
    }
    ok = ok && fields_check(req, r->endpoint->fields) && r->endpoint->handler(req, res);
    if (ok && res->body.out_of_memory)
        ok = api_fail_out_of_memory(req);
    if (!ok && req->error.status == 0)
        api_fail(req, API_INTERNAL_ERROR, NULL, "the endpoint failed without saying why");
    return ok;
}

static enum MHD_Result dispatch(http_server *server, struct MHD_Connection *connection, request_context *ctx,
                                const char *method) {
    const route *r = route_find(ctx->path);
    if (r == NULL) {
        char paths[512];
        route_list_paths(paths, sizeof paths);
        return fail(server, connection, ctx, API_NOT_FOUND, NULL, "no endpoint at %.200s; the endpoints are %s",
                    ctx->path, paths);
    }
    if (strcmp(method, "OPTIONS") == 0) return answer_preflight(server, connection, ctx, r);
    if ((route_method_bit(method) & r->methods) == 0) {
        char allow[64];
        route_allow_header(r, allow, sizeof allow);
        return fail(server, connection, ctx, API_METHOD_NOT_ALLOWED, allow,
                    "%.15s is not allowed on %s; use one of: %s", method, r->path, allow);
    }
    if (ctx->body_too_large)
        return fail(server, connection, ctx, API_PAYLOAD_TOO_LARGE, NULL,
                    "the request body is larger than %zu bytes (the server's --max-body)", server->config->max_body);

    api_request req = {0};
    api_response res = {.status = 200, .content_type = "application/json"};
    jw_init(&res.body);
    enum MHD_Result result;
    if (!run_endpoint(server, connection, ctx, method, r, &req, &res)) {
        if (res.stream_state != NULL) res.stream_free(res.stream_state);
        result = queue_error(server, connection, ctx, &req.error, NULL);
    } else if (res.stream_state != NULL) {
        result = queue(server, connection, ctx, res.status, stream_response_create(&res, &ctx->bytes_sent),
                       res.content_type);
    } else {
        ctx->bytes_sent = res.body.len;
        result = queue(server, connection, ctx, res.status, buffer_response(&res.body), res.content_type);
    }
    jw_free(&res.body);
    cJSON_Delete(req.params);
    return result;
}

/* The first call for a request: remember what it is, refuse an announced oversized body at once. */
static enum MHD_Result first_call(http_server *server, struct MHD_Connection *connection, request_context *ctx,
                                  const char *url, const char *method) {
    ctx->headers_seen = true;
    snprintf(ctx->method, sizeof ctx->method, "%s", method);
    snprintf(ctx->path, sizeof ctx->path, "%s", url);
    jw_init(&ctx->body);
    const char *length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (length != NULL && strtoull(length, NULL, 10) > server->config->max_body) {
        ctx->body_too_large = true;
        return dispatch(server, connection, ctx, method); /* MHD skips 100-continue and closes */
    }
    return MHD_YES;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **con_cls) {
    (void)version;
    http_server *server = cls;
    request_context *ctx = *con_cls;
    if (ctx == NULL) return MHD_NO;
    if (!ctx->headers_seen) return first_call(server, connection, ctx, url, method);
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
    if (ctx->status != 0) return MHD_YES; /* already answered (413 on the first call) */
    return dispatch(server, connection, ctx, method);
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

http_server *http_server_start(const puzzled_config *config) {
    struct sockaddr_storage address;
    socklen_t address_length;
    if (!resolve(config->host, config->port, &address, &address_length)) return NULL;
    http_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    server->config = config;
    atomic_init(&server->draining, false);
    atomic_init(&server->requests_open, 0);
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (address.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    server->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, handle, server, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)(config->threads > 1 ? config->threads : 0),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)60, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)(256 * 1024), MHD_OPTION_URI_LOG_CALLBACK, begin_request, server, MHD_OPTION_NOTIFY_COMPLETED,
        end_request, server, MHD_OPTION_END);
    if (server->daemon == NULL) {
        fprintf(stderr, "puzzled: cannot listen on %s port %u (in use, or not an address of this machine)\n",
                config->host, config->port);
        free(server);
        return NULL;
    }
    return server;
}

unsigned http_server_port(const http_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

/* Waits until no request is in flight: idle keep-alive connections (a proxy keeps some open to every
 * replica) do not hold the stop up; MHD_stop_daemon closes them. */
void http_server_stop(http_server *server, unsigned drain_ms) {
    atomic_store(&server->draining, true);
    MHD_socket listener = MHD_quiesce_daemon(server->daemon);
    deadline drained = deadline_after_ms(drain_ms);
    struct timespec step = {.tv_sec = 0, .tv_nsec = 10 * 1000000};
    while (atomic_load(&server->requests_open) != 0 && !deadline_expired(&drained)) nanosleep(&step, NULL);
    MHD_stop_daemon(server->daemon);
    if (listener != MHD_INVALID_SOCKET) close(listener);
    free(server);
}
