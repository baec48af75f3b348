/* Sudoku grids in and out of requests (see sudoku_io.h). */
#include "api/sudoku/sudoku_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/params.h"
#include "core/sudoku/sudoku_conflicts.h"
#include "core/sudoku/sudoku_text.h"

static const char *const unit_kind_names[] = {"row", "column", "box"};

const char *sudoku_text_problem(const char *text, size_t len, sudoku_grid *grid, char *message, size_t size) {
    size_t bad = 0;
    switch (sudoku_parse(text, len, grid, &bad)) {
    case SUDOKU_TEXT_OK: return NULL;
    case SUDOKU_TEXT_BAD_LENGTH:
        snprintf(message, size,
                 "a puzzle has one character per cell: 16 (4 x 4), 81 (9 x 9), 256 (16 x 16) or 625 (25 x 25) "
                 "characters; got %zu",
                 len);
        break;
    case SUDOKU_TEXT_BAD_CHARACTER: {
        int size_values = grid->box * grid->box;
        char last = sudoku_value_symbol(size_values);
        unsigned char c = (unsigned char)text[bad];
        snprintf(message, size,
                 "character %zu (%s%c%s) is not a cell of a %d x %d puzzle: use 1-%c for values and '.' or '0' "
                 "for an empty cell",
                 bad + 1, c >= 0x20 && c < 0x7f ? "'" : "byte 0x", c >= 0x20 && c < 0x7f ? (char)c : '?',
                 c >= 0x20 && c < 0x7f ? "'" : "", size_values, size_values, last);
        break;
    }
    }
    return message;
}

/* Rows of numbers: [[5,3,0,...],...] or one flat list of every cell. */
static bool read_rows(api_request *req, const cJSON *rows, sudoku_grid *grid) {
    int count = cJSON_GetArraySize(rows);
    bool nested = count > 0 && cJSON_IsArray(rows->child);
    int cells = count;
    if (nested) {
        cells = 0;
        for (const cJSON *row = rows->child; row != NULL; row = row->next) {
            if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != count)
                return api_fail(req, API_INVALID_FIELD, "rows",
                                "'rows' must be n rows of n numbers each (n = 4, 9, 16 or 25), or all n x n "
                                "cells in one list; row %d is not a list of %d numbers",
                                cells / (count ? count : 1) + 1, count);
            cells += count;
        }
    }
    int box = sudoku_box_for_cells((size_t)cells);
    if (box == 0)
        return api_fail(req, API_INVALID_FIELD, "rows",
                        "'rows' must hold 4, 9, 16 or 25 rows of as many numbers (or 16, 81, 256 or 625 "
                        "numbers in one list); got %d cells",
                        cells);
    sudoku_grid_clear(grid, box);
    int cell = 0;
    for (const cJSON *item = rows->child; item != NULL; item = item->next) {
        for (const cJSON *value = nested ? item->child : item; value != NULL; value = nested ? value->next : NULL) {
            double v = cJSON_IsNumber(value) ? value->valuedouble : -1;
            if (v < 0 || v > box * box || v != (int)v)
                return api_fail(req, API_INVALID_FIELD, "rows",
                                "'rows': cell [%d, %d] must be an integer from 0 (empty) to %d", cell / (box * box),
                                cell % (box * box), box * box);
            grid->cells[cell++] = (uint8_t)v;
        }
    }
    return true;
}

bool sudoku_read_grid(api_request *req, sudoku_grid *grid, bool *as_rows) {
    if (!param_exactly_one(req, "puzzle", "rows", true)) return false;
    const cJSON *rows = param_array(req, "rows");
    *as_rows = rows != NULL;
    if (rows != NULL) return read_rows(req, rows, grid);
    const char *text = param_string(req, "puzzle");
    char message[256];
    if (sudoku_text_problem(text, strlen(text), grid, message, sizeof message) != NULL)
        return api_fail(req, API_INVALID_FIELD, "puzzle", "'puzzle': %s", message);
    return true;
}

