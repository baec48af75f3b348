/* A request as it arrives, on its I/O thread, and where it goes. The first call remembers what the
 * request is and refuses at once what breaks the HTTP/1.1 rules or the server's limits; the body is
 * read up to --max-body; once it has all arrived, the request is routed. libmicrohttpd's I/O threads
 * answer at once whatever is cheap and bounded: errors (400, 404, 405, 413, 414), CORS preflights,
 * conditional GETs that match (304), the routes marked ON_IO_THREAD (/healthz, /readyz,
 * /openapi.yaml, /metrics), and the requests whose endpoint only sets up a bounded stream
 * (api_endpoint.starts_at_once). Everything else computes (server/request_schedule.c).
 *
 * Slow clients: each connection starts with the short --request-timeout-ms inactivity timeout while
 * its request arrives, and a request that has not fully arrived by then (counted from its first
 * line) is dropped; once the answer is queued the timeout becomes --idle-timeout-ms, for sending and
 * for the idle keep-alive wait (server/request_answer.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/accept.h"
#include "server/access_log.h"
#include "server/alloc_failure.h"
#include "server/metrics.h"
#include "server/printable.h"
#include "server/request_internal.h"
#include "server/strict_http.h"

/* An announced body over --max-body up to this size is read and dropped before the 413, so that the
 * client, still sending, reads the answer; a larger one is refused at once and the connection closed. */
#define DISCARD_BODY_BYTES ((uint64_t)16 << 20)

/* A request of a worker's route that its endpoint says computes nothing before its stream starts
 * (api_endpoint.starts_at_once) runs here on the I/O thread, unless it follows its progress (an event
 * stream) or the pool would refuse it (stopping, or its queue full: the 503 is then the same as for
 * any other computing request). */
static bool starts_at_once(request_context *ctx) {
    const api_endpoint *endpoint = ctx->route->endpoint;
    return endpoint->starts_at_once != NULL && !ctx->wants_events && ctx->req.ready &&
           endpoint->starts_at_once(&ctx->req);
}

/* The route, or the 404 or 405 that says why there is none; NULL when answered. */
static const route *find_route(request_context *ctx, enum MHD_Result *answered) {
    const route *found = route_find(ctx->path);
    /* With --admin-port, /metrics lives there alone. */
    bool metrics = found != NULL && found->endpoint == &metrics_endpoint;
    if (ctx->admin ? !metrics : metrics && ctx->server->admin_daemon != NULL) found = NULL;
    if (found == NULL && ctx->admin) {
        *answered = answer_fail(ctx, API_NOT_FOUND, NULL, "the admin port serves /metrics only");
        return NULL;
    }
    if (found == NULL) {
        char paths[768], shown[201];
        route_list_paths(paths, sizeof paths);
        printable_ascii(shown, sizeof shown, ctx->path);
        *answered = answer_fail(ctx, API_NOT_FOUND, NULL, "no endpoint at %s; the endpoints are %s", shown, paths);
    }
    return found;
}

/* Reads each Accept line of the request, in their order, into the ranking: one list (RFC 9110 5.3). */
static enum MHD_Result read_accept(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    if (strcasecmp(key, MHD_HTTP_HEADER_ACCEPT) == 0) accept_ranking_read(cls, value);
    return MHD_YES;
}

/* The bits of the route's media types whose form Accept chooses (routes.h's MEDIA_ ones). */
static unsigned chosen_by_accept(const char *const *media) {
    static const char *const forms[] = {MEDIA_JSON, MEDIA_NDJSON, MEDIA_TEXT, MEDIA_EVENTS};
    unsigned bits = 0;
    for (unsigned i = 0; media[i] != NULL; i++) {
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
            if (strcmp(media[i], forms[f]) == 0) bits |= 1u << i;
        }
    }
    return bits;
}

/* Room for a route's media types listed, quoted or not (at most five, each under 32 bytes). */
enum { MEDIA_LIST_SIZE = 256 };

/* "a, b" for the message, or "\"a\",\"b\"" for a JSON array. */
static void list_media(const char *const *media, bool quoted, char out[MEDIA_LIST_SIZE]) {
    size_t at = 0;
    out[0] = '\0';
    for (const char *const *type = media; *type != NULL && at < MEDIA_LIST_SIZE; type++) {
        const char *separator = type == media ? "" : quoted ? "," : ", ";
        at += (size_t)snprintf(out + at, MEDIA_LIST_SIZE - at, quoted ? "%s\"%s\"" : "%s%s", separator, *type);
    }
}

/* Content negotiation, decided before the fields are read, so nothing is computed or counted for a
 * 406: the 406 for a request whose Accept excludes every media type of the route's answers, naming
 * them; otherwise the form the answer takes, of those Accept chooses the one it prefers (JSON where
 * it prefers none of them: it wants the SVG that `format` draws, or nothing this route makes). */
static bool negotiate(request_context *ctx, enum MHD_Result *answered) {
    const char *accept = MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    if (accept == NULL) return true; /* JSON, the request's form as it starts */
    accept_ranking ranking;
    accept_ranking_start(&ranking, ctx->route->media);
    MHD_get_connection_values(ctx->connection, MHD_HEADER_KIND, read_accept, &ranking);
    if (accept_ranking_choice(&ranking, ACCEPT_AMONG_ALL) >= 0) {
        int form = accept_ranking_choice(&ranking, chosen_by_accept(ctx->route->media));
        const char *type = form >= 0 ? ctx->route->media[form] : MEDIA_JSON;
        ctx->req.ndjson = strcmp(type, MEDIA_NDJSON) == 0;
        ctx->req.plain_text = strcmp(type, MEDIA_TEXT) == 0;
        ctx->wants_events = (ctx->route->methods & ROUTE_PROGRESS) && strcmp(type, MEDIA_EVENTS) == 0;
        return true;
    }
    char listed[MEDIA_LIST_SIZE], quoted[MEDIA_LIST_SIZE];
    list_media(ctx->route->media, false, listed);
    list_media(ctx->route->media, true, quoted);
    char shown[201];
    printable_ascii(shown, sizeof shown, accept);
    api_fail(&ctx->req, API_NOT_ACCEPTABLE, NULL,
             "%s answers with %s; the request's Accept (%s) excludes them all: accept one of them, or */*",
             ctx->route->path, listed, shown);
    api_fail_details(&ctx->req, "{\"available\":[%s]}", quoted);
    *answered = answer_error(ctx, &ctx->req.error, NULL);
    return false;
}

