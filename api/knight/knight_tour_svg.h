/* A knight's tour drawn as SVG (format=svg of /knight-tour): the chessboard, the path through the
 * centres of the squares as one <polyline>, a green disc on the first square and a red ring on the last,
 * the closing move of a closed tour dashed, and on boards of at most KNIGHT_SVG_NUMBERED_SQUARES
 * squares each square's move number in its corner. Boards are bounded by SVG_MAX_SQUARES
 * (api/boards/svg_writer.h). */
#ifndef PUZZLED_API_KNIGHT_TOUR_SVG_H
#define PUZZLED_API_KNIGHT_TOUR_SVG_H

#include <stdint.h>

#include "api/api.h"
#include "core/knight/knight_tour.h"

/* Up to 16 x 16 the numbers (at most three digits) stay readable in a square. */
#define KNIGHT_SVG_NUMBERED_SQUARES 256

/* Answers with the drawing of the tour `path` (rows * cols squares, row * cols + col) of `request`. */
void knight_tour_respond_svg(api_response *res, const kt_request *request, const uint32_t *path);

#endif
