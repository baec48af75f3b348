/* Counting n-queens solutions, all and fundamental (one per class under the 8 symmetries of the
 * square): the fast parallel counter and a plain counter over any solution iterator. */
#ifndef PUZZLED_CORE_QUEENS_COUNT_H
#define PUZZLED_CORE_QUEENS_COUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/queens/queens_solutions.h"

/* Most shares one count is cut into. */
#define QUEENS_COUNT_MAX_THREADS 64

/* Below this n a count asked to choose its shares (threads 0) takes one: the whole count costs less
 * than handing a share to another thread and back (docs/performance.md#small-counts-without-splitting). */
#define QUEENS_COUNT_SPLIT_MIN_N 11

typedef struct queens_counts {
    uint64_t total;  /* all solutions */
    uint64_t unique; /* fundamental solutions */
} queens_counts;

/* Every solution by border constellations (queens_constellation.h, NQueensFAF's method): one search
 * per symmetry class of the queens on the four border lines, weighted by the class size, the
 * constellations taken one at a time from a shared counter by `threads` threads (0: one per online
 * core) so that all finish together; the fundamental solutions by Burnside's lemma from the solutions
 * the rotations fix (queens_rotation.h). 1 <= n <= QUEENS_MAX_N. CORE_DEADLINE (counts unset) when the
 * deadline passed first. */
core_status queens_count_fast(int n, unsigned threads, const deadline *dl, queens_counts *out);

/* Enumerates every solution with `algorithm`, testing each for being the class representative.
 * Single-threaded; for cross-checks and for the non-default algorithms. 1 <= n <= QUEENS_MAX_N;
 * CORE_DEADLINE (counts unset) when the deadline passed first. */
core_status queens_count_by_enumeration(int n, queens_algorithm algorithm, const deadline *dl, queens_counts *out);

#endif
