/* The request object as the files that handle it see it, and what they call of each other; nothing
 * outside them includes this. Each file holds one concern of a request's handling:
 *   server/request.c           the lifecycle: states, references, suspension, the one free
 *   server/request_dispatch.c  the request as it arrives (line, headers, body), routed to its answer
 *   server/request_endpoint.c  what its endpoint is given and gives back: fields, the run, ETag, coding
 *   server/request_schedule.c  a job on the compute pool: lanes, slices, the client watch, completion
 *   server/request_admission.c the pool's refusals, answered 503 with Retry-After
 *   server/request_share.c     the client's share of computing requests (429), taken and given back
 *   server/request_answer.c    the answer queued with the headers every answer carries
 * The lifetime and its picture are in server/request.h and server/README.md. */
#ifndef PUZZLED_SERVER_REQUEST_INTERNAL_H
#define PUZZLED_SERVER_REQUEST_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <microhttpd.h>

#include "api/api.h"
#include "server/clients.h"
#include "server/compression.h"
#include "server/compute_pool.h"
#include "server/etag.h"
#include "server/event_stream.h"
#include "server/http_internal.h"
#include "server/lifecycle_hooks.h"
#include "server/request.h"
#include "server/request_id.h"
#include "server/routes.h"
#include "server/stream.h"
#include "server/timer.h"

/* The bytes of its path a request keeps, the NUL included: what routing, the access line and the
 * 404's message see; a longer path is kept cut, ending in LOG_CUT_MARK (server/access_log.h). */
#define REQUEST_PATH_BYTES 256

struct request_context {
    compute_job job; /* first: the job's address is the context's */
    http_server *server;
    bool admin; /* arrived on the admin listener */
    struct MHD_Connection *connection;
    int64_t started_ns; /* the first line's arrival (core/common/monotonic.h) */
    char method[16];
    char path[REQUEST_PATH_BYTES];
    char request_id[REQUEST_ID_MAX_LENGTH + 1];
    char client[CLIENT_ADDRESS_SIZE];
    bool holds_share;     /* counted in the client's computing requests in progress */
    client_quota quota;   /* the client's token bucket once admission looked at it: RateLimit headers */
    bool target_too_long; /* the request line's target is over --max-url: 414 */
    bool body_too_large;  /* more than --max-body arrived; answered 413 at the end */
    byte_buffer body;
    const route *route;
    api_response res;
    bool answered_ok;          /* the endpoint answered (else req.error says why) */
    coding_preference codings; /* from Accept-Encoding */
    bool compressible;         /* a JSON answer computed on a worker: it may be gzip'd and says Vary */
    bool gzip;                 /* the answer is (a complete body) or will be (a stream) gzip-compressed */
    pthread_mutex_t lock;      /* request_lock's: guards refs, state and suspended, and the producers' shared fields */
    unsigned refs;             /* libmicrohttpd's side, the job, the producers (server/request.h) */
    request_state state;       /* only moves forward, through request_move() */
    bool suspended;            /* the connection waits for request_wake() */
    bool pure;                 /* the answer is a pure function of the request: it gets an ETag */
    char etag[ETAG_SIZE];      /* "" until worked out (for a pure answer) */
    bool streamed;
    bool wants_events;       /* Accept prefers text/event-stream, on a route with progress */
    bool long_running;       /* known from its fields to outlast the express slice: skips it */
    double estimate_seconds; /* its endpoint's estimate of its work (api_endpoint.estimate_seconds); <0: none */
    event_stream *events;    /* with wants_events, from the job's submission on; else NULL */
    stream *stream;          /* a chunked body's producer, once its answer is queued; else NULL */
    bool answered_deadline;  /* the answer queued is a deadline_exceeded error */
    unsigned retry_after_s;  /* a refusal by the pool for its predicted wait: Retry-After; else 0 */
    atomic_bool
        client_gone;   /* its client closed the connection while its job waited or ran: the job's deadlines expire */
    timer_entry watch; /* a plain job's client watch on the server's timer (server/request_schedule.c) */
    bool fails_allocation;    /* armed the allocation-failure countdown (server/alloc_failure.h) */
    lifecycle_point pause_at; /* test builds: where the request pauses (server/lifecycle_hooks.h) */
    int status;
    uint64_t bytes_sent;
    /* last: most of the object is its error's text, which is not zeroed (http_request_begin) */
    api_request req;
};

/* server/request.c */

/* Under the lock: the one way the state changes; `to` is always past the state it leaves. */
void request_move(request_context *ctx, request_state to) REQUIRES(ctx);

/* Milliseconds since the request's first line. */
double request_elapsed_ms(const request_context *ctx);

/* server/request_dispatch.c: on the I/O thread, each call of the access handler while the request
 * is REQUEST_ARRIVING. */
enum MHD_Result dispatch_arriving(request_context *ctx, const char *url, const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size);

/* server/request_endpoint.c */

/* On the I/O thread: the request's fields from the body and the query string, type-checked; false
 * with req.error set. */
bool endpoint_read_fields(request_context *ctx);

/* Fills ctx->etag from the request alone (server/etag.h). */
void endpoint_tag(request_context *ctx);

/* Runs the endpoint (on a worker, or on the I/O thread), then tags and codes its answer; sets
 * answered_ok, or req.error. */
void endpoint_run(request_context *ctx);

/* Clears what a run of the endpoint left, so that it can run again. */
void endpoint_reset_answer(request_context *ctx);

/* server/request_schedule.c: a computing request, counted in its client's share already: run here
 * on the I/O thread when small or hopeless, else queued for the pool (or refused at once). */
enum MHD_Result schedule_compute(request_context *ctx);

/* server/request_admission.c */

/* Records the 503 for a request that the pool would not take (req.error, retry_after_s). */
void admission_refuse(request_context *ctx, compute_admission admission);

/* The Retry-After, in seconds, of an answer that refuses the request for now. */
unsigned admission_retry_after(const request_context *ctx);

/* server/request_share.c */

/* Counts a computing request in its client's share (given back when the request ends), or queues
 * the 429 of a client over its --client-rate or with its share in progress into *refused. */
bool share_take(request_context *ctx, enum MHD_Result *refused);

/* Gives the client's share back, if the request holds it; not under the request's lock. */
void share_give_back(request_context *ctx) EXCLUDES(ctx);

/* server/request_answer.c: each queues an answer and moves the request on to ANSWERING (an event
 * stream's 200 while its job runs: PROGRESSING); MHD_NO closes the connection. */

/* `response` (NULL: out of memory) with the headers every answer carries. */
enum MHD_Result answer_queue(request_context *ctx, int status, struct MHD_Response *response, const char *content_type);

/* A status without a body (204, 304). */
enum MHD_Result answer_empty(request_context *ctx, int status);

/* The JSON error; `allow` is the Allow header of a 405, else NULL. */
enum MHD_Result answer_error(request_context *ctx, const api_error *error, const char *allow);

enum MHD_Result answer_fail(request_context *ctx, api_error_kind kind, const char *allow, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A CORS preflight (OPTIONS). */
enum MHD_Result answer_preflight(request_context *ctx);

/* The 200 text/event-stream of a followed computation (server/event_stream.h). */
enum MHD_Result answer_event_stream(request_context *ctx);

/* The endpoint's outcome: its body, its stream, or its error. */
enum MHD_Result answer_result(request_context *ctx);

#endif
