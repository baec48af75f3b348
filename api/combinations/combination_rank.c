/* POST/GET /combination/rank: the 0-based lexicographic rank of a k-combination among the
 * k-combinations of the items (distinct or not), and their total. */
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/arrangements/item_selection.h"
#include "api/params.h"
#include "core/combinations/comb_rank.h"
#include "core/common/progress.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY},       {"text", FIELD_STRING},
    {"combination", FIELD_ARRAY}, {"combination_text", FIELD_STRING},
    {"distinct", FIELD_BOOLEAN},  {NULL, 0},
};

static int compare_classes(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool answer_rank(api_request *req, api_response *res) {
    item_selection s;
    if (!item_selection_read(req, "items", "text", "combination", "combination_text", req->limits->max_rank_items, &s))
        return false;
    qsort(s.classes, s.len, sizeof *s.classes, compare_classes); /* a combination is a sub-multiset */
    comb_spec spec = {s.pool.mult, s.pool.m, s.len, param_flag(req, "distinct", false)};
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    bool ok = false;
    core_status status = comb_count(total, &spec, &req->deadline);
    progress_begin(req->deadline.progress, "items", s.len); /* items whose place in the rank is settled */
    if (!api_fail_status(req, status)) goto out;
    if (!api_fail_status(req, comb_rank(rank, &spec, s.classes, &req->deadline))) goto out;
    api_respond_rank(res, rank, total);
    ok = true;
out:
    mpz_clears(rank, total, NULL);
    item_selection_free(&s);
    return ok;
}

const api_endpoint combination_rank_endpoint = {.fields = fields, .handler = answer_rank};
