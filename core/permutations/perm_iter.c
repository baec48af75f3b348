/* Arrangement iterators: next-permutation over class ids or positions, and the "earliest position
 * of each class" stepping for input order with repeats; started at an offset by unranking; and the
 * lexicographic rank that inverts that offset. */
#include "core/permutations/perm_iter.h"

#include <stdlib.h>
#include <string.h>

#include "core/permutations/next_permutation.h"
#include "core/permutations/perm_count.h"
#include "core/permutations/perm_rank.h"
#include "core/permutations/perm_seek.h"

enum {
    MODE_VALUES,    /* v holds class ids; next-permutation over values (lexicographic) */
    MODE_POSITIONS, /* v holds positions; next-permutation over positions, out = cls[v] */
    MODE_CANONICAL, /* v holds positions, each class using its earliest unused ones (input, distinct) */
};

core_status perm_count(mpz_t out, const perm_spec *spec, const deadline *dl) {
    if (!spec->distinct || spec->m == spec->n) {
        perm_count_k(out, spec->n, spec->k);
        return CORE_OK;
    }
    size_t *mult = calloc(spec->m, sizeof *mult);
    if (mult == NULL) return CORE_NO_MEMORY;
    for (size_t i = 0; i < spec->n; i++) mult[spec->classes[i]]++;
    core_status status = perm_count_distinct(out, mult, spec->m, spec->k, dl);
    free(mult);
    return status;
}

/* The next position tuple in which each class uses its earliest unused positions; v[k..n-1]
 * (the unused positions) ascending before and after. Returns the first changed index or n. */
static size_t next_canonical(perm_iter *it) {
    uint32_t *v = it->v;
    size_t n = it->n;
    for (size_t i = it->k; i-- > 0;) {
        /* The pool v[i+1..n-1] is ascending. Find its smallest q > v[i] that is the earliest of its
         * class among v[i..n-1]. */
        it->stamp++;
        it->seen[it->cls[v[i]]] = it->stamp;
        size_t found = n;
        for (size_t j = i + 1; j < n; j++) {
            uint32_t c = it->cls[v[j]];
            if (it->seen[c] == it->stamp) continue;
            it->seen[c] = it->stamp;
            if (v[j] > v[i]) {
                found = j;
                break;
            }
        }
        uint32_t old = v[i];
        if (found < n) {
            /* v[i] takes v[found]; old goes back into the pool in order (old < v[found]). */
            v[i] = v[found];
            size_t j = found;
            while (j > i + 1 && v[j - 1] > old) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = old;
            return i;
        }
        /* No successor at slot i: merge v[i] into the pool, making v[i..n-1] ascending. */
        size_t j = i;
        while (j + 1 < n && v[j + 1] < old) {
            v[j] = v[j + 1];
            j++;
        }
        v[j] = old;
    }
    return n;
}

/* Which of xyz xzy yxz yzx zxy zyx (x < y < z) the three distinct entries t[0..2] are. */
static unsigned tail_phase(const uint32_t *t) {
    unsigned smaller_after_first = (t[1] < t[0]) + (t[2] < t[0]);
    return 2 * smaller_after_first + (t[2] < t[1]);
}

