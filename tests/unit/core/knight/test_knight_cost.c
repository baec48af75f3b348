/* The knight's tour cost model (core/knight/knight_cost.h), its structure and not its timings: which
 * boards it estimates (closed tours against Schwenk's theorem as tests/reference/ states it, open ones
 * against the rules in docs/knight-tour.md's table), that its time is linear in the squares, and that
 * the most squares it says fit a time are its own inverse both ways, capped at the limit asked. */
#include <criterion/criterion.h>
#include <math.h>

#include "core/knight/knight_cost.h"
#include "knight_tour_reference.h"

static kt_request board(int rows, int cols, int start_row, int start_col, bool closed) {
    return (kt_request){.rows = rows,
                        .cols = cols,
                        .start_row = start_row,
                        .start_col = start_col,
                        .closed = closed,
                        .algorithm = KT_ALGORITHM_AUTO};
}

Test(knight_cost, closed_tours_are_estimated_where_schwenk_allows_them) {
    /* every short side up to 12, the long side the least that reaches the smallest board estimated,
     * and the next few */
    for (int rows = 1; rows <= 12; rows++) {
        int least = (int)((KNIGHT_COST_MIN_SQUARES + (unsigned)rows - 1) / (unsigned)rows);
        for (int cols = least; cols < least + 4; cols++) {
            kt_request closed = board(rows, cols, 0, 0, true);
            cr_assert_eq(knight_cost_estimated(&closed), reference_closed_tour_exists(rows, cols), "%d x %d closed",
                         rows, cols);
        }
    }
}

Test(knight_cost, open_tours_are_estimated_where_one_exists) {
    struct {
        int rows, cols, start_row, start_col;
        bool estimated;
    } cases[] = {
        {256, 256, 0, 0, true},    /* one side even, both >= 5: from every square */
        {257, 257, 0, 0, true},    /* both odd: from the corners' colour */
        {257, 257, 0, 1, false},   /* ... not from the other colour */
        {3, 21847, 0, 0, true},    /* 3 x odd: from the corners' colour */
        {3, 21847, 1, 0, false},   /* ... not from the other */
        {3, 21846, 1, 0, true},    /* 3 x even: from every square */
        {4, 16384, 0, 0, true},    /* 4 x n: from the outer lines */
        {16384, 4, 0, 2, false},   /* ... not from the inner ones */
        {2, 32768, 0, 0, false},   /* a side of 2: nowhere */
        {1, 65536, 0, 0, false},   /* a side of 1: nowhere */
        {255, 257, 0, 0, false},   /* 65535 squares: below the smallest board estimated */
        {256, 256, 100, 37, true}, /* any start */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        kt_request open = board(cases[i].rows, cases[i].cols, cases[i].start_row, cases[i].start_col, false);
        cr_assert_eq(knight_cost_estimated(&open), cases[i].estimated, "%d x %d from [%d, %d]", cases[i].rows,
                     cases[i].cols, cases[i].start_row, cases[i].start_col);
    }
}

Test(knight_cost, only_auto_is_estimated) {
    kt_request request = board(1000, 1000, 0, 0, false);
    cr_assert(knight_cost_estimated(&request));
    request.algorithm = KT_ALGORITHM_WARNSDORFF;
    cr_assert_not(knight_cost_estimated(&request), "the heuristic's retries are not told by the board");
    request.algorithm = KT_ALGORITHM_BACKTRACKING;
    cr_assert_not(knight_cost_estimated(&request), "an exponential search");
}

Test(knight_cost, the_time_is_linear_in_the_squares) {
    knight_cost cost = {.construction_seconds = 7e-9, .fresh_seconds = 3e-8};
    for (uint64_t squares = 1; squares < ((uint64_t)1 << 40); squares *= 10) {
        double one = knight_cost_seconds(&cost, squares), twice = knight_cost_seconds(&cost, 2 * squares);
        cr_assert(fabs(twice - 2 * one) <= 1e-12 * twice, "%llu squares", (unsigned long long)squares);
    }
    cr_assert_eq(knight_cost_seconds(&cost, 0), 0);
}

/* Both ways: what fits takes at most `seconds`, one more square takes longer (unless capped). */
static void expect_inverse(const knight_cost *cost, double seconds, uint64_t most) {
    uint64_t fits = knight_cost_largest_squares(cost, seconds, most);
    cr_assert_leq(fits, most);
    if (fits > 0)
        cr_assert_leq(knight_cost_seconds(cost, fits), seconds, "%g s: %llu", seconds, (unsigned long long)fits);
    if (fits < most)
        cr_assert_gt(knight_cost_seconds(cost, fits + 1), seconds, "%g s: %llu", seconds, (unsigned long long)fits);
}

Test(knight_cost, the_most_squares_that_fit_are_the_inverse) {
    knight_cost models[] = {{.construction_seconds = 7e-9, .fresh_seconds = 3e-8},
                            {.construction_seconds = 1.3e-9, .fresh_seconds = 0},
                            knight_cost_calibrate()};
    double times[] = {0, 1e-9, 1e-3, 0.0137, 1, 10, 600, 1e6};
    uint64_t limits[] = {KNIGHT_COST_MIN_SQUARES, 4000000, (uint64_t)1 << 31};
    for (size_t m = 0; m < sizeof models / sizeof *models; m++)
        for (size_t t = 0; t < sizeof times / sizeof *times; t++)
            for (size_t l = 0; l < sizeof limits / sizeof *limits; l++) expect_inverse(&models[m], times[t], limits[l]);
    cr_assert_eq(knight_cost_largest_squares(&models[0], HUGE_VAL, 4000000), 4000000, "no time limit: the cap");
    cr_assert_eq(knight_cost_largest_squares(&models[0], 0, 4000000), 0, "no time: none");
}

Test(knight_cost, the_calibration_measures_both_parts) {
    knight_cost cost = knight_cost_calibrate();
    cr_assert(cost.construction_seconds > 0 && isfinite(cost.construction_seconds));
    cr_assert(cost.fresh_seconds > 0 && isfinite(cost.fresh_seconds));
}
