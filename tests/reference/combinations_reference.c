/* The brute-force combinations of combinations_reference.h. */
#include "combinations_reference.h"

#include <stdlib.h>
#include <string.h>

static int compare_positions(const void *a, const void *b) {
    const comb_reference_entry *x = a, *y = b;
    for (size_t i = 0; i < COMB_REFERENCE_MAX_N; i++)
        if (x->positions[i] != y->positions[i]) return x->positions[i] < y->positions[i] ? -1 : 1;
    return 0;
}

static int compare_classes(const void *a, const void *b) {
    const comb_reference_entry *x = a, *y = b;
    for (size_t i = 0; i < COMB_REFERENCE_MAX_N; i++)
        if (x->classes[i] != y->classes[i]) return x->classes[i] < y->classes[i] ? -1 : 1;
    return compare_positions(a, b);
}

static void list_by_bit_masks(comb_reference_case *c) {
    uint32_t class_of[COMB_REFERENCE_MAX_N];
    size_t n = 0;
    for (size_t class = 0; class < c->m; class ++)
        for (size_t i = 0; i < c->mult[class]; i++) class_of[n++] = (uint32_t) class;
    c->count = 0;
    for (unsigned mask = 0; mask < 1u << n; mask++) {
        if ((size_t)__builtin_popcount(mask) != c->k) continue;
        comb_reference_entry e;
        memset(&e, 0, sizeof e);
        size_t at = 0;
        for (size_t p = 0; p < n; p++) {
            if (mask >> p & 1) {
                e.positions[at] = (uint32_t)p;
                e.classes[at++] = class_of[p];
            }
        }
        c->list[c->count++] = e;
    }
    qsort(c->list, c->count, sizeof *c->list, c->distinct ? compare_classes : compare_positions);
    if (!c->distinct) return;
    size_t kept = 0; /* sorted by classes then positions: the first of each run has the earliest positions */
    for (size_t i = 0; i < c->count; i++)
        if (kept == 0 || memcmp(c->list[kept - 1].classes, c->list[i].classes, sizeof c->list[i].classes) != 0)
            c->list[kept++] = c->list[i];
    c->count = kept;
}

void comb_reference_random_case(comb_reference_case *out, bool distinct, unsigned *seed) {
    out->n = (size_t)(rand_r(seed) % (COMB_REFERENCE_MAX_N + 1));
    out->m = out->n ? 1 + (size_t)(rand_r(seed) % out->n) : 0;
    for (size_t class = 0; class < out->m; class ++) out->mult[class] = 1;
    for (size_t i = out->m; i < out->n; i++) out->mult[rand_r(seed) % out->m]++;
    out->k = (size_t)(rand_r(seed) % (out->n + 2));
    out->distinct = distinct;
    list_by_bit_masks(out);
}

size_t comb_reference_first_of_classes(const comb_reference_case *c, size_t i) {
    size_t first = 0;
    while (memcmp(c->list[first].classes, c->list[i].classes, sizeof c->list[i].classes) != 0) first++;
    return first;
}

void comb_reference_each_random_case(int trials, comb_reference_check *check) {
    comb_reference_case *c = malloc(sizeof *c); /* 9 KiB of list: not on the stack */
    if (c == NULL) abort();
    unsigned seed = 2026;
    for (int trial = 0; trial < trials; trial++) {
        comb_reference_random_case(c, trial % 2 == 1, &seed);
        check(c, trial, &seed);
    }
    free(c);
}
