/* Ranks' and unranks' estimates from the calibrated models, and their refusal (see rank_estimate.h). */
#include "api/permutations/rank_estimate.h"

#include "api/cost_estimates.h"

double rank_work_seconds(const perm_cost *rank, const items_cost *items, rank_work work) {
    return perm_cost_seconds(rank, (double)work.ranked) + items_cost_read_seconds(items, (double)work.read) +
           items_cost_write_seconds(items, (double)work.written);
}

/* The models and the shape of the work whose item count is searched. */
typedef struct work_shape {
    const perm_cost *rank;
    const items_cost *items;
    bool writes;
} work_shape;

static double shaped_seconds(const void *arg, double count) {
    const work_shape *shape = arg;
    size_t n = (size_t)count;
    return rank_work_seconds(shape->rank, shape->items, (rank_work){n, n, shape->writes ? n : 0});
}

size_t rank_work_largest_items(const perm_cost *rank, const items_cost *items, bool writes, double seconds,
                               size_t most) {
    work_shape shape = {rank, items, writes};
    return (size_t)growth_largest_fitting(shaped_seconds, &shape, seconds, 1, (long)most);
}

double rank_estimate_seconds(rank_work work) {
    const perm_cost *rank = api_rank_cost();
    const items_cost *items = api_items_cost();
    if (rank == NULL || items == NULL || work.ranked < PERM_COST_FIRST_ITEMS) return -1;
    return rank_work_seconds(rank, items, work);
}

bool rank_check_estimate(api_request *req, const char *field, const char *work, bool writes, double estimated_seconds) {
    const perm_cost *rank = api_rank_cost();
    const items_cost *items = api_items_cost();
    double limit = api_time_limit_seconds(req);
    /* what fits is a search of the models, worked out only for the refusal that names it */
    if (rank == NULL || items == NULL || estimated_seconds < 0 || !api_estimate_hopeless(estimated_seconds, limit))
        return true;
    size_t fits = rank_work_largest_items(rank, items, writes, limit, req->limits->max_rank_items);
    return api_check_measured_estimate(req, field, "items", work, estimated_seconds, limit, (int64_t)fits);
}
