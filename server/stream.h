/* Drains an endpoint's generator (api_response stream) into a chunked libmicrohttpd response,
 * producing the next piece only when the socket can take it. */
#ifndef PUZZLED_SERVER_STREAM_H
#define PUZZLED_SERVER_STREAM_H

#include <stdint.h>

#include <microhttpd.h>

#include "api/api.h"

/* Takes over the stream of `res` (its state is freed when MHD is done with the response, however the
 * response ends). `bytes_sent` is added to as body bytes are handed to MHD. NULL when out of memory
 * (the stream state is then already freed). */
struct MHD_Response *stream_response_create(api_response *res, uint64_t *bytes_sent);

#endif
