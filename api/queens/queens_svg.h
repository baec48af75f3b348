/* An n-queens board drawn as SVG (format=svg of /queens: mode "first", or mode "solutions" with a
 * window of one solution): a chessboard with a crown on each queen's square, the queens of the
 * request's `placed` in black and those the answer adds in blue (as Sudoku's givens and filled-in
 * values); where a square is shown too small for a crown (boards above about 80 x 80), the queen fills
 * its square. Boards are bounded by SVG_MAX_SQUARES (api/boards/svg_writer.h). */
#ifndef PUZZLED_API_QUEENS_SVG_H
#define PUZZLED_API_QUEENS_SVG_H

#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "core/queens/queens_verify.h"

/* Answers with the drawing of the n x n board with a queen on [row, cols[row]] for every row;
 * `placed` (row-major, `placed_count` of them, may be NULL) are the queens the request gave. */
void queens_respond_svg(api_response *res, uint32_t n, const uint32_t *cols, const queens_square *placed,
                        size_t placed_count);

#endif
