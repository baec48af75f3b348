/* n-queens boards as SVG (see queens_svg.h). */
#include "api/queens/queens_svg.h"

#include "api/boards/svg_writer.h"

/* A crown in a square's box (0..SVG_SQUARE each way), with a white outline so it shows on both colours. */
static const char queen_crown[] =
    "<defs><g id=\"queen\" stroke=\"white\" stroke-width=\"1.5\" stroke-linejoin=\"round\">"
    "<path d=\"M8 30 L6 12 L14 21 L20 8 L26 21 L34 12 L32 30 Z\"/>"
    "<rect x=\"8\" y=\"31\" width=\"24\" height=\"5\"/></g></defs>";

/* Where a square is shown smaller than this many pixels a crown is a smudge: the queen fills it. */
enum { SMALLEST_CROWN_PIXELS = 12 };

void queens_respond_svg(api_response *res, uint32_t n, const uint32_t *cols, const queens_square *placed,
                        size_t placed_count) {
    json_writer *out = &res->body;
    int side = svg_board_extent((int)n);
    svg_open(out, side, side);
    svg_checkerboard(out, (int)n, (int)n);
    if (SVG_SQUARE / svg_units_per_pixel(side, side) < SMALLEST_CROWN_PIXELS)
        svg_printf(out, "<defs><rect id=\"queen\" width=\"%d\" height=\"%d\"/></defs>", SVG_SQUARE, SVG_SQUARE);
    else jw_str(out, queen_crown);
    size_t next_placed = 0;
    for (uint32_t row = 0; row < n; row++) {
        bool given = next_placed < placed_count && placed[next_placed].row == row;
        if (given) next_placed++;
        svg_printf(out, "<use href=\"#queen\" x=\"%d\" y=\"%d\" fill=\"%s\"/>",
                   SVG_MARGIN + (int)cols[row] * SVG_SQUARE, SVG_MARGIN + (int)row * SVG_SQUARE,
                   given ? "black" : "#1f5fbf");
    }
    svg_close(res);
}
