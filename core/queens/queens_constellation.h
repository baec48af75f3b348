/* Border constellations: every n-queens solution has exactly one queen in row 0, in row n-1, in
 * column 0 and in column n-1. Fixing those (up to) four queens first splits the count into small
 * independent searches, and the 8 symmetries of the square permute the constellations, so only one
 * constellation per symmetry class is searched and its count weighted by the size of its class.
 * Method from NQueensFAF (Ole Poeschl and contributors, github.com/olepoeschl/NQueensFAF:
 * ConstellationsGenerator and ConstellationUtils, "start constellations" i, j, k, l). */
#ifndef PUZZLED_CORE_QUEENS_CONSTELLATION_H
#define PUZZLED_CORE_QUEENS_CONSTELLATION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common/status.h"
#include "core/queens/queens_poll.h"
#include "core/queens/queens_solutions.h"

/* The queens on the border: column of row 0's queen (top), of row n-1's (bottom); row of column 0's
 * queen (left), of column n-1's (right). A corner queen counts on both its lines. */
typedef struct queens_constellation {
    int top, bottom, left, right;
} queens_constellation;

/* Constellations are numbered 0 .. n^4 - 1 (not all of them valid); the count's threads share
 * that range. n <= QUEENS_MAX_N. */
uint64_t queens_constellation_range(int n);
queens_constellation queens_constellation_at(int n, uint64_t index);

/* How many constellations, this one included, its symmetry class holds (1, 2, 4 or 8) when it is
 * valid (a queen on each border line, corners consistent, no two attacking) and the smallest-numbered
 * member of its class; else 0. */
int queens_constellation_class_size(int n, queens_constellation c);

/* The number of the smallest-numbered member of `c`'s symmetry class (of the 8 images of `c`). */
uint64_t queens_constellation_class_first(int n, queens_constellation c);

/* The estimated cost of queens_constellation_count(n, c, ...), in no unit but comparable between the
 * constellations of one n: how wide the top of the search that count runs is (the product of the free
 * columns of its first rows). A valid constellation. */
uint64_t queens_constellation_weight(int n, queens_constellation c);

/* Counts the solutions whose border queens are exactly `c` (a valid constellation, n >= 4), with the
 * fastest search this processor has. CORE_DEADLINE when `poll` stopped it first. */
core_status queens_constellation_count(int n, queens_constellation c, queens_poll *poll, uint64_t *count);

/* The searches that count a constellation: the same nodes, portable or in vector lanes. */
typedef enum queens_constellation_search {
    QUEENS_SEARCH_PORTABLE,
    QUEENS_SEARCH_AVX2,
    QUEENS_SEARCH_AVX512
} queens_constellation_search;

/* Whether this processor runs `search`. */
bool queens_constellation_search_available(queens_constellation_search search);

/* queens_constellation_count with a given search (one available here): for tests and benchmarks. */
core_status queens_constellation_count_with(int n, queens_constellation c, queens_constellation_search search,
                                            queens_poll *poll, uint64_t *count);

#endif
