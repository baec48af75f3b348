/* Integration tests of gzip compression against the real server. The reference is the same request
 * answered without Accept-Encoding: every endpoint's gzip answer, complete or streamed, JSON or
 * NDJSON, must inflate (with zlib here, and with the curl program's --compressed) to exactly those
 * bytes. Also the q-values of Accept-Encoding, small answers and cheap answers left as they are,
 * Vary, and a stream cut by its time limit, which must still look cut to the client. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <zlib.h>

#include "harness.h"

/* The server compresses complete answers from this size on (server/compression.h). */
enum { SMALL_ANSWER_BYTES = 1024 };

typedef struct inflated {
    char *data;
    size_t len;
    bool complete; /* the gzip member ended (trailer checked by zlib) and nothing followed it */
} inflated;

/* Inflates a gzip body with zlib, as far as it goes. */
static inflated gunzip(const char *data, size_t len) {
    z_stream zlib = {0};
    cr_assert_eq(inflateInit2(&zlib, 15 + 16), Z_OK);
    size_t cap = 4 * len + 1024;
    inflated out = {malloc(cap), 0, false};
    zlib.next_in = (Bytef *)data;
    zlib.avail_in = (uInt)len;
    int status = Z_OK;
    while (status == Z_OK) {
        if (cap - out.len < 65536) out.data = realloc(out.data, cap *= 2);
        cr_assert_not_null(out.data);
        zlib.next_out = (Bytef *)out.data + out.len;
        zlib.avail_out = (uInt)(cap - out.len);
        status = inflate(&zlib, Z_NO_FLUSH);
        out.len = cap - zlib.avail_out;
        if (status == Z_BUF_ERROR && zlib.avail_in == 0) break; /* the input ended early */
    }
    out.complete = status == Z_STREAM_END && zlib.avail_in == 0;
    inflateEnd(&zlib);
    return out;
}

static bool header_is(const http_result *r, const char *name, const char *expected) {
    char *value = http_header(r, name);
    bool same = value != NULL && expected != NULL && strcasecmp(value, expected) == 0;
    bool both_absent = value == NULL && expected == NULL;
    free(value);
    return same || both_absent;
}

/* GET `path` with `accept` (or none) and `accept_encoding` (or none). */
static http_result get_with(const char *path, const char *accept, const char *accept_encoding) {
    char accept_line[128], encoding_line[128];
    const char *headers[3] = {NULL, NULL, NULL};
    int n = 0;
    if (accept != NULL) {
        snprintf(accept_line, sizeof accept_line, "Accept: %s", accept);
        headers[n++] = accept_line;
    }
    if (accept_encoding != NULL) {
        snprintf(encoding_line, sizeof encoding_line, "Accept-Encoding: %s", accept_encoding);
        headers[n++] = encoding_line;
    }
    return http_request(server_url(), "GET", path, NULL, headers);
}

/* Asserts that `path` answered with `accept_encoding` is the identity answer gzip'd (or, when
 * `expect_gzip` is false, the identity answer itself), both saying Vary: Accept-Encoding. */
static void expect_same_answer(const char *path, const char *accept, const char *accept_encoding, bool expect_gzip) {
    http_result plain = get_with(path, accept, NULL);
    http_result coded = get_with(path, accept, accept_encoding);
    cr_assert_eq(plain.status, 200, "%s: status %ld: %.300s", path, plain.status, plain.body);
    cr_assert_eq(coded.status, 200, "%s with %s: status %ld", path, accept_encoding, coded.status);
    cr_assert(header_is(&plain, "Content-Encoding", NULL), "%s: identity was asked for", path);
    cr_assert(header_is(&plain, "Vary", "Accept-Encoding"), "%s: no Vary without Accept-Encoding", path);
    cr_assert(header_is(&coded, "Vary", "Accept-Encoding"), "%s: no Vary with %s", path, accept_encoding);
    cr_assert(header_is(&coded, "Content-Encoding", expect_gzip ? "gzip" : NULL),
              "%s with Accept-Encoding: %s: gzip expected %d", path, accept_encoding, expect_gzip);
    if (expect_gzip) {
        inflated body = gunzip(coded.body, coded.body_len);
        cr_assert(body.complete, "%s: the gzip body is incomplete", path);
        cr_assert_eq(body.len, plain.body_len, "%s: inflates to %zu bytes, identity has %zu", path, body.len,
                     plain.body_len);
        cr_assert(memcmp(body.data, plain.body, body.len) == 0, "%s: inflates to other bytes", path);
        free(body.data);
    } else {
        cr_assert_eq(coded.body_len, plain.body_len, "%s: the two answers differ", path);
        cr_assert(memcmp(coded.body, plain.body, plain.body_len) == 0, "%s: the two answers differ", path);
    }
    http_result_free(&plain);
    http_result_free(&coded);
}

