/* Squares of a board in requests and answers (see board_squares.h). */
#include "api/board_squares.h"

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
    return api_fail(req, API_INVALID_FIELD, field,
                    "'%s' element %d (from 0) must be %s: an integer from 0 to %u", field, index, what,
                    limit - 1);
}

bool board_square_read(api_request *req, const char *field, int index, const cJSON *item, uint32_t rows,
                       uint32_t cols, uint32_t *row, uint32_t *col) {
    if (cJSON_IsArray(item) && cJSON_GetArraySize(item) == 2 && index_below(item->child, rows, row) &&
        index_below(item->child->next, cols, col))
        return true;
    return api_fail(req, API_INVALID_FIELD, field,
                    "'%s' element %d (from 0) must be a square [row, col] of the board, 0 <= row < %u and "
                    "0 <= col < %u",
                    field, index, rows, cols);
}

void board_square_write(json_writer *out, uint32_t row, uint32_t col) {
    jw_char(out, '[');
    jw_uint(out, row);
    jw_char(out, ',');
    jw_uint(out, col);
    jw_char(out, ']');
}
