/* Fuzz target: Sudoku text (core/sudoku/sudoku_text.c, api/sudoku/sudoku_io.c): a grid as one line of
 * symbols, read directly and through the endpoints that take `puzzle`, and the text/plain bulk body
 * of /sudoku/solve (api/sudoku/sudoku_solve.c).
 * Input: byte 0 picks the use; the rest is the text.
 *   0: sudoku_parse(); a grid that parses must format back to the same cells (sudoku_format);
 *   1: the bulk body of /sudoku/solve (one puzzle a line, NDJSON answers);
 *   2-5: `puzzle` of /sudoku/solve, /sudoku/check, /sudoku/hint, /sudoku/explain. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sudoku/sudoku_text.h"
#include "fuzz_request.h"

static void parse_and_format(const char *text, size_t len) {
    sudoku_grid grid;
    size_t bad = 0;
    sudoku_text_status status = sudoku_parse(text, len, &grid, &bad);
    if (status == SUDOKU_TEXT_BAD_CHARACTER) fuzz_require(bad < len, "a bad character past the text");
    if (status != SUDOKU_TEXT_OK) return;
    char *formatted = malloc(len + 1);
    sudoku_format(&grid, formatted);
    fuzz_require(strlen(formatted) == len, "a grid formats to another length");
    for (size_t i = 0; i < len; i++)
        fuzz_require(sudoku_symbol_value(formatted[i]) == sudoku_symbol_value(text[i]),
                     "a grid formats to other values");
    free(formatted);
}

static const char *const puzzle_paths[] = {"/sudoku/solve", "/sudoku/check", "/sudoku/hint", "/sudoku/explain"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    unsigned use = data[0] % 6;
    if (use == 0) {
        parse_and_format(text, len);
    } else if (use == 1) {
        fuzz_run(fuzz_endpoint_at("/sudoku/solve"), &(fuzz_call){.text_body = text, .text_body_len = len});
    } else {
        cJSON *params = cJSON_CreateObject();
        char *puzzle = strndup(text, len);
        cJSON_AddStringToObject(params, "puzzle", puzzle);
        free(puzzle);
        fuzz_run_params(fuzz_endpoint_at(puzzle_paths[use - 2]), params, false, NULL, 0);
    }
    return 0;
}
