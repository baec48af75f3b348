/* The exact Sudoku search against references it did not write: a plain cell-by-cell backtracking
 * count for 4 x 4 puzzles (written here, no propagation), and qqwing's puzzles, solutions and
 * solution counts for 9 x 9; 16 x 16 and 25 x 25 answers are checked against the rules. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/random/bounded_random.h"
#include "core/sudoku/sudoku_conflicts.h"
#include "core/sudoku/sudoku_generate.h"
#include "core/sudoku/sudoku_solver.h"
#include "core/sudoku/sudoku_text.h"
#include "../../../lib/qqwing_judge.h"

static sudoku_grid parse(const char *text) {
    sudoku_grid grid;
    size_t bad;
    cr_assert_eq(sudoku_parse(text, strlen(text), &grid, &bad), SUDOKU_TEXT_OK, "cannot parse %s", text);
    return grid;
}

static sudoku_result solve(const sudoku_grid *puzzle, uint64_t limit) {
    sudoku_search search = {.solution_limit = limit};
    sudoku_result result;
    cr_assert_eq(sudoku_solve_once(puzzle, &search, &result), CORE_OK);
    return result;
}

/* The plain reference: fill the first empty cell with each value that no peer holds, recursively. */
static long backtracking_count(sudoku_grid *grid, int from) {
    int size = grid->box * grid->box, cells = size * size;
    while (from < cells && grid->cells[from] != 0) from++;
    if (from == cells) return 1;
    const sudoku_geometry *g = sudoku_geometry_of(grid->box);
    long count = 0;
    for (int value = 1; value <= size; value++) {
        bool free_here = true;
        for (int k = 0; k < g->peer_count && free_here; k++) free_here = grid->cells[g->peers[from][k]] != value;
        if (!free_here) continue;
        grid->cells[from] = (uint8_t)value;
        count += backtracking_count(grid, from + 1);
        grid->cells[from] = 0;
    }
    return count;
}

Test(sudoku_solver, counts_every_4x4_grid_like_plain_backtracking) {
    sudoku_grid empty;
    sudoku_grid_clear(&empty, 2);
    sudoku_result result = solve(&empty, 100000);
    sudoku_grid scratch = empty;
    cr_assert_eq((long)result.solutions, backtracking_count(&scratch, 0));
    cr_assert(result.exhausted);
    cr_assert(sudoku_grid_is_solution(&result.first));
}

Test(sudoku_solver, counts_random_4x4_puzzles_like_plain_backtracking) {
    rng random;
    rng_seed_u64(&random, 2024);
    for (int trial = 0; trial < 300; trial++) {
        sudoku_grid puzzle;
        sudoku_grid_clear(&puzzle, 2);
        /* random givens, conflicting ones included */
        int givens = (int)bounded_random(&random, 8);
        for (int k = 0; k < givens; k++)
            puzzle.cells[bounded_random(&random, 16)] = (uint8_t)(1 + bounded_random(&random, 4));
        sudoku_grid scratch = puzzle;
        sudoku_conflict conflicts[SUDOKU_MAX_CONFLICTS];
        long expected = sudoku_find_conflicts(&puzzle, conflicts) > 0 ? 0 : backtracking_count(&scratch, 0);
        sudoku_result result = solve(&puzzle, 1000);
        cr_assert_eq((long)result.solutions, expected, "trial %d", trial);
        if (expected > 0)
            cr_assert(sudoku_grid_is_solution(&result.first) && sudoku_grid_extends(&result.first, &puzzle));
    }
}

Test(sudoku_solver, solves_qqwing_expert_puzzles_uniquely, .timeout = 120) {
    enum { PUZZLES = 100 };
    char(*puzzles)[QQWING_LINE] = qqwing_generate(PUZZLES, "expert");
    for (int k = 0; k < PUZZLES; k++) {
        sudoku_grid puzzle = parse(puzzles[k]);
        sudoku_result result = solve(&puzzle, 2);
        cr_assert(result.exhausted && result.solutions == 1, "%s", puzzles[k]);
        cr_assert(sudoku_grid_is_solution(&result.first), "%s", puzzles[k]);
        cr_assert(sudoku_grid_extends(&result.first, &puzzle), "%s", puzzles[k]);
    }
    free(puzzles);
}

/* qqwing's puzzles with givens taken away (several solutions) or a wrong value put in (none). */
Test(sudoku_solver, counts_solutions_like_qqwing, .timeout = 120) {
    enum { PUZZLES = 60 };
    char(*puzzles)[QQWING_LINE] = qqwing_generate(PUZZLES, "any");
    rng random;
    rng_seed_u64(&random, 7);
    for (int k = 0; k < PUZZLES; k++) {
        int removals = k % 3 == 0 ? 0 : (int)(1 + bounded_random(&random, 3));
        for (int removed = 0; removed < removals;) {
            int cell = (int)bounded_random(&random, 81);
            if (puzzles[k][cell] != '.') {
                puzzles[k][cell] = '.';
                removed++;
            }
        }
        if (k % 3 == 0) {
            int cell = (int)bounded_random(&random, 81);
            puzzles[k][cell] = (char)('1' + bounded_random(&random, 9));
        }
    }
    long counts[PUZZLES];
    qqwing_count((const char(*)[QQWING_LINE])puzzles, PUZZLES, counts);
    for (int k = 0; k < PUZZLES; k++) {
        sudoku_grid puzzle = parse(puzzles[k]);
        sudoku_result result = solve(&puzzle, 1000000);
        cr_assert(result.exhausted);
        cr_assert_eq((long)result.solutions, counts[k], "%s: ours %lu, qqwing %ld", puzzles[k],
                     (unsigned long)result.solutions, counts[k]);
    }
    free(puzzles);
}

Test(sudoku_solver, stops_counting_at_the_limit) {
    sudoku_grid empty;
    sudoku_grid_clear(&empty, 3);
    sudoku_result result = solve(&empty, 5);
    cr_assert_eq(result.solutions, 5);
    cr_assert_not(result.exhausted);
}

Test(sudoku_solver, fills_and_solves_16x16_and_25x25) {
    for (int box = 4; box <= 5; box++) {
        rng random;
        rng_seed_u64(&random, (uint64_t)box);
        deadline none = deadline_none();
        sudoku_grid grid;
        cr_assert_eq(sudoku_random_grid(box, &random, &none, &grid), CORE_OK);
        cr_assert(sudoku_grid_is_solution(&grid));
        /* half the cells taken away, in a random order */
        sudoku_grid puzzle = grid;
        for (int k = 0; k < box * box * box * box / 2; k++)
            puzzle.cells[bounded_random(&random, (uint64_t)(box * box * box * box))] = 0;
        sudoku_result result = solve(&puzzle, 1);
        cr_assert_eq(result.solutions, 1);
        cr_assert(sudoku_grid_is_solution(&result.first) && sudoku_grid_extends(&result.first, &puzzle));
    }
}

Test(sudoku_solver, reports_conflicting_givens_as_no_solution) {
    sudoku_grid puzzle = parse("11..............");
    sudoku_result result = solve(&puzzle, 2);
    cr_assert_eq(result.solutions, 0);
    cr_assert(result.exhausted);
}

Test(sudoku_solver, stops_at_the_deadline) {
    sudoku_grid empty;
    sudoku_grid_clear(&empty, 3);
    deadline past = deadline_after_ms(0);
    sudoku_search search = {.solution_limit = UINT64_MAX, .limit = &past};
    sudoku_result result;
    cr_assert_eq(sudoku_solve_once(&empty, &search, &result), CORE_DEADLINE);
}