const char *sudoku_conflict_problem(const sudoku_grid *puzzle, sudoku_conflict *scratch, char *message, size_t size) {
    int found = sudoku_find_conflicts(puzzle, scratch);
    if (found == 0) return NULL;
    const sudoku_conflict *first = &scratch[0];
    const sudoku_geometry *g = sudoku_geometry_of(puzzle->box);
    char cells[200] = "";
    size_t used = 0;
    for (int k = 0; k < first->count && used < sizeof cells; k++) {
        used += (size_t)snprintf(cells + used, sizeof cells - used, "%s[%d, %d]", k ? ", " : "",
                                 first->cells[k] / g->size, first->cells[k] % g->size);
    }
    snprintf(message, size,
             "the givens conflict: cells %s all hold %d in %s %d (cells are [row, column] from 0; %d conflict%s in "
             "all; /sudoku/check lists every one)",
             cells, first->value, unit_kind_names[sudoku_unit_kind_of(g, first->unit)], first->unit % g->size, found,
             found == 1 ? "" : "s");
    return message;
}

/* The first conflict for programs: {"value","unit":{"kind","index"},"cells":[[row, column]...]}, as the
 * message says it for people. */
static bool fail_conflict_details(api_request *req, int box, const sudoku_conflict *first) {
    json_writer details;
    bb_init(&details);
    jw_str(&details, "{\"value\":");
    jw_int(&details, first->value);
    jw_str(&details, ",\"unit\":");
    sudoku_write_unit(&details, box, first->unit);
    jw_str(&details, ",\"cells\":[");
    for (int k = 0; k < first->count; k++) {
        if (k > 0) jw_char(&details, ',');
        sudoku_write_cell(&details, box, first->cells[k]);
    }
    jw_str(&details, "]}");
    if (!details.out_of_memory) api_fail_details(req, "%.*s", (int)details.len, details.data);
    bb_free(&details);
    return false;
}

bool sudoku_read_puzzle(api_request *req, sudoku_grid *puzzle, bool *as_rows) {
    if (!sudoku_read_grid(req, puzzle, as_rows)) return false;
    sudoku_conflict *conflicts = malloc(SUDOKU_MAX_CONFLICTS * sizeof *conflicts);
    if (conflicts == NULL) return api_fail_out_of_memory(req);
    char message[400];
    bool ok = sudoku_conflict_problem(puzzle, conflicts, message, sizeof message) == NULL;
    if (!ok) {
        api_fail(req, API_CONFLICTING_GIVENS, *as_rows ? "rows" : "puzzle", "%s", message);
        fail_conflict_details(req, puzzle->box, &conflicts[0]);
    }
    free(conflicts);
    return ok;
}

const char *const sudoku_no_solution_message =
    "the puzzle has no solution: its givens do not conflict directly, but no way of filling the empty cells "
    "obeys the rules";

bool sudoku_fail_no_solution(api_request *req) {
    return api_fail(req, API_NO_SOLUTION, param_present(req, "rows") ? "rows" : "puzzle", "%s",
                    sudoku_no_solution_message);
}

bool sudoku_find_solution(api_request *req, const sudoku_grid *puzzle, sudoku_result *result) {
    sudoku_search search = {.solution_limit = 2, .limit = &req->deadline};
    if (!api_fail_status(req, sudoku_solve_once(puzzle, &search, result))) return false;
    if (result->solutions == 0) return sudoku_fail_no_solution(req);
    return true;
}

sudoku_search sudoku_solve_search(int64_t count_limit, const deadline *limit) {
    sudoku_search search = {.solution_limit = count_limit < 2 ? 2 : (uint64_t)count_limit, .limit = limit};
    return search;
}

static bool solved_uniquely(const sudoku_result *result) { return result->solutions == 1 && result->exhausted; }

/* The solutions counted, at most `count_limit`. */
static uint64_t counted_solutions(const sudoku_result *result, int64_t count_limit) {
    return result->solutions < (uint64_t)count_limit ? result->solutions : (uint64_t)count_limit;
}

static bool count_is_exact(const sudoku_result *result, int64_t count_limit) {
    return result->exhausted && counted_solutions(result, count_limit) == result->solutions;
}

