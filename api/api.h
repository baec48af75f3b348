/* The contract between the server and the endpoint files in api/: what a request looks like once
 * parsed and checked, and the two shapes of answer (a small JSON document or a streamed generator).
 *
 * Every endpoint file (api/<domain>/) has the same shape:
 *   1. a table of the fields it accepts (api_field[]) — the server rejects unknown fields, checks
 *      types and maps GET query parameters onto the same fields, so one validation path serves both;
 *   2. a handler named answer_<endpoint> that reads the fields into a typed struct with the param_* readers (api/params.h),
 *      runs core/, and answers by writing its JSON into res->body with the JSON writer
 *      (base/json_writer.h; big integers with api/json_big_integer.h) or with api_respond_stream(), or
 *      fails with api_fail().
 *   3. an `const api_endpoint <name>_endpoint` that server/routes.c lists. */
#ifndef PUZZLED_API_API_H
#define PUZZLED_API_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "api/errors.h"
#include "api/json_big_integer.h"
#include "base/json_writer.h"
#include "core/common/deadline.h"
#include "core/common/status.h"
#include "api/limits.h"

/* 2^53 - 1: the largest integer a JSON number carries exactly (a double's 53-bit significand). Larger
 * integers travel as strings of digits. */
#define API_MAX_EXACT_INTEGER INT64_C(9007199254740991)

/* Field types. The server checks them before the handler runs; for GET the query string value is
 * converted according to the declared type. */
typedef enum field_type {
    FIELD_INTEGER,                /* JSON number with an integral value, |v| <= 2^53-1 */
    FIELD_BOOLEAN,                /* true / false */
    FIELD_STRING,                 /* JSON string */
    FIELD_ARRAY,                  /* JSON array of anything; GET: comma-separated, numbers/true/false as such */
    FIELD_STRING_ARRAY,           /* JSON array of strings; GET: comma-separated, every piece a string */
    FIELD_STRING_OR_STRING_ARRAY, /* a JSON string (a name) or array of strings; GET as FIELD_STRING_ARRAY */
    FIELD_BIG_INTEGER,            /* integer JSON number or a string (checked by the handler: decimal, hex seed ...);
                          GET keeps the text as a string, so no precision is lost */
} field_type;

typedef struct api_field {
    const char *name;
    field_type type;
} api_field;

typedef struct api_request {
    cJSON *params;            /* a JSON object holding only declared fields, types already checked */
    bool ndjson;              /* the client's Accept prefers application/x-ndjson */
    bool plain_text;          /* the client's Accept prefers text/plain (bulk /sudoku/solve: a text
                                 line a puzzle) */
    deadline time_limit;      /* from --time-limit-ms, or the smaller time_limit_ms of the request,
                                 counted from the request's arrival */
    uint64_t time_limit_ms;   /* that limit's whole length (0: none), what hopeless work is weighed
                                 against (api/cost_estimates.h) however long the request waited */
    deadline deadline;        /* what the handler's computation polls: time_limit, or a shorter slice of
                                 it (the server's express lane, server/compute_pool.h). A handler that
                                 fails at this deadline may be run again with the rest of time_limit, so
                                 it must not keep state across runs; a stream's generator keeps
                                 time_limit, since pieces are produced after the handler returns */
    const api_limits *limits; /* the server's limits, set at start-up */
    bool ready;               /* the server admits new work (not stopping, queue not full): /readyz */
    api_error error;          /* filled by api_fail() */
    const char *text_body;    /* a text/plain POST body on a route that takes one (ROUTE_TEXT_BODY in
                                 server/routes.h; the fields then come from the query string); else NULL */
    size_t text_body_len;
} api_request;

/* A request with no fields and no error yet; its error's text, most of its size, is left as it is
 * (api_error_clear). */
void api_request_init(api_request *req);

/* A streamed body. `next` appends the next part of the body to `out` — at least `want` bytes unless
 * the body ends — and returns STREAM_MORE, or STREAM_DONE after appending the last bytes. It is called
 * only when the socket can take more, so memory stays at about `want` bytes plus one item.
 * STREAM_FAILED aborts the response (the chunked encoding is cut, so the client sees an error, never
 * a silently short answer). `free_state` runs exactly once, however the response ends (completion,
 * client disconnect, server stop). */
typedef enum stream_status { STREAM_MORE, STREAM_DONE, STREAM_FAILED } stream_status;
/* A bounded stream's generator (api_respond_bounded_stream) appends fewer than `want` +
 * API_STREAM_STEP_BYTES bytes per call (an item longer than that aside): it formats in runs of at most
 * API_STREAM_RUN_BYTES, checking `want` between runs, and its opening and closing texts are short. */
