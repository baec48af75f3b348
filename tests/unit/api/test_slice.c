/* api_outlasts_slice: a computation estimated longer than what is left of its slice fails at once with
 * the deadline (so the server moves it to the main lane), and nothing else does: not outside a slice,
 * not when the estimate fits, not when the slice is the whole time limit. Each case against the
 * definition, with slices and limits far from the estimates so that the clock's progress between the
 * set-up and the call cannot change the outcome. */
#include <criterion/criterion.h>

#include "api/api.h"

static api_request request_in(uint64_t slice_ms, uint64_t limit_ms) {
    api_request req = {0};
    req.time_limit = deadline_after_ms(limit_ms);
    req.deadline = slice_ms == limit_ms ? req.time_limit : deadline_after_ms(slice_ms);
    return req;
}

Test(slice, an_estimate_beyond_the_slice_fails_with_the_deadline) {
    api_request req = request_in(20, 10000);
    cr_assert(api_outlasts_slice(&req, 40));
    cr_assert_eq(req.error.kind, API_DEADLINE_EXCEEDED);
}

Test(slice, an_estimate_within_the_slice_runs) {
    api_request req = request_in(3600000, 7200000); /* an hour's slice: no scheduling delay reaches it */
    cr_assert_not(api_outlasts_slice(&req, 40));
    cr_assert_eq(req.error.status, 0);
}

Test(slice, without_a_slice_every_estimate_runs) {
    api_request whole = request_in(20, 20); /* the slice is the whole limit: the main lane */
    cr_assert_not(api_outlasts_slice(&whole, 40000));
    cr_assert_eq(whole.error.status, 0);
    api_request unlimited = {0}; /* no limit at all (benchmarks, tests) */
    cr_assert_not(api_outlasts_slice(&unlimited, 40000));
    cr_assert_eq(unlimited.error.status, 0);
}
