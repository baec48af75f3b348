/* The 9 x 9 search of sudoku_solve (see sudoku_band9.c for its design): same contract as
 * sudoku_solve for a puzzle of box size 3 searched without a random generator. Exported only for
 * sudoku_solver.c, which sends such searches here; everything else calls sudoku_solve. */
#ifndef PUZZLED_CORE_SUDOKU_BAND9_H
#define PUZZLED_CORE_SUDOKU_BAND9_H

#include "core/common/status.h"
#include "core/sudoku/sudoku_solver.h"

core_status sudoku_band9_solve(const sudoku_grid *puzzle, const sudoku_search *search, sudoku_result *result);

#endif
