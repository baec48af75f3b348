/* Drains an endpoint's generator (api_response stream) into a chunked libmicrohttpd response.
 *
 * A bounded generator (api_respond_bounded_stream) sent without compression runs on the I/O thread,
 * straight into libmicrohttpd's buffer, at most STREAM_CALL_BYTES (plus one step) per call. Any other
 * runs on the compute pool, never on an I/O thread, filling a small ring of pieces ahead of the
 * socket (wider pieces for an overlapped one, api_respond_overlapped_stream), so producing and sending
 * overlap; the I/O thread suspends the connection only when it has
 * sent everything produced. A client that stops reading holds no worker: nothing more is produced
 * once the ring is full, until the socket takes more.
 *
 * Every stream takes a fixed charge for its buffers from one server-wide budget while it lives; a
 * stream the budget cannot take is refused before it starts (a 503 `overloaded` for the client). */
#ifndef PUZZLED_SERVER_STREAM_H
#define PUZZLED_SERVER_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

#include "api/api.h"
#include "server/compute_pool.h"
#include "server/request.h"

/* What one direct call asks the generator for, and so the bound on what one call produces. */
enum { STREAM_CALL_BYTES = 64 * 1024, STREAM_CALL_BOUND_BYTES = STREAM_CALL_BYTES + API_STREAM_STEP_BYTES };

/* Once at start-up, before requests: the budget of all streams' buffers, in bytes. */
void stream_configure(size_t budget_bytes);

/* Takes `bytes` from the budget, or nothing when it would go over (false); and gives them back. An
 * event stream's result is held against it too (server/event_stream.h). */
bool stream_budget_take(size_t bytes);
void stream_budget_give(size_t bytes);

/* The bytes a stream takes from the budget: a direct one, what one call may write into MHD's buffer;
 * one on the pool, its ring (of wide pieces when overlapped and not gzip'd; with gzip also its plain
 * block and deflate's state). */
size_t stream_charge(bool direct, bool overlapped, bool gzip);

typedef struct stream_figures {
    size_t budget_bytes;
    size_t held_bytes;           /* charged by the streams open now */
    uint64_t call_bound_bytes;   /* STREAM_CALL_BOUND_BYTES */
    uint64_t longest_call_bytes; /* the most one direct call produced, since start */
    double longest_call_seconds; /* the longest one direct call took, since start */
} stream_figures;
stream_figures stream_figures_now(void);

typedef enum stream_outcome { STREAM_STARTED, STREAM_OVER_BUDGET, STREAM_NO_MEMORY } stream_outcome;

typedef struct stream stream;

/* Takes over the stream of `res` (its state is freed by stream_free()), gzip-compressed when `gzip`,
 * for `request`, and sets `*made` and `*response`; the response holds a reference to the request
 * until libmicrohttpd frees it. `bytes_sent` is added to as body bytes (compressed, if so) are
 * handed to MHD. Unless STREAM_STARTED, both are NULL and the stream state already freed: the budget
 * is full, or memory ran out. */
stream_outcome stream_response_create(api_response *res, bool gzip, compute_pool *pool, request_context *request,
                                      uint64_t *bytes_sent, stream **made, struct MHD_Response **response);

/* Under the request's lock: the connection, suspended by the stream's reader, has something to
 * send (a piece, or the end). */
bool stream_due(const stream *s);

/* With the request, once no reference is left; NULL: nothing. */
void stream_free(stream *s);

#endif
