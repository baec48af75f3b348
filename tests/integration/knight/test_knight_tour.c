/* Integration tests of /knight-tour against the real server. Every start square of every board from
 * 1x1 to 8x8 (and 3x9, 3x10): a returned open tour is checked by an independent validator
 * (knight_tour_checks.c), a "found": false against the independent exhaustive search of
 * tests/reference/; closed tours against Schwenk's theorem. Large boards, square and rectangular,
 * open and closed, are validated from the streamed text. Also the board format, NDJSON, GET and POST,
 * the three algorithms and the errors, and boards refused at once as hopeless (their tours could not be
 * built within the time limit, core/knight/knight_cost.h). (4 x n: test_knight_tour_four_rows.c.) */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "knight_tour_checks.h"
#include "knight_tour_reference.h"

/* Every start of rows x cols: open tours against the reference, closed ones against Schwenk. */
static void check_every_start(int rows, int cols) {
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            http_result open = get_tour(rows, cols, r, c, false, "");
            cr_assert_eq(open.status, 200, "%dx%d [%d,%d]: %ld %s", rows, cols, r, c, open.status, open.body);
            if (tour_found(&open)) {
                expect_valid_path(open.body, rows, cols, r, c, false);
            } else {
                cr_assert_not_null(strstr(open.body, "\"reason\":\""), "no reason: %s", open.body);
                cr_assert(!reference_open_tour_exists(rows, cols, r, c),
                          "%dx%d from [%d,%d]: the service says none, the reference found a tour", rows, cols, r, c);
            }
            http_result_free(&open);

            http_result closed = get_tour(rows, cols, r, c, true, "");
            cr_assert_eq(closed.status, 200, "%dx%d [%d,%d] closed: %ld %s", rows, cols, r, c, closed.status,
                         closed.body);
            cr_assert_eq(tour_found(&closed), reference_closed_tour_exists(rows, cols), "%dx%d [%d,%d] closed: %s",
                         rows, cols, r, c, closed.body);
            if (tour_found(&closed)) expect_valid_path(closed.body, rows, cols, r, c, true);
            else cr_assert_not_null(strstr(closed.body, "\"reason\":\""));
            http_result_free(&closed);
        }
    }
}

/* One test per shorter side keeps failures apart and lets Criterion run them in parallel; a board
 * and its transpose share a test, and so the reference's cache. */
#define EVERY_START_TEST(R)                                                 \
    Test(knight_tour_small, every_start_shorter_side_##R, .timeout = 300) { \
        for (int cols = R; cols <= 8; cols++) {                             \
            check_every_start(R, cols);                                     \
            if (cols != R) check_every_start(cols, R);                      \
        }                                                                   \
    }
EVERY_START_TEST(1)
EVERY_START_TEST(2)
EVERY_START_TEST(3)
EVERY_START_TEST(4)
EVERY_START_TEST(5)
EVERY_START_TEST(6)
EVERY_START_TEST(7)
EVERY_START_TEST(8)

Test(knight_tour_small, every_start_long_rectangles, .timeout = 300) {
    check_every_start(3, 9);
    check_every_start(3, 10);
    check_every_start(10, 3);
}

/* The counts the issue states, as an extra check on the reference and the service together. */
static int open_starts(int rows, int cols) {
    int count = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            http_result res = get_tour(rows, cols, r, c, false, "");
            count += tour_found(&res);
            http_result_free(&res);
        }
    return count;
}

Test(knight_tour_small, known_counts_of_start_squares) {
    cr_assert_eq(open_starts(3, 4), 6);
    cr_assert_eq(open_starts(4, 5), 10);
    cr_assert_eq(open_starts(3, 8), 22);
    cr_assert_eq(open_starts(5, 5), 13);
    cr_assert_eq(open_starts(8, 8), 64);
}

/* ---- large boards ---- */

Test(knight_tour_large, squares_open_and_closed, .timeout = 300) {
    check_large(1000, 1000, 0, 0, false);
    check_large(1000, 1000, 500, 499, true);
    check_large(2000, 2000, 1234, 567, false);
    check_large(2000, 2000, 0, 0, true);
    check_large(1001, 1001, 500, 500, false); /* odd: Warnsdorff */
    check_large(999, 999, 998, 0, false);
    check_large(101, 101, 3, 51, false);
    check_large(100, 100, 99, 42, true);
}

