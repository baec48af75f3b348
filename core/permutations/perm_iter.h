/* Iterators over the arrangements of a multiset of small integer class ids (0..m-1, ordered as
 * numbers), holding one arrangement and O(n) state, able to start at any offset without generating
 * the arrangements before it.
 *
 * Orders (all generate k-arrangements, k <= n):
 *  - PERM_ORDER_LEXICOGRAPHIC: sort the items, then step next-permutation (std::next_permutation).
 *    Not distinct: the k-permutations of the sorted item positions in lexicographic position order,
 *    i.e. itertools.permutations(sorted(items), k); distinct: each distinct sequence once, ascending.
 *  - PERM_ORDER_INPUT: itertools.permutations(items, k), lexicographic in input positions; distinct
 *    keeps the first occurrence of each sequence (equivalently: position tuples where each class
 *    uses its earliest unused positions, in lexicographic position order).
 *  - PERM_ORDER_ANY: the fastest order here, which is the lexicographic one: next-permutation
 *    touches amortized fewer than e (~2.72) entries per step and lets the caller rewrite only the
 *    changed tail, and it is the only order whose unranking and k/distinct variants share one path.
 *
 * Stepping: next-permutation on the whole array after reversing the unused tail (so k-prefixes come
 * in order); for input order with repeats, the smallest larger "first of its class" position at the
 * deepest slot that has one. */
#ifndef PUZZLED_CORE_PERM_ITER_H
#define PUZZLED_CORE_PERM_ITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "core/common/deadline.h"
#include "core/common/status.h"

typedef enum perm_order { PERM_ORDER_LEXICOGRAPHIC, PERM_ORDER_INPUT, PERM_ORDER_ANY } perm_order;

typedef struct perm_spec {
    const uint32_t *classes; /* n class ids in input order, each below m, every class present */
    size_t n;
    size_t m;
    size_t k; /* arrangement length, at most n */
    bool distinct;
    perm_order order;
} perm_spec;

typedef struct perm_iter {
    int mode;
    size_t n, k;
    uint32_t *v;   /* the n entries stepped: class ids or positions */
    uint32_t *cls; /* the class at each position (sorted or input order), or NULL */
    uint32_t *out; /* the current arrangement (k class ids): v itself when v holds class ids */
    size_t *seen;  /* per-class stamps for input order with repeats */
    size_t stamp;
    bool fresh; /* the current arrangement has not been returned yet */
    bool done;
    bool distinct_values; /* no class repeats */
    bool phased;          /* whole arrangements of distinct class ids past the first: inline fast path */
    unsigned phase;       /* phased: which of the 6 orders of its 3 entries the tail is in (0 ascending);
                        otherwise 5, so the inline path is never taken */
} perm_iter;

/* The number of arrangements `spec` describes (the same in every order). */
core_status perm_count(mpz_t out, const perm_spec *spec, const deadline *dl);

/* Positions the iterator on the offset-th arrangement (offset below perm_count) by unranking. */
core_status perm_iter_init(perm_iter *it, const perm_spec *spec, const mpz_t offset, const deadline *dl);

/* The general step behind perm_iter_next. */
const uint32_t *perm_iter_step(perm_iter *it, size_t *changed);

/* The next arrangement (k class ids, valid until the next call), or NULL after the last.
 * *changed receives the first index that differs from the previous arrangement (0 for the first).
 * Inline for distinct items in lexicographic order, where the last three entries run through their
 * six orders xyz xzy yxz yzx zxy zyx before anything else moves: those five steps are a fixed swap
 * of the last two or rotation of the last three, chosen by a counter instead of comparisons. */
static inline const uint32_t *perm_iter_next(perm_iter *it, size_t *changed) {
    if (it->phase < 5) {
        uint32_t *tail = it->v + it->n - 3;
        unsigned phase = it->phase++; /* 1: xzy -> yxz, 3: yzx -> zxy, even: swap the last two */
        uint32_t a = tail[0], b = tail[1], c = tail[2];
        /* Write all three as separate words in every case, so the next step's loads match the
         * stores exactly (merged or partial stores defeat store-to-load forwarding). */
        uint32_t x = phase == 1 ? c : phase == 3 ? b : a;
        uint32_t y = phase == 1 ? a : phase == 3 ? c : c;
        uint32_t z = phase == 1 ? b : phase == 3 ? a : b;
        *(volatile uint32_t *)&tail[0] = x;
        *(volatile uint32_t *)&tail[1] = y;
        *(volatile uint32_t *)&tail[2] = z;
        *changed = it->n - (phase & 1 ? 3 : 2);
        return it->v;
    }
    return perm_iter_step(it, changed);
}

void perm_iter_free(perm_iter *it);

/* The inverse of perm_iter_init in lexicographic order: the rank of seq[0..k-1] (class ids, a
 * sub-multiset of spec's items) among the arrangements `spec` describes, and their total. Without
 * `distinct` a repeated value makes arrangements repeat; this is the rank of the first occurrence
 * (each value at the earliest unused position of its class), as Python's list.index finds it. */
core_status perm_rank_lexicographic(mpz_t rank, mpz_t total, const perm_spec *spec, const uint32_t *seq,
                                    const deadline *dl);

#endif
