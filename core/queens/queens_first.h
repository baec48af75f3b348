/* One n-queens solution for any n, built in O(1) per row (no search), so boards of millions of rows
 * can be streamed row by row; and the same solution as a few arithmetic runs of columns, for writers
 * that format a run incrementally. */
#ifndef PUZZLED_CORE_QUEENS_FIRST_H
#define PUZZLED_CORE_QUEENS_FIRST_H

#include <stdbool.h>
#include <stdint.h>

/* True when an n x n board has a solution: every n >= 1 except 2 and 3. */
bool queens_first_exists(uint64_t n);

/* The column (0-based) of the queen in `row` (0 <= row < n) of the constructed solution, for n with
 * queens_first_exists(n). The construction (Hoffman, Loessi and Moore 1969; Bernhardsson 1991), in
 * 1-based numbers: the even numbers up to n then the odd ones; when n mod 6 == 2 the odd list is
 * 3, 1, 7, 9, ..., 5 instead (1 and 3 swapped, 5 moved to the end); when n mod 6 == 3 the even list
 * is 4, 6, ..., 2 and the odd list 5, 7, ..., 1, 3. Row i holds the i-th number of the list. */
uint64_t queens_first_column(uint64_t n, uint64_t row);

/* The construction's columns go up by QUEENS_FIRST_STEP from row to row, except at the few rows where
 * one of its lists starts or an exception (n mod 6 == 2 or 3) breaks in: at most five such runs. */
enum { QUEENS_FIRST_STEP = 2 };

/* The run of the construction that holds `row`, from `row` on: the rows row, row + 1, ...,
 * row + rows - 1 hold the columns column, column + QUEENS_FIRST_STEP, ... (rows >= 1). For n with
 * queens_first_exists(n) and row < n; the same columns as queens_first_column. */
typedef struct queens_first_run {
    uint64_t column;
    uint64_t rows;
} queens_first_run;
queens_first_run queens_first_run_at(uint64_t n, uint64_t row);

#endif
