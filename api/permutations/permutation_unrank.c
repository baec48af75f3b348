/* POST/GET /permutation/unrank: the arrangement of a given 0-based lexicographic rank, and the total:
 * of all the items, or with `k` of k of them, as /permutations lists them in lexicographic order;
 * distinct by default, as this endpoint always was (`distinct: false`: itertools order). */
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/permutation_items.h"
#include "core/permutations/perm_iter.h"
#include "core/common/progress.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY}, {"text", FIELD_STRING},      {"rank", FIELD_BIG_INTEGER},
    {"k", FIELD_INTEGER},   {"distinct", FIELD_BOOLEAN}, {NULL, 0},
};

static bool read_options(api_request *req, const perm_items *items, perm_spec *spec, mpz_t rank) {
    bool present = false;
    *spec = (perm_spec){items->classes, items->n, items->m, items->n, true, PERM_ORDER_LEXICOGRAPHIC};
    if (!param_big_uint(req, "rank", rank, &present)) return false;
    if (!present)
        return api_fail(req, API_MISSING_FIELD, "rank",
                        "'rank' is required: an integer in [0, total), as a number or a string of digits");
    return param_k(req, items->n, false, items->n, &spec->k) && param_bool(req, "distinct", true, &spec->distinct);
}

static bool answer_unrank(api_request *req, api_response *res) {
    perm_items items;
    if (!perm_items_read(req, "items", req->limits->max_rank_items, &items)) return false;
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    perm_spec spec;
    perm_iter iter = {0};
    bool ok = read_options(req, &items, &spec, rank), has_iter = false;
    core_status status = CORE_OK;
    if (ok) status = perm_count(total, &spec, &req->deadline);
    if (ok && status == CORE_OK && mpz_cmp(rank, total) >= 0)
        ok = param_fail_not_below(req, "rank", total, spec.distinct ? "distinct arrangements" : "arrangements");
    if (ok && status == CORE_OK) {
        progress_begin(req->deadline.progress, "items", spec.k); /* items of the answer placed */
        status = perm_iter_init(&iter, &spec, rank, &req->deadline);
        has_iter = status == CORE_OK;
    }
    if (ok) ok = api_fail_status(req, status);
    if (ok) {
        size_t changed;
        json_writer *out = &res->body;
        jw_clear(out);
        jw_char(out, '{');
        jw_key(out, "permutation");
        perm_items_write(&items, out, perm_iter_next(&iter, &changed), spec.k);
        jw_char(out, ',');
        jw_key(out, "total");
        jw_mpz_string(out, total);
        jw_char(out, '}');
    }
    if (has_iter) perm_iter_free(&iter);
    mpz_clears(rank, total, NULL);
    perm_items_free(&items);
    return ok;
}

const api_endpoint permutation_unrank_endpoint = {.fields = fields, .handler = answer_unrank};
