/* Knight's tours: an open or closed tour of a rows x cols board from a given square, or a proof that
 * none exists (by theorem or by exhaustive search). */
#ifndef PUZZLED_CORE_KNIGHT_TOUR_H
#define PUZZLED_CORE_KNIGHT_TOUR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"

typedef enum kt_algorithm {
    KT_ALGORITHM_AUTO,         /* always right: theorems, constructions, heuristics, exhaustive search */
    KT_ALGORITHM_WARNSDORFF,   /* the heuristic alone (with tie-breaking and a few retries); may fail */
    KT_ALGORITHM_BACKTRACKING, /* plain textbook depth-first search */
} kt_algorithm;

/* What a search that did not fail (see core_status) found. */
typedef enum kt_outcome {
    KT_FOUND,
    KT_NONE_EXISTS,      /* proven: `reason` says how */
    KT_HEURISTIC_FAILED, /* Warnsdorff got stuck every time: nothing is proven */
} kt_outcome;

typedef struct kt_request {
    int rows, cols;
    int start_row, start_col;
    bool closed;
    kt_algorithm algorithm;
} kt_request;

typedef struct kt_result {
    kt_outcome outcome;
    const char *reason; /* KT_NONE_EXISTS: a static sentence */
    uint32_t *path;     /* KT_FOUND: rows*cols squares (row * cols + col), first = start */
} kt_result;

/* Largest board the plain backtracking accepts (it could not finish beyond toy sizes anyway). */
#define KT_BACKTRACKING_MAX_SQUARES 10000u

/* rows, cols >= 1, start on the board. On CORE_OK `*result` says what was found (kt_result_free it);
 * otherwise it holds nothing to free. */
core_status knight_tour_find(const kt_request *request, const deadline *limit, kt_result *result);
void kt_result_free(kt_result *result);

/* Why a theorem rules out the tour, or NULL when no theorem applies. */
const char *knight_tour_impossibility(const kt_request *request);

/* Whether Schwenk's theorem allows a closed tour on rows x cols. */
bool knight_tour_closed_exists(int rows, int cols);

#endif
