/* Integration tests for /queens over HTTP: modes, unique, offset/limit, the three algorithms,
 * NDJSON, the construction for huge boards, errors and the time limit. References are computed by
 * Python (itertools) at test time or are published values (OEIS A000170, A002562). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Python: every solution for n in lexicographic order (or the fundamental ones: equal to the
 * smallest of the 8 images obtained by rotating and mirroring the board's squares), as JSON. */
static cJSON *python_solutions(int n, bool unique) {
    char command[1200];
    snprintf(command, sizeof command,
             "python3 -c '\n"
             "import itertools, json\n"
             "n = %d\n"
             "def ok(p): return all(abs(p[i] - p[j]) != j - i for i in range(n) for j in range(i + 1, n))\n"
             "def images(p):\n"
             "    squares = [(r, c) for r, c in enumerate(p)]\n"
             "    for k in range(8):\n"
             "        moved = squares\n"
             "        for _ in range(k %% 4): moved = [(c, n - 1 - r) for r, c in moved]\n"
             "        if k >= 4: moved = [(r, n - 1 - c) for r, c in moved]\n"
             "        yield [c for r, c in sorted(moved)]\n"
             "sols = [list(p) for p in itertools.permutations(range(n)) if ok(p)]\n"
             "if %d: sols = [p for p in sols if p == min(images(p))]\n"
             "print(json.dumps(sols))'",
             n, unique ? 1 : 0);
    char *out = run_command_output(command);
    cr_assert_not_null(out, "python3 reference failed");
    cJSON *list = cJSON_Parse(out);
    free(out);
    cr_assert_not_null(list);
    return list;
}

static const char *string_field(const cJSON *doc, const char *name) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, name);
    cr_assert(cJSON_IsString(item), "%s must be a string", name);
    return item->valuestring;
}

static bool found_field(const cJSON *doc) {
    const cJSON *found = cJSON_GetObjectItemCaseSensitive(doc, "found");
    cr_assert(cJSON_IsBool(found), "found must be a boolean");
    return cJSON_IsTrue(found);
}

static void expect_json_equal(const cJSON *got, const cJSON *expected, const char *what) {
    char *got_text = cJSON_PrintUnformatted(got);
    char *expected_text = cJSON_PrintUnformatted(expected);
    cr_assert_str_eq(got_text, expected_text, "%s", what);
    free(got_text);
    free(expected_text);
}

Test(queens, lists_equal_python_in_content_and_order) {
    for (int n = 1; n <= 8; n++) {
        for (int unique = 0; unique <= 1; unique++) {
            char path[96];
            snprintf(path, sizeof path, "/queens?n=%d&unique=%s", n, unique ? "true" : "false");
            cJSON *doc = get_ok(path);
            cJSON *expected = python_solutions(n, unique);
            expect_json_equal(cJSON_GetObjectItemCaseSensitive(doc, "solutions"), expected, path);
            cr_assert_str_eq(string_field(doc, "kind"), "queens_solutions", "%s", path);
            cr_assert_eq(found_field(doc), cJSON_GetArraySize(expected) > 0, "%s", path);
            cr_assert_eq(cJSON_GetObjectItemCaseSensitive(doc, "n")->valuedouble, n);
            cJSON_Delete(expected);
            cJSON_Delete(doc);
        }
    }
}

Test(queens, kind_opens_the_streamed_list_and_found_closes_it) {
    http_result r = http_get("/queens?n=6");
    cr_assert_eq(r.status, 200);
    cr_assert_str_eq(r.body, "{\"kind\":\"queens_solutions\",\"n\":6,\"solutions\":[[1,3,5,0,2,4],[2,5,1,4,0,3],"
                             "[3,0,4,1,5,2],[4,2,0,5,3,1]],\"found\":true,\"next_offset\":null}");
    http_result_free(&r);
}

/* n = 12 has 14,200 solutions (OEIS A000170): without `limit` a JSON list is one default page of
 * 10000 (the service's default --default-page) whose next_offset (a string, as an offset may be
 * given) starts the second and last page; the two pages are NDJSON's lines, in order. */
