/* The items' own costs in a rank or unrank: a JSON body of distinct numbers parsed, checked and read
 * into classes, and an arrangement of them written, timed and fitted (see items_cost.h). */
#include "api/arrangements/items_cost.h"

#include <stdint.h>

#include "api/arrangements/item_classes.h"
#include "api/fields.h"
#include "core/permutations/perm_cost.h"

/* The body's one field: an array of items, as a rank's `permutation` and an unrank's `items` are. */
static const api_field fields[] = {{"items", FIELD_ARRAY}, {NULL, 0}};

/* No limit of the server applies to what is timed: the item count read is passed as the most allowed. */
static const api_limits limits = {0};

/* A body of n distinct numbers in a scattered order, and the classes read from it once, which the
 * timed writing writes in that order (an unrank's answer is an arrangement of its items); `failed` when
 * memory ran out. */
typedef struct timed_items {
    const json_writer *body;
    size_t n;
    item_classes items;
    bool failed;
} timed_items;

/* The request's part: the body parsed and checked as the server does it, read into classes as the
 * rank's handler does, and freed. */
static void read_once(void *arg) {
    timed_items *t = arg;
    api_request req;
    api_request_init(&req);
    req.limits = &limits;
    item_classes items;
    if (!fields_parse_body(&req, t->body->data, t->body->len) || !fields_check(&req, fields) ||
        !item_classes_read(&req, "items", t->n, &items)) {
        t->failed = true;
        goto out;
    }
    item_classes_free(&items);
out:
    cJSON_Delete(req.params);
}

/* The answer's part: the arrangement's JSON array written into a fresh body, and freed. */
static void write_once(void *arg) {
    timed_items *t = arg;
    json_writer answer;
    bb_init(&answer);
    item_classes_write(&t->items, &answer, t->items.classes, t->n);
    t->failed = t->failed || answer.out_of_memory;
    bb_free(&answer);
}

/* An odd multiplier: i * it mod a power of two is a permutation of 0..n-1, scattered as a shuffle. */
#define SCATTER 2654435761u

/* Times n items read and written into *read_seconds and *write_seconds; false when memory ran out. */
static bool time_items(size_t n, double *read_seconds, double *write_seconds) {
    json_writer body;
    bb_init(&body);
    jw_str(&body, "{\"items\":[");
    for (size_t j = 0; j < n; j++) {
        if (j > 0) jw_char(&body, ',');
        jw_uint(&body, (uint64_t)((j * SCATTER) & (n - 1)));
    }
    jw_str(&body, "]}");
    timed_items run = {.body = &body, .n = n, .failed = body.out_of_memory};
    api_request req;
    api_request_init(&req);
    req.limits = &limits;
    if (run.failed || !fields_parse_body(&req, body.data, body.len) ||
        !item_classes_read(&req, "items", n, &run.items)) {
        run.failed = true;
        goto out;
    }
    *read_seconds = growth_time_fastest(read_once, &run, ITEMS_COST_RUNS);
    *write_seconds = growth_time_fastest(write_once, &run, ITEMS_COST_RUNS);
    item_classes_free(&run.items);
out:
    cJSON_Delete(req.params);
    bb_free(&body);
    return !run.failed;
}

bool items_cost_calibrate(items_cost *cost) {
    double sizes[PERM_COST_SIZES], read_seconds[PERM_COST_SIZES], write_seconds[PERM_COST_SIZES];
    for (size_t n = PERM_COST_FIRST_ITEMS, i = 0; i < PERM_COST_SIZES; i++, n *= PERM_COST_STEP) {
        sizes[i] = (double)n;
        if (!time_items(n, &read_seconds[i], &write_seconds[i])) return false;
    }
    *cost = items_cost_fit(sizes, read_seconds, write_seconds, PERM_COST_SIZES);
    return true;
}

items_cost items_cost_fit(const double *items, const double *read_seconds, const double *write_seconds, size_t count) {
    return (items_cost){.read = growth_fit_power(items, read_seconds, count),
                        .write = growth_fit_power(items, write_seconds, count)};
}

double items_cost_read_seconds(const items_cost *cost, double items) {
    return items > 0 ? growth_seconds(&cost->read, items) : 0;
}

double items_cost_write_seconds(const items_cost *cost, double items) {
    return items > 0 ? growth_seconds(&cost->write, items) : 0;
}
