/* What the answers drawn as SVG share (format=svg on /sudoku/generate, /sudoku/solve, /queens and
 * /knight-tour): the `format` field with its json/svg choice, the <svg> element with its size, lines,
 * a board of squares, and the image/svg+xml content type. Drawing is presentation, so it lives in
 * api/ and core/ stays free of formats.
 *
 * Geometry: a board of rows x cols squares is drawn in user units, SVG_SQUARE units a square, inside
 * a margin of SVG_MARGIN units (room for thick border lines); the displayed size (the width and
 * height attributes) is the same, scaled down to at most SVG_MAX_DISPLAY pixels on the longer side,
 * so a large board still fits a page while the viewBox keeps every coordinate an integer. */
#ifndef PUZZLED_API_SVG_WRITER_H
#define PUZZLED_API_SVG_WRITER_H

#include <stdbool.h>

#include "api/api.h"

#define SVG_CONTENT_TYPE "image/svg+xml"

enum { SVG_SQUARE = 40, SVG_MARGIN = 4, SVG_MAX_DISPLAY = 1024 };

/* The most squares a board drawn as SVG may have: 200 x 200. On such a board a square is about 5 pixels
 * of a 1024-pixel picture, still visible; a knight's path costs about 10 bytes a square, so the
 * largest picture is about 0.4 MB. Larger boards are a 422 too_large naming `format`. */
#define SVG_MAX_SQUARES 40000

/* The `format` field of endpoints that answer JSON (default) or SVG. */
#define SVG_FORMAT_FIELD \
    { "format", FIELD_STRING }
bool svg_param_format(api_request *req, bool *svg);

/* The 422 too_large (field `format`) for a board of `squares` squares above SVG_MAX_SQUARES;
 * `otherwise` says what to ask for instead. True when the board is small enough. */
bool svg_check_squares(api_request *req, uint64_t squares, const char *otherwise);

/* Appends printf-formatted text (at most 255 bytes) to `out`. */
void svg_printf(json_writer *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Opens the drawing: <svg> of `width` x `height` user units (scaled down for display as above) on a
 * white background. */
void svg_open(json_writer *out, int width, int height);

/* How many user units one displayed pixel spans in a drawing of `width` x `height` units (1 when it is
 * not scaled down): lines meant to stay visible are drawn at least that wide. */
int svg_units_per_pixel(int width, int height);

/* The user-unit size of a board of `squares` squares on one side, margins included. */
int svg_board_extent(int squares);

/* The user-unit coordinate of the centre of square `index` along a side. */
int svg_square_centre(int index);

/* A rows x cols chessboard (light square at [0, 0]) drawn as one rectangle filled with a pattern, so
 * its size does not grow with the board: <rect id="board" x y width height .../>. */
void svg_checkerboard(json_writer *out, int rows, int cols);

/* A line from (x1, y1) to (x2, y2) with the current stroke and this width. */
void svg_line(json_writer *out, int x1, int y1, int x2, int y2, int width);

/* Closes the drawing and makes it the answer's body type. */
void svg_close(api_response *res);

#endif
