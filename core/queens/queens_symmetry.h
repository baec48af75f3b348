/* The 8 symmetries of the square acting on an n-queens solution, and the choice of one representative
 * per class: the lexicographically smallest of the (up to 8) distinct images. */
#ifndef PUZZLED_CORE_QUEENS_SYMMETRY_H
#define PUZZLED_CORE_QUEENS_SYMMETRY_H

#include <stdbool.h>

/* True when no rotation or reflection of `cols` (n column indices, one per row, a permutation) is
 * lexicographically smaller than `cols` itself. n <= QUEENS_MAX_N. */
bool queens_is_canonical(const int *cols, int n);

#endif