void sudoku_write_solve_answer(json_writer *out, const sudoku_result *result, bool as_rows, int64_t count_limit) {
    jw_str(out, "\"box\":");
    jw_int(out, result->first.box);
    jw_str(out, ",\"solution\":");
    sudoku_write_grid(out, &result->first, as_rows);
    jw_str(out, ",\"unique\":");
    jw_str(out, solved_uniquely(result) ? "true" : "false");
    if (count_limit > 0) {
        jw_str(out, ",\"total\":");
        jw_uint(out, counted_solutions(result, count_limit));
        jw_str(out, ",\"total_exact\":");
        jw_str(out, count_is_exact(result, count_limit) ? "true" : "false");
    }
}

void sudoku_write_solve_text(json_writer *out, const sudoku_result *result, int64_t count_limit) {
    int size = result->first.box * result->first.box;
    if (!bb_reserve(out, (size_t)(size * size))) return; /* the writer now says out of memory */
    sudoku_format(&result->first, out->data + out->len);
    out->len += (size_t)(size * size);
    if (count_limit > 0) {
        jw_char(out, ' ');
        jw_uint(out, counted_solutions(result, count_limit));
        if (!count_is_exact(result, count_limit)) jw_char(out, '+');
    } else if (!solved_uniquely(result)) {
        jw_str(out, " " SUDOKU_NOT_UNIQUE);
    }
}

void sudoku_write_grid(json_writer *out, const sudoku_grid *grid, bool as_rows) {
    int size = grid->box * grid->box;
    if (!as_rows) {
        char text[SUDOKU_MAX_CELLS + 1];
        sudoku_format(grid, text);
        jw_string(out, text, (size_t)(size * size));
        return;
    }
    jw_char(out, '[');
    for (int row = 0; row < size; row++) {
        jw_str(out, row ? ",[" : "[");
        for (int column = 0; column < size; column++) {
            if (column) jw_char(out, ',');
            jw_int(out, grid->cells[row * size + column]);
        }
        jw_char(out, ']');
    }
    jw_char(out, ']');
}

void sudoku_write_cell(json_writer *out, int box, int cell) {
    jw_char(out, '[');
    jw_int(out, cell / (box * box));
    jw_char(out, ',');
    jw_int(out, cell % (box * box));
    jw_char(out, ']');
}

void sudoku_write_unit(json_writer *out, int box, int unit) {
    jw_str(out, "{\"kind\":\"");
    jw_str(out, unit_kind_names[unit / (box * box)]);
    jw_str(out, "\",\"index\":");
    jw_int(out, unit % (box * box));
    jw_char(out, '}');
}

static void write_values(json_writer *out, uint32_t values) {
    jw_char(out, '[');
    for (bool first = true; values != 0; values &= values - 1, first = false) {
        if (!first) jw_char(out, ',');
        jw_int(out, __builtin_ctz(values) + 1);
    }
    jw_char(out, ']');
}

void sudoku_write_step(json_writer *out, int box, const sudoku_step *step) {
    jw_str(out, "{\"technique\":\"");
    jw_str(out, sudoku_technique_name(step->technique));
    jw_str(out, "\",\"units\":[");
    for (int k = 0; k < 2 && step->units[k] >= 0; k++) {
        if (k) jw_char(out, ',');
        sudoku_write_unit(out, box, step->units[k]);
    }
    jw_str(out, "],\"cells\":[");
    for (int k = 0; k < step->pattern_count; k++) {
        if (k) jw_char(out, ',');
        sudoku_write_cell(out, box, step->pattern[k]);
    }
    jw_str(out, "],\"values\":");
    write_values(out, step->pattern_values);
    if (step->place_cell >= 0) {
        jw_str(out, ",\"place\":{\"cell\":");
        sudoku_write_cell(out, box, step->place_cell);
        jw_str(out, ",\"value\":");
        jw_int(out, step->place_value);
        jw_char(out, '}');
    } else {
        jw_str(out, ",\"eliminate\":[");
        for (int k = 0; k < step->elimination_count; k++) {
            jw_str(out, k ? ",{\"cell\":" : "{\"cell\":");
            sudoku_write_cell(out, box, step->eliminations[k].cell);
            jw_str(out, ",\"values\":");
            write_values(out, step->eliminations[k].values);
            jw_char(out, '}');
        }
        jw_char(out, ']');
    }
    jw_char(out, '}');
}
