/* Integration tests for /queens mode "count" with part and parts: the 7 parts of n = 15 to 17 add up
 * to OEIS A000170 and A002562 (tests/reference/queens_oeis.h; n = 17 only in the whole suite, the
 * quick tier's sample stops at 16), a part asked twice answers the same, the parts' estimates add up to
 * the whole's, and every wrong pairing of the fields is a clear 400. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "queens_oeis.h"
#include "../../lib/test_sample.h"

#define PARTS 7

static uint64_t count_field(const cJSON *doc, const char *name) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, name);
    cr_assert(cJSON_IsString(item), "%s must be a string of digits", name);
    return strtoull(item->valuestring, NULL, 10);
}

static cJSON *get_part(int n, int part, int parts) {
    char query[120];
    snprintf(query, sizeof query, "/queens?mode=count&unique=true&n=%d&part=%d&parts=%d", n, part, parts);
    return get_ok(query);
}

Test(queens_parts, seven_parts_add_up_to_oeis) {
    int last_n = test_sample_divisor() > 1 ? 16 : 17;
    for (int n = 15; n <= last_n; n++) {
        uint64_t total = 0, unique = 0;
        for (int part = 0; part < PARTS; part++) {
            cJSON *doc = get_part(n, part, PARTS);
            total += count_field(doc, "total");
            unique += count_field(doc, "unique_total");
            cr_assert_eq(cJSON_GetObjectItemCaseSensitive(doc, "part")->valueint, part);
            cr_assert_eq(cJSON_GetObjectItemCaseSensitive(doc, "parts")->valueint, PARTS);
            cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "found")));
            cJSON_Delete(doc);
        }
        cr_assert_eq(total, oeis_a000170[n], "n=%d: %" PRIu64, n, total);
        cr_assert_eq(unique, oeis_a002562[n], "n=%d: %" PRIu64, n, unique);
    }
}

Test(queens_parts, a_part_asked_twice_answers_the_same) {
    cJSON *first = get_part(14, 2, 5), *again = post_ok("/queens", "{\"n\":14,\"mode\":\"count\",\"unique\":true,"
                                                                   "\"part\":2,\"parts\":5}");
    cr_assert(cJSON_Compare(first, again, true), "GET and POST of the same part");
    cr_assert_gt(count_field(first, "total"), 0);
    cJSON_Delete(first);
    cJSON_Delete(again);
}

/* The estimate in milliseconds of a count refused under a 1 ms limit (the 422's details). */
static double refused_estimate_ms(const char *query) {
    http_result result = http_get(query);
    cJSON *doc = expect_error(&result, 422, "too_large");
    const cJSON *details = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "error"), "details");
    double ms = cJSON_GetObjectItemCaseSensitive(details, "estimated_ms")->valuedouble;
    cJSON_Delete(doc);
    http_result_free(&result);
    return ms;
}

Test(queens_parts, the_parts_estimates_add_up_to_the_whole_one) {
    double whole = refused_estimate_ms("/queens?mode=count&n=20&time_limit_ms=1"), sum = 0;
    for (int part = 0; part < PARTS; part++) {
        char query[120];
        snprintf(query, sizeof query, "/queens?mode=count&n=20&part=%d&parts=%d&time_limit_ms=1", part, PARTS);
        sum += refused_estimate_ms(query);
    }
    cr_assert_lt(sum, whole + PARTS, "parts %.0f ms, whole %.0f ms (each rounded to the ms)", sum, whole);
    cr_assert_gt(sum, whole - PARTS, "parts %.0f ms, whole %.0f ms (each rounded to the ms)", sum, whole);
}

Test(queens_parts, small_boards_are_whole_in_part_zero) {
    for (int n = 1; n <= 3; n++) {
        uint64_t total = 0;
        for (int part = 0; part < 3; part++) {
            cJSON *doc = get_part(n, part, 3);
            total += count_field(doc, "total");
            cJSON_Delete(doc);
        }
        cr_assert_eq(total, oeis_a000170[n], "n=%d", n);
    }
}

Test(queens_parts, wrong_fields_are_clear_400s) {
    expect_error_field(http_get("/queens?mode=count&n=12&part=7&parts=7"), 400, "invalid_field", "part");
    expect_error_field(http_get("/queens?mode=count&n=12&part=-1&parts=7"), 400, "invalid_field", "part");
    expect_error_field(http_get("/queens?mode=count&n=12&part=0&parts=0"), 400, "invalid_field", "parts");
    expect_error_field(http_get("/queens?mode=count&n=12&part=0&parts=65537"), 400, "invalid_field", "parts");
    expect_error_field(http_get("/queens?mode=count&n=12&part=1"), 400, "missing_field", "parts");
    expect_error_field(http_get("/queens?mode=count&n=12&parts=2"), 400, "missing_field", "part");
    expect_error_field(http_get("/queens?n=12&part=0&parts=2"), 400, "conflicting_fields", "parts");
    expect_error_field(http_get("/queens?mode=count&n=12&part=0&parts=2&algorithm=backtracking"), 400,
                       "conflicting_fields", "parts");
    expect_error_field(http_get("/queens?mode=count&n=12&part=0&parts=2&placed=0,0"), 400, "conflicting_fields",
                       "parts");
}
