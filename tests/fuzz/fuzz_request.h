/* What every libFuzzer target in tests/fuzz/ shares: the endpoint table, a request run the way
 * server/request_endpoint.c runs one (fields from a JSON body and/or a query string, checked by api/fields.c,
 * then the handler), the draining of a streamed answer with the caller's `want` sizes, and the checks
 * that every answer holds: valid UTF-8, valid JSON (or NDJSON, one JSON value a line), and an error
 * whose status and code come from the error table. A broken check aborts, which libFuzzer reports
 * as a crash with the input that caused it. */
#ifndef PUZZLED_TESTS_FUZZ_REQUEST_H
#define PUZZLED_TESTS_FUZZ_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"

/* Every endpoint of api/endpoints.h, by its path (server/routes.c's table without /metrics, which
 * lives in server/). `text_body`: the route takes a text/plain POST body (ROUTE_TEXT_BODY). */
typedef struct fuzz_endpoint {
    const char *path;
    const api_endpoint *endpoint;
    bool text_body;
} fuzz_endpoint;

extern const fuzz_endpoint fuzz_endpoints[];
extern const size_t fuzz_endpoint_count;

/* The endpoint at `path`; aborts when there is none (a target's table is out of date). */
const fuzz_endpoint *fuzz_endpoint_at(const char *path);

/* One request, as the server would have received it. */
typedef struct fuzz_call {
    const char *body; /* the JSON POST body (NULL for none) */
    size_t body_len;
    const char *query; /* the decoded query string, "k=v&k=v" (NULL for none) */
    size_t query_len;
    const char *text_body; /* a text/plain body for a text_body route (NULL for none) */
    size_t text_body_len;
    bool ndjson;          /* Accept: application/x-ndjson */
    const uint8_t *wants; /* the `want` sizes a stream is drained with, cycled; NULL: a fixed 4096 */
    size_t want_count;
} fuzz_call;

/* Loads the built-in and "common" dictionaries (when the files exist) once; call from
 * LLVMFuzzerInitialize or before the first run. */
void fuzz_setup(void);

/* Runs `call` against `ep` and checks the answer; aborts on a broken check. */
void fuzz_run(const fuzz_endpoint *ep, const fuzz_call *call);

/* Runs an endpoint with fields already in hand (a cJSON object, consumed), as fuzz_run does after
 * parsing; for targets that build requests from their input directly. */
void fuzz_run_params(const fuzz_endpoint *ep, cJSON *params, bool ndjson, const uint8_t *wants, size_t want_count);

/* Aborts unless `text` is valid UTF-8 (strict: no overlong forms, surrogates or code points above
 * U+10FFFF) and one JSON value (or, with `lines`, one JSON value on every line). */
void fuzz_check_json(const char *text, size_t len, bool lines);

/* Aborts unless `text` is valid UTF-8. */
void fuzz_check_utf8(const char *text, size_t len);

/* Aborts with `what` on stderr when `ok` is false. */
void fuzz_require(bool ok, const char *what);

#endif
