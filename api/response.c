/* A request's start, the two ways an endpoint answers (a small JSON document or a stream) and the way
 * it fails. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "core/common/decimal.h"

void api_request_init(api_request *req) {
    req->params = NULL;
    req->ndjson = req->plain_text = false;
    req->time_limit = req->deadline = deadline_none();
    req->time_limit_ms = 0;
    req->limits = NULL;
    req->ready = false;
    api_error_clear(&req->error);
    req->text_body = NULL;
    req->text_body_len = 0;
}

bool api_fail(api_request *req, api_error_kind kind, const char *field, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    api_error_set(&req->error, kind, field, fmt, args);
    va_end(args);
    return false;
}

bool api_fail_details(api_request *req, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    api_error_set_details(&req->error, fmt, args);
    va_end(args);
    return false;
}

bool api_fail_range(api_request *req, long long min, long long max, long long received) {
    return api_fail_details(req, "{\"min\":%lld,\"max\":%lld,\"received\":%lld}", min, max, received);
}

static const char deadline_message[] = "the computation did not finish within its time limit; ask for less work, or "
                                       "raise time_limit_ms (at most the server's --time-limit-ms)";
static const char out_of_memory_message[] = "the server ran out of memory; retry later or ask for less";

bool api_fail_deadline(api_request *req) { return api_fail(req, API_DEADLINE_EXCEEDED, NULL, "%s", deadline_message); }

bool api_fail_out_of_memory(api_request *req) {
    return api_fail(req, API_OUT_OF_MEMORY, NULL, "%s", out_of_memory_message);
}

bool api_fail_status(api_request *req, core_status status) {
    switch (status) {
    case CORE_OK: return true;
    case CORE_DEADLINE: return api_fail_deadline(req);
    case CORE_NO_MEMORY: break;
    }
    return api_fail_out_of_memory(req);
}

bool api_always_varies(const api_request *req) {
    (void)req;
    return true;
}

void api_open_answer(json_writer *out, const char *kind) {
    if (kind == NULL) {
        jw_char(out, '{');
        return;
    }
    jw_str(out, "{\"kind\":\"");
    jw_str(out, kind);
    jw_str(out, "\",");
}

void api_write_next_offset(json_writer *out, const char *decimal) {
    jw_str(out, "\"next_offset\":");
    if (decimal == NULL) {
        jw_str(out, "null");
        return;
    }
    jw_char(out, '"');
    jw_str(out, decimal);
    jw_char(out, '"');
}

/* {"kind":"rank","rank":"...","total":"..."}: both numbers converted at once, the total first written behind room
 * for the rank and the separator, then moved down next to them (milliseconds for millions of digits). */
void api_respond_rank(api_response *res, const mpz_t rank, const mpz_t total) {
    static const char head[] = "\"rank\":\"", between[] = "\",\"total\":\"", tail[] = "\"}";
    json_writer *out = &res->body;
    bb_clear(out);
    api_open_answer(out, "rank");
    size_t rank_room = decimal_room(rank), total_room = decimal_room(total);
    if (!bb_reserve(out, sizeof head + rank_room + sizeof between + total_room + sizeof tail)) return;
    jw_str(out, head);
    char *rank_text = out->data + out->len, *total_text = rank_text + rank_room + sizeof between;
    size_t rank_length, total_length;
    decimal_write_pair(rank_text, rank, &rank_length, total_text, total, &total_length);
    out->len += rank_length;
    jw_str(out, between); /* ends before total_text, as does the NUL the writer keeps after it */
    memmove(out->data + out->len, total_text, total_length);
    out->len += total_length;
    jw_str(out, tail);
}

/* An NDJSON body's generator, wrapped so that its failure ends the body with an error line (see
 * api_respond_stream): the one place every NDJSON stream ends honestly. */
typedef struct ndjson_stream {
    void *state;
    stream_next_fn next;
    stream_free_fn free_state;
    deadline time_limit; /* the request's: expired, a failure is deadline_exceeded, else out_of_memory */
} ndjson_stream;

