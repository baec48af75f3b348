/* Finds repeated values unit by unit (see sudoku_conflicts.h). */
#include "core/sudoku/sudoku_conflicts.h"

int sudoku_find_conflicts(const sudoku_grid *grid, sudoku_conflict *out) {
    const sudoku_geometry *g = sudoku_geometry_of(grid->box);
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
