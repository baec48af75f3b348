/* Checks shared by the /knight-tour integration tests: a validator of a tour, one that reads it straight
 * from the response text (cJSON could not hold millions of squares), and the requests they all make. */
#ifndef PUZZLED_TESTS_KNIGHT_TOUR_CHECKS_H
#define PUZZLED_TESTS_KNIGHT_TOUR_CHECKS_H

#include <stdbool.h>

#include "harness.h"

bool knight_move(long r1, long c1, long r2, long c2);

/* Asserts that the `count` squares [row, col] of `squares` (row and col alternate) are rows*cols
 * distinct squares on the board, starting on (sr, sc), making knight's moves throughout, and for a
 * closed tour returning to the start. */
void expect_valid_tour(const long *squares, long count, long rows, long cols, long sr, long sc, bool closed);

/* Asserts that `"path":[[r,c],...]` in `body` has rows*cols distinct squares on the board, starts on
 * (sr, sc), makes knight's moves throughout, and for a closed tour returns to the start. */
void expect_valid_path(const char *body, long rows, long cols, long sr, long sc, bool closed);

/* GET /knight-tour for rows x cols from (r, c); `extra` is appended to the query. */
http_result get_tour(int rows, int cols, int r, int c, bool closed, const char *extra);

bool tour_found(const http_result *res);

/* Asserts a 200 with a valid tour. */
void check_large(int rows, int cols, int r, int c, bool closed);

#endif
