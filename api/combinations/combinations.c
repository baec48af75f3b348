/* POST/GET /combinations: list (streamed), page through or count the k-combinations of a set or
 * multiset, itertools.combinations(sorted(items), k), or each distinct sub-multiset once. */
#include <stdint.h>
#include <stdlib.h>

#include "api/arrangement_listing.h"
#include "api/endpoints.h"
#include "api/params.h"
#include "api/permutation_items.h"
#include "core/combinations/comb_iter.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY},        {"text", FIELD_STRING},   {"k", FIELD_INTEGER},          {"distinct", FIELD_BOOLEAN},
    {"offset", FIELD_BIG_INTEGER}, {"limit", FIELD_INTEGER}, {"count_only", FIELD_BOOLEAN}, {NULL, 0},
};

static const uint32_t *next_combination_of(void *iter, size_t *changed) { return comb_iter_next(iter, changed); }

static void free_comb_iter(void *iter) {
    comb_iter_free(iter);
    free(iter);
}

typedef struct options {
    size_t k;
    bool distinct;
    mpz_t offset;
    uint64_t limit;
    bool count_only;
} options;

static bool read_options(api_request *req, const perm_items *items, options *o) {
    int64_t limit;
    bool present;
    if (!param_bool(req, "distinct", false, &o->distinct) || !param_bool(req, "count_only", false, &o->count_only) ||
        !param_big_uint(req, "offset", o->offset, &present) ||
        !param_int(req, "limit", 0, API_MAX_EXACT_INTEGER, API_MAX_EXACT_INTEGER, &limit))
        return false;
    if (!param_k(req, items->n, true, 0, &o->k)) return false;
    o->limit = param_present(req, "limit") ? (uint64_t)limit : UINT64_MAX; /* absent: no limit at all */
    return true;
}

static bool answer_combinations(api_request *req, api_response *res) {
    arrangement_listing *l = arrangement_listing_new();
    if (l == NULL) return api_fail_out_of_memory(req);
    options o = {0};
    mpz_init(o.offset);
    mpz_t count;
    mpz_init(count);
    bool ok = perm_items_read(req, "items", req->limits->max_rank_items, &l->items) && read_options(req, &l->items, &o);
    comb_spec spec = {l->items.mult, l->items.m, o.k, o.distinct};
    core_status status = CORE_OK;
    if (ok) status = comb_count(count, &spec, &req->deadline);
    if (ok && status == CORE_OK && !o.count_only && mpz_cmp(o.offset, count) < 0) {
        comb_iter *iter = malloc(sizeof *iter);
        status = iter == NULL ? CORE_NO_MEMORY : comb_iter_init(iter, &spec, o.offset, &req->deadline);
        if (status == CORE_OK) l->iter = iter;
        else free(iter);
    }
    if (ok) ok = api_fail_status(req, status);
    l->next = next_combination_of;
    l->free_iter = free_comb_iter;
    l->list_key = "combinations";
    ok = arrangement_listing_respond(req, res, l, ok, count, o.k, o.limit, o.count_only);
    mpz_clears(o.offset, count, NULL);
    return ok;
}

const api_endpoint combinations_endpoint = {.fields = fields, .handler = answer_combinations};
