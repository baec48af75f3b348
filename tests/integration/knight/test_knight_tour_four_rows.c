/* Integration tests of /knight-tour on 4 x n, the family the exhaustive search could not answer: every
 * start of 4 x n (and n x 4) for n = 5..64, every tenth column of 4 x 1001, the boards reported answered 503, and
 * random starts of 4 x 1,000,000. Tours are checked by the validator of knight_tour_checks.c; the
 * inner starts, which have none, also against the exhaustive search of tests/reference/ where it can
 * finish. A binary of its own, so that ctest runs it beside test_knight_tour.c. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/test_sample.h"
#include "harness.h"
#include "knight_tour_checks.h"
#include "knight_tour_reference.h"

/* Every `stride`-th column's starts of 4 x n (and of n x 4 when `both_ways`): a tour from each outer
 * square, validated; none from the inner ones, with the reason, and on boards the reference searches
 * quickly (n <= 7; 4 x 8 is searched by every_start_shorter_side_4 in test_knight_tour.c) the
 * reference agrees. */
static void check_starts_of_four_rows(int n, bool both_ways, int stride) {
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < n; c += stride)
            for (int transposed = 0; transposed <= (both_ways ? 1 : 0); transposed++) {
                int rows = transposed ? n : 4, cols = transposed ? 4 : n;
                int sr = transposed ? c : r, sc = transposed ? r : c;
                http_result res = get_tour(rows, cols, sr, sc, false, "");
                cr_assert_eq(res.status, 200, "%dx%d [%d,%d]: %ld %.200s", rows, cols, sr, sc, res.status, res.body);
                if (r == 0 || r == 3) {
                    cr_assert(tour_found(&res), "%dx%d [%d,%d]: %.200s", rows, cols, sr, sc, res.body);
                    expect_valid_path(res.body, rows, cols, sr, sc, false);
                } else {
                    cr_assert(!tour_found(&res) && strstr(res.body, "\"reason\":\"") != NULL, "%dx%d [%d,%d]: %.200s",
                              rows, cols, sr, sc, res.body);
                    if (n <= 7) cr_assert(!reference_open_tour_exists(rows, cols, sr, sc));
                }
                http_result_free(&res);
            }
}

#define FOUR_ROWS_TEST(FROM, TO)                                                \
    Test(knight_tour_four_rows, every_start_##FROM##_to_##TO, .timeout = 600) { \
        for (int n = FROM; n <= TO; n++) check_starts_of_four_rows(n, true, 1); \
    }
FOUR_ROWS_TEST(5, 32)
FOUR_ROWS_TEST(33, 50)
FOUR_ROWS_TEST(51, 64)

/* 4 x 1001 one way round over HTTP, every FOUR_ROWS_HTTP_STRIDE-th column (a tenth of that in the quick
 * tier, tests/lib/test_sample.h): every start is checked in process by the unit test
 * (test_knight_tour.c), both ways; here the answers' way through the service, about 16 MB of tours. */
#define FOUR_ROWS_HTTP_STRIDE 10
Test(knight_tour_four_rows, every_tenth_column_of_4_x_1001, .timeout = 600) {
    check_starts_of_four_rows(1001, false, FOUR_ROWS_HTTP_STRIDE * test_sample_divisor());
}

/* The boards and starts the issue found answered 503, then random outer starts of 4 x 1,000,000 (a
 * fixed seed, so a failure can be replayed) and one inner start, which has no tour. */
Test(knight_tour_four_rows, the_reported_boards_and_random_starts_of_4_x_1000000, .timeout = 600) {
    const int lengths[] = {20, 30, 64, 101, 1001};
    const int starts[][2] = {{0, 0}, {0, 1}, {0, 7}, {3, 5}};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
        for (size_t j = 0; j < sizeof starts / sizeof starts[0]; j++)
            check_large(4, lengths[i], starts[j][0], starts[j][1], false);
    srand(20261123);
    for (int i = 0; i < 4; i++) {
        int r = rand() % 2 == 0 ? 0 : 3, c = rand() % 1000000;
        if (i % 2 == 0) check_large(4, 1000000, r, c, false);
        else check_large(1000000, 4, c, r, false);
    }
    http_result res = get_tour(4, 1000000, 2, 123456, false, "");
    cr_assert_eq(res.status, 200);
    cr_assert_not_null(strstr(res.body, "\"found\":false"), "%.200s", res.body);
    http_result_free(&res);
}