enum { API_STREAM_RUN_BYTES = 8 * 1024, API_STREAM_STEP_BYTES = 16 * 1024 };
typedef stream_status (*stream_next_fn)(void *state, json_writer *out, size_t want);
typedef void (*stream_free_fn)(void *state);

typedef struct api_response {
    int status;                          /* 200 unless set otherwise */
    const char *content_type;            /* "application/json" unless set otherwise */
    const char *content_security_policy; /* a page's or a drawing's policy (api/service/web_pages.c,
                                            api/boards/svg_writer.c), or NULL; sent with Referrer-Policy: no-referrer */
    json_writer body;                    /* a complete small body, or empty when streaming */
    const char *fixed_body;              /* instead of `body`: bytes that live as long as the process (an embedded
                                 file), sent as they are, without a copy */
    size_t fixed_length;
    void *stream_state; /* non-NULL: the body is streamed */
    stream_next_fn stream_next;
    stream_free_fn stream_free;
    bool stream_bounded;    /* every call of stream_next is cheap and bounded (no search, no wait, at
                                 most API_STREAM_STEP_BYTES past `want`): the server may run it on an
                                 I/O thread, straight into the socket's buffer (server/stream.h) */
    bool stream_overlapped; /* formatting the body costs about what sending it does (a listing of values
                                 already computed, nothing else to do): the server produces it on the
                                 compute pool in wide pieces ahead of the socket, so formatting and sending
                                 run on two cores at once (server/stream.h) */
} api_response;

/* Returns true when `res` holds the answer; false after api_fail(). */
typedef bool (*api_handler)(api_request *req, api_response *res);

typedef struct api_endpoint {
    const api_field *fields; /* terminated by {NULL, 0}; "time_limit_ms" is accepted everywhere */
    api_handler handler;
    /* NULL: the answer is a pure function of the request's fields, so the server may tag it with an
     * ETag derived from the request and let caches keep it. Else true for a request whose answer is
     * not (a fresh random shuffle; the service's own state). Called on checked fields. */
    bool (*varies)(const api_request *req);
    /* NULL: no request is known in advance to take long. Else true for a request whose fields alone
     * show that it takes far more than the express slice (server/compute_pool.h): it skips that slice
     * instead of spending it on work that then starts over. Called on checked fields. */
    bool (*long_running)(const api_request *req);
    /* true: caches must check the ETag before each reuse (Cache-Control: no-cache), for files that
     * change with the build under the same URL and must match each other (the web pages) */
    bool revalidate;
    /* NULL, or true for a request whose handler computes nothing before its answer starts: it only
     * sets up a bounded stream (api_respond_bounded_stream), O(1) work, never a whole body (which might
     * be gzip'd) nor a search. The server then runs it on the I/O thread instead of a worker, sparing
     * the hop to the compute pool and back before the first byte. Called on checked fields, before
     * the handler; false when unsure (the request then goes to a worker as any other). */
    bool (*starts_at_once)(const api_request *req);
    /* NULL, or the request's computation time in seconds, estimated from its checked fields: a model
     * timed on this machine (api/cost_estimates.h), or API_SMALL_WORK_SECONDS for a request whose
     * fields bound its work to a few microseconds (a handful of items, a 9 x 9 grid, a small board);
     * negative when the fields do not tell. A request estimated at API_SMALL_WORK_SECONDS or less runs
     * on the I/O thread, without the hop to the compute pool and back, within a slice of its time
     * limit (server/request_schedule.c); the pool weighs its queue's waiting time with the estimates
     * (server/compute_pool.h). */
    double (*estimate_seconds)(const api_request *req);
} api_endpoint;

/* The estimate (api_endpoint.estimate_seconds) of work about the cost of the hop to the compute pool
 * and back or less (about 65 us on one connection here, docs/performance.md): such a request is
 * answered on the I/O thread. Its handler must poll its deadline as any other: the I/O thread gives it
 * a short slice, and work that outlasts it goes to the pool. */
#define API_SMALL_WORK_SECONDS 20e-6

/* A `varies` for endpoints that report the service's state (health, readiness, metrics). */
bool api_always_varies(const api_request *req);

/* Records an error of `kind` (api/errors.h) in req->error and returns false, so handlers can
 * `return api_fail(...)`. `field` may be NULL. The message is a printf format. */
