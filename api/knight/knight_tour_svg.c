/* Knight's tours as SVG (see knight_tour_svg.h). */
#include "api/knight/knight_tour_svg.h"

#include "api/boards/svg_writer.h"

typedef struct point {
    int x, y;
} point;

static point centre(uint32_t square, uint32_t cols) {
    return (point){svg_square_centre((int)(square % cols)), svg_square_centre((int)(square / cols))};
}

static void write_numbers(json_writer *out, const uint32_t *path, uint32_t squares, uint32_t cols) {
    jw_str(out, "<g font-family=\"sans-serif\" font-size=\"12\" fill=\"black\">");
    for (uint32_t move = 0; move < squares; move++) {
        uint32_t square = path[move];
        svg_printf(out, "<text x=\"%d\" y=\"%d\">%u</text>", SVG_MARGIN + (int)(square % cols) * SVG_SQUARE + 2,
                   SVG_MARGIN + (int)(square / cols) * SVG_SQUARE + 12, move + 1);
    }
    jw_str(out, "</g>");
}

void knight_tour_respond_svg(api_response *res, const kt_request *request, const uint32_t *path) {
    json_writer *out = &res->body;
    uint32_t cols = (uint32_t)request->cols, squares = (uint32_t)request->rows * cols;
    int width = svg_board_extent(request->cols), height = svg_board_extent(request->rows);
    /* the path 4 units wide (a tenth of a square) and the marks 9 in radius, or when the picture is
     * scaled down that far, 1 and 5 pixels */
    int pixel = svg_units_per_pixel(width, height), stroke = pixel > 4 ? pixel : 4,
        mark = 5 * pixel > 9 ? 5 * pixel : 9;
    svg_open(out, width, height);
    svg_checkerboard(out, request->rows, request->cols);
    point first = centre(path[0], cols), last = centre(path[squares - 1], cols);
    svg_printf(out, "<g stroke=\"#1f5fbf\" stroke-width=\"%d\" stroke-linecap=\"round\" fill=\"none\">", stroke);
    if (request->closed && squares > 1) {
        svg_printf(out, "<line class=\"closing\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-dasharray=\"8 6\"/>",
                   last.x, last.y, first.x, first.y);
    }
    jw_str(out, "<polyline stroke-linejoin=\"round\" points=\"");
    for (uint32_t move = 0; move < squares; move++) {
        point at = centre(path[move], cols);
        if (move > 0) jw_char(out, ' ');
        jw_int(out, at.x);
        jw_char(out, ',');
        jw_int(out, at.y);
    }
    jw_str(out, "\"/></g>");
    svg_printf(out, "<circle class=\"start\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"#2e8b3a\"/>", first.x, first.y, mark);
    svg_printf(
        out,
        "<circle class=\"end\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"%d\"/>",
        last.x, last.y, mark, stroke);
    if (squares <= KNIGHT_SVG_NUMBERED_SQUARES) write_numbers(out, path, squares, cols);
    svg_close(res);
}
