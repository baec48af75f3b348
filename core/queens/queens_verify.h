/* Checking a placement of queens on an n x n board against the N-Queens rule: no two queens share a
 * row, a column or a diagonal. Counts the attacking pairs (two queens on one line, whatever stands
 * between them, as the puzzle's rule has it) and lists the first of them in a fixed order, so a
 * verifier can point at the problem without listing the up to k(k-1)/2 pairs of a bad board. */
#ifndef PUZZLED_CORE_QUEENS_VERIFY_H
#define PUZZLED_CORE_QUEENS_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/common/status.h"

typedef struct queens_square {
    uint32_t row, col; /* 0-based, both below n */
} queens_square;

typedef enum queens_line {
    QUEENS_LINE_ROW,
    QUEENS_LINE_COLUMN,
    QUEENS_LINE_DIAGONAL,      /* row - col constant */
    QUEENS_LINE_ANTI_DIAGONAL, /* row + col constant */
} queens_line;

typedef struct queens_attack {
    queens_square first, second; /* first before second in row-major order */
    queens_line line;
} queens_attack;

/* Sorts `queens` (squares of the board) into row-major order. False when two are on one square,
 * which is then in `*repeated`. */
bool queens_sort_distinct(queens_square *queens, size_t k, queens_square *repeated);

/* For `queens`, k distinct squares of an n x n board in row-major order (queens_sort_distinct), sets
 * `*attacking_pairs` to the number of pairs of them on a common line, and writes the first
 * `max_attacks` such pairs to `attacks` (ordered by the first queen, then the second, in row-major
 * order), their number to `*listed`. O(n + k log k) time, O(n + k) memory. */
core_status queens_find_attacks(uint32_t n, const queens_square *queens, size_t k, queens_attack *attacks,
                                size_t max_attacks, size_t *listed, uint64_t *attacking_pairs);

#endif
