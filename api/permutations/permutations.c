/* POST/GET /permutations: list (streamed), page through or count the arrangements of a set or
 * multiset, in lexicographic, input or "any" order, distinct or not, of length k. */
#include <stdint.h>
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/arrangement_listing.h"
#include "api/params.h"
#include "api/permutation_items.h"
#include "core/permutations/perm_iter.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY},      {"text", FIELD_STRING},        {"order", FIELD_STRING},
    {"distinct", FIELD_BOOLEAN}, {"k", FIELD_INTEGER},          {"offset", FIELD_BIG_INTEGER},
    {"limit", FIELD_INTEGER},    {"count_only", FIELD_BOOLEAN}, {NULL, 0},
};

static const char *const order_names[] = {"lexicographic", "input", "any", NULL};
static const perm_order orders[] = {PERM_ORDER_LEXICOGRAPHIC, PERM_ORDER_INPUT, PERM_ORDER_ANY};

/* The iterator behind the listing: the inline fast path of perm_iter_next stays inlined here. */
static const uint32_t *next_permutation_of(void *iter, size_t *changed) { return perm_iter_next(iter, changed); }

static void free_perm_iter(void *iter) {
    perm_iter_free(iter);
    free(iter);
}

typedef struct options {
    perm_order order;
    bool distinct;
    size_t k;
    mpz_t offset;
    uint64_t limit;
    bool count_only;
} options;

static bool read_options(api_request *req, const perm_items *items, options *o) {
    int order;
    int64_t limit;
    bool present;
    if (!param_choice(req, "order", order_names, 0, &order) || !param_bool(req, "distinct", false, &o->distinct) ||
        !param_bool(req, "count_only", false, &o->count_only) || !param_big_uint(req, "offset", o->offset, &present) ||
        !param_int(req, "limit", 0, API_MAX_EXACT_INTEGER, API_MAX_EXACT_INTEGER, &limit))
        return false;
    if (!param_k(req, items->n, false, items->n, &o->k)) return false;
    o->order = orders[order];
    o->limit = param_present(req, "limit") ? (uint64_t)limit : UINT64_MAX; /* absent: no limit at all */
    return true;
}

static bool answer_permutations(api_request *req, api_response *res) {
    arrangement_listing *l = arrangement_listing_new();
    if (l == NULL) return api_fail_out_of_memory(req);
    options o = {0};
    mpz_init(o.offset);
    mpz_t count;
    mpz_init(count);
    bool ok = perm_items_read(req, "items", req->limits->max_rank_items, &l->items) && read_options(req, &l->items, &o);
    perm_spec spec = {l->items.classes, l->items.n, l->items.m, o.k, o.distinct, o.order};
    core_status status = CORE_OK;
    if (ok) status = perm_count(count, &spec, &req->deadline);
    if (ok && status == CORE_OK && !o.count_only && mpz_cmp(o.offset, count) < 0) {
        perm_iter *iter = malloc(sizeof *iter);
        status = iter == NULL ? CORE_NO_MEMORY : perm_iter_init(iter, &spec, o.offset, &req->deadline);
        if (status == CORE_OK) l->iter = iter;
        else free(iter);
    }
    if (ok) ok = api_fail_status(req, status);
    l->next = next_permutation_of;
    l->free_iter = free_perm_iter;
    l->list_key = "permutations";
    ok = arrangement_listing_respond(req, res, l, ok, count, o.k, o.limit, o.count_only);
    mpz_clears(o.offset, count, NULL);
    return ok;
}

const api_endpoint permutations_endpoint = {.fields = fields, .handler = answer_permutations};
