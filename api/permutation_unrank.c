/* POST/GET /permutation/unrank: the arrangement of a given 0-based lexicographic rank among the
 * distinct arrangements of the items, and their total. */
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/permutation_items.h"
#include "core/permutations/perm_count.h"
#include "core/permutations/perm_rank.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY},
    {"text", FIELD_STRING},
    {"rank", FIELD_BIG_INTEGER},
    {NULL, 0},
};

static bool answer_unrank(api_request *req, api_response *res) {
    perm_items items;
    if (!perm_items_read(req, "items", req->limits->max_rank_items, &items)) return false;
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    bool present = false, ok = param_big_uint(req, "rank", rank, &present);
    if (ok && !present)
        ok = api_fail(req, API_MISSING_FIELD, "rank",
                      "'rank' is required: an integer in [0, total), as a number or a string of digits");
    uint32_t *arrangement = malloc((items.n ? items.n : 1) * sizeof *arrangement);
    if (ok && arrangement == NULL) ok = api_fail_out_of_memory(req);
    core_status status = CORE_OK;
    if (ok) status = perm_count_distinct(total, items.mult, items.m, items.n, &req->deadline);
    if (ok && status == CORE_OK && mpz_cmp(rank, total) >= 0) ok = param_fail_not_below(req, "rank", total, "distinct arrangements");
    if (ok && status == CORE_OK) status = multiset_unrank(arrangement, items.mult, items.m, rank, &req->deadline);
    if (ok) ok = api_fail_status(req, status);
    if (ok) {
        json_writer *out = &res->body;
        jw_clear(out);
        jw_char(out, '{');
        jw_key(out, "permutation");
        perm_items_write(&items, out, arrangement, items.n);
        jw_char(out, ',');
        jw_key(out, "total");
        jw_mpz_string(out, total);
        jw_char(out, '}');
    }
    free(arrangement);
    mpz_clears(rank, total, NULL);
    perm_items_free(&items);
    return ok;
}

const api_endpoint permutation_unrank_endpoint = {fields, answer_unrank};