Test(knight_tour_large, rectangles_open_and_closed, .timeout = 300) {
    check_large(1000, 1001, 17, 1000, true);
    check_large(1001, 1000, 0, 999, true);
    check_large(5, 6, 2, 3, true);
    check_large(6, 7, 5, 6, true);
    check_large(3, 10, 1, 4, true);
    check_large(3, 12, 2, 11, true);
    check_large(12, 3, 7, 1, true);
    check_large(3, 1000, 1, 500, true);
    check_large(5, 800, 4, 799, true);
    check_large(7, 12, 3, 6, true);
    check_large(9, 25, 2, 2, false);
    check_large(5, 1001, 2, 500, false);
    check_large(999, 7, 500, 4, false);
    check_large(3, 1001, 1, 501, false);
    check_large(3, 100001, 2, 50000, false);
    check_large(1001, 3, 1000, 2, false);
    check_large(4, 12, 0, 7, false);
    check_large(12, 4, 5, 3, false);
    check_large(6, 2000, 5, 1000, false);
    check_large(5, 15, 2, 8, false);
    check_large(5, 9999, 4, 5000, false);
    check_large(7, 999, 3, 501, false);
    check_large(1999, 2001, 1000, 1000, false);
    check_large(11, 11, 5, 5, false);
}

Test(knight_tour_large, closed_tours_on_many_allowed_boards, .timeout = 300) {
    for (int rows = 3; rows <= 26; rows++)
        for (int cols = rows; cols <= 26; cols += 1 + (rows + cols) % 3)
            if (reference_closed_tour_exists(rows, cols)) check_large(rows, cols, rows / 2, cols - 1, true);
}

/* ---- forms, algorithms, errors ---- */

Test(knight_tour_forms, board_format_numbers_the_moves) {
    http_result res =
        http_post("/knight-tour", "{\"rows\":6,\"cols\":5,\"start\":[1,2],\"closed\":true,\"format\":\"board\"}");
    cr_assert_eq(res.status, 200, "%s", res.body);
    cJSON *doc = http_json(&res);
    const cJSON *board = cJSON_GetObjectItemCaseSensitive(doc, "board");
    cr_assert_eq(cJSON_GetArraySize(board), 6);
    int where_r[31], where_c[31];
    memset(where_r, -1, sizeof where_r);
    for (int r = 0; r < 6; r++) {
        const cJSON *row = cJSON_GetArrayItem(board, r);
        cr_assert_eq(cJSON_GetArraySize(row), 5);
        for (int c = 0; c < 5; c++) {
            int k = cJSON_GetArrayItem(row, c)->valueint;
            cr_assert(k >= 1 && k <= 30 && where_r[k] == -1);
            where_r[k] = r, where_c[k] = c;
        }
    }
    cr_assert(where_r[1] == 1 && where_c[1] == 2);
    for (int k = 2; k <= 30; k++) cr_assert(knight_move(where_r[k - 1], where_c[k - 1], where_r[k], where_c[k]));
    cr_assert(knight_move(where_r[30], where_c[30], where_r[1], where_c[1]));
    cJSON_Delete(doc);
    http_result_free(&res);
}

Test(knight_tour_forms, n_is_a_square_board_and_defaults_apply) {
    http_result res = http_get("/knight-tour?n=8");
    cr_assert_eq(res.status, 200);
    cr_assert_not_null(strstr(
        res.body,
        "{\"kind\":\"knight_tour_found\",\"rows\":8,\"cols\":8,\"closed\":false,\"found\":true,\"path\":[[0,0],"));
    expect_valid_path(res.body, 8, 8, 0, 0, false);
    http_result_free(&res);
}

Test(knight_tour_forms, ndjson_gives_head_then_one_square_per_line) {
    const char *headers[] = {"Accept: application/x-ndjson", NULL};
    http_result res = http_request(server_url(), "GET", "/knight-tour?rows=5&cols=6&start=4,5", NULL, headers);
    cr_assert_eq(res.status, 200);
    cJSON *lines = http_ndjson(&res);
    cr_assert_not_null(lines, "%s", res.body);
    cr_assert_eq(cJSON_GetArraySize(lines), 31);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(lines, 0), "found")));
    const cJSON *first = cJSON_GetArrayItem(lines, 1);
    cr_assert(cJSON_GetArrayItem(first, 0)->valueint == 4 && cJSON_GetArrayItem(first, 1)->valueint == 5);
    cJSON_Delete(lines);
    http_result_free(&res);
}

Test(knight_tour_algorithms, warnsdorff_and_backtracking_give_valid_tours) {
    http_result res = get_tour(8, 8, 3, 4, false, "&algorithm=warnsdorff");
    cr_assert_eq(res.status, 200);
    expect_valid_path(res.body, 8, 8, 3, 4, false);
    http_result_free(&res);
    res = get_tour(5, 5, 0, 0, false, "&algorithm=backtracking");
    cr_assert_eq(res.status, 200);
    expect_valid_path(res.body, 5, 5, 0, 0, false);
    http_result_free(&res);
    res = get_tour(3, 4, 1, 0, false, "&algorithm=backtracking");
    cr_assert(tour_found(&res));
    http_result_free(&res);
    res = get_tour(3, 4, 0, 1, false, "&algorithm=backtracking"); /* no tour: searched to the end */
    cr_assert_eq(res.status, 200);
    cr_assert_not_null(strstr(res.body, "\"found\":false"));
    cr_assert(!reference_open_tour_exists(3, 4, 0, 1));
    http_result_free(&res);
    res = get_tour(6, 6, 2, 2, true, "&algorithm=backtracking");
    cr_assert_eq(res.status, 200, "%s", res.body);
    expect_valid_path(res.body, 6, 6, 2, 2, true);
    http_result_free(&res);
}

