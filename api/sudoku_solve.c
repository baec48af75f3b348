/* /sudoku/solve: the solution of a puzzle (a string or rows of numbers), whether it is unique, and
 * with `count_limit` the number of solutions up to that limit. In bulk, a text/plain body of one
 * puzzle per line is answered with one NDJSON line per puzzle, streamed: {"line", "box", "solution",
 * "unique"} or {"line", "error": {"code", "message"}}; a solver per box size is kept for the whole
 * body. The time limit covers the whole body: past it, the puzzle at hand gets a deadline_exceeded
 * line and the stream ends there. */
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/sudoku_io.h"
#include "api/sudoku_svg.h"
#include "api/svg_writer.h"

enum { MAX_COUNT_LIMIT = 1000000000 };

static const api_field fields[] = {
    SUDOKU_GRID_FIELDS,
    {"count_limit", FIELD_INTEGER},
    SVG_FORMAT_FIELD,
    {NULL, 0},
};

/* Writes "box", "solution", "unique" and (with `count_limit` > 0) "count", "count_exact" members of a
 * search that found at least one solution. */
static void write_answer(json_writer *out, const sudoku_result *result, bool as_rows, int64_t count_limit) {
    jw_str(out, "\"box\":");
    jw_int(out, result->first.box);
    jw_str(out, ",\"solution\":");
    sudoku_write_grid(out, &result->first, as_rows);
    jw_str(out, ",\"unique\":");
    jw_str(out, result->solutions == 1 && result->exhausted ? "true" : "false");
    if (count_limit > 0) {
        uint64_t counted = result->solutions < (uint64_t)count_limit ? result->solutions : (uint64_t)count_limit;
        jw_str(out, ",\"count\":");
        jw_uint(out, counted);
        jw_str(out, ",\"count_exact\":");
        jw_str(out, result->exhausted && counted == result->solutions ? "true" : "false");
    }
}

/* Two solutions at least, so that uniqueness is always known. */
static sudoku_search search_for(int64_t count_limit, const deadline *limit) {
    sudoku_search search = {.solution_limit = count_limit < 2 ? 2 : (uint64_t)count_limit, .limit = limit};
    return search;
}

/* ---- bulk: one puzzle per line ---- */

typedef struct bulk_state {
    char *text; /* a copy of the body */
    size_t len, position;
    uint64_t line;
    int64_t count_limit; /* 0: not asked for */
    deadline limit;
    sudoku_solver *solvers[SUDOKU_MAX_BOX + 1];
    sudoku_conflict *conflicts;
    bool done;
} bulk_state;

static void free_bulk(void *state) {
    bulk_state *b = state;
    for (int box = SUDOKU_MIN_BOX; box <= SUDOKU_MAX_BOX; box++) sudoku_solver_free(b->solvers[box]);
    free(b->conflicts);
    free(b->text);
    free(b);
}

static void write_line_error(json_writer *out, const char *code, const char *message) {
    jw_str(out, ",\"error\":{\"code\":");
    jw_cstring(out, code);
    jw_str(out, ",\"message\":");
    jw_cstring(out, message);
    jw_char(out, '}');
}

/* Answers one line of text: STREAM_MORE to go on, STREAM_DONE after the line that says time ran out,
 * STREAM_FAILED out of memory (the stream is cut: a line must not end half-written). */
static stream_status answer_line(bulk_state *b, const char *text, size_t len, json_writer *out) {
    jw_str(out, "{\"line\":");
    jw_uint(out, b->line);
    sudoku_grid puzzle;
    char message[400];
    stream_status status = STREAM_MORE;
    if (sudoku_text_problem(text, len, &puzzle, message, sizeof message) != NULL) {
        write_line_error(out, "invalid_field", message);
    } else if (sudoku_conflict_problem(&puzzle, b->conflicts, message, sizeof message) != NULL) {
        write_line_error(out, "conflicting_givens", message);
    } else {
        if (b->solvers[puzzle.box] == NULL) b->solvers[puzzle.box] = sudoku_solver_new(puzzle.box);
        if (b->solvers[puzzle.box] == NULL) return STREAM_FAILED;
        sudoku_search search = search_for(b->count_limit, &b->limit);
        sudoku_result result;
        core_status solved = sudoku_solve(b->solvers[puzzle.box], &puzzle, &search, &result);
        if (solved == CORE_NO_MEMORY) return STREAM_FAILED;
        if (solved != CORE_OK) {
            write_line_error(out, "deadline_exceeded",
                             "the time limit of the request ran out here; send the remaining lines again, or raise "
                             "time_limit_ms (at most the server's --time-limit-ms)");
            status = STREAM_DONE;
        } else if (result.solutions == 0) {
            write_line_error(out, "no_solution", sudoku_no_solution_message);
        } else {
            jw_char(out, ',');
            write_answer(out, &result, false, b->count_limit);
        }
    }
    jw_str(out, "}\n");
    return status;
}

