/* Independent ground truth for the knight's tour tests, written apart from core/knight/ and sharing
 * nothing with it: an exhaustive search for open tours on small boards and Schwenk's theorem for closed
 * tours. Linked by the unit and the integration
 * tests alike. */
#ifndef PUZZLED_TESTS_KNIGHT_TOUR_REFERENCE_H
#define PUZZLED_TESTS_KNIGHT_TOUR_REFERENCE_H

#include <stdbool.h>

/* Boards the exhaustive search accepts: at most this many squares. */
#define REFERENCE_MAX_SQUARES 128

/* Whether some open tour of rows x cols starts on (r, c): exhaustive depth-first search (colour,
 * connectivity and dead-end pruning), each symmetry class of start squares searched once per process. */
bool reference_open_tour_exists(int rows, int cols, int r, int c);

/* Schwenk's theorem (1991): rows x cols has a closed tour unless both sides are odd, the shorter side
 * is 1, 2 or 4, or the board is 3 x 4, 3 x 6 or 3 x 8. */
bool reference_closed_tour_exists(int rows, int cols);

#endif
