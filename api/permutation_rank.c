/* POST/GET /permutation/rank: the 0-based lexicographic rank of an arrangement among the distinct
 * arrangements of its multiset, and their total. */
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/permutation_items.h"
#include "core/permutations/perm_rank.h"

static const api_field fields[] = {
    {"permutation", FIELD_ARRAY},
    {"text", FIELD_STRING},
    {NULL, 0},
};

static bool answer_rank(api_request *req, api_response *res) {
    perm_items items;
    if (!perm_items_read(req, "permutation", req->limits->max_rank_items, &items)) return false;
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    core_status status = multiset_rank(rank, total, items.classes, items.n, items.m, &req->deadline);
    bool ok = api_fail_status(req, status);
    if (ok) {
        json_writer *out = &res->body;
        jw_clear(out);
        jw_char(out, '{');
        jw_key(out, "rank");
        jw_mpz_string(out, rank);
        jw_char(out, ',');
        jw_key(out, "total");
        jw_mpz_string(out, total);
        jw_char(out, '}');
    }
    mpz_clears(rank, total, NULL);
    perm_items_free(&items);
    return ok;
}

const api_endpoint permutation_rank_endpoint = {.fields = fields, .handler = answer_rank};
