/* Counting the n-queens solutions a rotation of the board leaves unchanged: with the total, these
 * give the number of symmetry classes (fundamental solutions) by Burnside's lemma, since no reflection
 * fixes a solution for n >= 2 (a mirror in a middle line would need every queen on that line; one in a
 * diagonal would pair queens (r, c) and (c, r), which share an anti-diagonal). Hence
 *     classes = (all + fixed by 180 degrees + 2 x fixed by 90 degrees) / 8. */
#ifndef PUZZLED_CORE_QUEENS_ROTATION_H
#define PUZZLED_CORE_QUEENS_ROTATION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common/status.h"
#include "core/queens/queens_parts.h"
#include "core/queens/queens_poll.h"

/* Counts the solutions unchanged by a quarter turn (`quarter_turns` 1) or a half turn (2), placing
 * queens a whole orbit of squares at a time; only those whose border queens are in `within`'s classes
 * (queens_parts.h) unless it is NULL. 2 <= n <= QUEENS_MAX_N. CORE_DEADLINE when `poll` stopped it
 * first. */
core_status queens_count_rotation_fixed(int n, int quarter_turns, const queens_part *within, queens_poll *poll,
                                        uint64_t *count);

#endif
