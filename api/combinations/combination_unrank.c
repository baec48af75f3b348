/* POST/GET /combination/unrank: the k-combination of a given 0-based lexicographic rank among the
 * k-combinations of the items (distinct or not), and their total. */
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/permutation_items.h"
#include "core/combinations/comb_rank.h"
#include "core/common/progress.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY},      {"text", FIELD_STRING},      {"k", FIELD_INTEGER},
    {"distinct", FIELD_BOOLEAN}, {"rank", FIELD_BIG_INTEGER}, {NULL, 0},
};

static bool read_k_and_rank(api_request *req, const perm_items *items, size_t *k, mpz_t rank) {
    bool present = false;
    if (!param_k(req, items->n, true, 0, k) || !param_big_uint(req, "rank", rank, &present)) return false;
    if (!present)
        return api_fail(req, API_MISSING_FIELD, "rank",
                        "'rank' is required: an integer in [0, total), as a number or a string of digits");
    return true;
}

static bool answer_unrank(api_request *req, api_response *res) {
    perm_items items;
    if (!perm_items_read(req, "items", req->limits->max_rank_items, &items)) return false;
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    comb_spec spec = {items.mult, items.m, 0, false};
    bool ok = read_k_and_rank(req, &items, &spec.k, rank) && param_bool(req, "distinct", false, &spec.distinct);
    uint32_t *combination = malloc((spec.k ? spec.k : 1) * sizeof *combination);
    if (ok && combination == NULL) ok = api_fail_out_of_memory(req);
    core_status status = CORE_OK;
    if (ok) status = comb_count(total, &spec, &req->deadline);
    if (ok && status == CORE_OK && mpz_cmp(rank, total) >= 0)
        ok = param_fail_not_below(req, "rank", total, "combinations");
    if (ok && status == CORE_OK) progress_begin(req->deadline.progress, "items", spec.k); /* items placed */
    if (ok && status == CORE_OK) status = comb_unrank(combination, &spec, rank, &req->deadline);
    if (ok) ok = api_fail_status(req, status);
    if (ok) {
        json_writer *out = &res->body;
        jw_clear(out);
        jw_char(out, '{');
        jw_key(out, "combination");
        perm_items_write(&items, out, combination, spec.k);
        jw_char(out, ',');
        jw_key(out, "total");
        jw_mpz_string(out, total);
        jw_char(out, '}');
    }
    free(combination);
    mpz_clears(rank, total, NULL);
    perm_items_free(&items);
    return ok;
}

const api_endpoint combination_unrank_endpoint = {.fields = fields, .handler = answer_unrank};
