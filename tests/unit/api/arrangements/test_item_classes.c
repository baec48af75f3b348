/* api/arrangements/item_classes.c's item_classes_over(): whether a request's items are more than
 * ITEM_CLASSES_QUICK_MAX, counted against the length of the JSON array or text the test builds, on
 * both sides of the bound. Requests go through api/fields.c first, as the server sends them. */
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
