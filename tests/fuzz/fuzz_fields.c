/* Fuzz target: a request's fields, from a JSON body or a query string, through api/fields.c's
 * checks and into the real handler of every endpoint (the surface every client reaches).
 * Input: byte 0 picks the endpoint (modulo their number); byte 1's bit 0 says the rest is a query
 * string ("k=v&k=v", already percent-decoded) rather than a JSON body, bit 1 asks for NDJSON.
 * A stream is drained with a fixed piece size (fuzz_streams varies it). */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    const fuzz_endpoint *ep = &fuzz_endpoints[data[0] % fuzz_endpoint_count];
    bool query = data[1] & 1;
    const char *rest = (const char *)data + 2;
    fuzz_call call = {.ndjson = (data[1] & 2) != 0};
    if (query) {
        call.query = rest;
        call.query_len = size - 2;
    } else {
        call.body = rest;
        call.body_len = size - 2;
    }
    fuzz_run(ep, &call);
    return 0;
}
