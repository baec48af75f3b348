/* Fuzz target: UTF-8 `text` items (api/arrangements/item_classes.c, api/arrangements/item_selection.c), the code points
 * that /permutations, /combinations and their rank and unrank endpoints take as items, given as any
 * bytes (a JSON body's strings reach the handler undecoded, so invalid UTF-8 arrives here too).
 * Input: byte 0 picks the request shape, byte 1 gives k (low 3 bits), distinct (bit 3), NDJSON
 * (bit 4) and a small rank (high 3 bits); the rest is the text, and for the shapes that take a second
 * text (a selection from a pool) the part after the first newline is that second text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_request.h"

typedef enum shape { ONE_TEXT, TWO_TEXTS } shape;

typedef struct text_request {
    const char *path;
    const char *first;  /* the field that gets the text, or the pool */
    const char *second; /* the field that gets the selection, or NULL */
    bool with_k;
    bool with_rank;
} text_request;

static const text_request requests[] = {
    {"/permutations", "text", NULL, true, false},
    {"/permutation/rank", "text", NULL, false, false},
    {"/permutation/rank", "pool_text", "text", false, false},
    {"/permutation/unrank", "text", NULL, true, true},
    {"/combinations", "text", NULL, true, false},
    {"/combination/rank", "text", "combination_text", false, false},
    {"/combination/unrank", "text", NULL, true, true},
};
enum { REQUEST_COUNT = sizeof requests / sizeof requests[0] };

/* A cJSON string of `len` bytes (cut at a NUL, as a JSON string is when cJSON reads \u0000). */
static cJSON *string_of(const char *text, size_t len) {
    char *copy = strndup(text, len);
    cJSON *value = copy ? cJSON_CreateString(copy) : NULL;
    free(copy);
    return value;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    const text_request *shape = &requests[data[0] % REQUEST_COUNT];
    uint8_t options = data[1];
    const char *text = (const char *)data + 2;
    size_t len = size - 2, first_len = len;
    const char *newline = memchr(text, '\n', len);
    if (shape->second != NULL && newline != NULL) first_len = (size_t)(newline - text);
    cJSON *params = cJSON_CreateObject();
    cJSON_AddItemToObject(params, shape->first, string_of(text, first_len));
    if (shape->second != NULL && newline != NULL)
        cJSON_AddItemToObject(params, shape->second, string_of(newline + 1, len - first_len - 1));
    if (shape->with_k && (options & 7) != 0) cJSON_AddNumberToObject(params, "k", options & 7);
    if (options & 8) cJSON_AddTrueToObject(params, "distinct");
    if (shape->with_rank) cJSON_AddNumberToObject(params, "rank", options >> 5);
    fuzz_run_params(fuzz_endpoint_at(shape->path), params, (options & 16) != 0, NULL, 0);
    return 0;
}