Test(knight_tour_algorithms, warnsdorff_failure_is_not_a_proof) {
    http_result res = get_tour(3, 1001, 1, 501, false, "&algorithm=warnsdorff");
    cJSON *doc = expect_error(&res, 422, "heuristic_failed");
    cJSON_Delete(doc);
    http_result_free(&res);
}

Test(knight_tour_algorithms, backtracking_honours_the_time_limit) {
    http_result res = http_post("/knight-tour", "{\"n\":8,\"algorithm\":\"backtracking\",\"time_limit_ms\":1}");
    cJSON *doc = expect_error(&res, 503, "deadline_exceeded");
    cJSON_Delete(doc);
    http_result_free(&res);
}

Test(knight_tour_errors, bad_requests_name_the_field) {
    expect_error_field(http_post("/knight-tour", "{\"rows\":3001,\"cols\":2000}"), 422, "too_large", "rows");
    expect_error_field(http_post("/knight-tour", "{\"n\":2001}"), 422, "too_large", "n");
    expect_error_field(http_post("/knight-tour", "{\"n\":8,\"rows\":8}"), 400, "conflicting_fields", "n");
    expect_error_field(http_post("/knight-tour", "{\"rows\":8}"), 400, "missing_field", "cols");
    expect_error_field(http_post("/knight-tour", "{}"), 400, "missing_field", "rows");
    expect_error_field(http_post("/knight-tour", "{\"n\":0}"), 400, "invalid_field", "n");
    expect_error_field(http_post("/knight-tour", "{\"n\":8,\"start\":[8,0]}"), 400, "invalid_field", "start");
    expect_error_field(http_post("/knight-tour", "{\"n\":8,\"start\":[1]}"), 400, "invalid_field", "start");
    expect_error_field(http_post("/knight-tour", "{\"n\":8,\"start\":[1,\"2\"]}"), 400, "invalid_field", "start");
    expect_error_field(http_post("/knight-tour", "{\"n\":8,\"start\":[1.5,2]}"), 400, "invalid_field", "start");
    expect_error_field(http_post("/knight-tour", "{\"n\":8,\"algorithm\":\"magic\"}"), 400, "invalid_field",
                       "algorithm");
    expect_error_field(http_post("/knight-tour", "{\"n\":8,\"format\":\"png\"}"), 400, "invalid_field", "format");
    expect_error_field(http_post("/knight-tour", "{\"n\":8,\"closed\":1}"), 400, "invalid_field", "closed");
    expect_error_field(http_post("/knight-tour", "{\"n\":101,\"algorithm\":\"backtracking\"}"), 422, "too_large",
                       "algorithm");
}

Test(knight_tour_errors, configured_maximum_applies) {
    const char *args[] = {"--max-board-squares", "100", NULL};
    test_server server;
    cr_assert(test_server_start(&server, args));
    http_result res = http_request(server.url, "GET", "/knight-tour?rows=10&cols=11", NULL, NULL);
    cJSON *doc = expect_error(&res, 422, "too_large");
    cJSON_Delete(doc);
    http_result_free(&res);
    res = http_request(server.url, "GET", "/knight-tour?rows=10&cols=10", NULL, NULL);
    cr_assert_eq(res.status, 200);
    http_result_free(&res);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

static double number_member(const cJSON *object, const char *name) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
    cr_assert(cJSON_IsNumber(item), "%s must be a number", name);
    return item->valuedouble;
}

/* Asserts a 422 too_large naming `field` with the estimate: over twice `limit_ms`, and a largest board
 * that fits, in squares, smaller than this one's `squares`. */
static void expect_hopeless(const char *base_url, const char *body, const char *field, double squares,
                            double limit_ms) {
    http_result res = http_request(base_url, "POST", "/knight-tour", body, NULL);
    cJSON *doc = expect_error(&res, 422, "too_large");
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(doc, "error");
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(error, "field")->valuestring, field, "%s", res.body);
    const cJSON *details = cJSON_GetObjectItemCaseSensitive(error, "details");
    cr_assert_eq(number_member(details, "time_limit_ms"), limit_ms, "%s", res.body);
    cr_assert_gt(number_member(details, "estimated_ms"), 2 * limit_ms, "%s", res.body);
    double fits = number_member(details, "largest_that_fits");
    cr_assert(fits >= 0 && fits < squares, "what fits is a smaller board: %s", res.body);
    cr_assert_not_null(strstr(res.body, "would take about"), "%s", res.body);
    cr_assert_not_null(strstr(res.body, "rows x cols up to about"), "%s", res.body);
    cJSON_Delete(doc);
    http_result_free(&res);
}

