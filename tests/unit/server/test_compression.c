/* server/compression.c on its own: Accept-Encoding read against the rules of RFC 9110 section
 * 12.5.3 (written out case by case here), the size threshold, and gzip output checked by inflating
 * it with zlib's inflate: a member split into flushed pieces inflates piece by piece, and only the
 * finished one ends. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "server/compression.h"

static bool gzip_for(const char *accept_encoding, size_t body_bytes) {
    return compression_use_gzip(compression_preference(accept_encoding), body_bytes);
}

Test(compression, gzip_only_when_the_client_accepts_it) {
    cr_assert_not(gzip_for(NULL, 1 << 20), "no header: identity");
    cr_assert_not(gzip_for("", 1 << 20));
    cr_assert(gzip_for("gzip", 1 << 20));
    cr_assert(gzip_for(" GZIP ;Q=0.7 ", 1 << 20), "names and q are case-insensitive, spaces allowed");
    cr_assert(gzip_for("x-gzip", 1 << 20));
    cr_assert(gzip_for("br;q=1, gzip;q=0.001", 1 << 20));
    cr_assert(gzip_for("*", 1 << 20));
    cr_assert(gzip_for("deflate, *;q=0.2", 1 << 20));
    cr_assert_not(gzip_for("deflate, br", 1 << 20));
    cr_assert_not(gzip_for("gzip;q=0", 1 << 20));
    cr_assert_not(gzip_for("gzip;q=0.000", 1 << 20));
    cr_assert_not(gzip_for("*;q=0", 1 << 20));
    cr_assert_not(gzip_for("*, gzip;q=0", 1 << 20), "a named coding overrides *");
    cr_assert(gzip_for("gzip, *;q=0", 1 << 20));
}

Test(compression, identity_named_with_a_higher_q_is_preferred) {
    cr_assert_not(gzip_for("gzip;q=0.5, identity", 1 << 20));
    cr_assert(gzip_for("identity;q=0.5, gzip", 1 << 20));
    cr_assert(gzip_for("gzip;q=0.5, identity;q=0.5", 1 << 20), "a tie goes to gzip");
}

Test(compression, malformed_q_values_drop_their_entry) {
    static const char *const malformed[] = {"gzip;q=",  "gzip;q=abc", "gzip;q=1.5", "gzip;q=0.1234",
                                            "gzip;q=2", "gzip;q=.5",  "gzip;q=-1"};
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
        cr_assert_not(gzip_for(malformed[i], 1 << 20), "%s", malformed[i]);
    cr_assert(gzip_for("gzip;level=9;q=1.", 1 << 20), "other parameters are ignored; \"1.\" is a qvalue");
}

Test(compression, small_answers_stay_identity_unless_identity_is_refused) {
    cr_assert_not(gzip_for("gzip", COMPRESSION_MIN_BYTES - 1));
    cr_assert(gzip_for("gzip", COMPRESSION_MIN_BYTES));
    cr_assert(gzip_for("gzip", COMPRESSION_SIZE_UNKNOWN));
    cr_assert(gzip_for("gzip, identity;q=0", 10));
    cr_assert(gzip_for("gzip, *;q=0", 10), "* refuses identity when it is not named");
    cr_assert_not(gzip_for("identity;q=0", 1 << 20), "nothing acceptable: identity all the same");
}

Test(compression, only_json_and_ndjson_are_compressed) {
    cr_assert(compression_applies_to("application/json"));
    cr_assert(compression_applies_to("application/x-ndjson"));
    cr_assert_not(compression_applies_to("application/yaml"));
    cr_assert_not(compression_applies_to(NULL));
}

/* Inflates `data` (a gzip member or the start of one) into `out`; returns zlib's last status. */
static int inflate_all(const char *data, size_t len, char *out, size_t cap, size_t *out_len) {
    z_stream zlib = {0};
    cr_assert_eq(inflateInit2(&zlib, 15 + 16), Z_OK);
    zlib.next_in = (Bytef *)data;
    zlib.avail_in = (uInt)len;
    zlib.next_out = (Bytef *)out;
    zlib.avail_out = (uInt)cap;
    int status = inflate(&zlib, Z_SYNC_FLUSH);
    *out_len = cap - zlib.avail_out;
    inflateEnd(&zlib);
    return status;
}

Test(compression, a_stream_inflates_piece_by_piece_and_ends_only_when_finished) {
    enum { PIECE = 100000, PIECES = 3 };
    char *plain = malloc(PIECE * PIECES), *inflated = malloc(PIECE * PIECES + 1);
    for (size_t i = 0; i < PIECE * PIECES; i++) plain[i] = (char)('a' + (i * i / 7) % 26);
    gzip_encoder encoder;
    cr_assert(gzip_encoder_begin(&encoder));
    byte_buffer out;
    bb_init(&out);
    for (int p = 0; p < PIECES; p++) {
        cr_assert(gzip_encoder_write(&encoder, plain + p * PIECE, PIECE, p == PIECES - 1, &out));
        size_t got;
        int status = inflate_all(out.data, out.len, inflated, PIECE * PIECES + 1, &got);
        cr_assert_eq(got, (size_t)(p + 1) * PIECE, "piece %d: %zu bytes inflate", p, got);
        cr_assert(memcmp(inflated, plain, got) == 0);
        cr_assert_eq(status, p == PIECES - 1 ? Z_STREAM_END : Z_OK, "piece %d: status %d", p, status);
    }
    gzip_encoder_end(&encoder);
    bb_free(&out);
    free(plain);
    free(inflated);
}

Test(compression, gzip_body_replaces_the_body_with_its_gzip) {
    byte_buffer body;
    bb_init(&body);
    for (int i = 0; i < 1000; i++) bb_append_text(&body, "{\"n\":12345},");
    size_t plain_len = body.len;
    char *plain = strdup(body.data);
    cr_assert(gzip_body(&body));
    cr_assert_lt(body.len, plain_len);
    char *inflated = malloc(plain_len + 1);
    size_t got;
    cr_assert_eq(inflate_all(body.data, body.len, inflated, plain_len + 1, &got), Z_STREAM_END);
    cr_assert_eq(got, plain_len);
    cr_assert(memcmp(inflated, plain, plain_len) == 0);
    bb_free(&body);
    free(plain);
    free(inflated);
}
