/* Drains an endpoint's generator (api_response stream) into a chunked libmicrohttpd response. The
 * generator runs on the compute pool, never on an I/O thread, filling a small ring of pieces ahead of
 * the socket, so producing and sending overlap; the I/O thread suspends the connection only when it
 * has sent everything produced. A client that stops reading holds no worker: nothing more is
 * produced once the ring is full, until the socket takes more. */
#ifndef PUZZLED_SERVER_STREAM_H
#define PUZZLED_SERVER_STREAM_H

#include <stdint.h>

#include <microhttpd.h>

#include "api/api.h"
#include "server/compute_pool.h"

/* Takes over the stream of `res`, gzip-compressed when `gzip` (its state is freed when MHD is done
 * with the response, however the response ends; a piece in production is finished first).
 * `bytes_sent` is added to as body bytes (compressed, if so) are handed to MHD. NULL when out of memory (the stream state is then already freed). */
struct MHD_Response *stream_response_create(api_response *res, bool gzip, compute_pool *pool,
                                            struct MHD_Connection *connection, uint64_t *bytes_sent);

#endif
