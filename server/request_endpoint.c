/* What a request's endpoint is given and what it gives back: the fields read from the body and the
 * query string and type-checked (on the I/O thread), the handler's run (on a worker, or on the I/O
 * thread for the cheap routes and small work), the answer's ETag, worked out from the request alone,
 * and its content coding. Compression runs where the endpoint ran, on a worker, never on an I/O
 * thread: there only a web page is sent gzip'd, from its start-up copy (server/static_gzip.h). */
#include <string.h>
#include <strings.h>

#include "api/fields.h"
#include "api/json_allocation.h"
#include "base/json_writer.h"
#include "server/request_internal.h"
#include "server/static_gzip.h"

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

bool endpoint_read_fields(request_context *ctx) {
    http_server *server = ctx->server;
    api_request *req = &ctx->req;
    if (ctx->body.out_of_memory) return api_fail_out_of_memory(req); /* the body could not be kept */
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

/* The longest representation endpoint_tag writes, with jw_put_uint's room for each number. */
#define REPRESENTATION_SIZE (sizeof "ndjson text gzip= identity=" + 2 * JW_UINT_MAX_DIGITS)

void endpoint_tag(request_context *ctx) {
    /* the media types and the codings the client takes shape the bytes: "json gzip=1000 identity=1" */
    char representation[REPRESENTATION_SIZE];
    char *to = stpcpy(representation, ctx->req.ndjson ? "ndjson" : "json");
    if (ctx->req.plain_text) to = stpcpy(to, " text");
    to = jw_put_uint(stpcpy(to, " gzip="), ctx->codings.gzip);
    to = jw_put_uint(stpcpy(to, " identity="), ctx->codings.identity);
    *to = '\0';
    etag_of_request(ctx->etag, &ctx->server->etag_seed, ctx->route->path, representation, ctx->req.params,
                    ctx->req.text_body, ctx->req.text_body_len);
}

void endpoint_run(request_context *ctx) {
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
    if (ctx->pure && ctx->etag[0] == '\0') endpoint_tag(ctx);
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

void endpoint_reset_answer(request_context *ctx) {
    api_response *res = &ctx->res;
    if (res->stream_state != NULL) res->stream_free(res->stream_state);
    byte_buffer body = res->body;
    bb_clear(&body);
    *res = (api_response){.status = 200, .content_type = "application/json", .body = body};
    api_error_clear(&ctx->req.error);
}
