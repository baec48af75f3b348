/* Fenwick tree of counts: O(n) construction, O(log n) update, prefix sum and select. */
#include "core/common/fenwick.h"

#include <stdlib.h>

bool fenwick_init(fenwick *f, size_t n, const size_t *counts) {
    f->n = n;
    f->tree = malloc((n + 1) * sizeof *f->tree);
    if (f->tree == NULL) return false;
    f->tree[0] = 0;
    for (size_t i = 1; i <= n; i++) f->tree[i] = counts ? counts[i - 1] : 1;
    for (size_t i = 1; i <= n; i++) {
        size_t parent = i + (i & (~i + 1));
        if (parent <= n) f->tree[parent] += f->tree[i];
    }
    f->top = 0;
    if (n > 0) {
        f->top = 1;
        while (f->top <= n / 2) f->top *= 2;
    }
    return true;
}

void fenwick_free(fenwick *f) {
    free(f->tree);
    f->tree = NULL;
}

void fenwick_add(fenwick *f, size_t i, size_t delta) {
    for (size_t j = i + 1; j <= f->n; j += j & (~j + 1)) f->tree[j] += delta;
}

size_t fenwick_prefix(const fenwick *f, size_t i) {
    size_t sum = 0;
    for (size_t j = i; j > 0; j -= j & (~j + 1)) sum += f->tree[j];
    return sum;
}

/* Each step's choice is made with a mask, not a branch: it goes either way at random, so a branch
 * would be mispredicted at half the levels. */
size_t fenwick_select_within(const fenwick *f, size_t *r) {
    size_t pos = 0, rest = *r;
    for (size_t step = f->top; step > 0; step /= 2) {
        size_t next = pos + step;
        if (next > f->n) continue;
        size_t count = f->tree[next], forward = (size_t)0 - (count <= rest); /* all ones or zero */
        pos += step & forward;
        rest -= count & forward;
    }
    *r = rest;
    return pos;
}

size_t fenwick_select(const fenwick *f, size_t r) { return fenwick_select_within(f, &r); }