/* The boards are far from the line whatever the machine: 4,000,000 squares with 1 ms (4 ms with the
 * margin) would need under 1 ns a square, the constructions alone take about 6 here, fresh memory 30
 * more; 2^31 squares with 100 ms would need under 0.2 ns. No short limit on the boards answered: the
 * job would have to start within it, which a busy machine does not promise. */
Test(knight_tour_hopeless, boards_near_the_squares_limit_with_1_ms_are_refused_at_once) {
    expect_hopeless(server_url(), "{\"rows\":2000,\"cols\":2000,\"time_limit_ms\":1}", "rows", 4e6, 1);
    expect_hopeless(server_url(), "{\"n\":2000,\"closed\":true,\"time_limit_ms\":1}", "n", 4e6, 1);
    expect_hopeless(server_url(), "{\"rows\":4,\"cols\":1000000,\"time_limit_ms\":1}", "rows", 4e6, 1);
    expect_hopeless(server_url(), "{\"rows\":1333333,\"cols\":3,\"start\":[2,0],\"time_limit_ms\":1}", "rows", 3999999,
                    1);
    expect_hopeless(server_url(), "{\"rows\":1999,\"cols\":2001,\"start\":[4,6],\"time_limit_ms\":1}", "rows",
                    1999.0 * 2001, 1);
}

Test(knight_tour_hopeless, ordinary_boards_within_their_limit_are_answered, .timeout = 300) {
    const struct {
        int rows, cols, start_row, start_col;
        bool closed;
    } boards[] = {
        {300, 300, 17, 250, false}, {301, 303, 0, 2, false}, {4, 100000, 3, 5000, false}, {500, 200, 0, 0, true}};
    for (size_t i = 0; i < sizeof boards / sizeof *boards; i++) {
        http_result res = get_tour(boards[i].rows, boards[i].cols, boards[i].start_row, boards[i].start_col,
                                   boards[i].closed, "&time_limit_ms=5000");
        cr_assert_eq(res.status, 200, "%d x %d: %ld %.300s", boards[i].rows, boards[i].cols, res.status, res.body);
        expect_valid_path(res.body, boards[i].rows, boards[i].cols, boards[i].start_row, boards[i].start_col,
                          boards[i].closed);
        http_result_free(&res);
    }
}

Test(knight_tour_hopeless, a_raised_squares_limit_refuses_what_its_time_limit_cannot_build_and_no_theorem_board) {
    const char *args[] = {"--max-board-squares", "2147483648", NULL};
    test_server server;
    cr_assert(test_server_start(&server, args));
    cr_assert(test_server_stderr_shows(&server, "puzzled: knight tours built at start-up"),
              "the calibration is logged");
    expect_hopeless(server.url, "{\"rows\":46340,\"cols\":46340,\"time_limit_ms\":100}", "rows", 46340.0 * 46340, 100);
    expect_hopeless(server.url, "{\"rows\":3,\"cols\":715827882,\"time_limit_ms\":100}", "rows", 2147483646.0, 100);
    /* Boards no tour exists on, as large: answered by their theorem, never refused (here a board of
     * that size with a tour is estimated at over a minute). 1 s, not less: the answer comes from a
     * worker, whose wake-up a busy machine may delay. */
    const char *theorems[] = {"{\"rows\":46339,\"cols\":46341,\"closed\":true,\"time_limit_ms\":1000}",
                              "{\"rows\":46339,\"cols\":46341,\"start\":[0,1],\"time_limit_ms\":1000}",
                              "{\"rows\":2,\"cols\":1073741824,\"time_limit_ms\":1000}",
                              "{\"rows\":4,\"cols\":536870912,\"closed\":true,\"time_limit_ms\":1000}",
                              "{\"rows\":536870912,\"cols\":4,\"start\":[0,1],\"time_limit_ms\":1000}"};
    for (size_t i = 0; i < sizeof theorems / sizeof *theorems; i++) {
        http_result res = http_request(server.url, "POST", "/knight-tour", theorems[i], NULL);
        cr_assert_eq(res.status, 200, "%s: %ld %s", theorems[i], res.status, res.body);
        cr_assert_not(tour_found(&res), "%s", res.body);
        cr_assert_not_null(strstr(res.body, "\"reason\":\""), "%s", res.body);
        http_result_free(&res);
    }
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}
