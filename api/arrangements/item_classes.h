/* The items model shared by the permutation and combination endpoints (listings, rank, unrank): a JSON array of
 * any values or a text of Unicode code points, turned into small class ids ordered "by value"
 * (numbers numerically, then strings by code point, then anything else by its compact JSON text;
 * equal when equal that way), with each class's output text prepared once. */
#ifndef PUZZLED_API_ITEM_CLASSES_H
#define PUZZLED_API_ITEM_CLASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"

typedef struct item_classes {
    size_t n;          /* items */
    size_t m;          /* distinct classes; class ids 0..m-1 ascend by value */
    uint32_t *classes; /* n class ids, in input order */
    size_t *mult;      /* m multiplicities */
    bool text;         /* from `text`: arrangements are strings, else JSON arrays */
    char *texts;       /* class c's text is texts[start[c] .. start[c+1]): a JSON value, or the
                           escaped characters of a code point inside a JSON string */
    size_t *start;     /* m + 1 offsets */
} item_classes;

/* Reads exactly one of the array field `array_field` and the string field "text" (at most
 * `max_items` items, else 422 "too_large"). Returns false after api_fail(), holding nothing. */
bool item_classes_read(api_request *req, const char *array_field, size_t max_items, item_classes *items);

/* The same from a value already in hand: a string (its code points) or an array; errors blame
 * `field`. */
bool item_classes_read_value(api_request *req, const char *field, const cJSON *value, size_t max_items,
                             item_classes *items);

/* Items beyond which reading them alone takes longer than the express slice (about 200 ns an item
 * for 10^6 of them: cJSON's nodes walked, sorted into classes). */
#define ITEM_CLASSES_QUICK_MAX 65536

/* How many items the request's field (an array, or a text) holds, counted no further than max + 1 (a
 * text counted in bytes, at least its characters); 0 when it is absent. */
size_t item_classes_count(const api_request *req, const char *field, size_t max);

/* True when the request's field holds more than `max` items (item_classes_count). */
bool item_classes_over(const api_request *req, const char *field, size_t max);

void item_classes_free(item_classes *items);

/* Writes an arrangement of class ids as a JSON array of the values, or a JSON string for text. Each
 * class appears at most its multiplicity times (an arrangement or a combination of the items). */
void item_classes_write(const item_classes *items, json_writer *out, const uint32_t *arrangement, size_t len);

#endif
