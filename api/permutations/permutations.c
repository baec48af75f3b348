/* POST/GET /permutations: list (streamed), page through or count the arrangements of a set or
 * multiset, in lexicographic, input or "any" order, distinct or not, of length k. */
#include <stdint.h>
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/arrangements/arrangement_listing.h"
#include "api/params.h"
#include "api/arrangements/item_classes.h"
#include "core/permutations/perm_iter.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY},      {"text", FIELD_STRING},        {"order", FIELD_STRING},
    {"distinct", FIELD_BOOLEAN}, {"k", FIELD_INTEGER},          {"offset", FIELD_BIG_INTEGER},
    {"limit", FIELD_INTEGER},    {"count_only", FIELD_BOOLEAN}, {NULL, 0},
};

static const char *const order_names[] = {"lexicographic", "input", "any", NULL};
static const perm_order orders[] = {PERM_ORDER_LEXICOGRAPHIC, PERM_ORDER_INPUT, PERM_ORDER_ANY};

static bool read_spec(api_request *req, const item_classes *items, listing_options *o, void *spec) {
    int order;
    if (!param_choice(req, "order", order_names, 0, &order) || !param_k(req, items->n, false, items->n, &o->k))
        return false;
    *(perm_spec *)spec = (perm_spec){items->classes, items->n, items->m, o->k, o->distinct, orders[order]};
    return true;
}

static core_status count_permutations(mpz_t count, const void *spec, const deadline *limit) {
    return perm_count(count, spec, limit);
}

static core_status start_permutations(void *iter, const void *spec, const mpz_t offset, const deadline *limit) {
    return perm_iter_init(iter, spec, offset, limit);
}

/* The iterator behind the listing: the inline fast path of perm_iter_next stays inlined here. */
static const uint32_t *next_permutation_of(void *iter, size_t *changed) { return perm_iter_next(iter, changed); }

static void free_perm_iter(void *iter) {
    perm_iter_free(iter);
    free(iter);
}

/* All k = n entries, lexicographic ("any" is too): with no repeated class, every ordering. */
static bool lists_every_ordering(const void *spec) {
    const perm_spec *p = spec;
    return p->k == p->n && p->order != PERM_ORDER_INPUT;
}

static const arrangement_kind permutations_kind = {
    .list_key = "permutations",
    .total_kind = "permutations_total",
    .read = read_spec,
    .count = count_permutations,
    .iter_size = sizeof(perm_iter),
    .iter_init = start_permutations,
    .next = next_permutation_of,
    .free_iter = free_perm_iter,
    .every_ordering = lists_every_ordering,
};

static bool answer_permutations(api_request *req, api_response *res) {
    perm_spec spec;
    return arrangement_listing_answer(req, res, &permutations_kind, &spec);
}

const api_endpoint permutations_endpoint = {.fields = fields, .handler = answer_permutations};
