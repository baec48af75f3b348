/* POST/GET /combinations: list (streamed), page through or count the k-combinations of a set or
 * multiset, itertools.combinations(sorted(items), k), or each distinct sub-multiset once. */
#include <stdint.h>
#include <stdlib.h>

#include "api/arrangements/arrangement_listing.h"
#include "api/endpoints.h"
#include "api/params.h"
#include "api/arrangements/item_classes.h"
#include "core/combinations/comb_iter.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY},        {"text", FIELD_STRING},   {"k", FIELD_INTEGER},          {"distinct", FIELD_BOOLEAN},
    {"offset", FIELD_BIG_INTEGER}, {"limit", FIELD_INTEGER}, {"count_only", FIELD_BOOLEAN}, {NULL, 0},
};

static bool read_spec(api_request *req, const item_classes *items, listing_options *o, void *spec) {
    if (!param_k(req, items->n, true, 0, &o->k)) return false;
    *(comb_spec *)spec = (comb_spec){items->mult, items->m, o->k, o->distinct};
    return true;
}

static core_status count_combinations(mpz_t count, const void *spec, const deadline *limit) {
    return comb_count(count, spec, limit);
}

static core_status start_combinations(void *iter, const void *spec, const mpz_t offset, const deadline *limit) {
    return comb_iter_init(iter, spec, offset, limit);
}

static const uint32_t *next_combination_of(void *iter, size_t *changed) { return comb_iter_next(iter, changed); }

static void free_comb_iter(void *iter) {
    comb_iter_free(iter);
    free(iter);
}

static const arrangement_kind combinations_kind = {
    .list_key = "combinations",
    .total_kind = "combinations_total",
    .read = read_spec,
    .count = count_combinations,
    .iter_size = sizeof(comb_iter),
    .iter_init = start_combinations,
    .next = next_combination_of,
    .free_iter = free_comb_iter,
};

static bool answer_combinations(api_request *req, api_response *res) {
    comb_spec spec;
    return arrangement_listing_answer(req, res, &combinations_kind, &spec);
}

const api_endpoint combinations_endpoint = {.fields = fields, .handler = answer_combinations};
