/* Finds repeated values (see sudoku_conflicts.h). Every puzzle a single request reads is looked at
 * before it is searched, and most have none, so one pass over the cells with a bit per (unit, value)
 * first says whether any value repeats; only then are the conflicts listed unit by unit. Bulk looks
 * only when the search found no solution. */
#include "core/sudoku/sudoku_conflicts.h"

#include <stdbool.h>

static bool any_value_repeats(const sudoku_grid *grid, const sudoku_geometry *g) {
    uint32_t seen[SUDOKU_MAX_UNITS] = {0}; /* bit v: value v is in the unit; values are at most 25 */
    for (int cell = 0; cell < g->cells; cell++) {
        uint32_t bit = UINT32_C(1) << grid->cells[cell];
        if (grid->cells[cell] == 0) continue;
        for (int k = 0; k < 3; k++) {
            uint32_t *unit = &seen[g->cell_units[cell][k]];
            if (*unit & bit) return true;
            *unit |= bit;
        }
    }
    return false;
}

int sudoku_find_conflicts(const sudoku_grid *grid, sudoku_conflict *out) {
    const sudoku_geometry *g = sudoku_geometry_of(grid->box);
    if (!any_value_repeats(grid, g)) return 0;
    int found = 0;
    for (int unit = 0; unit < g->units; unit++) {
        int holders[SUDOKU_MAX_SIZE + 1] = {0}; /* how many cells of the unit hold each value */
        for (int k = 0; k < g->size; k++) holders[grid->cells[g->unit_cells[unit][k]]]++;
        for (int value = 1; value <= g->size; value++) {
            if (holders[value] < 2) continue;
            sudoku_conflict *conflict = &out[found++];
            conflict->unit = unit;
            conflict->value = value;
            conflict->count = 0;
            for (int k = 0; k < g->size; k++) {
                int cell = g->unit_cells[unit][k];
                if (grid->cells[cell] == value) conflict->cells[conflict->count++] = (uint16_t)cell;
            }
        }
    }
    return found;
}
