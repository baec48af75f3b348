/* N-queens solutions one at a time, in lexicographic order of the column arrays, by one of three
 * algorithms that produce the same sequence; optionally only the fundamental solutions (see
 * queens_symmetry.h). The iterator holds O(n) state and no heap memory. */
#ifndef PUZZLED_CORE_QUEENS_SOLUTIONS_H
#define PUZZLED_CORE_QUEENS_SOLUTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"

/* Largest board for listing and counting: the masks are 64-bit and nothing above this is
 * enumerable anyway (the time limit stops long runs well before). */
#define QUEENS_MAX_N 32
/* Largest board the permutation method accepts: it tries all n! column orders (10! = 3.6 million). */
#define QUEENS_PERMUTATION_MAX_N 10

typedef enum queens_algorithm {
    QUEENS_BITMASK,      /* row by row; free squares of a row as a bit set, lowest bit first */
    QUEENS_BACKTRACKING, /* row by row; used columns and diagonals in boolean arrays */
    QUEENS_PERMUTATION,  /* every permutation of columns in lexicographic order, diagonal clashes rejected */
} queens_algorithm;

typedef struct queens_iter {
    int n;
    queens_algorithm algorithm;
    bool unique;
    bool started;
    int row;                          /* the row being filled; -1 once exhausted */
    int cols[QUEENS_MAX_N];           /* the current (partial) placement: column of the queen in each row */
    uint64_t free_cols[QUEENS_MAX_N]; /* bitmask: columns still to try in each row */
    uint64_t down[QUEENS_MAX_N];      /* bitmask: columns attacked in each row, vertically */
    uint64_t left[QUEENS_MAX_N];      /* ... along one diagonal */
    uint64_t right[QUEENS_MAX_N];     /* ... along the other */
    bool col_used[QUEENS_MAX_N];      /* backtracking: column taken */
    bool sum_used[2 * QUEENS_MAX_N];  /* backtracking: diagonal row + col taken */
    bool diff_used[2 * QUEENS_MAX_N]; /* backtracking: diagonal row - col + n - 1 taken */
    uint64_t allowed[QUEENS_MAX_N];   /* bitmask: columns a row may use (all, unless queens_iter_require) */
    uint64_t steps;                   /* work done, to poll the deadline every few thousand steps */
} queens_iter;

/* Prepares the iterator for an n x n board, 1 <= n <= QUEENS_MAX_N (the permutation method is meant
 * for n <= QUEENS_PERMUTATION_MAX_N; callers enforce that). With `unique`, only the lexicographically
 * smallest solution of each class under the 8 symmetries of the square is produced, at its place in
 * the lexicographic order. Returns false when n is out of range. */
bool queens_iter_init(queens_iter *it, int n, queens_algorithm algorithm, bool unique);

/* Keeps only the solutions with a queen on [row, col] (a partial board to complete); call before the
 * first queens_iter_next, once per placed queen. Not meant with `unique` (a placed queen breaks the
 * symmetry classes). */
void queens_iter_require(queens_iter *it, int row, int col);

/* Advances to the next solution. Polls `dl` (may be NULL) every few thousand steps: CORE_DEADLINE when
 * it passed (calling next again resumes). On CORE_OK `*found` is true when queens_iter_solution()
 * holds the next solution, false when there are no more. */
core_status queens_iter_next(queens_iter *it, const deadline *dl, bool *found);

/* The current solution: n column indices, one per row (valid after a solution was found). */
const int *queens_iter_solution(const queens_iter *it);

#endif