/* The request has fully arrived: answer what is cheap here, hand the rest to the pool. */
static enum MHD_Result dispatch(request_context *ctx) {
    enum MHD_Result answered;
    ctx->route = find_route(ctx, &answered);
    if (ctx->route == NULL) return answered;
    if (strcmp(ctx->method, "OPTIONS") == 0) return answer_preflight(ctx);
    if ((route_method_bit(ctx->method) & ctx->route->methods) == 0) {
        char allow[64];
        route_allow_header(ctx->route, allow, sizeof allow);
        return answer_fail(ctx, API_METHOD_NOT_ALLOWED, allow, "%.15s is not allowed on %s; use one of: %s",
                           ctx->method, ctx->route->path, allow);
    }
    if (ctx->body_too_large)
        return answer_fail(ctx, API_PAYLOAD_TOO_LARGE, NULL,
                           "the request body is larger than %zu bytes (the server's --max-body)",
                           ctx->server->config->max_body);
    if (!negotiate(ctx, &answered)) return answered;
    /* an EventSource reconnecting after its stream's end: 204 stops it; nothing computed, nothing counted */
    if (ctx->wants_events && event_stream_reconnecting(ctx->connection)) return answer_empty(ctx, 204);
    if (!endpoint_read_fields(ctx)) return answer_error(ctx, &ctx->req.error, NULL);
    const api_endpoint *endpoint = ctx->route->endpoint;
    ctx->estimate_seconds = endpoint->estimate_seconds != NULL ? endpoint->estimate_seconds(&ctx->req) : -1;
    ctx->long_running = (endpoint->long_running != NULL && endpoint->long_running(&ctx->req)) ||
                        ctx->estimate_seconds > COMPUTE_EXPRESS_SLICE_MS / 1e3;
    /* an event stream is never cached (Cache-Control: no-store) */
    ctx->pure = !ctx->wants_events && (endpoint->varies == NULL || !endpoint->varies(&ctx->req));
    const char *if_none_match =
        MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    /* The tag is worked out here only for a conditional GET (or HEAD); otherwise where the endpoint runs. */
    if (ctx->pure && route_method_bit(ctx->method) == METHOD_GET && if_none_match != NULL) {
        endpoint_tag(ctx);
        if (etag_matches(if_none_match, ctx->etag)) return answer_empty(ctx, 304);
    }
    if (ctx->route->thread == ON_WORKER) {
        enum MHD_Result refused;
        if (!share_take(ctx, &refused)) return refused;
        /* counted as the computing request it is, without the pool */
        if (!starts_at_once(ctx)) return schedule_compute(ctx);
    }
    endpoint_run(ctx);
    return answer_result(ctx);
}

/* Keeps the first bytes of the path that fit in `kept` (`size` bytes); a longer path ends in
 * LOG_CUT_MARK, so its access line and its 404 say that it was cut (no route is that long). */
static void keep_path(char *kept, size_t size, const char *url) {
    if ((size_t)snprintf(kept, size, "%s", url) >= size)
        memcpy(kept + size - sizeof LOG_CUT_MARK, LOG_CUT_MARK, sizeof LOG_CUT_MARK);
}

/* The first call for a request: remember what it is; refuse at once what breaks HTTP/1.1 rules
 * (server/strict_http.h), a target over --max-url, and an announced body over --max-body when the
 * client waits for 100-continue or the body is too large to read and drop (the connection is then
 * closed); a smaller oversized body is read and dropped, and the 413 comes after it, so the client
 * reads the answer instead of a broken pipe. */
static enum MHD_Result first_call(request_context *ctx, const char *url, const char *method, const char *version) {
    snprintf(ctx->method, sizeof ctx->method, "%s", method);
    keep_path(ctx->path, sizeof ctx->path, url);
    request_id_choose(ctx->request_id, MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, "X-Request-Id"));
    ctx->fails_allocation =
        alloc_failure_arm(MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, ALLOC_FAILURE_HEADER));
    ctx->pause_at =
        lifecycle_hook_point(MHD_lookup_connection_value(ctx->connection, MHD_HEADER_KIND, LIFECYCLE_PAUSE_HEADER));
    clients_identify(ctx->server->clients, ctx->connection, ctx->client);
    api_error refusal;
    if (!strict_http_check(ctx->connection, version, &refusal)) return answer_error(ctx, &refusal, NULL);
    if (ctx->target_too_long)
        return answer_fail(ctx, API_URI_TOO_LONG, NULL,
                           "the request target (path and query) is longer than %zu bytes (the server's --max-url); "
                           "send large fields in a POST body",
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

enum MHD_Result dispatch_arriving(request_context *ctx, const char *url, const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size) {
    const puzzled_config *config = ctx->server->config;
    if (request_elapsed_ms(ctx) > config->request_timeout_ms) return MHD_NO; /* too slow to arrive */
    if (ctx->method[0] == '\0') return first_call(ctx, url, method, version);
    if (*upload_data_size != 0) {
        if (!ctx->body_too_large && ctx->body.len + *upload_data_size <= config->max_body) {
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
