/* POST/GET /permutation/unrank: the arrangement of a given 0-based lexicographic rank, and the total:
 * of all the items, or with `k` of k of them, as /permutations lists them in lexicographic order;
 * distinct by default, as this endpoint always was (`distinct: false`: itertools order). */
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/arrangements/item_classes.h"
#include "api/permutations/rank_estimate.h"
#include "core/common/decimal.h"
#include "core/common/fork_join.h"
#include "core/permutations/perm_iter.h"
#include "core/common/progress.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY}, {"text", FIELD_STRING},      {"rank", FIELD_BIG_INTEGER},
    {"k", FIELD_INTEGER},   {"distinct", FIELD_BOOLEAN}, {NULL, 0},
};

/* Checks the options; a rank given as a string of digits is left in *rank_digits to be read (the
 * total is counted meanwhile), a rank given as a JSON number is set. */
static bool read_options(api_request *req, const item_classes *items, perm_spec *spec, mpz_t rank,
                         const char **rank_digits) {
    bool present = false;
    *spec = (perm_spec){items->classes, items->n, items->m, items->n, true, PERM_ORDER_LEXICOGRAPHIC};
    if (!param_big_uint_check(req, "rank", rank, rank_digits, &present)) return false;
    if (!present)
        return api_fail(req, API_MISSING_FIELD, "rank",
                        "'rank' is required: an integer in [0, total), as a number or a string of digits");
    spec->distinct = param_flag(req, "distinct", true);
    return param_k(req, items->n, false, items->n, &spec->k);
}

/* A rank of this many digits or more is read while the total is counted (GMP's 10^6! takes 0.12 s,
 * reading 5.6M digits 0.15 s on two threads): the digits of a number of FORK_JOIN_MIN_BITS bits. */
#define RANK_DIGITS_WORTH_A_THREAD (FORK_JOIN_MIN_BITS * 30103 / 100000)

typedef struct total_count {
    mpz_ptr total;
    const perm_spec *spec;
    const deadline *dl;
    core_status status;
} total_count;

static void count_total(void *task) {
    total_count *c = task;
    c->status = perm_count(c->total, c->spec, c->dl);
}

typedef struct rank_reading {
    mpz_ptr rank;
    const char *digits; /* NULL: the rank was a JSON number, already set */
} rank_reading;

static void read_rank(void *task) {
    rank_reading *r = task;
    if (r->digits != NULL) decimal_read(r->rank, r->digits);
}

/* The arrangement is unranked while the total's digits are written: both take long for 10^6 items. */
typedef struct unranking {
    perm_iter *iter;
    const perm_spec *spec;
    mpz_srcptr rank;
    const deadline *dl;
    core_status status;
} unranking;

static void run_unranking(void *task) {
    unranking *u = task;
    u->status = perm_iter_init(u->iter, u->spec, u->rank, u->dl);
}

/* An array's unrank by the calibrated models, of `k` items when given (the numbers of k of n items are
 * larger than those of k distinct items; all n are read, k written); text is not estimated
 * (api/cost_estimates.h), nor an array over --max-rank-items (reading it refuses it). The field
 * counted is in *field. */
static double estimate_unrank(const api_request *req, const char **field) {
    size_t max = req->limits->max_rank_items, items = item_classes_count(req, "items", max), placed = items;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(req->params, "k");
    *field = "items";
    if (param_present(req, "text") || items > max) return -1;
    if (cJSON_IsNumber(k) && k->valuedouble >= 0 && k->valuedouble < (double)items) {
        *field = "k";
        placed = (size_t)k->valuedouble;
    }
    return rank_estimate_seconds((rank_work){.read = items, .ranked = placed, .written = placed});
}

static double estimate_unrank_seconds(const api_request *req) {
    const char *field;
    return estimate_unrank(req, &field);
}

static bool answer_unrank(api_request *req, api_response *res) {
    item_classes items;
    const char *counted;
    double estimate = estimate_unrank(req, &counted);
    if (!rank_check_estimate(req, counted, "unranking the arrangement", true, estimate)) return false;
    if (!item_classes_read(req, "items", req->limits->max_rank_items, &items)) return false;
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    perm_spec spec;
    perm_iter iter = {0};
    decimal_text total_text = {total, NULL, 0};
    bool ok = false, has_iter = false;
    const char *rank_digits = NULL;
    if (!read_options(req, &items, &spec, rank, &rank_digits)) goto out;
    total_count count = {total, &spec, &req->deadline, CORE_OK};
    rank_reading reading = {rank, rank_digits};
    fork_join(rank_digits != NULL && strlen(rank_digits) >= RANK_DIGITS_WORTH_A_THREAD, count_total, &count, read_rank,
              &reading);
    core_status status = count.status;
    if (status == CORE_OK && mpz_cmp(rank, total) >= 0) {
        param_fail_not_below(req, "rank", total, spec.distinct ? "distinct arrangements" : "arrangements");
        goto out;
    }
    if (status == CORE_OK) {
        total_text.text = malloc(decimal_room(total));
        if (total_text.text == NULL) status = CORE_NO_MEMORY;
    }
    if (status == CORE_OK) {
        progress_begin(req->deadline.progress, "items", spec.k); /* items of the answer placed */
        unranking unrank = {&iter, &spec, rank, &req->deadline, CORE_OK};
        fork_join(mpz_sizeinbase(total, 2) >= FORK_JOIN_MIN_BITS, run_unranking, &unrank, decimal_write_task,
                  &total_text);
        status = unrank.status;
        has_iter = status == CORE_OK;
    }
    if (!api_fail_status(req, status)) goto out;
    size_t changed;
    json_writer *body = &res->body;
    bb_clear(body);
    api_open_answer(body, "permutation_unrank");
    jw_key(body, "permutation");
    item_classes_write(&items, body, perm_iter_next(&iter, &changed), spec.k);
    jw_char(body, ',');
    jw_key(body, "total");
    jw_char(body, '"');
    bb_append(body, total_text.text, total_text.length);
    jw_str(body, "\"}");
    ok = true;
out:
    if (has_iter) perm_iter_free(&iter);
    free(total_text.text);
    mpz_clears(rank, total, NULL);
    item_classes_free(&items);
    return ok;
}

static bool unrank_long_running(const api_request *req) {
    return item_classes_over(req, "items", ITEM_CLASSES_QUICK_MAX) ||
           item_classes_over(req, "text", ITEM_CLASSES_QUICK_MAX);
}

const api_endpoint permutation_unrank_endpoint = {.fields = fields,
                                                  .handler = answer_unrank,
                                                  .long_running = unrank_long_running,
                                                  .estimate_seconds = estimate_unrank_seconds};
