/* /sudoku/check: every conflict of a partial or full grid (a value repeated in a row, column or box,
 * with the cells holding it), whether every cell is filled, and whether the grid can still be
 * completed (an exact search for one solution). */
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/sudoku/sudoku_io.h"
#include "core/sudoku/sudoku_conflicts.h"

/* The classic grid, whose check is small work (api/api.h's API_SMALL_WORK_SECONDS). */
#define SUDOKU_SMALL_SIDE 9
#define SUDOKU_SMALL_CELLS (SUDOKU_SMALL_SIDE * SUDOKU_SMALL_SIDE)

static const api_field fields[] = {
    SUDOKU_GRID_FIELDS,
    {NULL, 0},
};

static void write_conflict(json_writer *out, int box, const sudoku_conflict *conflict) {
    jw_str(out, "{\"unit\":");
    sudoku_write_unit(out, box, conflict->unit);
    jw_str(out, ",\"value\":");
    jw_int(out, conflict->value);
    jw_str(out, ",\"cells\":[");
    for (int k = 0; k < conflict->count; k++) {
        if (k) jw_char(out, ',');
        sudoku_write_cell(out, box, conflict->cells[k]);
    }
    jw_str(out, "]}");
}

static bool answer_sudoku_check(api_request *req, api_response *res) {
    sudoku_grid grid;
    bool as_rows;
    if (!sudoku_read_grid(req, &grid, &as_rows)) return false;
    sudoku_conflict *conflicts = malloc(SUDOKU_MAX_CONFLICTS * sizeof *conflicts);
    if (conflicts == NULL) return api_fail_out_of_memory(req);
    int found = sudoku_find_conflicts(&grid, conflicts);
    sudoku_result result = {0};
    if (found == 0) {
        sudoku_search search = {.solution_limit = 1, .limit = &req->deadline};
        if (!api_fail_status(req, sudoku_solve_once(&grid, &search, &result))) {
            free(conflicts);
            return false;
        }
    }
    int size = grid.box * grid.box, filled = sudoku_grid_givens(&grid);
    json_writer *out = &res->body;
    api_open_answer(out, "sudoku_check");
    jw_str(out, "\"box\":");
    jw_int(out, grid.box);
    jw_str(out, ",\"filled\":");
    jw_int(out, filled);
    jw_str(out, ",\"complete\":");
    jw_str(out, filled == size * size ? "true" : "false");
    jw_str(out, ",\"solved\":");
    jw_str(out, filled == size * size && found == 0 ? "true" : "false");
    jw_str(out, ",\"solvable\":");
    jw_str(out, result.solutions > 0 ? "true" : "false");
    jw_str(out, ",\"conflicts\":[");
    for (int k = 0; k < found; k++) {
        if (k) jw_char(out, ',');
        write_conflict(out, grid.box, &conflicts[k]);
    }
    jw_str(out, "]}");
    free(conflicts);
    return true;
}

/* A 9 x 9 grid (81 characters, or 9 rows): its conflicts and one search for a solution take
 * microseconds for nearly every grid; a grid whose search takes longer outlasts the I/O thread's slice
 * and goes to the pool. Larger grids are not estimated. */
static double check_estimate_seconds(const api_request *req) {
    const char *puzzle = param_string(req, "puzzle");
    const cJSON *rows = param_array(req, "rows");
    bool nine = puzzle != NULL ? strlen(puzzle) == SUDOKU_SMALL_CELLS
                               : rows != NULL && cJSON_GetArraySize(rows) == SUDOKU_SMALL_SIDE;
    return nine ? API_SMALL_WORK_SECONDS : -1;
}

const api_endpoint sudoku_check_endpoint = {
    .fields = fields, .handler = answer_sudoku_check, .estimate_seconds = check_estimate_seconds};