Test(queens, a_json_list_without_limit_is_pages_that_join_into_the_ndjson_lines) {
    cJSON *first = post_ok("/queens", "{\"n\":12}");
    cr_assert_str_eq(string_field(first, "next_offset"), "10000");
    cJSON *second = post_ok("/queens", "{\"n\":12,\"offset\":\"10000\"}");
    cr_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(second, "next_offset")));
    const cJSON *pages[] = {cJSON_GetObjectItemCaseSensitive(first, "solutions"),
                            cJSON_GetObjectItemCaseSensitive(second, "solutions")};
    cr_assert_eq(cJSON_GetArraySize(pages[0]), 10000);
    cr_assert_eq(cJSON_GetArraySize(pages[1]), 4200);
    const char *const ndjson[] = {"Accept: application/x-ndjson", NULL};
    http_result lines = http_request(server_url(), "POST", "/queens", "{\"n\":12}", ndjson);
    cr_assert_eq(lines.status, 200);
    const char *line = lines.body;
    for (int p = 0; p < 2; p++) {
        const cJSON *solution;
        cJSON_ArrayForEach(solution, pages[p]) {
            char *text = cJSON_PrintUnformatted(solution);
            size_t len = strlen(text);
            cr_assert(strncmp(line, text, len) == 0 && line[len] == '\n', "the pages follow the NDJSON lines");
            line += len + 1;
            free(text);
        }
    }
    cr_assert_eq(*line, '\0', "and end with them");
    http_result_free(&lines);
    cJSON_Delete(first);
    cJSON_Delete(second);
}

Test(queens, algorithms_agree) {
    const char *bodies[] = {
        "{\"n\":9,\"algorithm\":\"bitmask\"}",
        "{\"n\":9,\"algorithm\":\"backtracking\"}",
        "{\"n\":9,\"algorithm\":\"permutation\"}",
        "{\"n\":10,\"unique\":true,\"algorithm\":\"bitmask\"}",
        "{\"n\":10,\"unique\":true,\"algorithm\":\"backtracking\"}",
        "{\"n\":10,\"unique\":true,\"algorithm\":\"permutation\"}",
    };
    for (int group = 0; group < 2; group++) {
        http_result first = http_post("/queens", bodies[3 * group]);
        cr_assert_eq(first.status, 200);
        for (int i = 1; i < 3; i++) {
            http_result other = http_post("/queens", bodies[3 * group + i]);
            cr_assert_eq(other.status, 200);
            cr_assert_str_eq(other.body, first.body, "%s", bodies[3 * group + i]);
            http_result_free(&other);
        }
        http_result_free(&first);
    }
}

Test(queens, offset_and_limit_window_the_list) {
    cJSON *all = python_solutions(8, false);
    cJSON *doc = post_ok("/queens", "{\"n\":8,\"offset\":10,\"limit\":5}");
    cJSON *window = cJSON_CreateArray();
    for (int i = 10; i < 15; i++) {
        cJSON_AddItemToArray(window, cJSON_Duplicate(cJSON_GetArrayItem(all, i), true));
    }
    expect_json_equal(cJSON_GetObjectItemCaseSensitive(doc, "solutions"), window, "offset 10 limit 5");
    cJSON_Delete(doc);

    doc = post_ok("/queens", "{\"n\":8,\"offset\":90}");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "solutions")), 2);
    cr_assert_null(cJSON_GetObjectItemCaseSensitive(doc, "count"), "the number listed is the array's length");
    cJSON_Delete(doc);

    doc = get_ok("/queens?n=8&offset=92");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "solutions")), 0);
    cr_assert_not(found_field(doc));
    cJSON_Delete(doc);

    doc = get_ok("/queens?n=8&limit=0");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "solutions")), 0);
    cJSON_Delete(doc);

    doc = post_ok("/queens", "{\"n\":8,\"unique\":true,\"offset\":11,\"limit\":3}");
    cJSON *unique = python_solutions(8, true);
    cJSON *last = cJSON_CreateArray();
    cJSON_AddItemToArray(last, cJSON_Duplicate(cJSON_GetArrayItem(unique, 11), true));
    expect_json_equal(cJSON_GetObjectItemCaseSensitive(doc, "solutions"), last, "unique window");
    cJSON_Delete(last);
    cJSON_Delete(unique);
    cJSON_Delete(doc);
    cJSON_Delete(window);
    cJSON_Delete(all);
}

