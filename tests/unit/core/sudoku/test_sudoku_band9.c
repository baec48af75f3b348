/* The 9 x 9 band search against the general search (sudoku_solve_general), written apart and
 * itself checked against plain backtracking and qqwing (test_sudoku_solver.c), on 100,000 puzzles
 * (a sample of them in the quick tier and under the sanitizers, tests/lib/test_sample.h) made here from fixed seeds:
 * givens kept from random full grids, from 17 to 45 of them (so unique,
 * many-solution and, with one given changed, unsolvable puzzles all occur), counted to 2 like
 * /sudoku/solve, and a part of them to 40. Only 9 x 9 has a second search: sudoku_solve runs the
 * general one for 4 x 4, 16 x 16 and 25 x 25 (test_sudoku_solver.c covers those).
 * Also: the node limit and conflicting givens (test_sudoku_solver.c's 9 x 9 deadline and counting
 * limit tests run this search too). */
#include <criterion/criterion.h>
#include <string.h>

#include "core/random/bounded_random.h"
#include "core/sudoku/sudoku_generate.h"
#include "core/sudoku/sudoku_solver.h"
#include "core/sudoku/sudoku_text.h"
#include "../../../lib/test_sample.h"

enum {
    PUZZLES = 100000,
    PUZZLES_PER_GRID = 10,
    FEWEST_GIVENS = 17,
    MOST_GIVENS = 45,
    DEEP_COUNT_EVERY = 10, /* every tenth puzzle is counted to DEEP_COUNT_LIMIT */
    DEEP_COUNT_LIMIT = 40,
    CHANGED_GIVEN_EVERY = 7, /* every seventh puzzle gets one given changed */
};

static sudoku_grid parse(const char *text) {
    sudoku_grid grid;
    size_t bad;
    cr_assert_eq(sudoku_parse(text, strlen(text), &grid, &bad), SUDOKU_TEXT_OK, "cannot parse %s", text);
    return grid;
}

/* `givens` cells of `solution` kept, the others emptied, in random order. */
static sudoku_grid keep_givens(const sudoku_grid *solution, int givens, rng *random) {
    int order[81];
    for (int k = 0; k < 81; k++) order[k] = k;
    for (int k = 80; k > 0; k--) {
        int j = (int)bounded_random(random, (uint64_t)k + 1), kept = order[k];
        order[k] = order[j];
        order[j] = kept;
    }
    sudoku_grid puzzle = *solution;
    for (int k = givens; k < 81; k++) puzzle.cells[order[k]] = 0;
    return puzzle;
}

static void change_one_given(sudoku_grid *puzzle, rng *random) {
    int cell;
    do cell = (int)bounded_random(random, 81);
    while (puzzle->cells[cell] == 0);
    puzzle->cells[cell] = (uint8_t)(1 + (puzzle->cells[cell] + (int)bounded_random(random, 8)) % 9);
}

static void expect_same_answer(sudoku_solver *solver, const sudoku_grid *puzzle, uint64_t limit, int index) {
    sudoku_search search = {.solution_limit = limit};
    sudoku_result banded, general;
    cr_assert_eq(sudoku_solve(solver, puzzle, &search, &banded), CORE_OK);
    cr_assert_eq(sudoku_solve_general(solver, puzzle, &search, &general), CORE_OK);
    char text[82];
    sudoku_format(puzzle, text);
    cr_assert_eq(banded.solutions, general.solutions, "puzzle %d (%s): %lu solutions, the general search %lu", index,
                 text, (unsigned long)banded.solutions, (unsigned long)general.solutions);
    cr_assert_eq(banded.exhausted, general.exhausted, "puzzle %d (%s)", index, text);
    if (banded.solutions == 0) return;
    cr_assert(sudoku_grid_is_solution(&banded.first), "puzzle %d (%s)", index, text);
    cr_assert(sudoku_grid_extends(&banded.first, puzzle), "puzzle %d (%s)", index, text);
    if (banded.solutions == 1 && banded.exhausted)
        cr_assert_arr_eq(banded.first.cells, general.first.cells, 81, "puzzle %d (%s)", index, text);
}

