/* A Fenwick (binary indexed) tree of counts over slots 0..n-1: prefix sums and "the r-th present
 * slot" in O(log n). Used to turn arrangements into Lehmer digits and back. */
#ifndef PUZZLED_CORE_FENWICK_H
#define PUZZLED_CORE_FENWICK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct fenwick {
    size_t n;
    size_t top;   /* the largest power of two <= n (0 when n == 0) */
    size_t *tree; /* 1-based, n + 1 entries */
} fenwick;

/* Slot i starts with count counts[i] (all 1 when counts is NULL). False when out of memory. */
bool fenwick_init(fenwick *f, size_t n, const size_t *counts);
void fenwick_free(fenwick *f);

/* Adds delta (may be negative, as two's complement) to slot i. */
void fenwick_add(fenwick *f, size_t i, size_t delta);
/* The sum of the counts of slots 0..i-1. */
size_t fenwick_prefix(const fenwick *f, size_t i);
/* The slot holding the r-th unit (0-based) of the total: the smallest i with prefix(i + 1) > r.
 * r must be below the total. */
size_t fenwick_select(const fenwick *f, size_t r);
/* The same, and *r becomes the rank of that unit within its slot (r less the counts of the slots
 * before it). */
size_t fenwick_select_within(const fenwick *f, size_t *r);

#endif
