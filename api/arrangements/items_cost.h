/* What a rank's or unrank's items cost beyond the rank itself (core/permutations/perm_cost.h), on this
 * machine, before the request runs: the request's JSON body of n distinct numbers parsed and checked
 * (api/fields.h), read into classes (item_classes.h) and freed, and an arrangement of those n items
 * written as the answer's JSON array (an unrank's answer), each timed at start-up on the item counts
 * the rank is timed on and fitted as a power of n (core/common/growth_fit.h).
 *
 * These costs are one thread's (the body is parsed on the I/O thread, the items read and written on
 * the worker before and after the rank), so they add to the rank's spread time as they are. Their
 * growth per item is not constant (the classes' sort and the writing of their texts miss cache more
 * as n grows): the fitted exponent is a little over 1. Left out: the body's arrival and the answer's
 * sending, and the ETag's hash of the fields (server/), and an unrank's rank given as digits, which
 * cJSON copies and the check reads as text (a few characters an item). Estimate against measured:
 * docs/estimates.md. */
#ifndef PUZZLED_API_ITEMS_COST_H
#define PUZZLED_API_ITEMS_COST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/common/growth_fit.h"

/* How many runs of each item count the calibration times (the fastest counts); the counts are the
 * rank's (PERM_COST_FIRST_ITEMS and on, core/permutations/perm_cost.h). */
#define ITEMS_COST_RUNS 2

typedef struct items_cost {
    growth_model read;  /* seconds to parse, check, read into classes and free a body of n distinct numbers */
    growth_model write; /* seconds to write an arrangement of n such items as a JSON array */
} items_cost;

/* Times reading and writing on the calling thread (processor time) for the sizes above and fits the
 * model into *cost. Runs at start-up, before any request. False when memory ran out. */
bool items_cost_calibrate(items_cost *cost);

/* The model fitted to `count` >= 2 timed runs (items[i] items read in read_seconds[i] and written in
 * write_seconds[i], on one thread): what items_cost_calibrate fits, for runs timed elsewhere. */
items_cost items_cost_fit(const double *items, const double *read_seconds, const double *write_seconds, size_t count);

/* The model's seconds for reading `items` items from a request's body; 0 for none. */
double items_cost_read_seconds(const items_cost *cost, double items);

/* The model's seconds for writing `items` items in an answer; 0 for none. */
double items_cost_write_seconds(const items_cost *cost, double items);

#endif
