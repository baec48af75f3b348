/* Sudoku grids as one line of text: a character per cell in reading order, `1`-`9` then `A`-`P`
 * (either case) for 10-25, `.` or `0` for an empty cell. The length gives the box size: 16, 81, 256
 * or 625 characters. */
#ifndef PUZZLED_CORE_SUDOKU_TEXT_H
#define PUZZLED_CORE_SUDOKU_TEXT_H

#include <stddef.h>

#include "core/sudoku/sudoku_grid.h"

typedef enum sudoku_text_status {
    SUDOKU_TEXT_OK,
    SUDOKU_TEXT_BAD_LENGTH,    /* not 16, 81, 256 or 625 characters */
    SUDOKU_TEXT_BAD_CHARACTER, /* a character that is no value of this size, nor `.` or `0` */
} sudoku_text_status;

/* The box size for a grid of `cells` cells, or 0 if no box size has that many. */
int sudoku_box_for_cells(size_t cells);

/* The value (1..25) of a symbol, 0 for an empty cell, -1 for any other character. */
int sudoku_symbol_value(char symbol);

/* The symbol of value 1..25 (`1`-`9`, `A`-`P`), `.` for 0. */
char sudoku_value_symbol(int value);

/* Parses `len` characters into `grid`. On SUDOKU_TEXT_BAD_CHARACTER, *bad_position is its index. */
sudoku_text_status sudoku_parse(const char *text, size_t len, sudoku_grid *grid, size_t *bad_position);

/* Writes the grid's cells+1 characters (with the NUL) to `out`. */
void sudoku_format(const sudoku_grid *grid, char *out);

#endif
