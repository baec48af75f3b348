/* An iterator over k-combinations (see comb_count.h) holding one combination and O(n) state, able to
 * start at any offset by unranking, without generating the combinations before it.
 *
 * The combination is kept as k ascending positions into the sorted items. The next one moves the
 * last position that can still move to the next candidate position (the next position for subsets,
 * the first position of the next class for distinct sub-multisets) and packs the positions after it
 * right behind it; the last position that can move is the last whose candidate leaves room for the
 * positions after it. As for the textbook subset successor, the scan is amortized O(1). */
#ifndef PUZZLED_CORE_COMB_ITER_H
#define PUZZLED_CORE_COMB_ITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "core/combinations/comb_count.h"

typedef struct comb_iter {
    size_t n, k;
    bool subsets;        /* candidates are the next position; else the next class's first one */
    uint32_t *positions; /* k ascending positions */
    uint32_t *classes;   /* the class at each of the n sorted positions */
    uint32_t *class_end; /* one past the last position of each class */
    uint32_t *out;       /* the current combination: k class ids */
    bool fresh;          /* the current combination has not been returned yet */
    bool done;
} comb_iter;

/* Positions the iterator on the offset-th combination (offset below comb_count). */
core_status comb_iter_init(comb_iter *it, const comb_spec *spec, const mpz_t offset, const deadline *dl);

/* The next combination (k ascending class ids, valid until the next call), or NULL after the last.
 * *changed receives the first index that differs from the previous combination (0 for the first). */
const uint32_t *comb_iter_next(comb_iter *it, size_t *changed);

void comb_iter_free(comb_iter *it);

#endif
