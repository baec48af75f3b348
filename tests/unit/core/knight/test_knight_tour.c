/* Unit tests of the knight's tour constructions in process, over many more boards than HTTP allows:
 * closed tours on every board Schwenk's theorem allows up to 40 x 40, open tours from every allowed
 * start on odd boards, on long 3-row and 4-row boards, each checked by an independent validator; and
 * the sweep of every board with a side of 1..8 and the other up to 60, every start, open and closed,
 * where each answer must be a valid tour or a "none exists" that the tests' own rules or their own
 * exhaustive search (tests/reference/) confirm. No deadline: a hang would show as the test's timeout. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../../../lib/test_sample.h"
#include "core/knight/knight_tour.h"
#include "knight_tour_reference.h"

static bool knight_move(int cols, uint32_t a, uint32_t b) {
    int dr = abs((int)(a / (uint32_t)cols) - (int)(b / (uint32_t)cols));
    int dc = abs((int)(a % (uint32_t)cols) - (int)(b % (uint32_t)cols));
    return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
}

static void expect_valid(const kt_request *q, kt_result result) {
    cr_assert_eq(result.outcome, KT_FOUND, "%dx%d from [%d,%d] %s: outcome %d", q->rows, q->cols, q->start_row,
                 q->start_col, q->closed ? "closed" : "open", result.outcome);
    uint32_t n = (uint32_t)q->rows * (uint32_t)q->cols;
    unsigned char *seen = calloc(n, 1);
    cr_assert_eq(result.path[0], (uint32_t)(q->start_row * q->cols + q->start_col));
    for (uint32_t i = 0; i < n; i++) {
        cr_assert(result.path[i] < n && !seen[result.path[i]], "%dx%d: square repeated", q->rows, q->cols);
        seen[result.path[i]] = 1;
        if (i > 0)
            cr_assert(knight_move(q->cols, result.path[i - 1], result.path[i]), "%dx%d: not a knight move", q->rows,
                      q->cols);
    }
    if (q->closed)
        cr_assert(knight_move(q->cols, result.path[n - 1], result.path[0]), "%dx%d: not closed", q->rows, q->cols);
    free(seen);
    kt_result_free(&result);
}

static kt_result find(const kt_request *q) {
    deadline none = deadline_none();
    kt_result result;
    cr_assert_eq(knight_tour_find(q, &none, &result), CORE_OK, "%dx%d from [%d,%d]: the search failed", q->rows,
                 q->cols, q->start_row, q->start_col);
    return result;
}

static void expect_tour(const kt_request *q) { expect_valid(q, find(q)); }

Test(knight_tour_core, closed_tours_on_every_allowed_board_up_to_40) {
    for (int rows = 1; rows <= 40; rows++)
        for (int cols = 1; cols <= 40; cols++) {
            kt_request q = {.rows = rows, .cols = cols, .start_row = rows / 3, .start_col = cols - 1, .closed = true};
            if (knight_tour_closed_exists(rows, cols)) expect_tour(&q);
            else cr_assert_not_null(knight_tour_impossibility(&q), "%dx%d", rows, cols);
        }
}

Test(knight_tour_core, open_tours_from_every_corner_coloured_start_of_odd_boards) {
    for (int rows = 5; rows <= 15; rows += 2)
        for (int cols = rows; cols <= 25; cols += 2)
            for (int r = 0; r < rows; r++)
                for (int c = (r % 2); c < cols; c += 2) {
                    kt_request q = {.rows = rows, .cols = cols, .start_row = r, .start_col = c};
                    expect_tour(&q);
                }
}

Test(knight_tour_core, open_tours_on_long_three_row_boards) {
    for (int cols = 9; cols <= 61; cols += 2)
        for (int r = 0; r < 3; r++)
            for (int c = (r % 2); c < cols; c += 2) {
                kt_request q = {.rows = 3, .cols = cols, .start_row = r, .start_col = c};
                expect_tour(&q);
                kt_request t = {.rows = cols, .cols = 3, .start_row = c, .start_col = r};
                expect_tour(&t);
            }
}

Test(knight_tour_core, warnsdorff_alone_covers_large_even_boards) {
    kt_request q = {.rows = 300, .cols = 301, .start_row = 150, .start_col = 7, .algorithm = KT_ALGORITHM_WARNSDORFF};
    expect_tour(&q);
}

/* ---- 4 x n: every outer start has a tour from n = 5 on, no inner start has one ---- */

