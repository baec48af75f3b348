/* POST/GET /combination/unrank: the k-combination of a given 0-based lexicographic rank among the
 * k-combinations of the items (distinct or not), and their total. */
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/arrangements/item_classes.h"
#include "core/combinations/comb_rank.h"
#include "core/common/progress.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY},      {"text", FIELD_STRING},      {"k", FIELD_INTEGER},
    {"distinct", FIELD_BOOLEAN}, {"rank", FIELD_BIG_INTEGER}, {NULL, 0},
};

static bool read_k_and_rank(api_request *req, const item_classes *items, size_t *k, mpz_t rank) {
    bool present = false;
    if (!param_k(req, items->n, true, 0, k) || !param_big_uint(req, "rank", rank, &present)) return false;
    if (!present)
        return api_fail(req, API_MISSING_FIELD, "rank",
                        "'rank' is required: an integer in [0, total), as a number or a string of digits");
    return true;
}

static bool answer_unrank(api_request *req, api_response *res) {
    item_classes items;
    if (!item_classes_read(req, "items", req->limits->max_rank_items, &items)) return false;
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    comb_spec spec = {items.mult, items.m, 0, param_flag(req, "distinct", false)};
    uint32_t *combination = NULL;
    bool ok = false;
    if (!read_k_and_rank(req, &items, &spec.k, rank)) goto out;
    combination = malloc((spec.k ? spec.k : 1) * sizeof *combination);
    if (combination == NULL) {
        api_fail_out_of_memory(req);
        goto out;
    }
    if (!api_fail_status(req, comb_count(total, &spec, &req->deadline))) goto out;
    if (mpz_cmp(rank, total) >= 0) {
        param_fail_not_below(req, "rank", total, "combinations");
        goto out;
    }
    progress_begin(req->deadline.progress, "items", spec.k); /* items placed */
    if (!api_fail_status(req, comb_unrank(combination, &spec, rank, &req->deadline))) goto out;
    json_writer *body = &res->body;
    bb_clear(body);
    api_open_answer(body, "combination_unrank");
    jw_key(body, "combination");
    item_classes_write(&items, body, combination, spec.k);
    jw_char(body, ',');
    jw_key(body, "total");
    jw_mpz_string(body, total);
    jw_char(body, '}');
    ok = true;
out:
    free(combination);
    mpz_clears(rank, total, NULL);
    item_classes_free(&items);
    return ok;
}

const api_endpoint combination_unrank_endpoint = {.fields = fields, .handler = answer_unrank};
