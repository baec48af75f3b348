/* What the /sudoku/... endpoints share: reading a grid from the `puzzle` field (one string) or the
 * `rows` field (rows of numbers, or all cells in one flat list), refusing givens that conflict, and
 * writing grids, cells and solving steps as JSON. Cells are [row, column], counted from 0. */
#ifndef PUZZLED_API_SUDOKU_IO_H
#define PUZZLED_API_SUDOKU_IO_H

#include <stdbool.h>

#include "api/api.h"
#include "core/sudoku/sudoku_conflicts.h"
#include "core/sudoku/sudoku_grid.h"
#include "core/sudoku/sudoku_logic.h"
#include "core/sudoku/sudoku_solver.h"

/* The fields every grid-taking endpoint declares: {"puzzle", FIELD_STRING}, {"rows", FIELD_ARRAY}. */
#define SUDOKU_GRID_FIELDS \
    {"puzzle", FIELD_STRING}, { "rows", FIELD_ARRAY }

/* Reads the grid from `puzzle` or `rows` (exactly one); *as_rows tells which, so the answer can use
 * the same form. 400 on a wrong length, a character or number outside the alphabet. */
bool sudoku_read_grid(api_request *req, sudoku_grid *grid, bool *as_rows);

/* sudoku_read_grid, then a 422 conflicting_givens naming the cells when a value repeats in a unit. */
bool sudoku_read_puzzle(api_request *req, sudoku_grid *puzzle, bool *as_rows);

/* Describes the first conflict of `puzzle` and counts them all (naming the cells); NULL when there
 * is none. `scratch` has room for SUDOKU_MAX_CONFLICTS. */
const char *sudoku_conflict_problem(const sudoku_grid *puzzle, sudoku_conflict *scratch, char *message, size_t size);

/* What no_solution says. */
extern const char *const sudoku_no_solution_message;

/* The 422 no_solution for the puzzle of this request. */
bool sudoku_fail_no_solution(api_request *req);

/* The unique-or-first solution of a conflict-free puzzle: 422 no_solution when there is none, 503
 * when the search ran out of time. `result` tells whether it is unique. */
bool sudoku_find_solution(api_request *req, const sudoku_grid *puzzle, sudoku_result *result);

/* Describes a problem with the text of a single puzzle (bulk lines use it): NULL when `text` parses. */
const char *sudoku_text_problem(const char *text, size_t len, sudoku_grid *grid, char *message, size_t size);

/* The search /sudoku/solve runs: `count_limit` solutions (two at least, so that uniqueness is
 * always known), polling `limit`. */
sudoku_search sudoku_solve_search(int64_t count_limit, const deadline *limit);

/* Writes the "box", "solution", "unique" and (with `count_limit` > 0) "total", "total_exact" members
 * of /sudoku/solve's answer to a search that found at least one solution. */
void sudoku_write_solve_answer(json_writer *out, const sudoku_result *result, bool as_rows, int64_t count_limit);

/* What a bulk text line says after the solution of a puzzle that has more than one. */
#define SUDOKU_NOT_UNIQUE "not_unique"

/* The same answer as one line of bulk text (Accept: text/plain), without its line end: the solution,
 * then " not_unique" when it is not the only one; with `count_limit` > 0, a space and the count instead,
 * with a "+" after it when the count stopped at the limit (there may be more). */
void sudoku_write_solve_text(json_writer *out, const sudoku_result *result, int64_t count_limit);

/* A grid as a JSON string ("53..7....") or as rows of numbers (0 for empty). */
void sudoku_write_grid(json_writer *out, const sudoku_grid *grid, bool as_rows);

/* A cell as [row, column]. */
void sudoku_write_cell(json_writer *out, int box, int cell);

/* A unit as {"kind": "row"|"column"|"box", "index": i}. */
void sudoku_write_unit(json_writer *out, int box, int unit);

/* A step: {"technique", "units", "cells", "values", and "place": {"cell", "value"} or
 * "eliminate": [{"cell", "values"}]}. */
void sudoku_write_step(json_writer *out, int box, const sudoku_step *step);

#endif
