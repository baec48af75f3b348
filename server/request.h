/* One request's object as the producers of its answer's bytes see it (server/event_stream.c, the
 * progress events; server/stream.c, a chunked body). The picture of the whole life, with who holds a
 * reference in each state and which thread moves it on, is in server/README.md.
 *
 * The request is one object with one lifetime, in the shape of nginx's `r->main->count` and libuv's
 * `uv_queue_work`:
 *  - a reference count: libmicrohttpd's side holds one from the request's first line to its
 *    completed callback, the job one while it waits or runs on the pool, and a producer one while it
 *    produces (a response being read, a piece in production, the event stream's timer). Whoever drops
 *    the last one frees the request, and everything it holds, in one place;
 *  - one state that only moves forward (request_state), under the request's one lock;
 *  - one wake function, request_wake(): under the lock, it resumes the connection if, and only if, it
 *    is suspended and something is due for it. The connection is suspended only under the same lock,
 *    after the same check, so no wake-up is lost between a check and a suspend.
 * A worker never writes what the I/O thread reads: the job fills the request's result (the
 * api_response, the error, the final event) and its completion publishes it once, under the lock, as
 * the state becomes REQUEST_COMPUTED; the I/O thread reads it only from then on. */
#ifndef PUZZLED_SERVER_REQUEST_H
#define PUZZLED_SERVER_REQUEST_H

#include "server/thread_safety.h"

/* A capability (server/thread_safety.h): "under the lock" below is REQUIRES(ctx), checked by clang. */
typedef struct CAPABILITY("request") request_context request_context;

/* In the order they come; a request may skip states (an answer made on the I/O thread goes from
 * ARRIVING to ANSWERING; only an event stream passes PROGRESSING), and REQUEST_ENDED may come from
 * any state (the client left, a timeout). */
typedef enum request_state {
    REQUEST_ARRIVING,    /* the I/O thread reads the headers and the body */
    REQUEST_COMPUTING,   /* a job on the pool holds a reference; the connection waits suspended */
    REQUEST_PROGRESSING, /* an event stream's 200 is queued while its job still runs */
    REQUEST_COMPUTED,    /* the job's result is published: the I/O thread may read it */
    REQUEST_ANSWERING,   /* the answer is queued; a stream may still be producing */
    REQUEST_ENDED,       /* libmicrohttpd completed the request (or dropped it) */
} request_state;

void request_lock(request_context *ctx) ACQUIRE(ctx);
void request_unlock(request_context *ctx) RELEASE(ctx);

/* Under the lock. */
request_state request_state_of(const request_context *ctx) REQUIRES(ctx);

/* Under the lock: one more reference, for a producer. */
void request_hold(request_context *ctx) REQUIRES(ctx);

/* Not under the lock: drops a reference; the last one frees the request. The last touch of the
 * request by the calling thread. */
void request_release(request_context *ctx) EXCLUDES(ctx);

/* Under the lock, on the connection's I/O thread, from one of libmicrohttpd's callbacks: suspends
 * the connection until request_wake() finds something due for it. */
void request_suspend(request_context *ctx) REQUIRES(ctx);

/* Under the lock, from any thread: resumes the connection if it is suspended and something is due
 * (the job's result, an event, a piece of the body, a client that left). */
void request_wake(request_context *ctx) REQUIRES(ctx);

#endif
