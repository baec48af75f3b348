/* Fuzz target: big decimal numbers, the FIELD_BIG_INTEGER fields read by api/params.c's
 * param_big_uint() (ranks, offsets) and api/seed.c's param_seed() (64-bit decimal seeds and 64-hex-digit
 * xoshiro states), through the endpoints that take them.
 * Input: byte 0 picks the field; byte 1's bit 0 says the rest goes into the JSON body as it is (a
 * JSON number token, or anything), else it is the field's string value; bit 1 sends the request as
 * a query string instead. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_request.h"

typedef struct number_field {
    const char *path;
    const char *name;
    const char *others; /* the request's other fields, as JSON members, and as a query string */
    const char *others_query;
} number_field;

static const number_field fields[] = {
    {"/permutation/unrank", "rank", "\"items\":[1,2,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22]",
     "items=1,2,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22"},
    {"/permutation/unrank", "rank", "\"text\":\"aabc\",\"k\":2", "text=aabc&k=2"},
    {"/combination/unrank", "rank", "\"text\":\"abcdefghijklmnopqrstuvwxyz0123456789\",\"k\":17",
     "text=abcdefghijklmnopqrstuvwxyz0123456789&k=17"},
    {"/permutations", "offset", "\"text\":\"abcdefghijklmnopqrstu\",\"limit\":2", "text=abcdefghijklmnopqrstu&limit=2"},
    {"/combinations", "offset", "\"text\":\"aabbccddeeffgghhiijjkkll\",\"k\":12,\"limit\":2",
     "text=aabbccddeeffgghhiijjkkll&k=12&limit=2"},
    {"/shuffle", "seed", "\"n\":5", "n=5"},
    {"/shuffle", "seed", "\"items\":[\"a\",\"b\",\"c\"],\"count\":2", "items=a,b,c&count=2"},
    {"/sudoku/generate", "seed", "\"box\":2", "box=2"},
    {"/word-ladder/puzzle", "seed", "\"length\":3,\"steps\":2,\"dictionary\":[\"cat\",\"cot\",\"dot\",\"dog\"]",
     "length=3&steps=2&dictionary=cat,cot,dot,dog"},
};
enum { FIELD_COUNT = sizeof fields / sizeof fields[0] };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    const number_field *field = &fields[data[0] % FIELD_COUNT];
    bool raw = data[1] & 1, query = data[1] & 2;
    const char *value = (const char *)data + 2;
    size_t len = size - 2;
    const fuzz_endpoint *ep = fuzz_endpoint_at(field->path);
    if (query) {
        size_t room = strlen(field->others_query) + strlen(field->name) + len + 3;
        char *text = malloc(room);
        int head = snprintf(text, room, "%s&%s=", field->others_query, field->name);
        memcpy(text + head, value, len);
        fuzz_run(ep, &(fuzz_call){.query = text, .query_len = (size_t)head + len});
        free(text);
    } else if (raw) {
        size_t room = strlen(field->others) + strlen(field->name) + len + 8;
        char *text = malloc(room);
        int head = snprintf(text, room, "{%s,\"%s\":", field->others, field->name);
        memcpy(text + head, value, len);
        text[(size_t)head + len] = '}';
        fuzz_run(ep, &(fuzz_call){.body = text, .body_len = (size_t)head + len + 1});
        free(text);
    } else {
        size_t room = strlen(field->others) + 3;
        char *text = malloc(room);
        snprintf(text, room, "{%s}", field->others);
        cJSON *params = cJSON_Parse(text);
        free(text);
        char *copy = strndup(value, len);
        cJSON_AddItemToObject(params, field->name, cJSON_CreateString(copy));
        free(copy);
        fuzz_run_params(ep, params, false, NULL, 0);
    }
    return 0;
}
