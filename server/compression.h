/* gzip content coding for answers (RFC 9110 section 12.5.3, RFC 1952): which codings a client's
 * Accept-Encoding allows, whether an answer is worth compressing, and zlib deflate with the gzip
 * wrapper into a byte buffer, piece by piece (streams) or all at once (complete answers).
 *
 * Compression runs on the compute workers, never on an I/O thread (server/request_endpoint.c, server/stream.c).
 * A stream is flushed (Z_SYNC_FLUSH) at the end of every piece, so everything sent so far inflates at
 * once; the gzip trailer is written only when the body is complete, so a stream that fails midway
 * stays visibly cut for the client (no end of the gzip member, and a cut chunked encoding). */
#ifndef PUZZLED_SERVER_COMPRESSION_H
#define PUZZLED_SERVER_COMPRESSION_H

#include <stdbool.h>
#include <stddef.h>

#include <microhttpd.h>
#include <zlib.h>

#include "base/byte_buffer.h"

/* Complete answers shorter than this go out as they are: gzip's 18 bytes of framing and the work
 * are not worth it. Streams have no known size and are always compressed when the client asks. */
#define COMPRESSION_MIN_BYTES ((size_t)1024)
/* The size of an answer whose size is not known before it is sent (a stream). */
#define COMPRESSION_SIZE_UNKNOWN SIZE_MAX

/* The client's preferences from Accept-Encoding, as q-values in thousandths (0 = not acceptable). */
typedef struct coding_preference {
    unsigned gzip;     /* gzip's q, else that of `*`, else 0 */
    unsigned identity; /* identity's q, else that of `*`, else 1: acceptable, but never preferred to a
                          coding the client names with any q above 0 */
} coding_preference;

/* Reads an Accept-Encoding value (NULL: the header is absent, identity only). Entries with a
 * malformed q-value are ignored; coding names are case-insensitive. */
coding_preference compression_preference(const char *accept_encoding);

/* Whether an answer of `body_bytes` (or COMPRESSION_SIZE_UNKNOWN) goes out gzip-compressed: gzip is
 * acceptable and preferred at least as much as identity, and the answer is not small (a small one
 * is still compressed when the client refuses identity). */
bool compression_use_gzip(coding_preference preference, size_t body_bytes);

/* Whether answers of this media type are compressed (JSON, NDJSON, SVG and the web pages' text types:
 * text that shrinks). */
bool compression_applies_to(const char *content_type);

/* Adds Vary: Accept-Encoding (the answer depends on it) and, when `gzip`, Content-Encoding: gzip. */
void compression_add_headers(struct MHD_Response *response, bool gzip);

/* One gzip member being written. */
typedef struct gzip_encoder {
    z_stream zlib;
} gzip_encoder;

/* False when zlib cannot allocate its state. */
bool gzip_encoder_begin(gzip_encoder *encoder);
/* Compresses `len` bytes of `plain` onto the end of `out`, then flushes (Z_SYNC_FLUSH) or, when
 * `last`, ends the member (Z_FINISH: the trailer with CRC-32 and length). False when out of memory. */
bool gzip_encoder_write(gzip_encoder *encoder, const char *plain, size_t len, bool last, byte_buffer *out);
void gzip_encoder_end(gzip_encoder *encoder);

/* Replaces `body` with its gzip encoding (one member). False when out of memory (`body` is then
 * unchanged). */
bool gzip_body(byte_buffer *body);

#endif
