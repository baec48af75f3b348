/* Counting n-queens solutions, all and fundamental (one per class under the 8 symmetries of the
 * square): the fast parallel counter and a plain counter over any solution iterator. */
#ifndef PUZZLED_CORE_QUEENS_COUNT_H
#define PUZZLED_CORE_QUEENS_COUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/queens/queens_parts.h"
#include "core/queens/queens_solutions.h"

/* Most shares one count is cut into. */
#define QUEENS_COUNT_MAX_THREADS 64

/* Below this n the fast counter is a plain bitmask search on the caller's thread, without a split (it
 * counts the completions and builds no solution): on one core it beats the constellations there, so a
 * split could only cut a slower method in two. Below n = 4 the constellations do not apply at all (n = 1
 * is one square on all four border lines, and the reflections fix it, against the formula for the
 * fundamental count). docs/performance.md#small-counts-without-splitting */
#define QUEENS_COUNT_SPLIT_MIN_N 12

typedef struct queens_counts {
    uint64_t total;  /* all solutions */
    uint64_t unique; /* fundamental solutions */
} queens_counts;

/* Every solution by border constellations (queens_constellation.h, NQueensFAF's method): one search
 * per symmetry class of the queens on the four border lines, weighted by the class size, the
 * constellations taken one at a time from a shared counter by `threads` shares (0: one per online
 * core), all but the caller's offered to idle threads (core/common/fork_join.h), so that all finish
 * together; the fundamental solutions by Burnside's lemma from the solutions the rotations fix
 * (queens_rotation.h). Below QUEENS_COUNT_SPLIT_MIN_N, the plain search (the fundamental solutions by the
 * same lemma). 1 <= n <=
 * QUEENS_MAX_N. CORE_DEADLINE (counts unset) when the deadline passed first. */
core_status queens_count_fast(int n, unsigned threads, const deadline *dl, queens_counts *out);

/* The solutions of one part of a split count (queens_parts.h), all and fundamental: as
 * queens_count_fast, over the part's classes only (whatever n: parts are always counted by
 * constellations, from QUEENS_PART_MIN_N up). Its progress counts the part's classes. The K parts of
 * n add up to queens_count_fast's counts. CORE_DEADLINE (counts unset) when the deadline passed first. */
core_status queens_count_part(const queens_part *part, unsigned threads, const deadline *dl, queens_counts *out);

/* Enumerates every solution with `algorithm`, testing each for being the class representative.
 * Single-threaded; for cross-checks and for the non-default algorithms. 1 <= n <= QUEENS_MAX_N;
 * CORE_DEADLINE (counts unset) when the deadline passed first. */
core_status queens_count_by_enumeration(int n, queens_algorithm algorithm, const deadline *dl, queens_counts *out);

#endif
