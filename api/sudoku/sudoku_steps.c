/* /sudoku/hint and /sudoku/explain: the next logical step of a puzzle, or every step to the end,
 * each naming its technique, the units and cells it looks at, and what it places or removes
 * (core/sudoku/sudoku_logic.h). Guesses place the value of the solution, so the puzzle must have one;
 * explain's rating is the difficulty of its hardest step, as /sudoku/generate reports it. */
#include "api/endpoints.h"
#include "api/params.h"
#include "api/sudoku/sudoku_io.h"

static const api_field fields[] = {
    SUDOKU_GRID_FIELDS,
    {NULL, 0},
};

/* The puzzle, its logic state at the start and whether its solution is unique. */
static bool start(api_request *req, sudoku_logic *logic, json_writer *out, const char *kind) {
    sudoku_grid puzzle;
    bool as_rows;
    sudoku_result result;
    if (!sudoku_read_puzzle(req, &puzzle, &as_rows) || !sudoku_find_solution(req, &puzzle, &result)) return false;
    sudoku_logic_start(logic, &puzzle, &result.first);
    api_open_answer(out, kind);
    jw_str(out, "\"box\":");
    jw_int(out, puzzle.box);
    jw_str(out, ",\"unique\":");
    jw_str(out, result.solutions == 1 && result.exhausted ? "true" : "false");
    return true;
}

static bool answer_sudoku_hint(api_request *req, api_response *res) {
    sudoku_logic logic;
    json_writer *out = &res->body;
    if (!start(req, &logic, out, "sudoku_hint")) return false;
    sudoku_step step;
    jw_str(out, ",\"step\":");
    if (sudoku_logic_next(&logic, true, &step)) {
        sudoku_write_step(out, logic.grid.box, &step);
    } else {
        jw_str(out, "null");
    }
    jw_char(out, '}');
    return true;
}

static bool answer_sudoku_explain(api_request *req, api_response *res) {
    sudoku_logic logic;
    json_writer *out = &res->body;
    if (!start(req, &logic, out, "sudoku_explain")) return false;
    sudoku_step step;
    sudoku_difficulty rating = SUDOKU_SIMPLE;
    jw_str(out, ",\"steps\":[");
    for (int count = 0; sudoku_logic_next(&logic, true, &step); count++) {
        if (deadline_expired(&req->deadline)) {
            bb_clear(out);
            return api_fail_deadline(req);
        }
        if (count) jw_char(out, ',');
        sudoku_write_step(out, logic.grid.box, &step);
        sudoku_logic_apply(&logic, &step);
        sudoku_difficulty needed = sudoku_technique_difficulty(step.technique);
        if (needed > rating) rating = needed;
    }
    jw_str(out, "],\"rating\":");
    jw_cstring(out, sudoku_difficulty_name(rating));
    jw_str(out, ",\"solution\":");
    sudoku_write_grid(out, &logic.grid, param_present(req, "rows"));
    jw_char(out, '}');
    return true;
}

const api_endpoint sudoku_hint_endpoint = {.fields = fields, .handler = answer_sudoku_hint};
const api_endpoint sudoku_explain_endpoint = {.fields = fields, .handler = answer_sudoku_explain};
