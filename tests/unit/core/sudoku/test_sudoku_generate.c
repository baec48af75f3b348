/* The generator: replay from a seed, the asked difficulty, one solution, symmetric givens, all box
 * sizes. Solution counts come from the exact search (itself checked against qqwing in
 * test_sudoku_solver.c; the integration test has qqwing count the served puzzles); "solved by
 * singles" is checked by a naked-single loop written here. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/sudoku/sudoku_generate.h"
#include "core/sudoku/sudoku_solver.h"

static sudoku_generated generate(int box, int difficulty, sudoku_symmetry symmetry, uint64_t seed) {
    rng random;
    rng_seed_u64(&random, seed);
    deadline none = deadline_none();
    sudoku_generated out;
    cr_assert_eq(sudoku_generate(box, difficulty, symmetry, &random, &none, &out), CORE_OK);
    return out;
}

static uint64_t count_solutions(const sudoku_grid *puzzle) {
    sudoku_search search = {.solution_limit = 2};
    sudoku_result result;
    cr_assert_eq(sudoku_solve_once(puzzle, &search, &result), CORE_OK);
    cr_assert(result.exhausted);
    return result.solutions;
}

/* Fills cells that have one value left, recomputing from the filled cells each round, until none
 * is left; true when the grid is then full. */
static bool filled_by_naked_singles(sudoku_grid grid) {
    const sudoku_geometry *g = sudoku_geometry_of(grid.box);
    for (bool progress = true; progress;) {
        progress = false;
        for (int cell = 0; cell < g->cells; cell++) {
            if (grid.cells[cell] != 0) continue;
            uint32_t taken = 0;
            for (int k = 0; k < g->peer_count; k++) {
                int value = grid.cells[g->peers[cell][k]];
                if (value != 0) taken |= UINT32_C(1) << (value - 1);
            }
            uint32_t left = ~taken & ((UINT32_C(1) << g->size) - 1);
            if (left != 0 && (left & (left - 1)) == 0) {
                grid.cells[cell] = (uint8_t)(__builtin_ctz(left) + 1);
                progress = true;
            }
        }
    }
    for (int cell = 0; cell < g->cells; cell++) {
        if (grid.cells[cell] == 0) return false;
    }
    return sudoku_grid_is_solution(&grid);
}

Test(sudoku_generate, replays_the_same_puzzle_from_the_same_seed) {
    for (int difficulty = SUDOKU_SIMPLE; difficulty <= SUDOKU_ANY_DIFFICULTY; difficulty++) {
        sudoku_generated a = generate(3, difficulty, SUDOKU_SYMMETRY_RANDOM, 99);
        sudoku_generated b = generate(3, difficulty, SUDOKU_SYMMETRY_RANDOM, 99);
        sudoku_generated c = generate(3, difficulty, SUDOKU_SYMMETRY_RANDOM, 100);
        cr_assert_eq(memcmp(a.puzzle.cells, b.puzzle.cells, 81), 0);
        cr_assert_eq(memcmp(a.solution.cells, b.solution.cells, 81), 0);
        cr_assert_neq(memcmp(a.solution.cells, c.solution.cells, 81), 0);
    }
}

Test(sudoku_generate, gives_each_difficulty_with_one_solution, .timeout = 120) {
    for (int difficulty = SUDOKU_SIMPLE; difficulty <= SUDOKU_ANY_DIFFICULTY; difficulty++) {
        for (uint64_t seed = 1; seed <= 10; seed++) {
            sudoku_generated out = generate(3, difficulty, SUDOKU_SYMMETRY_NONE, seed);
            if (difficulty != SUDOKU_ANY_DIFFICULTY) cr_assert_eq((int)out.rating, difficulty);
            cr_assert(sudoku_grid_is_solution(&out.solution));
            cr_assert(sudoku_grid_extends(&out.solution, &out.puzzle));
            cr_assert_eq(count_solutions(&out.puzzle), 1);
            bool finished;
            cr_assert_eq(sudoku_rate(&out.puzzle, &out.solution, SUDOKU_EXPERT, &finished, NULL), out.rating);
            cr_assert(finished);
        }
    }
}

Test(sudoku_generate, simple_puzzles_fall_to_naked_singles_alone) {
    for (uint64_t seed = 1; seed <= 20; seed++) {
        sudoku_generated out = generate(3, SUDOKU_SIMPLE, SUDOKU_SYMMETRY_NONE, seed);
        cr_assert(filled_by_naked_singles(out.puzzle), "seed %lu", (unsigned long)seed);
    }
}

Test(sudoku_generate, harder_ratings_do_not_fall_to_naked_singles) {
    for (uint64_t seed = 1; seed <= 10; seed++) {
        sudoku_generated out = generate(3, SUDOKU_INTERMEDIATE, SUDOKU_SYMMETRY_NONE, seed);
        cr_assert_not(filled_by_naked_singles(out.puzzle));
    }
}

Test(sudoku_generate, keeps_the_givens_symmetric) {
    for (int symmetry = SUDOKU_SYMMETRY_NONE; symmetry < SUDOKU_SYMMETRY_RANDOM; symmetry++) {
        sudoku_generated out = generate(3, SUDOKU_ANY_DIFFICULTY, (sudoku_symmetry)symmetry, 5);
        cr_assert_eq(out.symmetry, (sudoku_symmetry)symmetry);
        for (int row = 0; row < 9; row++) {
            for (int column = 0; column < 9; column++) {
                int images[] = {row * 9 + column, column * 9 + 8 - row, (8 - row) * 9 + 8 - column,
                                row * 9 + 8 - column, (8 - row) * 9 + column};
                int image = images[symmetry];
                cr_assert_eq(out.puzzle.cells[row * 9 + column] != 0, out.puzzle.cells[image] != 0, "%s: (%d,%d)",
                             sudoku_symmetry_name((sudoku_symmetry)symmetry), row, column);
            }
        }
    }
}

Test(sudoku_generate, makes_unique_puzzles_of_every_box_size, .timeout = 300) {
    for (int box = SUDOKU_MIN_BOX; box <= SUDOKU_MAX_BOX; box++) {
        sudoku_generated out = generate(box, SUDOKU_ANY_DIFFICULTY, SUDOKU_SYMMETRY_NONE, 3);
        cr_assert(sudoku_grid_is_solution(&out.solution));
        cr_assert(sudoku_grid_extends(&out.solution, &out.puzzle));
        cr_assert_eq(count_solutions(&out.puzzle), 1, "box %d", box);
        cr_assert_lt(sudoku_grid_givens(&out.puzzle), box * box * box * box);
    }
}