bool api_fail(api_request *req, api_error_kind kind, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Adds machine-readable details to the error api_fail() recorded last: `fmt` formats one JSON object
 * (api/errors.h). Returns false, so a handler can `return api_fail_details(...)` after api_fail(). */
bool api_fail_details(api_request *req, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The details of a value outside its allowed range: {"min","max","received"}, all integers. Returns
 * false, after api_fail(). */
bool api_fail_range(api_request *req, long long min, long long max, long long received);

/* The common 503 for a computation that ran out of time. */
bool api_fail_deadline(api_request *req);

/* The common 500 for an allocation that failed. */
bool api_fail_out_of_memory(api_request *req);

/* The one mapping of a failed core_status to its answer (deadline: 503, memory: 500); returns true
 * for CORE_OK, so a handler can write `if (!api_fail_status(req, status)) goto out;`. No other file
 * of api/ looks at a core_status. */
bool api_fail_status(api_request *req, core_status status);

/* Opens a JSON answer's object with its kind, `{"kind":"<kind>",`; the caller writes the members after
 * it and closes the object. Every JSON answer (not a drawing, a text body or an error) starts so, so a
 * client tells the variants of one operation apart by one field (openapi.yaml declares it the
 * discriminator of each answer). An NDJSON line is untagged (its operation has one kind of line, and
 * an error line holds "error"): `kind` NULL opens a line's object, `{`. */
void api_open_answer(json_writer *out, const char *kind);

/* Writes a list answer's `"next_offset":` member: `decimal` (the first entry after this page) as a
 * string, or null when NULL (the page holds the last entry). */
void api_write_next_offset(json_writer *out, const char *decimal);

/* Answers {"kind":"rank","rank":"R","total":"T"}: the shape of every rank endpoint. */
void api_respond_rank(api_response *res, const mpz_t rank, const mpz_t total);

/* Answers with a streamed body (see stream_next_fn). The content type is application/x-ndjson when
 * `ndjson` is true, else application/json. Takes ownership of `state` (freed with `free_state`).
 * An NDJSON body ends honestly: when the generator fails (req's time limit ran out, or memory), what
 * its failing call wrote is dropped and the body ends with one last line {"error":{...}}
 * (deadline_exceeded or out_of_memory) instead of a cut transfer. A JSON array is still cut (a
 * closing text after a partial array would read as a complete, shorter answer). */
void api_respond_stream(const api_request *req, api_response *res, void *state, stream_next_fn next,
                        stream_free_fn free_state, bool ndjson);

/* api_respond_stream for a generator whose every call is cheap and bounded (see stream_bounded): a
 * listing of items each formatted in constant time, never a search whose next item may take long. */
void api_respond_bounded_stream(const api_request *req, api_response *res, void *state, stream_next_fn next,
                                stream_free_fn free_state, bool ndjson);

/* api_respond_stream for a generator that only formats values computed already, as fast as the socket
 * takes them (see stream_overlapped): the single seeded shuffle of millions of values, whose
 * formatting would otherwise run on the I/O thread between its sends. */
void api_respond_overlapped_stream(const api_request *req, api_response *res, void *state, stream_next_fn next,
                                   stream_free_fn free_state, bool ndjson);

/* Bodies up to about this size may be built whole on the worker instead of streamed: the server sends
 * a complete body straight from its buffer (Content-Length), and a failure is still a clean error
 * status. Larger ones stream: a bounded stream is formatted on the I/O thread while the client reads
 * what was sent (6.9 MB built whole first: a median of 36.3 against 27.6 ms interleaved, under load;
 * docs/performance.md#streams),
 * and one request's memory stays at a block. About one direct call's worth. */
enum { API_WHOLE_BODY_BYTES = 64 * 1024 };

/* Runs the streamed answer held in `res` to its end into res->body (the stream state is freed), for
 * an answer that must be whole before it is sent. Over `max_bytes` (SIZE_MAX: no bound) it fails with
 * 422 too_large; a generator that fails is answered as out of time (503), or out of memory (500) when
 * the body could not grow. Returns false after api_fail(). */
bool api_collect_stream(api_request *req, api_response *res, size_t max_bytes);

/* Answers with the whole body now, running the generator `next` to its end (same content type as
 * api_respond_stream); frees `state`. A generator that fails is answered as out of time (503), or
 * out of memory (500) when the body could not grow. Returns false after api_fail(). */
bool api_respond_whole(api_request *req, api_response *res, void *state, stream_next_fn next, stream_free_fn free_state,
                       bool ndjson);

#endif
