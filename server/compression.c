/* gzip content coding (see compression.h). Accept-Encoding follows RFC 9110 section 12.5.3: a
 * coding with q=0 is not acceptable, `*` stands for every coding not listed, and identity is
 * acceptable unless it is excluded by name or by `*;q=0`; x-gzip counts as gzip (section 8.4.1.3). */
#include "server/compression.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Level 1 (fastest): on this service's long answers it compresses 6 to 8 times faster than level 6
 * (120-210 MB/s of plain text per core against 18-27), for 13-21% more bytes; a worker compressing
 * at level 6 would spend longer compressing than producing (docs/requests.md#compression). */
#define GZIP_LEVEL 1
/* zlib's windowBits: a 32 KiB window, plus 16 to write the gzip wrapper instead of zlib's. */
#define GZIP_WINDOW_BITS (15 + 16)
/* zlib's default memLevel (its hash table): about 256 KiB of state per encoder with the window. */
#define GZIP_MEMORY_LEVEL 8
/* Output room asked for before each deflate call when more output is pending. */
#define DEFLATE_OUTPUT_STEP ((size_t)16 * 1024)

enum {
    Q_NOT_GIVEN = UINT_MAX,
    Q_ONE = 1000,
    Q_UNLISTED = 1, /* identity not named: acceptable, but preferred to no coding that is */
};

static const char *skip_spaces(const char *p) {
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* A qvalue ("0", "0.5", "1.000"; RFC 9110 section 12.4.2) in thousandths, or Q_NOT_GIVEN if malformed. */
static unsigned parse_qvalue(const char *text, size_t len) {
    if (len == 0 || (text[0] != '0' && text[0] != '1')) return Q_NOT_GIVEN;
    unsigned q = (unsigned)(text[0] - '0') * Q_ONE;
    if (len == 1) return q;
    if (text[1] != '.' || len > 5) return Q_NOT_GIVEN;
    unsigned scale = Q_ONE / 10;
    for (size_t i = 2; i < len; i++, scale /= 10) {
        if (text[i] < '0' || text[i] > '9') return Q_NOT_GIVEN;
        q += (unsigned)(text[i] - '0') * scale;
    }
    return q <= Q_ONE ? q : Q_NOT_GIVEN;
}

/* The q of one entry's parameters (";q=0.5"; other parameters are ignored), Q_ONE if none is given,
 * Q_NOT_GIVEN if it is malformed. */
static unsigned entry_q(const char *params, const char *end) {
    unsigned q = Q_ONE;
    const char *p = params;
    while (p < end) {
        p = skip_spaces(p + 1); /* past ';' */
        const char *next = memchr(p, ';', (size_t)(end - p));
        if (next == NULL) next = end;
        const char *value_end = next;
        while (value_end > p && (value_end[-1] == ' ' || value_end[-1] == '\t')) value_end--;
        if (value_end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
            q = parse_qvalue(p + 2, (size_t)(value_end - p - 2));
            if (q == Q_NOT_GIVEN) return Q_NOT_GIVEN;
        }
        p = next;
    }
    return q;
}

static bool name_is(const char *name, size_t len, const char *expected) {
    return len == strlen(expected) && strncasecmp(name, expected, len) == 0;
}

coding_preference compression_preference(const char *accept_encoding) {
    unsigned gzip = Q_NOT_GIVEN, identity = Q_NOT_GIVEN, any = Q_NOT_GIVEN;
    const char *p = accept_encoding != NULL ? accept_encoding : "";
    while (*p != '\0') {
        p = skip_spaces(p);
        const char *end = strchr(p, ',');
        if (end == NULL) end = p + strlen(p);
        const char *params = memchr(p, ';', (size_t)(end - p));
        if (params == NULL) params = end;
        size_t name_len = strcspn(p, " \t;,");
        if (p + name_len > params) name_len = (size_t)(params - p);
        unsigned q = entry_q(params, end);
        if (q != Q_NOT_GIVEN) {
            if (name_is(p, name_len, "gzip") || name_is(p, name_len, "x-gzip")) gzip = q;
            else if (name_is(p, name_len, "identity")) identity = q;
            else if (name_is(p, name_len, "*")) any = q;
        }
        p = *end == ',' ? end + 1 : end;
    }
    return (coding_preference){
        .gzip = gzip != Q_NOT_GIVEN  ? gzip
                : any != Q_NOT_GIVEN ? any
                                     : 0,
        .identity = identity != Q_NOT_GIVEN ? identity
                    : any != Q_NOT_GIVEN    ? any
                                            : Q_UNLISTED,
    };
}

bool compression_use_gzip(coding_preference preference, size_t body_bytes) {
    if (preference.gzip == 0) return false;
    if (preference.identity == 0) return true;
    return preference.gzip >= preference.identity && body_bytes >= COMPRESSION_MIN_BYTES;
}

bool compression_applies_to(const char *content_type) {
    return content_type != NULL &&
           (strcmp(content_type, "application/json") == 0 || strcmp(content_type, "application/x-ndjson") == 0 ||
            strcmp(content_type, "image/svg+xml") == 0 || strncmp(content_type, "text/", 5) == 0);
}

void compression_add_headers(struct MHD_Response *response, bool gzip) {
    if (response == NULL) return;
    MHD_add_response_header(response, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
    if (gzip) MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
}

/* deflate's memory comes through our malloc and free, not zlib's own calls, so that the
 * allocation-failure build (server/alloc_failure.h) counts and fails it like ours. Not zeroed, as
 * zlib's own zcalloc does not zero it either. */
static voidpf zlib_allocate(voidpf opaque, uInt items, uInt size) {
    (void)opaque;
    return malloc((size_t)items * size);
}

static void zlib_free(voidpf opaque, voidpf block) {
    (void)opaque;
    free(block);
}

bool gzip_encoder_begin(gzip_encoder *encoder) {
    encoder->zlib = (z_stream){.zalloc = zlib_allocate, .zfree = zlib_free};
    return deflateInit2(&encoder->zlib, GZIP_LEVEL, Z_DEFLATED, GZIP_WINDOW_BITS, GZIP_MEMORY_LEVEL,
                        Z_DEFAULT_STRATEGY) == Z_OK;
}

/* Runs deflate on the pending input with `flush` until it has given all its output for it. */
static bool deflate_pending(z_stream *zlib, int flush, byte_buffer *out) {
    for (;;) {
        if (!bb_reserve(out, DEFLATE_OUTPUT_STEP)) return false;
        zlib->next_out = (Bytef *)out->data + out->len;
        zlib->avail_out = (uInt)DEFLATE_OUTPUT_STEP;
        int status = deflate(zlib, flush);
        out->len += DEFLATE_OUTPUT_STEP - zlib->avail_out;
        out->data[out->len] = '\0';
        if (status == Z_STREAM_END) return true;
        if (status != Z_OK && status != Z_BUF_ERROR) return false;
        /* Room left over means deflate has consumed the input and flushed (zlib.h, "deflate"). */
        if (zlib->avail_out != 0 && flush != Z_FINISH) return true;
    }
}

bool gzip_encoder_write(gzip_encoder *encoder, const char *plain, size_t len, bool last, byte_buffer *out) {
    z_stream *zlib = &encoder->zlib;
    do {
        size_t step = len < UINT_MAX ? len : UINT_MAX; /* zlib counts input in uInt */
        zlib->next_in = (Bytef *)plain;
        zlib->avail_in = (uInt)step;
        bool more = step < len;
        if (!deflate_pending(zlib, more ? Z_NO_FLUSH : last ? Z_FINISH : Z_SYNC_FLUSH, out)) return false;
        plain += step;
        len -= step;
    } while (len > 0);
    return true;
}

void gzip_encoder_end(gzip_encoder *encoder) { deflateEnd(&encoder->zlib); }

bool gzip_body(byte_buffer *body) {
    gzip_encoder encoder;
    if (!gzip_encoder_begin(&encoder)) return false;
    byte_buffer compressed;
    bb_init(&compressed);
    bool ok = gzip_encoder_write(&encoder, body->data, body->len, true, &compressed);
    gzip_encoder_end(&encoder);
    if (!ok) {
        bb_free(&compressed);
        return false;
    }
    bb_free(body);
    *body = compressed;
    return true;
}
