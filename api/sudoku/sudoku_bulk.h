/* Bulk /sudoku/solve: a text/plain body of one puzzle per line, answered with one NDJSON line per
 * puzzle (with Accept: text/plain, one text line), in line order, streamed (see sudoku_bulk.c). */
#ifndef PUZZLED_API_SUDOKU_BULK_H
#define PUZZLED_API_SUDOKU_BULK_H

#include <stdbool.h>
#include <stdint.h>

#include "api/api.h"

/* Answers req->text_body; `count_limit` 0 when the request did not ask for counts. */
bool sudoku_solve_bulk(api_request *req, api_response *res, int64_t count_limit);

#endif