static void error_line(api_error *error, api_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void error_line(api_error *error, api_error_kind kind, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    api_error_set(error, kind, NULL, fmt, args);
    va_end(args);
}

static stream_status ndjson_next(void *state, json_writer *out, size_t want) {
    ndjson_stream *s = state;
    size_t start = out->len;
    stream_status status = s->next(s->state, out, want);
    if (status != STREAM_FAILED || out->out_of_memory) return status;
    bb_truncate(out, start); /* the failing call may have stopped mid-line */
    api_error error;
    if (deadline_expired(&s->time_limit)) error_line(&error, API_DEADLINE_EXCEEDED, "%s", deadline_message);
    else error_line(&error, API_OUT_OF_MEMORY, "%s", out_of_memory_message);
    api_error_write(&error, out);
    jw_char(out, '\n');
    return out->out_of_memory ? STREAM_FAILED : STREAM_DONE;
}

static void ndjson_free(void *state) {
    ndjson_stream *s = state;
    s->free_state(s->state);
    free(s);
}

void api_respond_stream(const api_request *req, api_response *res, void *state, stream_next_fn next,
                        stream_free_fn free_state, bool ndjson) {
    res->stream_state = state;
    res->stream_next = next;
    res->stream_free = free_state;
    res->content_type = ndjson ? "application/x-ndjson" : "application/json";
    ndjson_stream *wrapped = ndjson ? malloc(sizeof *wrapped) : NULL;
    if (wrapped == NULL) return; /* a JSON array; or no memory for the wrapper: a failure then cuts the body */
    *wrapped = (ndjson_stream){state, next, free_state, req->time_limit};
    res->stream_state = wrapped;
    res->stream_next = ndjson_next;
    res->stream_free = ndjson_free;
}

void api_respond_bounded_stream(const api_request *req, api_response *res, void *state, stream_next_fn next,
                                stream_free_fn free_state, bool ndjson) {
    api_respond_stream(req, res, state, next, free_state, ndjson);
    res->stream_bounded = true;
}

void api_respond_overlapped_stream(const api_request *req, api_response *res, void *state, stream_next_fn next,
                                   stream_free_fn free_state, bool ndjson) {
    api_respond_stream(req, res, state, next, free_state, ndjson);
    res->stream_overlapped = true;
}

/* Takes the generator out of its NDJSON wrapper, for a body collected whole: its failure is then an
 * error status, not a line inside a 200. */
static void unwrap_ndjson(api_response *res) {
    if (res->stream_next != ndjson_next) return;
    ndjson_stream *s = res->stream_state;
    res->stream_state = s->state;
    res->stream_next = s->next;
    res->stream_free = s->free_state;
    free(s);
}

bool api_collect_stream(api_request *req, api_response *res, size_t max_bytes) {
    unwrap_ndjson(res);
    void *state = res->stream_state;
    res->stream_state = NULL;
    res->stream_bounded = false;
    res->stream_overlapped = false;
    bb_clear(&res->body);
    stream_status status;
    do { /* asks for one byte past the bound at most, so an answer over it is seen without more work */
        size_t want = max_bytes == SIZE_MAX ? SIZE_MAX : max_bytes - res->body.len + 1;
        status = res->stream_next(state, &res->body, want);
    } while (status == STREAM_MORE && !res->body.out_of_memory && res->body.len <= max_bytes);
    res->stream_free(state);
    bool complete = status == STREAM_DONE && !res->body.out_of_memory && res->body.len <= max_bytes;
    if (complete) return true;
    bool out_of_memory = res->body.out_of_memory, too_large = res->body.len > max_bytes;
    bb_clear(&res->body);
    if (too_large)
        return api_fail(req, API_TOO_LARGE, NULL,
                        "the answer is over %zu bytes, too large to be held for one event; ask without "
                        "Accept: text/event-stream to have it streamed",
                        max_bytes);
    return out_of_memory ? api_fail_out_of_memory(req) : api_fail_deadline(req);
}

bool api_respond_whole(api_request *req, api_response *res, void *state, stream_next_fn next, stream_free_fn free_state,
                       bool ndjson) {
    api_respond_stream(req, res, state, next, free_state, ndjson);
    return api_collect_stream(req, res, SIZE_MAX);
}
