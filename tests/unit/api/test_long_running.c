/* Unit tests for api_endpoint.long_running (api/api.h) on /shuffle: a whole shuffle of
 * SHUFFLE_LONG_VALUES values or more, given as `n` or as that many `items`, skips the express slice;
 * one value fewer, a sample of any size, or a request without sizes does not. Requests go through
 * api/fields.c first, as the server sends them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/fields.h"
#include "api/random/shuffle.h"

static const api_limits limits = {.max_shuffle_items = 2 * SHUFFLE_LONG_VALUES, .time_limit_ms = 5000};

static bool long_running(const char *body) {
    api_request req = {.limits = &limits};
    cr_assert(fields_parse_body(&req, body, strlen(body)), "%s", req.error.message);
    cr_assert(fields_check(&req, shuffle_endpoint.fields), "%s", req.error.message);
    bool answer = shuffle_endpoint.long_running(&req);
    cJSON_Delete(req.params);
    return answer;
}

/* {"items":[0,0,...]} with `count` items and `extra` fields after them. */
static bool items_long_running(size_t count, const char *extra) {
    size_t size = 64 + 2 * count;
    char *body = malloc(size);
    cr_assert_not_null(body);
    size_t at = (size_t)snprintf(body, size, "{\"items\":[");
    for (size_t i = 0; i < count; i++) {
        if (i > 0) body[at++] = ',';
        body[at++] = '0';
    }
    snprintf(body + at, size - at, "]%s}", extra);
    bool answer = long_running(body);
    free(body);
    return answer;
}

Test(long_running, a_shuffle_of_n_values_from_the_bound_on) {
    char body[96];
    const long counts[] = {
        0, 1, SHUFFLE_LONG_VALUES - 1, SHUFFLE_LONG_VALUES, SHUFFLE_LONG_VALUES + 1, 2 * SHUFFLE_LONG_VALUES};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        snprintf(body, sizeof body, "{\"n\":%ld,\"seed\":1}", counts[i]);
        cr_assert_eq(long_running(body), counts[i] >= SHUFFLE_LONG_VALUES, "%s", body);
        snprintf(body, sizeof body, "{\"n\":%ld,\"sample\":1}", counts[i]);
        cr_assert_not(long_running(body), "%s: a sample is left to the slice", body);
    }
}

Test(long_running, a_shuffle_of_items_from_the_bound_on) {
    cr_assert_not(items_long_running(SHUFFLE_LONG_VALUES - 1, ""));
    cr_assert(items_long_running(SHUFFLE_LONG_VALUES, ""));
    cr_assert_not(items_long_running(SHUFFLE_LONG_VALUES, ",\"sample\":3"));
    cr_assert_not(long_running("{\"seed\":1}"), "no sizes: the handler's 400");
}
