/* Squares of a board in requests and answers (see board_squares.h). */
#include "api/boards/board_squares.h"

#include <inttypes.h>
#include <stdlib.h>

static bool index_below(const cJSON *item, uint32_t limit, uint32_t *out) {
    if (!cJSON_IsNumber(item)) return false;
    double value = item->valuedouble;
    if (!(value >= 0 && value < (double)limit) || value != (double)(uint32_t)value) return false;
    *out = (uint32_t)value;
    return true;
}

bool board_index_read(api_request *req, const char *field, int index, const cJSON *item, uint32_t limit,
                      const char *what, uint32_t *out) {
    if (index_below(item, limit, out)) return true;
    return api_fail(req, API_INVALID_FIELD, field, "'%s' element %d (from 0) must be %s: an integer from 0 to %u",
                    field, index, what, limit - 1);
}

bool board_square_read(api_request *req, const char *field, int index, const cJSON *item, uint32_t rows, uint32_t cols,
                       uint32_t *row, uint32_t *col) {
    if (cJSON_IsArray(item) && cJSON_GetArraySize(item) == 2 && index_below(item->child, rows, row) &&
        index_below(item->child->next, cols, col))
        return true;
    return api_fail(req, API_INVALID_FIELD, field,
                    "'%s' element %d (from 0) must be a square [row, col] of the board, 0 <= row < %u and "
                    "0 <= col < %u",
                    field, index, rows, cols);
}

bool board_queens_read(api_request *req, const char *field, const cJSON *list, uint32_t n, queens_square **out,
                       size_t *count) {
    size_t size = (size_t)cJSON_GetArraySize(list);
    queens_square *squares = malloc((size ? size : 1) * sizeof *squares);
    if (squares == NULL) return api_fail_out_of_memory(req);
    bool ok = false;
    int index = 0;
    for (const cJSON *item = list->child; item != NULL; item = item->next, index++)
        if (!board_square_read(req, field, index, item, n, n, &squares[index].row, &squares[index].col)) goto out;
    queens_square repeated;
    if (!queens_sort_distinct(squares, size, &repeated)) {
        api_fail(req, API_INVALID_FIELD, field,
                 "'%s' places two queens on the square [%" PRIu32 ", %" PRIu32 "]; a square holds one", field,
                 repeated.row, repeated.col);
        goto out;
    }
    *out = squares;
    *count = size;
    squares = NULL; /* the caller's now */
    ok = true;
out:
    free(squares);
    return ok;
}

void board_square_write(json_writer *out, uint32_t row, uint32_t col) {
    jw_char(out, '[');
    jw_uint(out, row);
    jw_char(out, ',');
    jw_uint(out, col);
    jw_char(out, ']');
}

void board_attack_write(json_writer *out, const queens_attack *attack) {
    static const char *const line_names[] = {"row", "column", "diagonal", "anti-diagonal"};
    jw_str(out, "{\"queens\":[");
    board_square_write(out, attack->first.row, attack->first.col);
    jw_char(out, ',');
    board_square_write(out, attack->second.row, attack->second.col);
    jw_str(out, "],\"line\":\"");
    jw_str(out, line_names[attack->line]);
    jw_str(out, "\"}");
}
