/* Sudoku grids as SVG (see sudoku_svg.h). */
#include "api/sudoku_svg.h"

#include <stdio.h>

#include "api/params.h"
#include "core/sudoku/sudoku_text.h"

enum { CELL_PIXELS = 40, MARGIN_PIXELS = 4 };

static const char *const format_choices[] = {"json", "svg", NULL};

bool sudoku_param_svg(api_request *req, bool *svg) {
    int format;
    if (!param_choice(req, "format", format_choices, 0, &format)) return false;
    *svg = format == 1;
    return true;
}

static void line(json_writer *out, int x1, int y1, int x2, int y2, int width) {
    char text[128];
    snprintf(text, sizeof text, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"%d\"/>", x1, y1, x2, y2,
             width);
    jw_str(out, text);
}

void sudoku_respond_svg(api_response *res, const sudoku_grid *grid, const sudoku_grid *givens) {
    json_writer *out = &res->body;
    int size = grid->box * grid->box, side = size * CELL_PIXELS + 2 * MARGIN_PIXELS;
    char text[256];
    snprintf(text, sizeof text,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">"
             "<rect width=\"%d\" height=\"%d\" fill=\"white\"/><g stroke=\"black\">",
             side, side, side, side, side, side);
    jw_str(out, text);
    for (int k = 0; k <= size; k++) {
        int at = MARGIN_PIXELS + k * CELL_PIXELS, width = k % grid->box == 0 ? 3 : 1;
        line(out, MARGIN_PIXELS, at, side - MARGIN_PIXELS, at, width);
        line(out, at, MARGIN_PIXELS, at, side - MARGIN_PIXELS, width);
    }
    jw_str(out, "</g><g font-family=\"sans-serif\" font-size=\"24\" text-anchor=\"middle\">");
    for (int cell = 0; cell < size * size; cell++) {
        if (grid->cells[cell] == 0) continue;
        bool given = givens->cells[cell] != 0;
        snprintf(text, sizeof text, "<text x=\"%d\" y=\"%d\" fill=\"%s\"%s>%c</text>",
                 MARGIN_PIXELS + cell % size * CELL_PIXELS + CELL_PIXELS / 2,
                 MARGIN_PIXELS + cell / size * CELL_PIXELS + CELL_PIXELS * 3 / 4, given ? "black" : "#1f5fbf",
                 given ? " font-weight=\"bold\"" : "", sudoku_value_symbol(grid->cells[cell]));
        jw_str(out, text);
    }
    jw_str(out, "</g></svg>\n");
    res->content_type = "image/svg+xml";
}
