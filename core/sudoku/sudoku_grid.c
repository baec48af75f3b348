/* The geometry tables of the four box sizes, built once (pthread_once), and whole-grid checks. */
#include "core/sudoku/sudoku_grid.h"

#include <pthread.h>
#include <string.h>

static sudoku_geometry geometries[SUDOKU_MAX_BOX + 1];
static pthread_once_t geometries_once = PTHREAD_ONCE_INIT;

static void build_geometry(sudoku_geometry *g, int box) {
    g->box = box;
    g->size = box * box;
    g->cells = g->size * g->size;
    g->units = 3 * g->size;
    g->peer_count = 2 * (g->size - 1) + (box - 1) * (box - 1);
    int filled[SUDOKU_MAX_UNITS] = {0};
    for (int cell = 0; cell < g->cells; cell++) {
        int row = cell / g->size, column = cell % g->size;
        int box_index = row / box * box + column / box;
        int units[3] = {SUDOKU_ROW * g->size + row, SUDOKU_COLUMN * g->size + column, SUDOKU_BOX * g->size + box_index};
        for (int k = 0; k < 3; k++) {
            g->cell_units[cell][k] = (uint8_t)units[k];
            g->unit_cells[units[k]][filled[units[k]]++] = (uint16_t)cell;
        }
    }
    for (int cell = 0; cell < g->cells; cell++) {
        int count = 0;
        for (int other = 0; other < g->cells; other++) {
            if (other == cell) continue;
            bool shares = false;
            for (int k = 0; k < 3; k++) shares = shares || g->cell_units[cell][k] == g->cell_units[other][k];
            if (shares) g->peers[cell][count++] = (uint16_t)other;
        }
    }
}

static void build_geometries(void) {
    for (int box = SUDOKU_MIN_BOX; box <= SUDOKU_MAX_BOX; box++) build_geometry(&geometries[box], box);
}

const sudoku_geometry *sudoku_geometry_of(int box) {
    pthread_once(&geometries_once, build_geometries);
    return &geometries[box];
}

void sudoku_grid_clear(sudoku_grid *grid, int box) {
    grid->box = box;
    memset(grid->cells, 0, sizeof grid->cells);
}

int sudoku_grid_givens(const sudoku_grid *grid) {
    int size = grid->box * grid->box, givens = 0;
    for (int cell = 0; cell < size * size; cell++) givens += grid->cells[cell] != 0;
    return givens;
}

bool sudoku_grid_is_solution(const sudoku_grid *grid) {
    const sudoku_geometry *g = sudoku_geometry_of(grid->box);
    uint32_t all = (UINT32_C(1) << g->size) - 1;
    for (int unit = 0; unit < g->units; unit++) {
        uint32_t seen = 0;
        for (int k = 0; k < g->size; k++) {
            int value = grid->cells[g->unit_cells[unit][k]];
            if (value == 0) return false;
            seen |= UINT32_C(1) << (value - 1);
        }
        if (seen != all) return false;
    }
    return true;
}

bool sudoku_grid_extends(const sudoku_grid *grid, const sudoku_grid *puzzle) {
    if (grid->box != puzzle->box) return false;
    int cells = grid->box * grid->box * grid->box * grid->box;
    for (int cell = 0; cell < cells; cell++) {
        if (puzzle->cells[cell] != 0 && puzzle->cells[cell] != grid->cells[cell]) return false;
    }
    return true;
}
