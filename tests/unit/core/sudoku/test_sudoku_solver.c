/* The exact Sudoku search against references it did not write: a plain cell-by-cell backtracking
 * count for 4 x 4 puzzles (written here, no propagation), a fewest-candidates-first backtracking
 * count (written here, no propagation either) on 100,000 puzzles of each of 4 x 4, 16 x 16 and
 * 25 x 25 (a sample of them in the quick tier and under the sanitizers, tests/lib/test_sample.h; 9 x 9 has its own
 * second search, test_sudoku_band9.c), and qqwing's puzzles, solutions and solution counts for 9 x 9. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/random/bounded_random.h"
#include "core/sudoku/sudoku_conflicts.h"
#include "core/sudoku/sudoku_generate.h"
#include "core/sudoku/sudoku_solver.h"
#include "core/sudoku/sudoku_text.h"
#include "../../../lib/qqwing_judge.h"
#include "../../../lib/test_sample.h"

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

/* The second reference: the empty cell with the fewest values free of its peers first, counting up
 * to `limit`. Fast enough on puzzles that keep most givens, whatever the size. */
static uint64_t fewest_candidates_count(sudoku_grid *grid, const sudoku_geometry *g, uint64_t limit) {
    int best = -1, best_free = g->size + 1;
    bool best_allowed[SUDOKU_MAX_SIZE + 1] = {false};
    for (int cell = 0; cell < g->cells && best_free > 1; cell++) { /* a forced cell will do */
        if (grid->cells[cell] != 0) continue;
        bool allowed[SUDOKU_MAX_SIZE + 1];
        for (int value = 1; value <= g->size; value++) allowed[value] = true;
        for (int k = 0; k < g->peer_count; k++) allowed[grid->cells[g->peers[cell][k]]] = false;
        int free_values = 0;
        for (int value = 1; value <= g->size; value++) free_values += allowed[value];
        if (free_values < best_free) {
            best = cell;
            best_free = free_values;
            memcpy(best_allowed, allowed, sizeof allowed);
        }
    }
    if (best < 0) return 1;
    uint64_t count = 0;
    for (int value = 1; value <= g->size && count < limit; value++) {
        if (!best_allowed[value]) continue;
        grid->cells[best] = (uint8_t)value;
        count += fewest_candidates_count(grid, g, limit - count);
    }
    grid->cells[best] = 0;
    return count;
}

enum {
    REFERENCE_PUZZLES = 100000,
    REFERENCE_PUZZLES_PER_GRID = 100,
    REFERENCE_CHANGED_GIVEN_EVERY = 7, /* every seventh puzzle gets one given changed: often unsolvable */
    REFERENCE_COUNT_LIMIT = 3,
};

/* 100,000 puzzles (their sample under the sanitizers) of box size `box` from random full grids, each with a random share of its cells
 * emptied (at most `most_emptied_percent`), counted to 3 by the search and by the reference. */
static void expect_reference_counts(int box, int most_emptied_percent) {
    const sudoku_geometry *g = sudoku_geometry_of(box);
    rng random;
    rng_seed_u64(&random, 3100 + (uint64_t)box);
    deadline none = deadline_none();
    uint64_t kinds[REFERENCE_COUNT_LIMIT + 1] = {0};
    sudoku_grid full;
    for (int index = 0; index < TEST_SAMPLE(REFERENCE_PUZZLES); index++) {
        if (index % REFERENCE_PUZZLES_PER_GRID == 0)
            cr_assert_eq(sudoku_random_grid(box, &random, &none, &full), CORE_OK);
        sudoku_grid puzzle = full;
        int emptied = (int)bounded_random(&random, (uint64_t)(g->cells * most_emptied_percent / 100 + 1));
        for (int k = 0; k < emptied; k++) puzzle.cells[bounded_random(&random, (uint64_t)g->cells)] = 0;
        if (index % REFERENCE_CHANGED_GIVEN_EVERY == 0) {
            int cell = (int)bounded_random(&random, (uint64_t)g->cells);
            if (puzzle.cells[cell] != 0)
                puzzle.cells[cell] =
                    (uint8_t)(1 + (puzzle.cells[cell] + bounded_random(&random, g->size - 1)) % g->size);
        }
        sudoku_conflict conflicts[SUDOKU_MAX_CONFLICTS];
        sudoku_grid scratch = puzzle;
        uint64_t expected = sudoku_find_conflicts(&puzzle, conflicts) > 0
                                ? 0
                                : fewest_candidates_count(&scratch, g, REFERENCE_COUNT_LIMIT);
        sudoku_result result = solve(&puzzle, REFERENCE_COUNT_LIMIT);
        cr_assert_eq(result.solutions, expected, "%dx%d puzzle %d: %lu solutions, the reference %lu", g->size, g->size,
                     index, (unsigned long)result.solutions, (unsigned long)expected);
        if (expected > 0)
            cr_assert(sudoku_grid_is_solution(&result.first) && sudoku_grid_extends(&result.first, &puzzle));
        kinds[expected]++;
    }
    /* the kinds of answer the design must tell apart all occurred */
    cr_assert(kinds[0] > 0 && kinds[1] > 0 && kinds[REFERENCE_COUNT_LIMIT] > 0,
              "%dx%d: none %lu, one %lu, at least three %lu", g->size, g->size, (unsigned long)kinds[0],
              (unsigned long)kinds[1], (unsigned long)kinds[REFERENCE_COUNT_LIMIT]);
}

Test(sudoku_solver, counts_100000_4x4_puzzles_like_the_fewest_candidates_reference, .timeout = 600) {
    expect_reference_counts(2, 90);
}

Test(sudoku_solver, counts_100000_16x16_puzzles_like_the_fewest_candidates_reference, .timeout = 600) {
    expect_reference_counts(4, 60);
}

Test(sudoku_solver, counts_100000_25x25_puzzles_like_the_fewest_candidates_reference, .timeout = 600) {
    expect_reference_counts(5, 40);
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
/* qqwing's puzzles (random: qqwing takes no seed) with one or two givens taken away, or one changed:
 * at most a few thousand solutions, which qqwing counts one by one in well under a second; three
 * taken away sometimes left hundreds of thousands, and minutes of qqwing under load. */
Test(sudoku_solver, counts_solutions_like_qqwing, .timeout = 600) {
    enum { PUZZLES = 60 };
    char(*puzzles)[QQWING_LINE] = qqwing_generate(PUZZLES, "any");
    rng random;
    rng_seed_u64(&random, 7);
    for (int k = 0; k < PUZZLES; k++) {
        int removals = k % 3 == 0 ? 0 : (int)(1 + bounded_random(&random, 2));
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
