/* Progress of a long computation as server-sent events (on the routes marked ROUTE_PROGRESS in
 * server/routes.h, for an Accept that prefers text/event-stream: server/accept.h). The answer, once
 * the computation has begun, is
 *
 *   id: 1                    each event's number in the stream
 *   event: progress          as often as every 250 ms while the numbers move, and at each eighth of
 *   data: {"done":D,"total":T,"unit":"U","elapsed_ms":E}      the work where a total is known
 *   ...
 *   id: N
 *   event: result            exactly one, whose data lines joined by "\n" are byte for byte the
 *   data: <the plain answer>  JSON (or NDJSON) answer the same request gets without the header
 *
 * or, instead of the result, one `event: failed` whose data is the JSON error body (not `error`:
 * EventSource's own name for a broken connection). Comment lines (": keep-alive") keep proxies from
 * timing out while the numbers do not move.
 *
 * Reconnects. A browser's EventSource reconnects when a stream ends, and would start the
 * computation again. Because each event has an `id:`, its reconnect carries `Last-Event-ID`; such a
 * request is answered 204 No Content at once, which the WHATWG standard says stops the EventSource
 * for good. It is not computed and does not count against the client's share. A stream cannot be
 * resumed: to ask again, open a new one.
 *
 * Design. The computation runs on the compute pool exactly as for a plain request and reports into
 * a progress record (core/common/progress.h) carried by its deadline; the I/O thread turns that
 * record into events. The 200 and its headers go out only once the computation has reported that
 * it began (handlers check their fields first) or once it ended, so a request with a wrong field
 * still gets its plain 4xx JSON answer, deterministically: an error before the computation began
 * whose status is below 500 is answered plainly; everything else (the result, a deadline, an
 * overload, out of memory, or any error after the computation began) goes in the stream.
 * While nothing is due the connection is suspended; the stream's tick (every EVENT_TICK_MS) wakes
 * the request (server/request.h), which resumes it when something is due, and peeks at the socket:
 * a client that went away abandons the progress record, whose deadline then expires, so the worker
 * is freed at the computation's next poll.
 *
 * Lifetime: the stream is a producer of bytes for its request, not an owner of it. The request
 * holds the stream and frees it with itself (request_release()); the response, while libmicrohttpd
 * may read it, holds a reference to the request. */
#ifndef PUZZLED_SERVER_EVENT_STREAM_H
#define PUZZLED_SERVER_EVENT_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include <microhttpd.h>

#include "api/errors.h"
#include "base/byte_buffer.h"
#include "core/common/progress.h"
#include "server/request.h"
#include "server/timer.h"

/* Progress events come at most this often (milestones aside), a keep-alive comment after
 * EVENT_KEEP_ALIVE_MS without any event, and each stream's tick comes this often. */
enum { EVENT_PROGRESS_MS = 250, EVENT_KEEP_ALIVE_MS = 5000, EVENT_TICK_MS = 20 };
/* A result is held whole before it is sent as one event: an answer over this size is a too_large
 * error event (the same request without the header streams it). */
enum { EVENT_RESULT_MAX_BYTES = 16 * 1024 * 1024 };

typedef struct event_stream event_stream;

/* The request carries Last-Event-ID: an EventSource reconnecting (see Reconnects above). */
bool event_stream_reconnecting(struct MHD_Connection *connection);

/* A stream for `request` that arrived at `started_ns` (core/common/monotonic.h), whose tick runs on `ticks`
 * and holds a reference to the request until it sees it ended. NULL when out of memory. */
event_stream *event_stream_create(request_context *request, struct MHD_Connection *connection, int64_t started_ns,
                                  timer *ticks);

/* The record the computation reports into (put it in the request's deadlines). */
progress *event_stream_progress(event_stream *es);

/* On the worker, once, before the job's completion publishes it: the outcome, which becomes the last
 * event. The stream takes the answer over (`*answer` is left empty): it is the one copy held, sent a
 * chunk at a time, and counted in the stream budget (server/stream.h) until the stream is freed; an
 * answer the budget cannot take becomes an `overloaded` failed event. */
void event_stream_set_result(event_stream *es, byte_buffer *answer);
void event_stream_set_error(event_stream *es, const api_error *error);

/* The computation reported that it began (its fields were good). */
bool event_stream_begun(event_stream *es);

/* The client went away (the tick saw its socket closed): the request ends without an answer. */
bool event_stream_abandoned(event_stream *es);

/* Under the request's lock: something is due for the connection in `state` (the 200 can be
 * queued, an event written, or the client left). */
bool event_stream_due(event_stream *es, request_state state);

/* On the I/O thread: the 200 text/event-stream response (headers
 * included), which holds a reference to the request until libmicrohttpd frees it. `bytes_sent` is
 * added to as bytes are handed to MHD. NULL when out of memory. */
struct MHD_Response *event_stream_response(event_stream *es, uint64_t *bytes_sent);

void event_stream_free(event_stream *es);

/* For /metrics: computations followed by an event stream that still run, and the age in seconds
 * of the oldest of them (0 when none). */
typedef struct event_stream_stats {
    unsigned computing;
    double oldest_seconds;
} event_stream_stats;
event_stream_stats event_stream_stats_read(void);

#endif
