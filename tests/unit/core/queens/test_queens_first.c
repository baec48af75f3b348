/* Unit tests for core/queens/queens_first: the explicit construction for any n, checked by marking
 * columns and both diagonals, for every n up to 3000 and large n of every residue mod 6. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "core/queens/queens_first.h"

/* Whether the construction for n places n queens no two of which attack each other. */
static bool construction_valid(uint64_t n) {
    bool *col = calloc(n, 1);
    bool *sum = calloc(2 * n, 1);
    bool *diff = calloc(2 * n, 1);
    bool ok = true;
    for (uint64_t r = 0; r < n && ok; r++) {
        uint64_t c = queens_first_column(n, r);
        if (c >= n || col[c] || sum[r + c] || diff[r + n - 1 - c]) {
            ok = false;
        } else {
            col[c] = sum[r + c] = diff[r + n - 1 - c] = true;
        }
    }
    free(col);
    free(sum);
    free(diff);
    return ok;
}

Test(queens_first, existence) {
    cr_assert(queens_first_exists(1));
    cr_assert_not(queens_first_exists(2));
    cr_assert_not(queens_first_exists(3));
    cr_assert(queens_first_exists(4));
    cr_assert_eq(queens_first_column(1, 0), 0);
}

Test(queens_first, valid_for_every_n_up_to_3000) {
    for (uint64_t n = 4; n <= 3000; n++) {
        cr_assert(construction_valid(n), "n=%lu", (unsigned long)n);
    }
}

Test(queens_first, valid_for_large_n_of_every_residue_mod_6) {
    for (uint64_t n = 100000; n < 100006; n++) {
        cr_assert(construction_valid(n), "n=%lu", (unsigned long)n);
    }
    cr_assert(construction_valid(1000000));
    cr_assert(construction_valid(1000003));
}

/* The runs against the closed form, row by row: each run's first column is the row's, its columns rise
 * by QUEENS_FIRST_STEP as far as it says, and it never reaches past the board. */
static void expect_runs_match(uint64_t n) {
    uint64_t runs = 0;
    for (uint64_t row = 0; row < n;) {
        queens_first_run run = queens_first_run_at(n, row);
        cr_assert(run.rows >= 1 && run.rows <= n - row, "n=%lu row %lu: %lu rows", (unsigned long)n, (unsigned long)row,
                  (unsigned long)run.rows);
        for (uint64_t i = 0; i < run.rows; i++) {
            cr_assert_eq(run.column + QUEENS_FIRST_STEP * i, queens_first_column(n, row + i), "n=%lu row %lu",
                         (unsigned long)n, (unsigned long)(row + i));
            /* from any row inside the run, the rest of the same run */
            queens_first_run rest = queens_first_run_at(n, row + i);
            cr_assert(rest.column == run.column + QUEENS_FIRST_STEP * i && rest.rows == run.rows - i, "n=%lu row %lu",
                      (unsigned long)n, (unsigned long)(row + i));
        }
        row += run.rows;
        runs++;
    }
    cr_assert(runs <= 5, "n=%lu: %lu runs", (unsigned long)n, (unsigned long)runs);
}

Test(queens_first, runs_match_the_closed_form) {
    for (uint64_t n = 1; n <= 1200; n++) {
        if (queens_first_exists(n)) expect_runs_match(n);
    }
    for (uint64_t n = 999994; n <= 1000006; n++) expect_runs_match(n);
    expect_runs_match(3000000);
}