static bool on_inner_line_of_four(const kt_request *q) {
    return (q->rows == 4 && (q->start_row == 1 || q->start_row == 2)) ||
           (q->cols == 4 && (q->start_col == 1 || q->start_col == 2));
}

/* Every `stride`-th column's starts of 4 x n and n x 4. */
static void expect_every_start_of_four_rows(int n, int stride) {
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < n; c += stride) {
            kt_request q = {.rows = 4, .cols = n, .start_row = r, .start_col = c};
            kt_request t = {.rows = n, .cols = 4, .start_row = c, .start_col = r};
            if (on_inner_line_of_four(&q)) {
                cr_assert_eq(find(&q).outcome, KT_NONE_EXISTS, "4x%d from [%d,%d]", n, r, c);
                cr_assert_eq(find(&t).outcome, KT_NONE_EXISTS, "%dx4 from [%d,%d]", n, c, r);
            } else {
                expect_tour(&q);
                expect_tour(&t);
            }
        }
}

/* 4 x 1001 at full strength here, the cheapest layer; a sample of its columns in the quick tier and under
 * the sanitizers (tests/lib/test_sample.h), and over HTTP (test_knight_tour_four_rows.c). */
Test(knight_tour_core, four_rows_every_start_up_to_64_and_1001, .timeout = 600) {
    for (int n = 5; n <= 64; n++) expect_every_start_of_four_rows(n, 1);
    expect_every_start_of_four_rows(1001, test_sample_divisor());
}

/* ---- the sweep: min side 1..8, max side up to 60, every start, open and closed ---- */

/* The tests' own reasons for "no open tour", each a short theorem: a knight cannot move on a line;
 * on two lines it moves two columns at a time; a path alternates colours, so on an odd board it starts
 * on the majority colour; on 4 lines the outer ones only reach the inner ones and (with the colours)
 * every tour starts and ends on an outer line. */
static bool open_tour_ruled_out(const kt_request *q) {
    int m = q->rows < q->cols ? q->rows : q->cols, squares = q->rows * q->cols;
    if (squares == 1) return false;
    if (m <= 2) return true;
    if (squares % 2 == 1 && (q->start_row + q->start_col) % 2 == 1) return true;
    return m == 4 && on_inner_line_of_four(q);
}

static void check_start(const kt_request *q) {
    kt_result result = find(q);
    bool expect_none = q->closed ? !reference_closed_tour_exists(q->rows, q->cols) : open_tour_ruled_out(q);
    if (result.outcome == KT_NONE_EXISTS) {
        cr_assert_not_null(result.reason);
        if (!expect_none) { /* a claim beyond the rules: the reference must find nothing either */
            cr_assert(!q->closed && q->rows * q->cols <= REFERENCE_MAX_SQUARES,
                      "%dx%d from [%d,%d] %s: none claimed, no reference can confirm it", q->rows, q->cols,
                      q->start_row, q->start_col, q->closed ? "closed" : "open");
            cr_assert(!reference_open_tour_exists(q->rows, q->cols, q->start_row, q->start_col),
                      "%dx%d from [%d,%d]: none claimed, the reference found a tour", q->rows, q->cols, q->start_row,
                      q->start_col);
        }
        return;
    }
    cr_assert(!expect_none, "%dx%d from [%d,%d] %s: a tour where a theorem rules one out", q->rows, q->cols,
              q->start_row, q->start_col, q->closed ? "closed" : "open");
    expect_valid(q, result);
}

static void sweep_board(int rows, int cols) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            for (int closed = 0; closed <= 1; closed++) {
                kt_request q = {.rows = rows, .cols = cols, .start_row = r, .start_col = c, .closed = closed};
                check_start(&q);
            }
}

/* One test per shorter side, so Criterion runs them in parallel and a failure names its family. */
#define SWEEP_TEST(M)                                           \
    Test(knight_tour_sweep, shorter_side_##M, .timeout = 600) { \
        for (int n = M; n <= 60; n++) {                         \
            sweep_board(M, n);                                  \
            if (n != M) sweep_board(n, M);                      \
        }                                                       \
    }
SWEEP_TEST(1)
SWEEP_TEST(2)
SWEEP_TEST(3)
SWEEP_TEST(4)
SWEEP_TEST(5)
SWEEP_TEST(6)
SWEEP_TEST(7)
SWEEP_TEST(8)
