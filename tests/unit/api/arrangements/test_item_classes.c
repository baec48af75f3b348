/* api/arrangements/item_classes.c's item_classes_over(): whether a request's items are more than
 * ITEM_CLASSES_QUICK_MAX, counted against the length of the JSON array or text the test builds, on
 * both sides of the bound. Requests go through api/fields.c first, as the server sends them. And the
 * classes of arrays of numbers of every length up to a few hundred (short ones sorted one way, long
 * ones another) against a brute-force count of the distinct values below each item. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/fields.h"
#include "api/arrangements/item_classes.h"

static const api_field fields[] = {{"items", FIELD_ARRAY}, {"text", FIELD_STRING}, {NULL, 0}};

static const api_limits limits = {.time_limit_ms = 5000};

/* {"items":[0,0,...]} with `count` items, or {"text":"aa..."} with `count` letters. */
static api_request request_with(size_t count, bool text) {
    size_t size = 32 + 2 * count;
    char *body = malloc(size);
    cr_assert_not_null(body);
    size_t at = (size_t)snprintf(body, size, text ? "{\"text\":\"" : "{\"items\":[");
    for (size_t i = 0; i < count; i++) {
        if (!text && i > 0) body[at++] = ',';
        body[at++] = text ? 'a' : '0';
    }
    snprintf(body + at, size - at, text ? "\"}" : "]}");
    api_request req = {.limits = &limits};
    cr_assert(fields_parse_body(&req, body, strlen(body)), "%s", req.error.message);
    cr_assert(fields_check(&req, fields), "%s", req.error.message);
    free(body);
    return req;
}

Test(item_classes, many_means_more_than_the_quick_bound) {
    static const size_t counts[] = {0,
                                    1,
                                    ITEM_CLASSES_QUICK_MAX - 1,
                                    ITEM_CLASSES_QUICK_MAX,
                                    ITEM_CLASSES_QUICK_MAX + 1,
                                    3 * ITEM_CLASSES_QUICK_MAX};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        for (int text = 0; text <= 1; text++) {
            api_request req = request_with(counts[i], text);
            const char *present = text ? "text" : "items", *absent = text ? "items" : "text";
            cr_assert_eq(item_classes_over(&req, present, ITEM_CLASSES_QUICK_MAX), counts[i] > ITEM_CLASSES_QUICK_MAX,
                         "%zu %s", counts[i], present);
            cr_assert_not(item_classes_over(&req, absent, ITEM_CLASSES_QUICK_MAX), "an absent field has no items");
            cJSON_Delete(req.params);
        }
}

/* A value of a small set (repeats certain), negatives, fractions and -0 (the same item as 0) among them. */
static double number_at(size_t i) {
    static const double values[] = {3, -0.0, 0, -2.5, 7, 1e300, -1e-300, 0.5, 3, -7, 2.5};
    return values[(i * 7 + i / 11) % (sizeof values / sizeof values[0])];
}

#define MOST_NUMBERS 300

Test(item_classes, numbers_of_any_count_are_numbered_by_value) {
    bool first[MOST_NUMBERS]; /* no earlier item holds the same value */
    for (size_t j = 0; j < MOST_NUMBERS; j++) {
        first[j] = true;
        for (size_t k = 0; k < j; k++) first[j] = first[j] && number_at(k) != number_at(j);
    }
    api_request req = {.limits = &limits};
    for (size_t n = 0; n <= MOST_NUMBERS; n++) {
        cJSON *array = cJSON_CreateArray();
        for (size_t i = 0; i < n; i++) cr_assert(cJSON_AddItemToArray(array, cJSON_CreateNumber(number_at(i))));
        item_classes items;
        cr_assert(item_classes_read_value(&req, "items", array, n, &items), "%zu items: %s", n, req.error.message);
        size_t distinct = 0;
        for (size_t i = 0; i < n; i++) {
            size_t below = 0; /* the distinct values below item i: its class */
            for (size_t j = 0; j < n; j++) below += first[j] && number_at(j) < number_at(i);
            cr_assert_eq(items.classes[i], below, "%zu items: item %zu", n, i);
            distinct += first[i];
        }
        cr_assert_eq(items.m, distinct, "%zu items", n);
        item_classes_free(&items);
        cJSON_Delete(array);
    }
}
