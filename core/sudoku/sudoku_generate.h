/* Random Sudoku grids and puzzles with exactly one solution, replayable from the generator state.
 *
 * A finished grid comes from the exact search with its candidates tried in random order (restarted
 * when a search wanders past a node budget), then a uniformly random element of the grid's
 * validity-preserving group is applied: a relabelling of the values, a permutation of the bands, of
 * the rows within each band, of the stacks, of the columns within each stack, and a transposition
 * or not. The result is uniform within each orbit of that group, but the orbits (the "essentially
 * different" grids) are not equally likely: the search favours some. Sampling every grid uniformly
 * would need a count of the completions of each partial grid, out of reach beyond 4 x 4.
 *
 * A puzzle is the grid with givens removed in random order, a symmetry orbit of cells at a time,
 * keeping a removal only while the puzzle stays solvable within the requested difficulty: by naked
 * singles (simple), by singles (easy), by logic without guessing (intermediate), or uniquely
 * (expert, any): in each case the puzzle has exactly one solution. A puzzle whose final rating is not
 * the one asked for is dropped and a new grid drawn. */
#ifndef PUZZLED_CORE_SUDOKU_GENERATE_H
#define PUZZLED_CORE_SUDOKU_GENERATE_H

#include <stdbool.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/random/rng.h"
#include "core/sudoku/sudoku_grid.h"
#include "core/sudoku/sudoku_logic.h"

typedef enum sudoku_symmetry {
    SUDOKU_SYMMETRY_NONE,
    SUDOKU_SYMMETRY_ROTATE90,  /* (r, c) -> (c, n-1-r): four cells at a time */
    SUDOKU_SYMMETRY_ROTATE180, /* (r, c) -> (n-1-r, n-1-c) */
    SUDOKU_SYMMETRY_MIRROR,    /* (r, c) -> (r, n-1-c): left and right */
    SUDOKU_SYMMETRY_FLIP,      /* (r, c) -> (n-1-r, c): top and bottom */
    SUDOKU_SYMMETRY_RANDOM,    /* one of the above, drawn from the generator */
    SUDOKU_SYMMETRIES
} sudoku_symmetry;

/* SUDOKU_DIFFICULTIES as a target stands for "any". */
enum { SUDOKU_ANY_DIFFICULTY = SUDOKU_DIFFICULTIES };

typedef struct sudoku_generated {
    sudoku_grid puzzle, solution;
    sudoku_difficulty rating;
    sudoku_symmetry symmetry; /* the one used (never RANDOM) */
    int attempts;             /* grids drawn until one gave the difficulty */
} sudoku_generated;

const char *sudoku_symmetry_name(sudoku_symmetry symmetry);

/* A random finished grid of box size `box`. */
core_status sudoku_random_grid(int box, rng *random, const deadline *limit, sudoku_grid *grid);

/* A puzzle of box size `box` with one solution and rating `difficulty` (or any rating for
 * SUDOKU_ANY_DIFFICULTY), its givens symmetric under `symmetry`. CORE_DEADLINE when none was found
 * in time. */
core_status sudoku_generate(int box, int difficulty, sudoku_symmetry symmetry, rng *random, const deadline *limit,
                            sudoku_generated *out);

#endif