Test(queens, ndjson_streams_one_solution_per_line) {
    const char *accept[] = {"Accept: application/x-ndjson", NULL};
    http_result r = http_request(server_url(), "GET", "/queens?n=7&offset=3&limit=30", NULL, accept);
    cr_assert_eq(r.status, 200);
    char *type = http_header(&r, "Content-Type");
    cr_assert_not_null(type);
    cr_assert(strstr(type, "application/x-ndjson") != NULL, "content type %s", type);
    free(type);
    cJSON *lines = http_ndjson(&r);
    cr_assert_not_null(lines);
    cJSON *all = python_solutions(7, false);
    cr_assert_eq(cJSON_GetArraySize(lines), 30);
    for (int i = 0; i < 30; i++) {
        expect_json_equal(cJSON_GetArrayItem(lines, i), cJSON_GetArrayItem(all, i + 3), "ndjson line");
    }
    cJSON_Delete(all);
    cJSON_Delete(lines);
    http_result_free(&r);
}

/* OEIS A000170 and A002562. */
Test(queens, counts_match_oeis) {
    static const char *const total[] = {"",   "1",   "0",   "0",    "2",     "10",    "4",      "40",
                                        "92", "352", "724", "2680", "14200", "73712", "365596", "2279184"};
    static const char *const unique[] = {"",   "1",  "0",  "0",   "1",    "2",    "1",     "6",
                                         "12", "46", "92", "341", "1787", "9233", "45752", "285053"};
    for (int n = 1; n <= 15; n++) {
        char body[80];
        snprintf(body, sizeof body, "{\"n\":%d,\"mode\":\"count\",\"unique\":true}", n);
        cJSON *doc = post_ok("/queens", body);
        cr_assert_str_eq(string_field(doc, "total"), total[n], "n=%d", n);
        cr_assert_str_eq(string_field(doc, "unique_total"), unique[n], "n=%d", n);
        cr_assert_eq(found_field(doc), n != 2 && n != 3);
        cJSON_Delete(doc);
    }
    cJSON *doc = get_ok("/queens?n=10&mode=count");
    cr_assert_str_eq(string_field(doc, "total"), "724");
    cr_assert_null(cJSON_GetObjectItemCaseSensitive(doc, "unique_total"), "unique_total only with unique");
    cJSON_Delete(doc);
}

Test(queens, counts_agree_across_algorithms) {
    const char *const names[] = {"bitmask", "backtracking", "permutation"};
    for (int a = 0; a < 3; a++) {
        char body[120];
        snprintf(body, sizeof body, "{\"n\":10,\"mode\":\"count\",\"unique\":true,\"algorithm\":\"%s\"}", names[a]);
        cJSON *doc = post_ok("/queens", body);
        cr_assert_str_eq(string_field(doc, "total"), "724", "%s", names[a]);
        cr_assert_str_eq(string_field(doc, "unique_total"), "92", "%s", names[a]);
        cJSON_Delete(doc);
    }
}

/* Checks a construction (the answer's body, already fetched) with arrays of used columns and
 * diagonals. */
static void expect_valid_solution(const http_result *r, long n) {
    cr_assert_eq(r->status, 200, "n=%ld: status %ld", n, r->status);
    cJSON *doc = http_json(r);
    cr_assert_not_null(doc, "n=%ld: the answer is not JSON", n);
    cr_assert(found_field(doc));
    const cJSON *solution = cJSON_GetObjectItemCaseSensitive(doc, "solution");
    cr_assert_eq(cJSON_GetArraySize(solution), n, "n=%ld: one column per row", n);
    char *used = calloc((size_t)(6 * n), 1); /* columns, then both diagonal families */
    long row = 0;
    const cJSON *cell;
    cJSON_ArrayForEach(cell, solution) {
        long c = (long)cell->valuedouble;
        cr_assert(c >= 0 && c < n, "n=%ld row %ld: column %ld off the board", n, row, c);
        cr_assert(!used[c] && !used[n + row + c] && !used[4 * n + row - c], "n=%ld: row %ld attacked", n, row);
        used[c] = used[n + row + c] = used[4 * n + row - c] = 1;
        row++;
    }
    free(used);
    cJSON_Delete(doc);
}

static void expect_valid_first(long n) {
    char path[64];
    snprintf(path, sizeof path, "/queens?n=%ld&mode=first", n);
    http_result r = http_get(path);
    expect_valid_solution(&r, n);
    http_result_free(&r);
}

/* Answers up to 64 KiB are built whole (Content-Length), larger ones stream (chunked); both are
 * valid solutions. n = 9,000 takes 43,948 bytes (at most 45,096 by the server's bound), n = 10^6 6.9 MB. */
