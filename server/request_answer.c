/* A request's answer queued on libmicrohttpd, on the I/O thread: a complete body, a stream, an
 * event stream, an error, a preflight, a bodiless status; and the headers every answer carries
 * (content type, CORS, rate-limit quota, request id, caching, the close of a draining server). All
 * answers go out through answer_queue(), so that each carries the same headers and the request
 * moves on to ANSWERING in one place. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server/cors.h"
#include "server/request_internal.h"

/* The headers a page may read on a cross-origin answer. */
#define EXPOSED_HEADERS "X-Request-Id, Retry-After, ETag, Content-Encoding, RateLimit-Policy, RateLimit"

/* What marks an entity tag weak (RFC 9110 8.8.1). */
#define WEAK_PREFIX "W/"

/* Caching: a 200 or 304 that is a pure function of the request may be kept; nothing else may. */
static void add_cache_headers(request_context *ctx, struct MHD_Response *response, int status) {
    if ((status == 200 || status == 304) && ctx->etag[0] != '\0') {
        /* gzip bytes depend on where pieces were flushed: the same content, not the same bytes: weak */
        const char *tag = ctx->etag;
        char weak[sizeof WEAK_PREFIX - 1 + ETAG_SIZE];
        if (ctx->gzip) {
            memcpy(weak, WEAK_PREFIX, sizeof WEAK_PREFIX - 1);
            memcpy(weak + sizeof WEAK_PREFIX - 1, ctx->etag, ETAG_SIZE);
            tag = weak;
        }
        MHD_add_response_header(response, MHD_HTTP_HEADER_ETAG, tag);
        MHD_add_response_header(response, MHD_HTTP_HEADER_CACHE_CONTROL,
                                ctx->route->endpoint->revalidate ? "public, no-cache" : ctx->server->cache_control);
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
    /* A computation's body is JSON, NDJSON, text or events by Accept: a cache keeps one per Accept. */
    if ((status == 200 || status == 304) && ctx->route != NULL && ctx->route->thread == ON_WORKER)
        MHD_add_response_header(response, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT);
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

enum MHD_Result answer_queue(request_context *ctx, int status, struct MHD_Response *response,
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
    request_lock(ctx); /* an event stream's 200 may be queued while its job runs */
    request_move(ctx, request_state_of(ctx) == REQUEST_COMPUTING ? REQUEST_PROGRESSING : REQUEST_ANSWERING);
    request_unlock(ctx);
    MHD_set_connection_option(ctx->connection, MHD_CONNECTION_OPTION_TIMEOUT,
                              http_whole_seconds(ctx->server->config->idle_timeout_ms));
    enum MHD_Result result = MHD_queue_response(ctx->connection, (unsigned)status, response);
    MHD_destroy_response(response);
    return result;
}

enum MHD_Result answer_empty(request_context *ctx, int status) {
    return answer_queue(ctx, status, MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT), NULL);
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

enum MHD_Result answer_error(request_context *ctx, const api_error *error, const char *allow) {
    ctx->answered_deadline = error->kind == API_DEADLINE_EXCEEDED;
    json_writer text;
    bb_init(&text);
    api_error_write(error, &text);
    if (text.out_of_memory) {
        bb_free(&text);
        ctx->bytes_sent = sizeof out_of_memory_body - 1;
        return answer_queue(ctx, 500,
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
        snprintf(seconds, sizeof seconds, "%u", admission_retry_after(ctx));
        MHD_add_response_header(response, MHD_HTTP_HEADER_RETRY_AFTER, seconds);
    }
    return answer_queue(ctx, error->status, response, "application/json");
}

enum MHD_Result answer_fail(request_context *ctx, api_error_kind kind, const char *allow, const char *fmt, ...) {
    api_error error;
    va_list args;
    va_start(args, fmt);
    api_error_set(&error, kind, NULL, fmt, args);
    va_end(args);
    return answer_error(ctx, &error, allow);
}

enum MHD_Result answer_preflight(request_context *ctx) {
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
    return answer_queue(ctx, 204, response, NULL);
}

enum MHD_Result answer_event_stream(request_context *ctx) {
    ctx->streamed = true;
    struct MHD_Response *response = event_stream_response(ctx->events, &ctx->bytes_sent);
    compression_add_headers(response, false); /* Vary as on every answer of the route; never gzip'd */
    return answer_queue(ctx, 200, response, "text/event-stream");
}

enum MHD_Result answer_result(request_context *ctx) {
    api_response *res = &ctx->res;
    /* Answered plainly before the computation began: a client error, and a refusal to admit it (a full
     * queue, a stop: a real 503 with Retry-After, which clients and EventSource users retry). The rest
     * is streamed. */
    bool refused = ctx->req.error.kind == API_OVERLOADED;
    if (ctx->events != NULL &&
        (ctx->answered_ok || (ctx->req.error.status >= 500 && !refused) || event_stream_begun(ctx->events)))
        return answer_event_stream(ctx);
    if (!ctx->answered_ok) {
        if (res->stream_state != NULL) res->stream_free(res->stream_state);
        res->stream_state = NULL;
        return answer_error(ctx, &ctx->req.error, NULL);
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
            return answer_error(ctx, &ctx->req.error, NULL);
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
        return answer_error(ctx, &ctx->req.error, NULL);
    }
    if (ctx->compressible) compression_add_headers(response, ctx->gzip);
    return answer_queue(ctx, res->status, response, res->content_type);
}
