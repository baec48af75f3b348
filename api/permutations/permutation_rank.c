/* POST/GET /permutation/rank: the 0-based lexicographic rank of an arrangement, and the total. Alone,
 * the arrangement is ranked among the arrangements of its own items; with a pool (`pool` or
 * `pool_text`) it is a k-arrangement of the pool, ranked among the pool's k-arrangements as
 * /permutations lists them in lexicographic order. Distinct by default, as this endpoint always was;
 * `distinct: false` ranks in itertools.permutations(sorted(pool), k) order (the first occurrence). */
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/arrangements/item_selection.h"
#include "api/params.h"
#include "api/arrangements/item_classes.h"
#include "api/permutations/rank_estimate.h"
#include "core/permutations/perm_iter.h"
#include "core/common/progress.h"

static const api_field fields[] = {
    {"permutation", FIELD_ARRAY}, {"text", FIELD_STRING},      {"pool", FIELD_ARRAY},
    {"pool_text", FIELD_STRING},  {"distinct", FIELD_BOOLEAN}, {NULL, 0},
};

/* The pool and the arrangement's class ids: read together, or the arrangement alone as its own pool. */
static bool read_arrangement(api_request *req, item_selection *s) {
    size_t max = req->limits->max_rank_items;
    if (param_present(req, "pool") || param_present(req, "pool_text"))
        return item_selection_read(req, "pool", "pool_text", "permutation", "text", max, s);
    memset(s, 0, sizeof *s);
    if (!item_classes_read(req, "permutation", max, &s->pool)) return false;
    s->len = s->pool.n;
    s->classes = malloc((s->len ? s->len : 1) * sizeof *s->classes);
    if (s->classes == NULL) {
        item_selection_free(s);
        return api_fail_out_of_memory(req);
    }
    memcpy(s->classes, s->pool.classes, s->len * sizeof *s->classes);
    return true;
}

/* Items up to which a rank is small work (api/api.h's API_SMALL_WORK_SECONDS): a few microseconds,
 * bench/small measures 3 of them; ranks of the arrangements of a 16-item pool fit in 64 bits. */
#define RANK_SMALL_ITEMS 16

/* True when any of the request's item fields holds more than `max` items. */
static bool items_over(const api_request *req, size_t max) {
    return item_classes_over(req, "permutation", max) || item_classes_over(req, "text", max) ||
           item_classes_over(req, "pool", max) || item_classes_over(req, "pool_text", max);
}

/* Small work up to RANK_SMALL_ITEMS items; beyond, an array's rank by the calibrated models (the
 * arrangement's length counts: a k-arrangement of a larger pool has larger numbers than a permutation of
 * k items; the pool's items are read too); text is not estimated (api/cost_estimates.h), nor an array
 * over --max-rank-items (reading it refuses it). */
static double estimate_rank_seconds(const api_request *req) {
    if (!items_over(req, RANK_SMALL_ITEMS)) return API_SMALL_WORK_SECONDS;
    size_t max = req->limits->max_rank_items, items = item_classes_count(req, "permutation", max);
    size_t pool = item_classes_count(req, "pool", max);
    if (param_present(req, "text") || items > max || pool > max) return -1;
    return rank_estimate_seconds((rank_work){.read = items + pool, .ranked = items});
}

static bool answer_rank(api_request *req, api_response *res) {
    item_selection s;
    bool distinct = param_flag(req, "distinct", true);
    if (!rank_check_estimate(req, "permutation", "ranking the arrangement", false, estimate_rank_seconds(req)))
        return false;
    if (!read_arrangement(req, &s)) return false;
    perm_spec spec = {s.pool.classes, s.pool.n, s.pool.m, s.len, distinct, PERM_ORDER_LEXICOGRAPHIC};
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    progress_begin(req->deadline.progress, "items", s.len); /* items whose place in the rank is settled */
    bool ok = api_fail_status(req, perm_rank_lexicographic(rank, total, &spec, s.classes, &req->deadline));
    if (!ok) goto out;
    api_respond_rank(res, rank, total);
out:
    mpz_clears(rank, total, NULL);
    item_selection_free(&s);
    return ok;
}

static bool rank_long_running(const api_request *req) { return items_over(req, ITEM_CLASSES_QUICK_MAX); }

const api_endpoint permutation_rank_endpoint = {.fields = fields,
                                                .handler = answer_rank,
                                                .long_running = rank_long_running,
                                                .estimate_seconds = estimate_rank_seconds};