Test(queens, first_is_whole_up_to_64_kib_and_streamed_beyond) {
    const struct {
        long n;
        const char *length, *chunked;
    } cases[] = {{9000, "43948", NULL}, {1000000, NULL, "chunked"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[64];
        snprintf(path, sizeof path, "/queens?n=%ld&mode=first", cases[i].n);
        http_result r = http_get(path);
        char *length = http_header(&r, "Content-Length"), *encoding = http_header(&r, "Transfer-Encoding");
        cr_assert((length == NULL) == (cases[i].length == NULL), "n=%ld: Content-Length %s", cases[i].n, length);
        if (length != NULL) cr_assert_str_eq(length, cases[i].length);
        cr_assert((encoding == NULL) == (cases[i].chunked == NULL), "n=%ld: Transfer-Encoding %s", cases[i].n,
                  encoding);
        if (encoding != NULL) cr_assert_str_eq(encoding, cases[i].chunked);
        expect_valid_solution(&r, cases[i].n);
        free(length);
        free(encoding);
        http_result_free(&r);
    }
}

Test(queens, first_is_valid_for_large_boards) {
    long sizes[] = {1, 4, 5, 8, 9, 1000, 99998, 99999, 100000, 100001, 100002, 100003, 1000000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        expect_valid_first(sizes[i]);
    }
}

Test(queens, no_solution_for_two_and_three) {
    for (int n = 2; n <= 3; n++) {
        char path[64];
        snprintf(path, sizeof path, "/queens?n=%d&mode=first", n);
        cJSON *doc = get_ok(path);
        cr_assert_not(found_field(doc));
        cr_assert_null(cJSON_GetObjectItemCaseSensitive(doc, "solution"));
        cJSON_Delete(doc);
        snprintf(path, sizeof path, "/queens?n=%d", n);
        doc = get_ok(path);
        cr_assert_not(found_field(doc));
        cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "solutions")), 0);
        cJSON_Delete(doc);
    }
}

Test(queens, errors_name_the_field) {
    http_result r = http_get("/queens");
    expect_error_field(r, 400, "missing_field", "n");
    r = http_get("/queens?n=0");
    expect_error_field(r, 400, "invalid_field", "n");
    r = http_post("/queens", "{\"n\":\"8\"}");
    expect_error_field(r, 400, "invalid_field", "n");
    r = http_post("/queens", "{\"n\":8,\"mode\":\"all\"}");
    expect_error_field(r, 400, "invalid_field", "mode");
    r = http_post("/queens", "{\"n\":8,\"algorithm\":\"dancing_links\"}");
    expect_error_field(r, 400, "invalid_field", "algorithm");
    r = http_post("/queens", "{\"n\":8,\"limit\":-1}");
    expect_error_field(r, 400, "invalid_field", "limit");
    r = http_post("/queens", "{\"n\":8,\"offset\":-1}");
    expect_error_field(r, 400, "invalid_field", "offset");
    r = http_post("/queens", "{\"n\":8,\"unique\":\"yes\"}");
    expect_error_field(r, 400, "invalid_field", "unique");
    r = http_post("/queens", "{\"n\":8,\"mode\":\"count\",\"offset\":3}");
    expect_error_field(r, 400, "conflicting_fields", "offset");
    r = http_post("/queens", "{\"n\":8,\"mode\":\"first\",\"limit\":3}");
    expect_error_field(r, 400, "conflicting_fields", "limit");
    r = http_post("/queens", "{\"n\":8,\"mode\":\"first\",\"unique\":true}");
    expect_error_field(r, 400, "conflicting_fields", "unique");
    r = http_post("/queens", "{\"n\":8,\"mode\":\"first\",\"algorithm\":\"bitmask\"}");
    expect_error_field(r, 400, "conflicting_fields", "algorithm");
    r = http_post("/queens", "{\"n\":33}");
    expect_error_field(r, 422, "too_large", "n");
    r = http_post("/queens", "{\"n\":33,\"mode\":\"count\"}");
    expect_error_field(r, 422, "too_large", "n");
    r = http_post("/queens", "{\"n\":11,\"algorithm\":\"permutation\"}");
    expect_error_field(r, 422, "too_large", "n");
    r = http_post("/queens", "{\"n\":1000001,\"mode\":\"first\"}");
    expect_error_field(r, 422, "too_large", "n");
}

Test(queens, range_errors_give_the_range_as_details) {
    expect_error_details(http_post("/queens", "{\"n\":33}"), 422, "too_large",
                         "{\"min\":1,\"max\":32,\"received\":33}");
    expect_error_details(http_post("/queens", "{\"n\":0}"), 400, "invalid_field",
                         "{\"min\":1,\"max\":32,\"received\":0}");
    expect_error_details(http_post("/queens", "{}"), 400, "missing_field", "{\"min\":1,\"max\":32}");
}

