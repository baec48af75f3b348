/* Conflicts in a partial grid: a value that appears more than once in a row, column or box. */
#ifndef PUZZLED_CORE_SUDOKU_CONFLICTS_H
#define PUZZLED_CORE_SUDOKU_CONFLICTS_H

#include <stdint.h>

#include "core/sudoku/sudoku_grid.h"

/* Each unit holds at most size / 2 conflicting values. */
enum { SUDOKU_MAX_CONFLICTS = SUDOKU_MAX_UNITS * (SUDOKU_MAX_SIZE / 2) };

typedef struct sudoku_conflict {
    int unit;  /* the shared row, column or box (see sudoku_unit_kind_of) */
    int value; /* the repeated value */
    int count; /* cells holding it, 2..size */
    uint16_t cells[SUDOKU_MAX_SIZE];
} sudoku_conflict;

/* Writes every conflict (rows, then columns, then boxes; values in increasing order) to `out`, which
 * has room for SUDOKU_MAX_CONFLICTS, and returns how many there are. */
int sudoku_find_conflicts(const sudoku_grid *grid, sudoku_conflict *out);

#endif