core_status perm_iter_init(perm_iter *it, const perm_spec *spec, const mpz_t offset, const deadline *dl) {
    memset(it, 0, sizeof *it);
    size_t n = spec->n, m = spec->m, k = spec->k;
    bool repeats = m < n;
    bool input = spec->order == PERM_ORDER_INPUT;
    it->n = n;
    it->k = k;
    it->fresh = true;
    it->phase = 5;
    it->distinct_values = !repeats;
    it->mode = !input && (spec->distinct || !repeats) ? MODE_VALUES
               : input && spec->distinct && repeats   ? MODE_CANONICAL
                                                      : MODE_POSITIONS;
    size_t cells = n ? n : 1;
    it->v = malloc(cells * sizeof *it->v);
    it->cls = malloc(cells * sizeof *it->cls);
    size_t *mult = calloc(m ? m : 1, sizeof *mult);
    core_status status = CORE_NO_MEMORY;
    if (it->v == NULL || it->cls == NULL || mult == NULL) goto out;
    for (size_t i = 0; i < n; i++) mult[spec->classes[i]]++;
    if (input) {
        if (n > 0) memcpy(it->cls, spec->classes, n * sizeof *it->cls);
    } else { /* sorted: counting sort of the classes */
        size_t p = 0;
        for (size_t c = 0; c < m; c++)
            for (size_t t = 0; t < mult[c]; t++) it->cls[p++] = (uint32_t)c;
    }
    if (mpz_sgn(offset) == 0) { /* the first arrangement of every order: positions in order */
        for (size_t i = 0; i < n; i++) it->v[i] = it->mode == MODE_VALUES ? it->cls[i] : (uint32_t)i;
        status = CORE_OK;
    } else if (it->mode == MODE_VALUES && repeats && k == n) {
        status = multiset_unrank(it->v, mult, m, offset, dl);
    } else if (it->mode == MODE_POSITIONS || !repeats) {
        status = kperm_unrank(it->v, n, k, offset, dl); /* without repeats, positions are classes */
    } else {
        status = distinct_seek(it->v, it->cls, n, m, k, offset, dl);
        if (status == CORE_OK && it->mode == MODE_VALUES) /* else v is unwritten (found by fuzzing) */
            for (size_t i = 0; i < n; i++) it->v[i] = it->cls[it->v[i]];
    }
    if (status != CORE_OK) goto out;
    if (it->mode == MODE_VALUES) {
        it->out = it->v;
    } else {
        status = CORE_NO_MEMORY;
        it->out = malloc((k ? k : 1) * sizeof *it->out);
        if (it->out == NULL) goto out;
        for (size_t i = 0; i < k; i++) it->out[i] = it->cls[it->v[i]];
        if (it->mode == MODE_CANONICAL) {
            it->seen = calloc(m, sizeof *it->seen);
            if (it->seen == NULL) goto out;
        }
        status = CORE_OK;
    }
out:
    free(mult);
    if (status != CORE_OK) perm_iter_free(it);
    return status;
}

const uint32_t *perm_iter_step(perm_iter *it, size_t *changed) {
    if (it->fresh) {
        it->fresh = false;
        it->phased = it->mode == MODE_VALUES && it->distinct_values && it->k == it->n && it->n >= 3;
        it->phase = it->phased ? tail_phase(it->v + it->n - 3) : 5;
        *changed = 0;
        return it->out;
    }
    if (it->done) return NULL;
    size_t first;
    if (it->mode == MODE_CANONICAL) {
        first = next_canonical(it);
    } else {
        first = next_k_permutation(it->v, it->n, it->k, false);
    }
    it->phase = it->phased ? 0 : 5; /* a general step leaves the tail ascending */
    if (first >= it->k) {
        it->done = true;
        it->phased = false;
        it->phase = 5;
        return NULL;
    }
    if (it->mode != MODE_VALUES)
        for (size_t i = first; i < it->k; i++) it->out[i] = it->cls[it->v[i]];
    *changed = first;
    return it->out;
}

void perm_iter_free(perm_iter *it) {
    if (it->out != it->v) free(it->out);
    free(it->v);
    free(it->cls);
    free(it->seen);
    it->out = it->v = it->cls = NULL;
    it->seen = NULL;
}

core_status perm_rank_lexicographic(mpz_t rank, mpz_t total, const perm_spec *spec, const uint32_t *seq,
                                    const deadline *dl) {
    size_t n = spec->n, m = spec->m, k = spec->k;
    size_t *mult = calloc(m ? m : 1, sizeof *mult), *next = calloc(m ? m : 1, sizeof *next);
    uint32_t *positions = malloc((k ? k : 1) * sizeof *positions);
    core_status status = CORE_NO_MEMORY;
    if (mult == NULL || next == NULL || positions == NULL) goto out;
    for (size_t i = 0; i < n; i++) mult[spec->classes[i]]++;
    if (spec->distinct && k == n) {
        status = multiset_rank(rank, total, seq, n, m, dl);
    } else if (spec->distinct && m < n) {
        status = perm_count_distinct(total, mult, m, k, dl);
        if (status == CORE_OK) status = distinct_rank(rank, seq, k, mult, m, dl);
    } else { /* positions in the sorted items, each value at the earliest unused of its class */
        for (size_t c = 1; c < m; c++) next[c] = next[c - 1] + mult[c - 1];
        for (size_t i = 0; i < k; i++) positions[i] = (uint32_t)next[seq[i]]++;
        status = kperm_rank(rank, total, positions, n, k, dl);
    }
out:
    free(mult);
    free(next);
    free(positions);
    return status;
}