static stream_status write_bulk(void *state, json_writer *out, size_t want) {
    bulk_state *b = state;
    size_t begin = out->len;
    while (out->len - begin < want) {
        if (out->out_of_memory) return STREAM_FAILED;
        if (b->done || b->position >= b->len) return STREAM_DONE;
        const char *start = b->text + b->position;
        const char *newline = memchr(start, '\n', b->len - b->position);
        size_t len = newline != NULL ? (size_t)(newline - start) : b->len - b->position;
        b->position += len + 1;
        b->line++;
        if (len > 0 && start[len - 1] == '\r') len--;
        if (len == 0) continue; /* blank lines are skipped (but counted) */
        stream_status status = answer_line(b, start, len, out);
        if (status == STREAM_FAILED) return STREAM_FAILED;
        progress_add(b->limit.progress, 1);
        if (status == STREAM_DONE) b->done = true;
    }
    return STREAM_MORE;
}

/* The puzzles of a body: its lines that are not blank (as write_bulk reads them). */
static uint64_t count_puzzles(const char *text, size_t len) {
    uint64_t puzzles = 0;
    for (size_t position = 0; position < len;) {
        const char *start = text + position;
        const char *newline = memchr(start, '\n', len - position);
        size_t line = newline != NULL ? (size_t)(newline - start) : len - position;
        position += line + 1;
        if (line > 0 && start[line - 1] == '\r') line--;
        puzzles += line > 0;
    }
    return puzzles;
}

static bool solve_bulk(api_request *req, api_response *res, int64_t count_limit) {
    if (param_present(req, "puzzle") || param_present(req, "rows"))
        return api_fail(req, API_CONFLICTING_FIELDS, param_present(req, "puzzle") ? "puzzle" : "rows",
                        "a text/plain body is the list of puzzles, one per line; give no 'puzzle' or 'rows' with it");
    bulk_state *b = calloc(1, sizeof *b);
    if (b == NULL) return api_fail_out_of_memory(req);
    b->text = malloc(req->text_body_len + 1);
    b->conflicts = malloc(SUDOKU_MAX_CONFLICTS * sizeof *b->conflicts);
    if (b->text == NULL || b->conflicts == NULL) {
        free_bulk(b);
        return api_fail_out_of_memory(req);
    }
    memcpy(b->text, req->text_body, req->text_body_len);
    b->len = req->text_body_len;
    b->count_limit = param_present(req, "count_limit") ? count_limit : 0;
    b->limit = req->time_limit; /* the lines are solved after this handler returns */
    progress_begin(b->limit.progress, "puzzles", count_puzzles(b->text, b->len));
    api_respond_stream(res, b, write_bulk, free_bulk, true);
    return true;
}

/* ---- one puzzle ---- */

static bool handle_sudoku_solve(api_request *req, api_response *res) {
    int64_t count_limit;
    bool svg;
    if (!param_int(req, "count_limit", 1, MAX_COUNT_LIMIT, 2, &count_limit) || !svg_param_format(req, &svg)) return false;
    if (req->text_body != NULL) {
        if (svg)
            return api_fail(req, API_CONFLICTING_FIELDS, "format",
                            "a bulk text/plain body is answered in NDJSON; format \"svg\" draws one puzzle");
        return solve_bulk(req, res, count_limit);
    }
    sudoku_grid puzzle;
    bool as_rows;
    if (!sudoku_read_puzzle(req, &puzzle, &as_rows)) return false;
    sudoku_search search = search_for(count_limit, &req->deadline);
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
    jw_char(out, '{');
    write_answer(out, &result, as_rows, param_present(req, "count_limit") ? count_limit : 0);
    jw_char(out, '}');
    return true;
}

const api_endpoint sudoku_solve_endpoint = {.fields = fields, .handler = handle_sudoku_solve};