/* Every endpoint, complete and streamed answers, JSON and NDJSON; each answer is deterministic. */
static const struct {
    const char *path;
    const char *accept;
} LARGE_ANSWERS[] = {
    {"/shuffle?n=3000&seed=42", NULL}, /* complete */
    {"/shuffle?n=50&count=200&seed=7", "application/x-ndjson"},
    {"/permutations?items=1,2,3,4,5,6,7", NULL}, /* streamed */
    {"/permutations?items=1,2,3,4,5,6,7,8", "application/x-ndjson"},
    {"/permutations?text=abcdefg&k=5&offset=100&limit=900", NULL},
    {"/queens?n=10", NULL},
    {"/queens?n=9", "application/x-ndjson"},
    {"/knight-tour?n=300", NULL},
    {"/knight-tour?rows=120&cols=90&format=board&closed=true", "application/x-ndjson"},
    {"/word-ladder?from=black&to=white&all=true", NULL},
    {"/knight-tour?n=120&format=svg", NULL}, /* drawings */
    {"/queens?n=200&mode=first&format=svg", NULL},
};

/* Small complete answers of every endpoint. */
static const char *const SMALL_ANSWERS[] = {
    "/permutation/rank?permutation=3,1,2",
    "/permutation/unrank?text=mississippi&rank=12345",
    "/permutations?text=aabbccdd&distinct=true&count_only=true",
    "/queens?n=8&mode=count",
    "/queens?n=8&mode=first", /* built whole up to 16 MiB (api_respond_whole) */
    "/knight-tour?n=3",
    "/word-ladder?from=cold&to=warm",
    "/shuffle?n=52&seed=1",
};

/* Small streamed answers: a stream's size is unknown when its headers go, so it is compressed. */
static const char *const SMALL_STREAMS[] = {"/knight-tour?n=5", "/queens?n=6"};

Test(compression, every_endpoint_inflates_to_exactly_the_identity_answer) {
    for (size_t i = 0; i < sizeof LARGE_ANSWERS / sizeof LARGE_ANSWERS[0]; i++)
        expect_same_answer(LARGE_ANSWERS[i].path, LARGE_ANSWERS[i].accept, "gzip", true);
}

/* The web pages' files are gzip'd once at start-up (server/static_gzip.c), not per request. */
Test(compression, the_web_pages_files_inflate_to_exactly_the_files) {
    const char *files[] = {"/", "/playground.js", "/docs", "/docs.css", "/vendor/js-yaml.js"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) expect_same_answer(files[i], NULL, "gzip", true);
}

Test(compression, small_answers_go_out_as_they_are_unless_identity_is_refused) {
    for (size_t i = 0; i < sizeof SMALL_ANSWERS / sizeof SMALL_ANSWERS[0]; i++) {
        http_result r = get_with(SMALL_ANSWERS[i], NULL, NULL);
        cr_assert_lt(r.body_len, SMALL_ANSWER_BYTES, "%s is not small: %zu bytes", SMALL_ANSWERS[i], r.body_len);
        http_result_free(&r);
        expect_same_answer(SMALL_ANSWERS[i], NULL, "gzip", false);
        expect_same_answer(SMALL_ANSWERS[i], NULL, "gzip, identity;q=0", true);
    }
}

Test(compression, streams_are_compressed_whatever_their_size) {
    for (size_t i = 0; i < sizeof SMALL_STREAMS / sizeof SMALL_STREAMS[0]; i++)
        expect_same_answer(SMALL_STREAMS[i], NULL, "gzip", true);
}

Test(compression, post_answers_are_compressed_too) {
    const char *json = "{\"items\":[1,2,3,4,5,6,7],\"k\":6}";
    const char *gzip_headers[] = {"Accept-Encoding: gzip", NULL};
    http_result plain = http_request(server_url(), "POST", "/permutations", json, NULL);
    http_result coded = http_request(server_url(), "POST", "/permutations", json, gzip_headers);
    cr_assert_eq(coded.status, 200);
    cr_assert(header_is(&coded, "Content-Encoding", "gzip"));
    inflated body = gunzip(coded.body, coded.body_len);
    cr_assert(body.complete);
    cr_assert(body.len == plain.body_len && memcmp(body.data, plain.body, body.len) == 0);
    free(body.data);
    http_result_free(&plain);
    http_result_free(&coded);
}

