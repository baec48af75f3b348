/* Completing a partial n-queens board: a solution that keeps the queens already placed, for any n
 * (completion is NP-complete: Gent, Jefferson and Nightingale, "Complexity of n-Queens Completion",
 * JAIR 2017), or the proof that none exists.
 *
 * Depth-first search that always fills the row with the fewest free squares next (most constrained
 * first) and stops a branch as soon as some empty row has no free square left (forward checking).
 * Each placement updates the free-square counts of every empty row, O(n), so a board that needs few
 * backtracks costs O(n^2); the deadline is polled as it goes. The explicit stack holds one entry per
 * row, so n is bounded by memory, not by the call stack. */
#ifndef PUZZLED_CORE_QUEENS_COMPLETE_H
#define PUZZLED_CORE_QUEENS_COMPLETE_H

#include <stddef.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/queens/queens_verify.h"

/* `placed`: k queens on distinct rows, columns and diagonals of the n x n board (the caller checked
 * with queens_find_attacks). `cols`: room for n columns, one per row. On CORE_OK `*completed` is true
 * when `cols` holds a solution containing every placed queen, false when it is proven that the placed
 * queens are in no solution. */
core_status queens_complete(uint32_t n, const queens_square *placed, size_t k, const deadline *dl, uint32_t *cols,
                            bool *completed);

#endif
