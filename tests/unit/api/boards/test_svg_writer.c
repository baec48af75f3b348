/* Unit tests for api/boards/svg_writer: the displayed size of a drawing (scaled down to SVG_MAX_DISPLAY
 * pixels, keeping its proportions, never 0), the line width that stays visible, the board's geometry,
 * the size bound and the `format` field. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "api/boards/svg_writer.h"

/* The width and height attributes and the viewBox of the <svg> written for `width` x `height`. */
static void opened(int width, int height, int *shown_width, int *shown_height) {
    json_writer w;
    bb_init(&w);
    svg_open(&w, width, height);
    int box_width, box_height;
    cr_assert_eq(sscanf(w.data,
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">",
                        shown_width, shown_height, &box_width, &box_height),
                 4, "%s", w.data);
    cr_assert(box_width == width && box_height == height);
    bb_free(&w);
}

Test(svg_writer, small_drawings_are_shown_at_their_size_large_ones_scaled_down) {
    int w, h;
    opened(328, 208, &w, &h);
    cr_assert(w == 328 && h == 208);
    opened(SVG_MAX_DISPLAY, 10, &w, &h);
    cr_assert(w == SVG_MAX_DISPLAY && h == 10);
    opened(8008, 8008, &w, &h);
    cr_assert(w == SVG_MAX_DISPLAY && h == SVG_MAX_DISPLAY);
    opened(4008, 8008, &w, &h);
    cr_assert(w == 512 && h == SVG_MAX_DISPLAY, "%d x %d", w, h);
    opened(svg_board_extent(1333), svg_board_extent(3), &w, &h);
    cr_assert(w == SVG_MAX_DISPLAY && h == 2, "%d x %d", w, h); /* 128 * 1024 / 53328 = 2.46, rounded down */
    opened(svg_board_extent(40000), svg_board_extent(1), &w, &h);
    cr_assert(w == SVG_MAX_DISPLAY && h == 1, "a sliver is still a pixel high: %d", h);
}

Test(svg_writer, a_pixel_in_units) {
    cr_assert_eq(svg_units_per_pixel(328, 100), 1);
    cr_assert_eq(svg_units_per_pixel(SVG_MAX_DISPLAY, 1), 1);
    cr_assert_eq(svg_units_per_pixel(1, SVG_MAX_DISPLAY + 1), 2);
    cr_assert_eq(svg_units_per_pixel(8008, 8008), 8); /* 7.8 units a pixel, rounded up */
}

Test(svg_writer, board_geometry) {
    cr_assert_eq(svg_board_extent(8), 8 * SVG_SQUARE + 2 * SVG_MARGIN);
    cr_assert_eq(svg_square_centre(0), SVG_MARGIN + SVG_SQUARE / 2);
    cr_assert_eq(svg_square_centre(7) - svg_square_centre(6), SVG_SQUARE);
    json_writer w;
    bb_init(&w);
    svg_checkerboard(&w, 3, 5);
    int x, y, width, height;
    const char *board = strstr(w.data, "<rect id=\"board\"");
    cr_assert_not_null(board);
    cr_assert_eq(
        sscanf(board, "<rect id=\"board\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"", &x, &y, &width, &height), 4);
    cr_assert(x == SVG_MARGIN && y == SVG_MARGIN && width == 5 * SVG_SQUARE && height == 3 * SVG_SQUARE);
    bb_free(&w);
}

Test(svg_writer, boards_above_the_bound_are_too_large_naming_format) {
    api_request req = {0};
    cr_assert(svg_check_squares(&req, SVG_MAX_SQUARES, "ask for JSON"));
    cr_assert_eq(req.error.status, 0);
    cr_assert_not(svg_check_squares(&req, SVG_MAX_SQUARES + 1, "ask for JSON"));
    cr_assert_eq(req.error.status, 422);
    cr_assert_str_eq(req.error.code, "too_large");
    cr_assert_str_eq(req.error.field, "format");
    cr_assert_not_null(strstr(req.error.message, "40001"), "%s", req.error.message);
}

Test(svg_writer, format_is_json_or_svg) {
    const char *given[] = {NULL, "json", "svg", "png"};
    for (int i = 0; i < 4; i++) {
        api_request req = {.params = cJSON_CreateObject()};
        if (given[i] != NULL) cJSON_AddStringToObject(req.params, "format", given[i]);
        bool svg = true;
        bool ok = svg_param_format(&req, &svg);
        cr_assert_eq(ok, i < 3, "%s", given[i]);
        if (ok) cr_assert_eq(svg, i == 2);
        else cr_assert_str_eq(req.error.field, "format");
        cJSON_Delete(req.params);
    }
}
