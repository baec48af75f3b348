/* Checks shared by the tests of answers drawn as SVG (format=svg): the answer's headers, the body as
 * well-formed XML by xmllint (a parser apart from ours), and the board's geometry read back from the
 * drawing itself, so the tests check where things are drawn rather than trusting our constants. */
#ifndef PUZZLED_TESTS_SVG_CHECKS_H
#define PUZZLED_TESTS_SVG_CHECKS_H

#include <stdbool.h>

#include "harness.h"

/* Asserts a 200 image/svg+xml answer with the Content-Security-Policy of drawings and CORS, whose body
 * is one <svg> element that `xmllint --noout` accepts. */
void expect_svg_answer(const http_result *result);

/* The board as drawn: <rect id="board" x y width height>, a rows x cols grid of square x square. */
typedef struct drawn_board {
    double x, y, square;
    long rows, cols;
} drawn_board;

/* Reads the board of `svg` and asserts its rectangle is made of rows x cols equal squares. */
drawn_board read_drawn_board(const char *svg, long rows, long cols);

/* The number in attribute `name` of the element that starts at `element`; asserts it is there. */
double svg_attribute(const char *element, const char *name);

/* The square [row, col] whose top-left corner (centre: false) or centre (centre: true) is at (x, y);
 * asserts (x, y) is exactly such a point of a square on the board. */
void drawn_square_at(const drawn_board *board, double x, double y, bool centre, long *row, long *col);

/* How many times `needle` occurs in `text`. */
long occurrences(const char *text, const char *needle);

#endif
