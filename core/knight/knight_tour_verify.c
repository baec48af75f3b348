/* Checking a claimed knight's tour (see knight_tour_verify.h): one pass along the path remembering
 * the step that first visited each square, then a scan for the first unvisited square. */
#include "core/knight/knight_tour_verify.h"

#include <stdlib.h>

bool knight_move_between(uint32_t from, uint32_t to, uint32_t cols) {
    int64_t row_delta = (int64_t)(from / cols) - (int64_t)(to / cols);
    int64_t col_delta = (int64_t)(from % cols) - (int64_t)(to % cols);
    int64_t product = row_delta * col_delta;
    return product == 2 || product == -2; /* {1, 2} in some order and sign */
}

core_status knight_tour_verify(uint32_t rows, uint32_t cols, bool closed, const uint32_t *path, size_t length,
                               kt_verdict *verdict) {
    size_t squares = (size_t)rows * cols;
    *verdict = (kt_verdict){.problem = KT_PROBLEM_NONE};
    size_t *visit = calloc(squares, sizeof *visit); /* 1 + the step that visited the square, or 0 */
    if (visit == NULL) return CORE_NO_MEMORY;
    for (size_t step = 0; step < length; step++) {
        if (step > 0 && !knight_move_between(path[step - 1], path[step], cols)) {
            *verdict = (kt_verdict){.problem = KT_PROBLEM_NOT_A_MOVE, .step = step};
            goto out;
        }
        if (visit[path[step]] != 0) {
            *verdict =
                (kt_verdict){.problem = KT_PROBLEM_REPEATED_SQUARE, .step = step, .first_visit = visit[path[step]] - 1};
            goto out;
        }
        visit[path[step]] = step + 1;
    }
    if (length < squares) {
        verdict->problem = KT_PROBLEM_MISSING_SQUARE;
        verdict->missing = squares - length;
        for (size_t square = 0; square < squares; square++) {
            if (visit[square] == 0) {
                verdict->square = (uint32_t)square;
                break;
            }
        }
    } else if (closed && !knight_move_between(path[length - 1], path[0], cols)) {
        verdict->problem = KT_PROBLEM_NOT_CLOSED;
    }
out:
    free(visit);
    return CORE_OK;
}
