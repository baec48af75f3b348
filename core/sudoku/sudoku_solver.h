/* The exact Sudoku search: candidate bitmasks (bit v-1 set while value v may go in a cell),
 * constraint propagation by naked singles (a cell with one candidate) and hidden singles (a value
 * with one place left in a unit), then depth-first branching on a cell with the fewest candidates.
 * This is the propagation scheme of Norvig's "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html)
 * with the bitmask units of the fast solvers surveyed by tdoku (t-dillon.github.io/tdoku); dancing
 * links would find the same solutions more slowly.
 *
 * One search counts solutions up to a limit (1 finds a solution, 2 decides uniqueness), keeps the
 * first, and with a random generator tries the candidates of each branch in random order (random
 * finished grids). A solver is reusable; it owns its per-depth state and is not thread-safe. */
#ifndef PUZZLED_CORE_SUDOKU_SOLVER_H
#define PUZZLED_CORE_SUDOKU_SOLVER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/random/rng.h"
#include "core/sudoku/sudoku_grid.h"

typedef struct sudoku_solver sudoku_solver;

typedef struct sudoku_search {
    uint64_t solution_limit; /* stop after this many solutions (>= 1) */
    uint64_t node_limit;     /* stop after this many branch nodes; 0: no limit */
    rng *random;             /* NULL: candidates in increasing order; else a random order */
    const deadline *limit;   /* polled every few thousand nodes; NULL: none */
    progress *found;         /* NULL, or where each solution found is reported (counting) */
} sudoku_search;

typedef struct sudoku_result {
    uint64_t solutions;  /* found, at most solution_limit */
    bool exhausted;      /* the whole search space was covered: `solutions` is the exact count */
    bool node_limit_hit; /* stopped by node_limit before the answer was known */
    uint64_t nodes;      /* search nodes visited */
    sudoku_grid first;   /* the first solution, when solutions >= 1 */
} sudoku_result;

/* A solver for grids of box size `box`, or NULL if memory ran out. */
sudoku_solver *sudoku_solver_new(int box);
void sudoku_solver_free(sudoku_solver *solver);

/* Searches `puzzle` (of the solver's box size). Givens that conflict give 0 solutions, exhausted.
 * CORE_DEADLINE when the deadline passed first (the result then says what was found so far). */
core_status sudoku_solve(sudoku_solver *solver, const sudoku_grid *puzzle, const sudoku_search *search,
                         sudoku_result *result);

/* The general search of every box size, which sudoku_solve uses for all but 9 x 9 in a fixed order
 * (those go to the band search of sudoku_band9.c); the tests and benchmarks compare the two. */
core_status sudoku_solve_general(sudoku_solver *solver, const sudoku_grid *puzzle, const sudoku_search *search,
                                 sudoku_result *result);

/* Whether propagation alone fills `puzzle`: naked singles, and hidden singles too when
 * `hidden_singles`. A puzzle filled so has exactly one solution. */
bool sudoku_solved_by_singles(sudoku_solver *solver, const sudoku_grid *puzzle, bool hidden_singles);

/* One-shot helper: a solver for the puzzle's box size, one search, freed again. */
core_status sudoku_solve_once(const sudoku_grid *puzzle, const sudoku_search *search, sudoku_result *result);

#endif
