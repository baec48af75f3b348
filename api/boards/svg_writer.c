/* SVG drawing shared by the answers that are pictures (see svg_writer.h). */
#include "api/boards/svg_writer.h"

#include <stdarg.h>
#include <stdio.h>

#include "api/params.h"

static const char *const format_choices[] = {"json", "svg", NULL};

bool svg_param_format(api_request *req, bool *svg) {
    int format;
    if (!param_choice(req, "format", format_choices, 0, &format)) return false;
    *svg = format == 1;
    return true;
}

bool svg_check_squares(api_request *req, uint64_t squares, const char *otherwise) {
    if (squares <= SVG_MAX_SQUARES) return true;
    return api_fail(req, API_TOO_LARGE, "format",
                    "format \"svg\" draws boards of at most %d squares (200 x 200); this one has %llu: %s",
                    SVG_MAX_SQUARES, (unsigned long long)squares, otherwise);
}

void svg_printf(json_writer *out, const char *fmt, ...) {
    char text[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    jw_str(out, text);
}

/* `length` scaled by SVG_MAX_DISPLAY / `longest` when the longest side is over SVG_MAX_DISPLAY, at least 1. */
static int display_length(int length, int longest) {
    if (longest <= SVG_MAX_DISPLAY) return length;
    int scaled = (int)((long long)length * SVG_MAX_DISPLAY / longest);
    return scaled > 0 ? scaled : 1;
}

void svg_open(json_writer *out, int width, int height) {
    int longest = width > height ? width : height;
    svg_printf(out,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">"
               "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>",
               display_length(width, longest), display_length(height, longest), width, height, width, height);
}

int svg_units_per_pixel(int width, int height) {
    int longest = width > height ? width : height;
    return (longest + SVG_MAX_DISPLAY - 1) / SVG_MAX_DISPLAY;
}

int svg_board_extent(int squares) { return squares * SVG_SQUARE + 2 * SVG_MARGIN; }

int svg_square_centre(int index) { return SVG_MARGIN + index * SVG_SQUARE + SVG_SQUARE / 2; }

void svg_checkerboard(json_writer *out, int rows, int cols) {
    enum { TWO = 2 * SVG_SQUARE };
    svg_printf(out,
               "<defs><pattern id=\"squares\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
               "patternUnits=\"userSpaceOnUse\"><rect width=\"%d\" height=\"%d\" fill=\"#f0d9b5\"/>",
               SVG_MARGIN, SVG_MARGIN, TWO, TWO, TWO, TWO);
    svg_printf(out,
               "<rect x=\"%d\" width=\"%d\" height=\"%d\" fill=\"#b58863\"/>"
               "<rect y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#b58863\"/></pattern></defs>",
               SVG_SQUARE, SVG_SQUARE, SVG_SQUARE, SVG_SQUARE, SVG_SQUARE, SVG_SQUARE);
    svg_printf(out,
               "<rect id=\"board\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#squares)\" "
               "stroke=\"black\" stroke-width=\"2\"/>",
               SVG_MARGIN, SVG_MARGIN, cols * SVG_SQUARE, rows * SVG_SQUARE);
}

void svg_line(json_writer *out, int x1, int y1, int x2, int y2, int width) {
    svg_printf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"%d\"/>", x1, y1, x2, y2, width);
}

void svg_close(api_response *res) {
    jw_str(&res->body, "</svg>\n");
    res->content_type = SVG_CONTENT_TYPE;
    /* An SVG opened on its own is a document that could run script: ours carry none, and this forbids any. */
    res->content_security_policy = "default-src 'none'; style-src 'unsafe-inline'";
}
