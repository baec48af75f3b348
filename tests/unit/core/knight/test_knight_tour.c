/* Unit tests of the knight's tour constructions in process, over many more boards than HTTP allows:
 * closed tours on every board Schwenk's theorem allows up to 40 x 40, open tours from every allowed
 * start on odd boards and on long 3-row boards, each checked by an independent validator; and the
 * theorems against the small search on the boards where they apply. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "core/knight/knight_tour.h"

static bool knight_move(int cols, uint32_t a, uint32_t b) {
    int dr = abs((int)(a / (uint32_t)cols) - (int)(b / (uint32_t)cols));
    int dc = abs((int)(a % (uint32_t)cols) - (int)(b % (uint32_t)cols));
    return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
}

static void expect_tour(const kt_request *q) {
    deadline none = deadline_none();
    kt_result result = knight_tour_find(q, &none);
    cr_assert_eq(result.outcome, KT_FOUND, "%dx%d from [%d,%d] %s: outcome %d", q->rows, q->cols, q->start_row,
                 q->start_col, q->closed ? "closed" : "open", result.outcome);
    uint32_t n = (uint32_t)q->rows * (uint32_t)q->cols;
    unsigned char *seen = calloc(n, 1);
    cr_assert_eq(result.path[0], (uint32_t)(q->start_row * q->cols + q->start_col));
    for (uint32_t i = 0; i < n; i++) {
        cr_assert(result.path[i] < n && !seen[result.path[i]], "%dx%d: square repeated", q->rows, q->cols);
        seen[result.path[i]] = 1;
        if (i > 0) cr_assert(knight_move(q->cols, result.path[i - 1], result.path[i]), "%dx%d: not a knight move", q->rows, q->cols);
    }
    if (q->closed) cr_assert(knight_move(q->cols, result.path[n - 1], result.path[0]), "%dx%d: not closed", q->rows, q->cols);
    free(seen);
    kt_result_free(&result);
}

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
