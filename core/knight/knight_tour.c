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
        if (n == 1) return "a single square has no knight's move back to itself, so no closed tour exists";
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
    if (n == 1) return NULL; /* n is the longer side: a single square (and m * n could overflow an int) */
    if (m == 1) return "a knight cannot move at all on a board one square wide";
    if (m == 2)
        return "on a board two squares wide a knight only reaches squares two columns away, so it cannot visit "
               "every square";
    if (m % 2 == 1 && n % 2 == 1 && (q->start_row + q->start_col) % 2 == 1)
        return "on a board with an odd number of squares a tour must start on the majority colour (the colour of "
               "the corners), and this square has the other colour";
    bool inner_row = q->rows == 4 && (q->start_row == 1 || q->start_row == 2);
    bool inner_col = q->cols == 4 && (q->start_col == 1 || q->start_col == 2);
    if (inner_row || inner_col)
        return "on a board with a side of 4 the two outer lines only reach the two inner lines, so every open "
               "tour starts and ends on an outer line";
    return NULL;
}

/* An exhaustive search (no node limit: it ends with a path or with the whole tree searched). */
static core_status search(const kt_request *q, uint32_t start, bool ordered, const deadline *limit, uint32_t *path,
                          kt_outcome *outcome) {
    kt_search_spec spec = {.rows = q->rows,
                           .cols = q->cols,
                           .start = start,
                           .end = KT_NONE_SQUARE,
                           .ordered = ordered,
                           .closed = q->closed};
    kt_search_result result = KT_SEARCH_NONE;
    core_status status = kt_search_path(&spec, limit, path, &result);
    *outcome = result == KT_SEARCH_FOUND ? KT_FOUND : KT_NONE_EXISTS;
    return status;
}

static core_status warnsdorff(const kt_request *q, uint32_t start, const deadline *limit, uint32_t *path,
                              kt_outcome *outcome) {
    *outcome = KT_HEURISTIC_FAILED;
    for (uint64_t seed = 0; seed < WARNSDORFF_ATTEMPTS; seed++) {
        if (seed > 0 && deadline_expired(limit)) return CORE_DEADLINE;
        bool covered;
        core_status status = kt_warnsdorff_walk(q->rows, q->cols, start, q->closed, seed, path, &covered);
        if (status != CORE_OK) return status;
        if (covered) {
            *outcome = KT_FOUND;
            return CORE_OK;
        }
    }
    return CORE_OK;
}

static core_status automatic(const kt_request *q, uint32_t start, const deadline *limit, uint32_t *path,
                             kt_outcome *outcome) {
    *outcome = KT_FOUND;
    if (knight_tour_closed_exists(q->rows, q->cols)) return kt_construct_closed(q->rows, q->cols, start, path);
    /* open tours on boards without closed tours: both sides odd, or a side of 3 or 4 */
    bool built = false;
    core_status status = CORE_OK;
    if (q->rows == 3 || q->cols == 3) {
        status = kt_construct_spliced(&kt_strip_splicing, q->rows, q->cols, start, limit, path, &built);
    } else if ((q->rows == 4 && q->cols >= 5) || (q->cols == 4 && q->rows >= 5)) {
        status = kt_construct_spliced(&kt_four_rows_splicing, q->rows, q->cols, start, limit, path, &built);
    } else if (q->rows >= 5 && q->cols >= 5) { /* both odd */
        status = kt_construct_open_odd(q->rows, q->cols, start, limit, path, &built);
        if (status != CORE_OK) return status;
        if (!built) {
            status = warnsdorff(q, start, limit, path, outcome);
            built = *outcome == KT_FOUND;
        }
    }
    if (status != CORE_OK || built) return status;
    return search(q, start, true, limit, path, outcome);
}

core_status knight_tour_find(const kt_request *q, const deadline *limit, kt_result *result) {
    *result = (kt_result){.outcome = KT_NONE_EXISTS, .reason = knight_tour_impossibility(q)};
    if (result->reason != NULL) return CORE_OK;
    uint32_t n = (uint32_t)q->rows * (uint32_t)q->cols;
    uint32_t start = (uint32_t)q->start_row * (uint32_t)q->cols + (uint32_t)q->start_col;
    core_status status = CORE_NO_MEMORY;
    result->path = malloc(sizeof *result->path * n);
    if (result->path == NULL) goto out;
    switch (q->algorithm) {
    case KT_ALGORITHM_AUTO: status = automatic(q, start, limit, result->path, &result->outcome); break;
    case KT_ALGORITHM_WARNSDORFF: status = warnsdorff(q, start, limit, result->path, &result->outcome); break;
    case KT_ALGORITHM_BACKTRACKING: status = search(q, start, false, limit, result->path, &result->outcome); break;
    }
    if (status != CORE_OK) goto out;
    if (result->outcome == KT_NONE_EXISTS)
        result->reason = q->closed ? "exhaustive search found no closed tour from this square"
                                   : "exhaustive search found no open tour from this square";
out:
    if (status != CORE_OK || result->outcome != KT_FOUND) kt_result_free(result);
    return status;
}

void kt_result_free(kt_result *result) {
    free(result->path);
    result->path = NULL;
}
