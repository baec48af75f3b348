/* POST/GET /permutations: list (streamed), page through or count the arrangements of a set or
 * multiset, in lexicographic, input or "any" order, distinct or not, of length k. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/permutation_items.h"
#include "core/permutations/perm_iter.h"

static const api_field fields[] = {
    {"items", FIELD_ARRAY},
    {"text", FIELD_STRING},
    {"order", FIELD_STRING},
    {"distinct", FIELD_BOOLEAN},
    {"k", FIELD_INTEGER},
    {"offset", FIELD_BIG_INTEGER},
    {"limit", FIELD_INTEGER},
    {"count_only", FIELD_BOOLEAN},
    {NULL, 0},
};

static const char *const order_names[] = {"lexicographic", "input", "any", NULL};
static const perm_order orders[] = {PERM_ORDER_LEXICOGRAPHIC, PERM_ORDER_INPUT, PERM_ORDER_ANY};


typedef enum { PART_HEAD, PART_ITEMS, PART_TAIL } stream_part;

enum { BATCH_BYTES = 64 * 1024 };

/* The streamed answer. The current arrangement's text is kept in `line`, with the end of each entry
 * in `entry_end`, so a step rewrites only the entries that changed (amortized under three); whole
 * arrangements are gathered in `batch` with plain copies and handed over once per call. */
typedef struct listing {
    perm_items items;
    perm_iter iter;
    bool has_iter;     /* false when the offset is past the end: an empty list */
    bool ndjson;
    stream_part part;
    char *count;       /* decimal */
    uint64_t left;     /* arrangements still to send (the limit) */
    bool first;
    char *line;        /* '[' or '"' and the entries, without the closing character */
    size_t *entry_end; /* k offsets into line */
    char *batch;       /* BATCH_BYTES plus room for one more arrangement */
    size_t batch_len;
} listing;

static void free_listing(void *state) {
    listing *l = state;
    if (l->has_iter) perm_iter_free(&l->iter);
    perm_items_free(&l->items);
    free(l->count);
    free(l->line);
    free(l->entry_end);
    free(l->batch);
    free(l);
}

/* Room for the longest arrangement: every item once, with separators, quotes and a newline. */
static size_t longest_line(const perm_items *items) {
    size_t bytes = 4;
    for (size_t i = 0; i < items->n; i++) {
        uint32_t c = items->classes[i];
        bytes += 1 + items->start[c + 1] - items->start[c];
    }
    return bytes;
}

/* Rewrites line from entry `from` on and appends the whole arrangement (after a separator unless
 * it is the first) to the batch. */
static void write_arrangement(listing *l, const uint32_t *a, size_t from) {
    const perm_items *items = &l->items;
    size_t k = l->iter.k;
    size_t len = from == 0 ? 1 : l->entry_end[from - 1];
    for (size_t i = from; i < k; i++) {
        if (i > 0 && !items->text) l->line[len++] = ',';
        size_t size = items->start[a[i] + 1] - items->start[a[i]];
        memcpy(l->line + len, items->texts + items->start[a[i]], size);
        len += size;
        l->entry_end[i] = len;
    }
    char *to = l->batch + l->batch_len;
    if (!l->first && !l->ndjson) *to++ = ',';
    memcpy(to, l->line, len);
    to += len;
    *to++ = items->text ? '"' : ']';
    if (l->ndjson) *to++ = '\n';
    l->batch_len = (size_t)(to - l->batch);
    l->first = false;
}

static stream_status next_part(void *state, json_writer *out, size_t want) {
    listing *l = state;
    size_t start = out->len;
    if (l->part == PART_HEAD) {
        if (!l->ndjson) {
            jw_str(out, "{\"count\":\"");
            jw_str(out, l->count);
            jw_str(out, "\",\"permutations\":[");
        }
        l->part = l->has_iter && l->left > 0 ? PART_ITEMS : PART_TAIL;
    }
    while (l->part == PART_ITEMS && out->len - start < want && !out->out_of_memory) {
        while (l->part == PART_ITEMS && out->len - start + l->batch_len < want && l->batch_len < BATCH_BYTES) {
            size_t changed;
            const uint32_t *a = perm_iter_next(&l->iter, &changed);
            if (a == NULL) {
                l->part = PART_TAIL;
                break;
            }
            write_arrangement(l, a, l->first ? 0 : changed);
            if (--l->left == 0) l->part = PART_TAIL;
        }
        jw_raw(out, l->batch, l->batch_len);
        l->batch_len = 0;
    }
    if (l->part != PART_TAIL) return STREAM_MORE;
    if (!l->ndjson) jw_str(out, "]}");
    return STREAM_DONE;
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
    int64_t k, limit;
    bool present;
    if (!param_choice(req, "order", order_names, 0, &order) || !param_bool(req, "distinct", false, &o->distinct) ||
        !param_bool(req, "count_only", false, &o->count_only) || !param_big_uint(req, "offset", o->offset, &present) ||
        !param_int(req, "limit", 0, API_MAX_EXACT_INTEGER, API_MAX_EXACT_INTEGER, &limit))
        return false;
    if (param_present(req, "k") && !param_int(req, "k", 0, (int64_t)items->n, 0, &k))
        return api_fail(req, API_INVALID_FIELD, "k",
                        "'k' must be an integer from 0 to the number of items (%zu)", items->n);
    o->order = orders[order];
    o->k = param_present(req, "k") ? (size_t)k : items->n;
    o->limit = param_present(req, "limit") ? (uint64_t)limit : UINT64_MAX; /* absent: no limit at all */
    return true;
}

static bool answer_permutations(api_request *req, api_response *res) {
    listing *l = calloc(1, sizeof *l);
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
        status = perm_iter_init(&l->iter, &spec, o.offset, &req->deadline);
        l->has_iter = status == CORE_OK;
    }
    if (ok) ok = api_fail_status(req, status);
    if (ok) {
        l->count = mpz_get_str(NULL, 10, count);
        l->entry_end = malloc((o.k ? o.k : 1) * sizeof *l->entry_end);
        l->line = malloc(longest_line(&l->items));
        l->batch = malloc(BATCH_BYTES + longest_line(&l->items) + 1);
        if (l->line != NULL) l->line[0] = l->items.text ? '"' : '[';
        if (l->count == NULL || l->entry_end == NULL || l->line == NULL || l->batch == NULL)
            ok = api_fail_out_of_memory(req);
    }
    if (ok && o.count_only) {
        jw_clear(&res->body);
        jw_str(&res->body, "{\"count\":\"");
        jw_str(&res->body, l->count);
        jw_str(&res->body, "\"}");
    }
    mpz_clears(o.offset, count, NULL);
    if (!ok || o.count_only) {
        free_listing(l);
        return ok;
    }
    l->ndjson = req->ndjson;
    l->left = o.limit;
    l->first = true;
    api_respond_stream(res, l, next_part, free_listing, req->ndjson);
    return true;
}

const api_endpoint permutations_endpoint = {.fields = fields, .handler = answer_permutations};
