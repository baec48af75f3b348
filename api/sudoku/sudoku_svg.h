/* A Sudoku grid drawn as SVG (format=svg of /sudoku/generate and /sudoku/solve): thin lines between
 * cells, thick ones between boxes, the givens in black and the values filled in by the answer in
 * blue, so a browser or an <img> shows the puzzle or its solution as it is. The `format` field and
 * the drawing primitives are shared with the other drawn answers (api/svg_writer.h). */
#ifndef PUZZLED_API_SUDOKU_SVG_H
#define PUZZLED_API_SUDOKU_SVG_H

#include "api/api.h"
#include "core/sudoku/sudoku_grid.h"

/* Answers with the SVG drawing of `grid`, where the cells filled in `givens` are the givens. */
void sudoku_respond_svg(api_response *res, const sudoku_grid *grid, const sudoku_grid *givens);

#endif
