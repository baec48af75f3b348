/* /sudoku/solve: the solution of a puzzle (a string or rows of numbers), whether it is unique, and
 * with `count_limit` the number of solutions up to that limit. A text/plain body of one puzzle per
 * line is answered in bulk (api/sudoku/sudoku_bulk.c). */
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/sudoku/sudoku_bulk.h"
#include "api/sudoku/sudoku_io.h"
#include "api/sudoku/sudoku_svg.h"
#include "api/boards/svg_writer.h"
#include "core/common/progress.h"

enum { MAX_COUNT_LIMIT = 1000000000 };

static const api_field fields[] = {
    SUDOKU_GRID_FIELDS,
    {"count_limit", FIELD_INTEGER},
    SVG_FORMAT_FIELD,
    {NULL, 0},
};

static bool answer_sudoku_solve(api_request *req, api_response *res) {
    int64_t count_limit;
    bool svg;
    if (!param_int(req, "count_limit", 1, MAX_COUNT_LIMIT, 2, &count_limit) || !svg_param_format(req, &svg))
        return false;
    if (req->text_body != NULL) {
        if (svg)
            return api_fail(
                req, API_CONFLICTING_FIELDS, "format",
                "a bulk text/plain body is answered in NDJSON or text lines; format \"svg\" draws one puzzle");
        return sudoku_solve_bulk(req, res, param_present(req, "count_limit") ? count_limit : 0);
    }
    sudoku_grid puzzle;
    bool as_rows;
    if (!sudoku_read_puzzle(req, &puzzle, &as_rows)) return false;
    sudoku_search search = sudoku_solve_search(count_limit, &req->deadline);
    search.found = req->deadline.progress; /* solutions found; the count limit is a bound, not a total */
    progress_begin(search.found, "solutions", PROGRESS_NO_TOTAL);
    sudoku_result result;
    if (!api_fail_status(req, sudoku_solve_once(&puzzle, &search, &result))) return false;
    if (result.solutions == 0) return sudoku_fail_no_solution(req);
    if (svg) {
        sudoku_respond_svg(res, &result.first, &puzzle);
        return true;
    }
    json_writer *out = &res->body;
    api_open_answer(out, "sudoku_solution");
    sudoku_write_solve_answer(out, &result, as_rows, param_present(req, "count_limit") ? count_limit : 0);
    jw_char(out, '}');
    return true;
}

const api_endpoint sudoku_solve_endpoint = {.fields = fields, .handler = answer_sudoku_solve};
