/* The estimate of a rank's or unrank's work from its fields, before its items are read (the
 * endpoints' api_endpoint.estimate_seconds), and the refusal of a hopeless one
 * (api/cost_estimates.h): an arrangement of an array of items is estimated as the rank of that many
 * distinct items (core/permutations/perm_cost.h) plus its items read from the body and, for an
 * unrank, written in the answer (api/arrangements/items_cost.h), from the models timed at start-up;
 * text is not estimated (its letters repeat, see api/cost_estimates.h). */
#ifndef PUZZLED_API_RANK_ESTIMATE_H
#define PUZZLED_API_RANK_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"
#include "api/arrangements/items_cost.h"
#include "core/permutations/perm_cost.h"

/* A rank's or unrank's work, in items. */
typedef struct rank_work {
    size_t read;    /* items read from the body: the arrangement's (a rank's pool's too), an unrank's items */
    size_t ranked;  /* the arrangement's length: the items ranked, or unranked */
    size_t written; /* items written in the answer: an unrank's arrangement; 0 for a rank */
} rank_work;

/* The work's seconds: the rank's spread time for `ranked` items, plus one thread's time for reading
 * `read` and writing `written`. */
double rank_work_seconds(const perm_cost *rank, const items_cost *items, rank_work work);

/* The largest item count up to `most` whose work (that many read and ranked, and written when
 * `writes`) the models say takes at most `seconds`; 0 for none. */
size_t rank_work_largest_items(const perm_cost *rank, const items_cost *items, bool writes, double seconds,
                               size_t most);

/* The calibrated models' seconds for `work`: from PERM_COST_FIRST_ITEMS items ranked up (below the
 * sizes timed, the models say less than that work takes, so they would call it small work); negative
 * below, or before the calibration. */
double rank_estimate_seconds(rank_work work);

/* Fails 422 too_large naming `field` and returns false when `estimated_seconds` (the endpoint's
 * estimate) is hopeless within the request's time limit, the largest item count that may fit (at most
 * --max-rank-items; written too when `writes`) in the error ("items up to about N may fit"); else
 * true. Called before the items are read. */
bool rank_check_estimate(api_request *req, const char *field, const char *work, bool writes, double estimated_seconds);

#endif
