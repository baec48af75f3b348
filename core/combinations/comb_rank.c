/* Combination ranks: the combinatorial number system for subsets, the sub-multiset series for
 * distinct multisets (see comb_rank.h). */
#include "core/combinations/comb_rank.h"

#include <stdlib.h>

#include "core/combinations/comb_series.h"
#include "core/common/progress.h"

enum { POLL_EVERY = 1024 };

/* The walk over positions j = 0, 1, ... with r positions still to choose keeps `with` =
 * C(n-1-j, r-1), the number of subsets that take position j next. Moving on to j+1: taking j gives
 * C(a-1, b-1) = C(a, b) * b / a, passing it over gives C(a-1, b) = C(a, b) * (a-b) / a, where
 * a = n-1-j and b = r-1. */
static void step_past(mpz_t with, size_t n, size_t j, size_t r, int taken) {
    size_t a = n - 1 - j, b = r - 1;
    mpz_mul_ui(with, with, taken ? b : a - b);
    mpz_divexact_ui(with, with, a);
}

static core_status subset_rank(mpz_t rank, const uint32_t *positions, size_t n, size_t k, const deadline *dl) {
    mpz_set_ui(rank, 0);
    if (k == 0) return CORE_OK;
    mpz_t with;
    mpz_init(with);
    mpz_bin_uiui(with, n - 1, k - 1);
    core_status status = CORE_OK;
    size_t r = k, i = 0;
    for (size_t j = 0; status == CORE_OK; j++) {
        int taken = positions[i] == j;
        progress_add(progress_of(dl), (uint64_t)taken);
        if (taken && --r == 0) break;
        if (taken) i++;
        else mpz_add(rank, rank, with);
        step_past(with, n, j, taken ? r + 1 : r, taken);
        if (j % POLL_EVERY == 0 && deadline_expired(dl)) status = CORE_DEADLINE;
    }
    mpz_clear(with);
    return status;
}

static core_status subset_unrank(uint32_t *positions, size_t n, size_t k, const mpz_t rank, const deadline *dl) {
    if (k == 0) return CORE_OK;
    mpz_t left, with;
    mpz_init_set(left, rank);
    mpz_init(with);
    mpz_bin_uiui(with, n - 1, k - 1);
    core_status status = CORE_OK;
    size_t r = k, i = 0;
    for (size_t j = 0; status == CORE_OK; j++) {
        int taken = mpz_cmp(left, with) < 0;
        if (taken) {
            positions[i++] = (uint32_t)j;
            progress_add(progress_of(dl), 1);
            if (--r == 0) break;
        } else {
            mpz_sub(left, left, with);
        }
        step_past(with, n, j, taken ? r + 1 : r, taken);
        if (j % POLL_EVERY == 0 && deadline_expired(dl)) status = CORE_DEADLINE;
    }
    mpz_clears(left, with, NULL);
    return status;
}

/* The series of all classes, degrees 0..k. */
static core_status whole_series(comb_series *series, const comb_spec *spec, const deadline *dl) {
    if (comb_series_init(series, spec->k) != CORE_OK) return CORE_NO_MEMORY;
    size_t reach = 0;
    for (size_t c = 0; c < spec->m; c++) {
        reach = reach + spec->mult[c] < spec->k ? reach + spec->mult[c] : spec->k;
        comb_series_times_class(series, spec->mult[c], reach);
        if (deadline_expired(dl)) return CORE_DEADLINE;
    }
    return CORE_OK;
}

static size_t smaller(size_t a, size_t b) { return a < b ? a : b; }

/* Sub-multisets before the one with counts taken[c]: for each class, those that agree on the classes
 * before it and take more of it. */
static core_status multiset_rank(mpz_t rank, const comb_spec *spec, const uint32_t *combination, const deadline *dl) {
    mpz_set_ui(rank, 0);
    comb_series series;
    core_status status = whole_series(&series, spec, dl);
    size_t r = spec->k, at = 0;
    for (size_t c = 0; c < spec->m && r > 0 && status == CORE_OK; c++) {
        size_t taken = 0;
        while (at < spec->k && combination[at] == c) at++, taken++;
        comb_series_over_class(&series, spec->mult[c], r); /* now: the classes after c */
        for (size_t t = smaller(spec->mult[c], r); t > taken; t--) mpz_add(rank, rank, series.coef[r - t]);
        r -= taken;
        progress_add(progress_of(dl), taken);
        if (deadline_expired(dl)) status = CORE_DEADLINE;
    }
    comb_series_free(&series);
    return status;
}

static core_status multiset_unrank_positions(uint32_t *positions, const comb_spec *spec, const mpz_t rank,
                                             const deadline *dl) {
    mpz_t left;
    mpz_init_set(left, rank);
    comb_series series;
    core_status status = whole_series(&series, spec, dl);
    size_t r = spec->k, at = 0, start = 0;
    for (size_t c = 0; c < spec->m && r > 0 && status == CORE_OK; start += spec->mult[c], c++) {
        comb_series_over_class(&series, spec->mult[c], r);
        size_t t = smaller(spec->mult[c], r);
        for (; t > 0 && mpz_cmp(left, series.coef[r - t]) >= 0; t--) mpz_sub(left, left, series.coef[r - t]);
        for (size_t i = 0; i < t; i++) positions[at++] = (uint32_t)(start + i);
        r -= t;
        progress_add(progress_of(dl), t);
        if (deadline_expired(dl)) status = CORE_DEADLINE;
    }
    comb_series_free(&series);
    mpz_clear(left);
    return status;
}

core_status comb_rank(mpz_t rank, const comb_spec *spec, const uint32_t *combination, const deadline *dl) {
    if (!comb_is_subsets(spec)) return multiset_rank(rank, spec, combination, dl);
    uint32_t *positions = malloc((spec->k ? spec->k : 1) * sizeof *positions);
    if (positions == NULL) return CORE_NO_MEMORY;
    size_t start = 0, c = 0, occurrence = 0; /* the first occurrence: earliest positions of each class */
    for (size_t i = 0; i < spec->k; i++) {
        occurrence = i > 0 && combination[i] == combination[i - 1] ? occurrence + 1 : 0;
        for (; c < combination[i]; c++) start += spec->mult[c];
        positions[i] = (uint32_t)(start + occurrence);
    }
    core_status status = subset_rank(rank, positions, comb_item_count(spec), spec->k, dl);
    free(positions);
    return status;
}

core_status comb_unrank_positions(uint32_t *positions, const comb_spec *spec, const mpz_t rank, const deadline *dl) {
    if (comb_is_subsets(spec)) return subset_unrank(positions, comb_item_count(spec), spec->k, rank, dl);
    return multiset_unrank_positions(positions, spec, rank, dl);
}

core_status comb_unrank(uint32_t *combination, const comb_spec *spec, const mpz_t rank, const deadline *dl) {
    core_status status = comb_unrank_positions(combination, spec, rank, dl);
    size_t c = 0, end = spec->m ? spec->mult[0] : 0; /* positions ascend: walk the classes alongside */
    for (size_t i = 0; i < spec->k && status == CORE_OK; i++) {
        while (combination[i] >= end) end += spec->mult[++c];
        combination[i] = (uint32_t)c;
    }
    return status;
}
