/* The estimate of a rank's or unrank's work from its fields, before its items are read (the
 * endpoints' api_endpoint.estimate_seconds), and the refusal of a hopeless one
 * (api/cost_estimates.h): an arrangement of an array of items is estimated as the rank of that many
 * distinct items, from the model timed at start-up (core/permutations/perm_cost.h); text is not
 * estimated (its letters repeat, see api/cost_estimates.h). */
#ifndef PUZZLED_API_RANK_ESTIMATE_H
#define PUZZLED_API_RANK_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"

/* The model's seconds for ranking or unranking `items` distinct items: from PERM_COST_FIRST_ITEMS up
 * (below the sizes timed, the model says less than those ranks take, so it would call them small
 * work); negative below, or before the calibration. */
double rank_estimate_seconds(size_t items);

/* Fails 422 too_large naming `field` and returns false when `estimated_seconds` (the endpoint's
 * estimate) is hopeless within the request's time limit, the largest item count that may fit (at most
 * --max-rank-items) in the error ("items up to about N may fit"); else true. Called before the items
 * are read. */
bool rank_check_estimate(api_request *req, const char *field, const char *work, double estimated_seconds);

#endif
