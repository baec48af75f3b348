/* /sudoku/solve: the solution of a puzzle (a string or rows of numbers), whether it is unique, and
 * with `count_limit` the number of solutions up to that limit. */
#include "api/endpoints.h"
#include "api/params.h"
#include "api/sudoku_io.h"

enum { MAX_COUNT_LIMIT = 1000000000 };

static const api_field fields[] = {
    SUDOKU_GRID_FIELDS,
    {"count_limit", FIELD_INTEGER},
    {NULL, 0},
};

static bool handle_sudoku_solve(api_request *req, api_response *res) {
    sudoku_grid puzzle;
    bool as_rows;
    int64_t count_limit;
    if (!sudoku_read_puzzle(req, &puzzle, &as_rows) ||
        !param_int(req, "count_limit", 1, MAX_COUNT_LIMIT, 2, &count_limit))
        return false;
    /* Two solutions at least, so that uniqueness is always known. */
    sudoku_search search = {.solution_limit = count_limit < 2 ? 2 : (uint64_t)count_limit, .limit = &req->deadline};
    sudoku_result result;
    if (!api_fail_status(req, sudoku_solve_once(&puzzle, &search, &result))) return false;
    if (result.solutions == 0)
        return sudoku_fail_no_solution(req);
    uint64_t counted = result.solutions < (uint64_t)count_limit ? result.solutions : (uint64_t)count_limit;
    json_writer *out = &res->body;
    jw_str(out, "{\"box\":");
    jw_int(out, puzzle.box);
    jw_str(out, ",\"solution\":");
    sudoku_write_grid(out, &result.first, as_rows);
    jw_str(out, ",\"unique\":");
    jw_str(out, result.solutions == 1 && result.exhausted ? "true" : "false");
    if (param_present(req, "count_limit")) {
        jw_str(out, ",\"count\":");
        jw_uint(out, counted);
        jw_str(out, ",\"count_exact\":");
        jw_str(out, result.exhausted && counted == result.solutions ? "true" : "false");
    }
    jw_char(out, '}');
    return true;
}

const api_endpoint sudoku_solve_endpoint = {fields, handle_sudoku_solve};
