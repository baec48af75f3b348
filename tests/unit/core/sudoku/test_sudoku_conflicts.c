/* The conflict listing against a reference it did not write: every pair of filled cells, compared
 * with rows, columns and boxes worked out from the coordinates here (not from the geometry tables),
 * on random partial grids of every box size, from nearly empty (mostly no conflict) to crowded. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/random/bounded_random.h"
#include "core/sudoku/sudoku_conflicts.h"

/* The unit numbers of sudoku_conflicts.h (rows 0..size-1, then columns, then boxes) of the unit that
 * cells a and b share, of kind `kind`, or -1. */
static int shared_unit(int box, int a, int b, int kind) {
    int size = box * box, ra = a / size, ca = a % size, rb = b / size, cb = b % size;
    if (kind == SUDOKU_ROW) return ra == rb ? ra : -1;
    if (kind == SUDOKU_COLUMN) return ca == cb ? size + ca : -1;
    bool same_box = ra / box == rb / box && ca / box == cb / box;
    return same_box ? 2 * size + (ra / box) * box + ca / box : -1;
}

/* repeated[unit][value]: some pair of cells of that unit holds the value. */
static void pairwise_reference(const sudoku_grid *grid, bool repeated[SUDOKU_MAX_UNITS][SUDOKU_MAX_SIZE + 1]) {
    int size = grid->box * grid->box, cells = size * size;
    memset(repeated, 0, sizeof(bool[SUDOKU_MAX_UNITS][SUDOKU_MAX_SIZE + 1]));
    for (int a = 0; a < cells; a++)
        for (int b = a + 1; b < cells; b++) {
            if (grid->cells[a] == 0 || grid->cells[a] != grid->cells[b]) continue;
            for (int kind = SUDOKU_ROW; kind <= SUDOKU_BOX; kind++) {
                int unit = shared_unit(grid->box, a, b, kind);
                if (unit >= 0) repeated[unit][grid->cells[a]] = true;
            }
        }
}

Test(sudoku_conflicts, lists_exactly_the_repeated_values_of_every_unit) {
    static sudoku_conflict found[SUDOKU_MAX_CONFLICTS];
    static bool repeated[SUDOKU_MAX_UNITS][SUDOKU_MAX_SIZE + 1];
    rng random;
    rng_seed_u64(&random, 4242);
    int without = 0, with = 0;
    for (int trial = 0; trial < 4000; trial++) {
        int box = SUDOKU_MIN_BOX + trial % (SUDOKU_MAX_BOX - SUDOKU_MIN_BOX + 1), size = box * box;
        sudoku_grid grid;
        sudoku_grid_clear(&grid, box);
        int givens = (int)bounded_random(&random, (uint64_t)(size * size) / 3 + 1) / (1 + trial % 7);
        for (int k = 0; k < givens; k++)
            grid.cells[bounded_random(&random, (uint64_t)(size * size))] = (uint8_t)(1 + bounded_random(&random, size));
        pairwise_reference(&grid, repeated);
        int count = sudoku_find_conflicts(&grid, found);
        int expected = 0;
        for (int unit = 0; unit < 3 * size; unit++)
            for (int value = 1; value <= size; value++) expected += repeated[unit][value];
        cr_assert_eq(count, expected, "trial %d: %d conflicts, the pairs say %d", trial, count, expected);
        for (int k = 0; k < count; k++) {
            const sudoku_conflict *c = &found[k];
            cr_assert(repeated[c->unit][c->value], "trial %d: unit %d value %d", trial, c->unit, c->value);
            repeated[c->unit][c->value] = false; /* each (unit, value) listed once */
            int holders = 0;
            for (int cell = 0; cell < size * size; cell++) {
                bool in_unit = shared_unit(box, cell, cell, c->unit / size) == c->unit;
                holders += in_unit && grid.cells[cell] == c->value;
            }
            cr_assert_eq(c->count, holders, "trial %d: unit %d value %d", trial, c->unit, c->value);
            for (int j = 0; j < c->count; j++) {
                cr_assert_eq(grid.cells[c->cells[j]], c->value);
                cr_assert_eq(shared_unit(box, c->cells[j], c->cells[j], c->unit / size), c->unit);
            }
        }
        count == 0 ? without++ : with++;
    }
    cr_assert(without > 500 && with > 500, "%d grids without conflicts, %d with", without, with);
}