Test(sudoku_band9, answers_like_the_general_search_on_100000_puzzles, .timeout = 600) {
    sudoku_solver *solver = sudoku_solver_new(3);
    cr_assert_not_null(solver);
    deadline none = deadline_none();
    rng random;
    rng_seed_u64(&random, 31);
    int counts[3] = {0}; /* no solution, unique, several: every kind must have occurred */
    sudoku_grid solution;
    for (int index = 0; index < TEST_SAMPLE(PUZZLES); index++) {
        if (index % PUZZLES_PER_GRID == 0) cr_assert_eq(sudoku_random_grid(3, &random, &none, &solution), CORE_OK);
        int givens = FEWEST_GIVENS + (int)bounded_random(&random, MOST_GIVENS - FEWEST_GIVENS + 1);
        sudoku_grid puzzle = keep_givens(&solution, givens, &random);
        if (index % CHANGED_GIVEN_EVERY == 0) change_one_given(&puzzle, &random);
        uint64_t limit = index % DEEP_COUNT_EVERY == 0 ? DEEP_COUNT_LIMIT : 2;
        expect_same_answer(solver, &puzzle, limit, index);
        sudoku_search unique = {.solution_limit = 2};
        sudoku_result result;
        sudoku_solve(solver, &puzzle, &unique, &result);
        counts[result.solutions]++;
    }
    sudoku_solver_free(solver);
    cr_assert(counts[0] > 0 && counts[1] > 0 && counts[2] > 0, "no solution %d, unique %d, several %d", counts[0],
              counts[1], counts[2]);
}

Test(sudoku_band9, counts_every_solution_of_a_nearly_empty_grid_like_the_general_search) {
    /* the first row and column given: many solutions, all counted */
    sudoku_grid puzzle = parse("123456789"
                               "4........"
                               "7........"
                               "2........"
                               "5........"
                               "8........"
                               "3........"
                               "6........"
                               "9........");
    sudoku_solver *solver = sudoku_solver_new(3);
    sudoku_search search = {.solution_limit = 5000};
    sudoku_result banded, general;
    cr_assert_eq(sudoku_solve(solver, &puzzle, &search, &banded), CORE_OK);
    cr_assert_eq(sudoku_solve_general(solver, &puzzle, &search, &general), CORE_OK);
    cr_assert_eq(banded.solutions, general.solutions);
    cr_assert_eq(banded.solutions, 5000);
    cr_assert_not(banded.exhausted);
    sudoku_solver_free(solver);
}

Test(sudoku_band9, reports_conflicting_givens_as_no_solution) {
    static const char *const conflicts[] = {
        "11...............................................................................", /* a row */
        "1........1.......................................................................", /* a column */
        "1.........1......................................................................", /* a box */
    };
    for (int k = 0; k < 3; k++) {
        sudoku_grid puzzle = parse(conflicts[k]);
        sudoku_search search = {.solution_limit = 2};
        sudoku_result result;
        cr_assert_eq(sudoku_solve_once(&puzzle, &search, &result), CORE_OK);
        cr_assert_eq(result.solutions, 0, "%s", conflicts[k]);
        cr_assert(result.exhausted);
    }
}

Test(sudoku_band9, stops_at_the_node_limit) {
    sudoku_grid empty;
    sudoku_grid_clear(&empty, 3);
    sudoku_search search = {.solution_limit = 1000000, .node_limit = 100};
    sudoku_result result;
    cr_assert_eq(sudoku_solve_once(&empty, &search, &result), CORE_OK);
    cr_assert(result.node_limit_hit);
    cr_assert_not(result.exhausted);
    cr_assert_eq(result.nodes, 101);
}
