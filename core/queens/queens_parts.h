/* A count of n-queens solutions split into parts that run anywhere and add up: part i of K holds a
 * fixed set of symmetry classes of border constellations (queens_constellation.h), so its count is
 * the solutions whose border queens fall in those classes, and the K parts of any n hold every class
 * once. The split follows the counting projects that reached n = 26 and 27 (Preusser's Q27,
 * NQueensFAF's distributed runs): independent sub-problems of pre-placed queens, counted apart and
 * added up.
 *
 * The split is a pure function of (n, K), the same on every machine: the classes, largest estimated
 * cost first (queens_constellation_weight, ties by number), each go to the part with the least cost so
 * far (ties to the lowest part): the greedy "longest processing time first" rule, so the parts' costs
 * come out about equal. The fundamental count splits too: the solutions of one class of
 * constellations are closed under the 8 symmetries, so Burnside's lemma holds within each part
 * (queens_rotation.h). Below QUEENS_PART_MIN_N no constellation exists: part 0 holds the whole
 * count and the others nothing. */
#ifndef PUZZLED_CORE_QUEENS_PARTS_H
#define PUZZLED_CORE_QUEENS_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/common/status.h"
#include "core/queens/queens_constellation.h"

/* Most parts one count may be split into. Past the number of classes (4,319 at n = 17, about n^4/16)
 * parts are empty, and count nothing. */
#define QUEENS_MAX_PARTS 65536

/* The smallest board with border constellations (n = 1 to 3 are counted whole). */
#define QUEENS_PART_MIN_N 4

typedef struct queens_part {
    int n;
    uint64_t *classes; /* the first member (queens_constellation_class_first) of each class, ascending */
    size_t class_count;
    bool whole;            /* n < QUEENS_PART_MIN_N and this is part 0: the whole count, by enumeration */
    uint64_t weight;       /* the estimated cost of the part's classes (queens_constellation_weight) */
    uint64_t total_weight; /* ... of every class of n */
} queens_part;

/* Every part of the count of n into `parts` (1 <= parts <= QUEENS_MAX_PARTS), 1 <= n <= QUEENS_MAX_N:
 * part i in all[i]. CORE_NO_MEMORY (all empty) when out of memory. Free each with queens_part_free. */
core_status queens_part_split(int n, uint32_t parts, queens_part *all);

/* Part `part` (0 <= part < parts) of that split alone. */
core_status queens_part_select(int n, uint32_t part, uint32_t parts, queens_part *out);

void queens_part_free(queens_part *p);

/* True when the class of constellation `c` is one of the part's. */
bool queens_part_holds(const queens_part *p, queens_constellation c);

#endif
