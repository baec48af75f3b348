/* A pool of items and a selection from it, read together so both are classed by value alike (as
 * /combination/rank and /permutation/rank with a pool need): the pool is an array in `pool_field` or
 * a string in `pool_text_field`, the selection an array in `selection_field` with an array pool, or
 * a string in `selection_text_field` with a text pool. */
#ifndef PUZZLED_API_ITEM_SELECTION_H
#define PUZZLED_API_ITEM_SELECTION_H

#include <stddef.h>
#include <stdint.h>

#include "api/arrangements/item_classes.h"

typedef struct item_selection {
    item_classes pool; /* classes ascend by value; every class occurs in the pool */
    uint32_t *classes; /* the selection's class ids, in the order given */
    size_t len;
} item_selection;

/* Reads both (each at most `max_items` items). A selected item that is not in the pool, or that is
 * selected more times than the pool holds it, is a 400 on the selection field. Returns false after
 * api_fail(). */
bool item_selection_read(api_request *req, const char *pool_field, const char *pool_text_field,
                         const char *selection_field, const char *selection_text_field, size_t max_items,
                         item_selection *selection);

void item_selection_free(item_selection *selection);

#endif
