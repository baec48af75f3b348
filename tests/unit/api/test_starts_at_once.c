/* Unit tests for api_endpoint.starts_at_once (api/api.h): the server runs a request it accepts on an
 * I/O thread, so for every such request the handler must only set up a bounded stream (no whole
 * body, no error that needed computing), and the requests it turns down must include every one
 * that searches or draws. Checked on /queens, the endpoint that has one, over requests of every mode. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "api/api.h"
#include "api/endpoints.h"

static const api_limits limits = {.max_queens_n = 3000000, .default_page = 10000, .time_limit_ms = 10000};

/* Whether the endpoint accepts the request (JSON fields, as the server has checked them) to start at
 * once; when it does, runs the handler and checks that it answered with a bounded stream. */
static bool starts_at_once(const char *fields) {
    api_request req = {.limits = &limits};
    req.params = cJSON_Parse(fields);
    cr_assert_not_null(req.params, "%s", fields);
    req.time_limit = deadline_after_ms(limits.time_limit_ms);
    req.deadline = req.time_limit;
    bool at_once = queens_endpoint.starts_at_once(&req);
    if (at_once) {
        api_response res = {.status = 200};
        bb_init(&res.body);
        cr_assert(queens_endpoint.handler(&req, &res), "%s: the handler failed", fields);
        cr_assert(res.stream_state != NULL && res.stream_bounded && res.body.len == 0,
                  "%s: not a bounded stream set up", fields);
        res.stream_free(res.stream_state);
        bb_free(&res.body);
    }
    cJSON_Delete(req.params);
    return at_once;
}

/* Large boards start at once; on every board, accepted or not, an accepted one is a bounded stream
 * (checked in starts_at_once). */
Test(starts_at_once, queens_first_of_the_construction_streams_at_once) {
    cr_assert(starts_at_once("{\"n\":1000000,\"mode\":\"first\"}"));
    cr_assert(starts_at_once("{\"n\":100003,\"mode\":\"first\",\"time_limit_ms\":50}"));
    cr_assert(starts_at_once("{\"n\":3000000,\"mode\":\"first\"}"));
    for (long n = 1; n <= 3000000; n = n * 3 / 2 + 1) {
        char fields[64];
        snprintf(fields, sizeof fields, "{\"n\":%ld,\"mode\":\"first\"}", n);
        starts_at_once(fields);
    }
}

Test(starts_at_once, searches_drawings_and_whole_bodies_go_to_a_worker) {
    const char *turned_down[] = {
        "{\"n\":8,\"mode\":\"first\"}",                          /* a whole body (it may be gzip'd) */
        "{\"n\":9000,\"mode\":\"first\"}",                       /* 43,926 bytes: still whole */
        "{\"n\":1000000,\"mode\":\"first\",\"placed\":[[0,1]]}", /* a search */
        "{\"n\":200,\"mode\":\"first\",\"format\":\"svg\"}",     /* a drawing */
        "{\"n\":1000000,\"mode\":\"first\",\"format\":\"json\"}",
        "{\"n\":3000001,\"mode\":\"first\"}", /* over the limit: the worker's 422 */
        "{\"n\":16,\"mode\":\"count\"}",
        "{\"n\":16}",
        "{\"mode\":\"first\"}",
    };
    for (size_t i = 0; i < sizeof turned_down / sizeof *turned_down; i++)
        cr_assert_not(starts_at_once(turned_down[i]), "%s", turned_down[i]);
}
