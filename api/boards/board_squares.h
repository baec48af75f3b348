/* Squares of a board in requests and answers, shared by the endpoints that take positions
 * (/queens/verify, /knight-tour/verify, /queens with `placed`): [row, col] pairs of 0-based integers
 * and bare 0-based indices, read with errors that name the field, the element and the allowed range;
 * and pairs of attacking queens written out. */
#ifndef PUZZLED_API_BOARD_SQUARES_H
#define PUZZLED_API_BOARD_SQUARES_H

#include <stdbool.h>
#include <stdint.h>

#include "api/api.h"
#include "core/queens/queens_verify.h"

/* Element `index` of the array field `field`: an integer from 0 to limit - 1 (`what` names it in the
 * message, such as "a column"). */
bool board_index_read(api_request *req, const char *field, int index, const cJSON *item, uint32_t limit,
                      const char *what, uint32_t *out);

/* Element `index` of the array field `field`: a square [row, col] with row < rows and col < cols. */
bool board_square_read(api_request *req, const char *field, int index, const cJSON *item, uint32_t rows, uint32_t cols,
                       uint32_t *row, uint32_t *col);

/* The array field `field` as distinct [row, col] squares of an n x n board, sorted in row-major order
 * into `*out` (malloc'd; free it) and `*count`; a 400 naming the field for a square off the board or
 * taken twice. */
bool board_queens_read(api_request *req, const char *field, const cJSON *list, uint32_t n, queens_square **out,
                       size_t *count);

/* Writes [row,col]. */
void board_square_write(json_writer *out, uint32_t row, uint32_t col);

/* Writes two attacking queens as {"queens":[[r,c],[r,c]],"line":"row|column|diagonal|anti-diagonal"}. */
void board_attack_write(json_writer *out, const queens_attack *attack);

#endif
