/* Sudoku grids of box size 2..5 (4 x 4 to 25 x 25) and their geometry: which cells make up each row,
 * column and box (the "units"), and each cell's peers (the cells sharing a unit with it). The geometry
 * tables are built once, on first use, and shared read-only by every thread.
 * A grid holds values 1..size, 0 for an empty cell; cell k is row k / size, column k % size. */
#ifndef PUZZLED_CORE_SUDOKU_GRID_H
#define PUZZLED_CORE_SUDOKU_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    SUDOKU_MIN_BOX = 2,
    SUDOKU_MAX_BOX = 5,
    SUDOKU_MAX_SIZE = SUDOKU_MAX_BOX * SUDOKU_MAX_BOX,    /* 25 values, rows, columns, boxes */
    SUDOKU_MAX_CELLS = SUDOKU_MAX_SIZE * SUDOKU_MAX_SIZE, /* 625 */
    SUDOKU_MAX_PEERS = 2 * (SUDOKU_MAX_SIZE - 1) + (SUDOKU_MAX_BOX - 1) * (SUDOKU_MAX_BOX - 1), /* 64 */
    SUDOKU_MAX_UNITS = 3 * SUDOKU_MAX_SIZE,
};

/* The three kinds of unit; unit u is of kind u / size, with index u % size. */
typedef enum sudoku_unit_kind { SUDOKU_ROW, SUDOKU_COLUMN, SUDOKU_BOX } sudoku_unit_kind;

typedef struct sudoku_geometry {
    int box, size, cells, units, peer_count;
    uint16_t unit_cells[SUDOKU_MAX_UNITS][SUDOKU_MAX_SIZE]; /* the cells of each unit, in reading order */
    uint8_t cell_units[SUDOKU_MAX_CELLS][3];                /* the row, column and box unit of a cell */
    uint16_t peers[SUDOKU_MAX_CELLS][SUDOKU_MAX_PEERS];     /* every other cell sharing a unit */
} sudoku_geometry;

typedef struct sudoku_grid {
    int box;
    uint8_t cells[SUDOKU_MAX_CELLS]; /* 0 empty, else 1..box*box */
} sudoku_grid;

/* The geometry of box size `box` (SUDOKU_MIN_BOX..SUDOKU_MAX_BOX). */
const sudoku_geometry *sudoku_geometry_of(int box);

/* An empty grid of box size `box`. */
void sudoku_grid_clear(sudoku_grid *grid, int box);

/* The number of filled cells. */
int sudoku_grid_givens(const sudoku_grid *grid);

/* Whether `grid` is completely filled and obeys the rules (every unit holds every value once). */
bool sudoku_grid_is_solution(const sudoku_grid *grid);

/* Whether every filled cell of `puzzle` holds the same value in `grid`. */
bool sudoku_grid_extends(const sudoku_grid *grid, const sudoku_grid *puzzle);

/* Unit u's kind and index within its kind. */
static inline sudoku_unit_kind sudoku_unit_kind_of(const sudoku_geometry *g, int unit) {
    return (sudoku_unit_kind)(unit / g->size);
}

#endif