Test(compression, accept_encoding_q_values_are_honoured) {
    static const struct {
        const char *accept_encoding;
        bool gzip;
    } cases[] = {
        {"gzip", true},
        {"GZip", true},
        {"x-gzip", true},
        {"deflate, gzip;q=1.0, br", true},
        {"gzip;q=0.001", true},
        {"*", true},
        {"br, *;q=0.1", true},
        {"identity;q=0.5, gzip", true},
        {"gzip, identity;q=0", true},
        {"gzip;q=0", false},
        {"gzip; q=0.000", false},
        {"*;q=0", false},
        {"*, gzip;q=0", false},
        {"deflate, br", false},
        {"gzip;q=0.5, identity", false},
        {"gzip;q=bad", false},
        {"gzip;q=1.5", false},
        {"identity;q=0", false}, /* nothing else acceptable: identity all the same */
        {"", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_same_answer("/shuffle?n=3000&seed=5", NULL, cases[i].accept_encoding, cases[i].gzip);
}

/* A computation's answer depends on Accept (JSON or NDJSON here): both say so, apart from
 * Accept-Encoding, so that a cache keeps one of each. */
Test(compression, a_computation_says_vary_accept_whatever_it_was_asked) {
    static const char *const accepts[] = {NULL, "application/x-ndjson", "application/json"};
    for (size_t i = 0; i < sizeof accepts / sizeof accepts[0]; i++) {
        http_result r = get_with("/permutations?text=abc", accepts[i], NULL);
        cr_assert_eq(r.status, 200, "Accept %s: status %ld", accepts[i] ? accepts[i] : "none", r.status);
        cr_assert_not_null(strstr(r.headers, "\r\nVary: Accept\r\n"), "Accept %s: no Vary: Accept in %s",
                           accepts[i] ? accepts[i] : "none", r.headers);
        http_result_free(&r);
    }
}

Test(compression, cheap_answers_and_errors_stay_identity_without_vary) {
    static const char *const paths[] = {"/healthz", "/readyz", "/openapi.yaml", "/queens?n=zero", "/no-such-path"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        http_result r = get_with(paths[i], NULL, "gzip");
        cr_assert(r.status != 0);
        cr_assert(header_is(&r, "Content-Encoding", NULL), "%s was compressed", paths[i]);
        cr_assert(header_is(&r, "Vary", NULL), "%s says Vary", paths[i]);
        http_result_free(&r);
    }
}

Test(compression, a_stream_cut_by_its_time_limit_still_looks_cut) {
    /* Listing the 666,090,624 solutions for n = 18 (a limit past the default page) runs out of its
     * second: the stream is cut. */
    http_result r = get_with("/queens?n=18&limit=9007199254740991&time_limit_ms=1000", NULL, "gzip");
    cr_assert(r.headers != NULL && strncmp(r.headers, "HTTP/1.1 200", 12) == 0, "headers: %s", r.headers);
    cr_assert(header_is(&r, "Content-Encoding", "gzip"));
    cr_assert_neq(r.curl_code, 0, "the cut transfer ended cleanly"); /* so r.status is 0 */
    inflated body = gunzip(r.body, r.body_len);
    cr_assert_not(body.complete, "the cut stream is a complete gzip member");
    const char *head = "{\"kind\":\"queens_solutions\",\"n\":18,\"solutions\":[[";
    cr_assert(body.len > strlen(head) && memcmp(body.data, head, strlen(head)) == 0,
              "what arrived does not inflate to the start of the answer");
    free(body.data);
    http_result_free(&r);
}

/* The curl program's own decoder, for a complete answer, a JSON stream and an NDJSON stream. */
Test(compression, curl_compressed_gets_exactly_the_identity_answer) {
    static const char *const requests[] = {
        "/shuffle?n=3000&seed=42",
        "/knight-tour?n=300",
        "-H 'Accept: application/x-ndjson' '%s/permutations?items=1,2,3,4,5,6,7,8'",
    };
    for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
        char target[512], plain_command[1024], compressed_command[2048];
        if (strchr(requests[i], '%') != NULL) snprintf(target, sizeof target, requests[i], server_url());
        else snprintf(target, sizeof target, "'%s%s'", server_url(), requests[i]);
        snprintf(plain_command, sizeof plain_command, "curl -sS --fail %s", target);
        snprintf(compressed_command, sizeof compressed_command,
                 "curl -sS --fail --compressed -D /dev/stderr %s 2>&1 >/dev/null | tr -d '\\r' | "
                 "grep -ix 'content-encoding: gzip' > /dev/null && curl -sS --fail --compressed %s",
                 target, target);
        char *plain = run_command_output(plain_command);
        char *compressed = run_command_output(compressed_command);
        cr_assert_not_null(plain, "%s failed", plain_command);
        cr_assert_not_null(compressed, "%s failed (or its answer was not gzip'd)", compressed_command);
        cr_assert_gt(strlen(plain), (size_t)SMALL_ANSWER_BYTES);
        cr_assert_str_eq(compressed, plain, "curl --compressed %s differs from the identity answer", target);
        free(plain);
        free(compressed);
    }
}
