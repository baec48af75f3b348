/* Sudoku grids as SVG (see sudoku_svg.h). */
#include "api/sudoku/sudoku_svg.h"

#include "api/boards/svg_writer.h"
#include "core/sudoku/sudoku_text.h"

void sudoku_respond_svg(api_response *res, const sudoku_grid *grid, const sudoku_grid *givens) {
    json_writer *out = &res->body;
    int size = grid->box * grid->box, side = svg_board_extent(size);
    svg_open(out, side, side);
    jw_str(out, "<g stroke=\"black\">");
    for (int k = 0; k <= size; k++) {
        int at = SVG_MARGIN + k * SVG_SQUARE, width = k % grid->box == 0 ? 3 : 1;
        svg_line(out, SVG_MARGIN, at, side - SVG_MARGIN, at, width);
        svg_line(out, at, SVG_MARGIN, at, side - SVG_MARGIN, width);
    }
    jw_str(out, "</g><g font-family=\"sans-serif\" font-size=\"24\" text-anchor=\"middle\">");
    for (int cell = 0; cell < size * size; cell++) {
        if (grid->cells[cell] == 0) continue;
        bool given = givens->cells[cell] != 0;
        svg_printf(out, "<text x=\"%d\" y=\"%d\" fill=\"%s\"%s>%c</text>", svg_square_centre(cell % size),
                   SVG_MARGIN + cell / size * SVG_SQUARE + SVG_SQUARE * 3 / 4, given ? "black" : "#1f5fbf",
                   given ? " font-weight=\"bold\"" : "", sudoku_value_symbol(grid->cells[cell]));
    }
    jw_str(out, "</g>");
    svg_close(res);
}
