/* The knight's tour strategies: theorems first (Schwenk for closed tours, colour and line-alternation
 * arguments for open ones), then per algorithm:
 *   auto         closed tours (and open ones where a closed tour exists, cut at the start) by the
 *                divide-and-conquer construction; long boards with a side of 3 by the strip
 *                construction; 4 x n (n >= 5) by the 4-row construction (pieces spliced in two
 *                edges at a time); boards with both sides odd and >= 5 by the same blocks around an
 *                odd block holding the start, then Warnsdorff with retries; everything else (boards
 *                of at most 4 x 4 or 3 x 8) by exhaustive search until the deadline;
 *   warnsdorff   the heuristic with Roth's tie-break and a few randomised retries;
 *   backtracking the textbook depth-first search. */
#include "core/knight/knight_tour.h"

#include <stdlib.h>

#include "core/knight/knight_tour_internal.h"

enum {
    WARNSDORFF_ATTEMPTS = 8,
};

bool knight_tour_closed_exists(int rows, int cols) {
    int m = rows < cols ? rows : cols, n = rows < cols ? cols : rows;
    if ((m % 2 == 1 && n % 2 == 1) || m == 1 || m == 2 || m == 4) return false;
    return !(m == 3 && (n == 4 || n == 6 || n == 8));
}

const char *knight_tour_impossibility(const kt_request *q) {
    int m = q->rows < q->cols ? q->rows : q->cols, n = q->rows < q->cols ? q->cols : q->rows;
    if (q->closed) {
        if (m * n == 1) return "a single square has no knight's move back to itself, so no closed tour exists";
        if (m % 2 == 1 && n % 2 == 1)
            return "Schwenk's theorem: no closed tour when both sides are odd (a closed tour alternates colours, "
                   "so it needs as many light as dark squares)";
        if (m <= 2) return "Schwenk's theorem: no closed tour on a board with a side of 1 or 2";
        if (m == 4)
            return "Schwenk's theorem: no closed tour on a board with a side of 4 (the two outer lines only reach the "
                   "two inner lines, so a closed tour would alternate between them as well as between colours, which "
                   "is impossible)";
        if (m == 3 && (n == 4 || n == 6 || n == 8)) return "Schwenk's theorem: no closed tour on 3 x 4, 3 x 6 or 3 x 8";
        return NULL;
    }
    if (m * n == 1) return NULL;
    if (m == 1) return "a knight cannot move at all on a board one square wide";
    if (m == 2)
        return "on a board two squares wide a knight only reaches squares two columns away, so it cannot visit "
               "every square";
    if (m * n % 2 == 1 && (q->start_row + q->start_col) % 2 == 1)
        return "on a board with an odd number of squares a tour must start on the majority colour (the colour of "
               "the corners), and this square has the other colour";
    bool inner_row = q->rows == 4 && (q->start_row == 1 || q->start_row == 2);
    bool inner_col = q->cols == 4 && (q->start_col == 1 || q->start_col == 2);
    if (inner_row || inner_col)
        return "on a board with a side of 4 the two outer lines only reach the two inner lines, so every open "
               "tour starts and ends on an outer line";
    return NULL;
}

static kt_outcome from_search(kt_search_status status) {
    switch (status) {
    case KT_SEARCH_FOUND: return KT_FOUND;
    case KT_SEARCH_NONE: return KT_NONE_EXISTS;
    case KT_SEARCH_NO_MEMORY: return KT_OUT_OF_MEMORY;
    case KT_SEARCH_NODE_LIMIT:
    case KT_SEARCH_DEADLINE: break;
    }
    return KT_DEADLINE_EXCEEDED;
}

static kt_outcome search(const kt_request *q, uint32_t start, bool ordered, const deadline *limit, uint32_t *path) {
    kt_search_spec spec = {.rows = q->rows,
                           .cols = q->cols,
                           .start = start,
                           .end = KT_NONE_SQUARE,
                           .ordered = ordered,
                           .closed = q->closed};
    return from_search(kt_search_path(&spec, limit, path));
}

static kt_outcome warnsdorff(const kt_request *q, uint32_t start, const deadline *limit, uint32_t *path) {
    for (uint64_t seed = 0; seed < WARNSDORFF_ATTEMPTS; seed++) {
        if (seed > 0 && deadline_expired(limit)) return KT_DEADLINE_EXCEEDED;
        if (kt_warnsdorff_walk(q->rows, q->cols, start, q->closed, seed, path)) return KT_FOUND;
    }
    return KT_HEURISTIC_FAILED;
}

static kt_outcome automatic(const kt_request *q, uint32_t start, const deadline *limit, uint32_t *path) {
    if (knight_tour_closed_exists(q->rows, q->cols))
        return kt_construct_closed(q->rows, q->cols, start, path) ? KT_FOUND : KT_OUT_OF_MEMORY;
    /* open tours on boards without closed tours: both sides odd, or a side of 3 or 4 */
    if (q->rows == 3 || q->cols == 3) {
        kt_search_status status = kt_construct_strip(q->rows, q->cols, start, limit, path);
        if (status != KT_SEARCH_NODE_LIMIT) return from_search(status);
    } else if ((q->rows == 4 && q->cols >= 5) || (q->cols == 4 && q->rows >= 5)) {
        kt_search_status status = kt_construct_four_rows(q->rows, q->cols, start, limit, path);
        if (status != KT_SEARCH_NODE_LIMIT) return from_search(status);
    } else if (q->rows >= 5 && q->cols >= 5) { /* both odd */
        kt_search_status status = kt_construct_open_odd(q->rows, q->cols, start, limit, path);
        if (status != KT_SEARCH_NODE_LIMIT) return from_search(status);
        kt_outcome outcome = warnsdorff(q, start, limit, path);
        if (outcome != KT_HEURISTIC_FAILED) return outcome;
    }
    return search(q, start, true, limit, path);
}

kt_result knight_tour_find(const kt_request *q, const deadline *limit) {
    kt_result result = {.outcome = KT_NONE_EXISTS};
    result.reason = knight_tour_impossibility(q);
    if (result.reason != NULL) return result;
    uint32_t n = (uint32_t)q->rows * (uint32_t)q->cols;
    uint32_t start = (uint32_t)q->start_row * (uint32_t)q->cols + (uint32_t)q->start_col;
    result.path = malloc(sizeof *result.path * n);
    if (result.path == NULL) {
        result.outcome = KT_OUT_OF_MEMORY;
        return result;
    }
    switch (q->algorithm) {
    case KT_ALGORITHM_AUTO: result.outcome = automatic(q, start, limit, result.path); break;
    case KT_ALGORITHM_WARNSDORFF: result.outcome = warnsdorff(q, start, limit, result.path); break;
    case KT_ALGORITHM_BACKTRACKING: result.outcome = search(q, start, false, limit, result.path); break;
    }
    if (result.outcome == KT_NONE_EXISTS)
        result.reason = q->closed ? "exhaustive search found no closed tour from this square"
                                  : "exhaustive search found no open tour from this square";
    if (result.outcome != KT_FOUND) {
        free(result.path);
        result.path = NULL;
    }
    return result;
}

void kt_result_free(kt_result *result) {
    free(result->path);
    result->path = NULL;
}