Test(queens, limits_are_in_the_messages) {
    http_result r = http_post("/queens", "{\"n\":11,\"algorithm\":\"permutation\"}");
    cr_assert(strstr(r.body, "10") != NULL, "permutation limit in %s", r.body);
    http_result_free(&r);
    r = http_post("/queens", "{\"n\":1000001,\"mode\":\"first\"}");
    cr_assert(strstr(r.body, "1000000") != NULL, "first limit in %s", r.body);
    http_result_free(&r);
}

Test(queens, deadline_stops_long_work) {
    /* Neither an offset to skip nor the completions of placed queens are estimated (api/cost_estimates.h):
     * both run until their time limit. */
    http_result r = http_post("/queens", "{\"n\":30,\"offset\":1000000000000,\"time_limit_ms\":50}");
    cJSON_Delete(expect_error(&r, 503, "deadline_exceeded"));
    http_result_free(&r);
    r = http_post("/queens", "{\"n\":24,\"mode\":\"count\",\"placed\":[[0,0]],\"algorithm\":\"backtracking\","
                             "\"time_limit_ms\":50}");
    cJSON_Delete(expect_error(&r, 503, "deadline_exceeded"));
    http_result_free(&r);
}

static double number_field(const cJSON *doc, const char *name) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, name);
    cr_assert(cJSON_IsNumber(item), "%s must be a number", name);
    return item->valuedouble;
}

/* The sizes are about a thousand times or more from the line whatever the machine: a count of n = 30
 * takes about 10^9 times the integration servers' 600 s limit, one of n = 26 about 10^5 times, one of
 * n = 10 well under a millisecond against ten seconds (a second was too short for the job to start in
 * under ASan at a load average of 17-24: 503 deadline_exceeded, since waiting counts). */
Test(queens, hopeless_counts_are_refused_at_once_with_the_estimate) {
    /* No short time_limit_ms: the job would have to start within it, which a busy machine does not
     * promise (it would then end 503 deadline_exceeded, waiting counts). */
    const char *hopeless[] = {"{\"n\":30,\"mode\":\"count\"}",
                              "{\"n\":30,\"mode\":\"count\",\"algorithm\":\"backtracking\"}",
                              "{\"n\":26,\"mode\":\"count\",\"unique\":true}"};
    for (size_t i = 0; i < sizeof hopeless / sizeof *hopeless; i++) {
        http_result r = http_post("/queens", hopeless[i]);
        cJSON *doc = expect_error(&r, 422, "too_large");
        const cJSON *error = cJSON_GetObjectItemCaseSensitive(doc, "error");
        cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(error, "field")->valuestring, "n", "%s", r.body);
        const cJSON *details = cJSON_GetObjectItemCaseSensitive(error, "details");
        double estimated = number_field(details, "estimated_ms"), limit = number_field(details, "time_limit_ms");
        double fits = number_field(details, "largest_that_fits");
        cr_assert_gt(estimated, 2 * limit, "the estimate is over twice the time left: %s", r.body);
        cr_assert(fits >= 0 && fits < (i == 2 ? 26 : 30), "what fits is smaller: %s", r.body);
        cr_assert_not_null(strstr(r.body, "would take about"), "%s", r.body);
        cJSON_Delete(doc);
        http_result_free(&r);
    }
    const char *fine[] = {"{\"n\":10,\"mode\":\"count\",\"time_limit_ms\":10000}",
                          "{\"n\":10,\"mode\":\"count\",\"algorithm\":\"backtracking\",\"time_limit_ms\":10000}"};
    for (size_t i = 0; i < sizeof fine / sizeof *fine; i++) {
        cJSON *doc = post_ok("/queens", fine[i]);
        cr_assert_str_eq(string_field(doc, "total"), "724", "%s", fine[i]); /* OEIS A000170 */
        cJSON_Delete(doc);
    }
}

Test(queens, a_list_outlasting_the_time_limit_is_cut_not_ended) {
    /* 14,772,512 solutions (about 800 MB of JSON) cannot be listed in 200 ms: the stream must be
     * aborted so the client sees a failed transfer, never a complete-looking short list. */
    http_result r = http_post("/queens", "{\"n\":16,\"limit\":9007199254740991,\"time_limit_ms\":200}");
    cr_assert_neq(r.curl_code, 0, "the transfer must fail");
    cr_assert_null(strstr(r.body, "\"found\""), "no closing member after a cut");
    http_result_free(&r);
}
