/* Ranks' and unranks' estimates from the calibrated model, and their refusal (see rank_estimate.h). */
#include "api/permutations/rank_estimate.h"

#include "api/cost_estimates.h"

double rank_estimate_seconds(size_t items) {
    const perm_cost *cost = api_rank_cost();
    if (cost == NULL || items < PERM_COST_FIRST_ITEMS) return -1;
    return perm_cost_seconds(cost, (double)items);
}

bool rank_check_estimate(api_request *req, const char *field, const char *work, double estimated_seconds) {
    const perm_cost *cost = api_rank_cost();
    if (cost == NULL || estimated_seconds < 0) return true;
    double limit = api_time_limit_seconds(req);
    size_t fits = perm_cost_largest_items(cost, limit, req->limits->max_rank_items);
    return api_check_measured_estimate(req, field, "items", work, estimated_seconds, limit, (int64_t)fits);
}
