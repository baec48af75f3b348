/* Fuzz target: the stream generators (api/arrangements/arrangement_listing.c, shuffle.c, queens.c, knight_tour.c,
 * word_ladder.c, sudoku_solve.c's bulk solve), drained with small and odd `want` sizes; the pieces
 * put together must be valid JSON, or NDJSON line by line, whatever the piece sizes.
 * Input: byte 0 picks the endpoint, byte 1's bit 0 asks for NDJSON, byte 2 says how many `want` bytes
 * follow (1 to 16; each byte b asks for b+1 bytes, 255 for 64 KiB); the rest is the JSON body, or for
 * /sudoku/solve the text/plain bulk body of puzzles, one a line. */
#include <stdint.h>

#include "fuzz_request.h"

static const char *const streaming_paths[] = {
    "/shuffle", "/permutations", "/combinations", "/queens", "/knight-tour", "/word-ladder", "/sudoku/solve",
};
enum { PATH_COUNT = sizeof streaming_paths / sizeof streaming_paths[0] };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3) return 0;
    const fuzz_endpoint *ep = fuzz_endpoint_at(streaming_paths[data[0] % PATH_COUNT]);
    size_t want_count = (size_t)(data[2] % 16) + 1;
    if (size < 3 + want_count) return 0;
    const char *rest = (const char *)data + 3 + want_count;
    size_t len = size - 3 - want_count;
    fuzz_call call = {.ndjson = data[1] & 1, .wants = data + 3, .want_count = want_count};
    if (ep->text_body) {
        call.text_body = rest;
        call.text_body_len = len;
    } else {
        call.body = rest;
        call.body_len = len;
    }
    fuzz_run(ep, &call);
    return 0;
}
