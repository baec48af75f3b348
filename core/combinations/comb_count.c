/* Combination counts: one binomial for subsets, the sub-multiset series for distinct multisets. */
#include "core/combinations/comb_count.h"

#include "core/combinations/comb_series.h"

size_t comb_item_count(const comb_spec *spec) {
    size_t n = 0;
    for (size_t c = 0; c < spec->m; c++) n += spec->mult[c];
    return n;
}

bool comb_is_subsets(const comb_spec *spec) { return !spec->distinct || comb_item_count(spec) == spec->m; }

core_status comb_count(mpz_t out, const comb_spec *spec, const deadline *dl) {
    size_t n = comb_item_count(spec), k = spec->k;
    if (k > n) {
        mpz_set_ui(out, 0);
        return CORE_OK;
    }
    if (comb_is_subsets(spec)) {
        mpz_bin_uiui(out, n, k);
        return CORE_OK;
    }
    comb_series series;
    if (comb_series_init(&series, k) != CORE_OK) return CORE_NO_MEMORY;
    core_status status = CORE_OK;
    size_t reach = 0; /* the series is zero above this degree */
    for (size_t c = 0; c < spec->m && status == CORE_OK; c++) {
        reach = reach + spec->mult[c] < k ? reach + spec->mult[c] : k;
        comb_series_times_class(&series, spec->mult[c], reach);
        if (deadline_expired(dl)) status = CORE_DEADLINE;
    }
    if (status == CORE_OK) mpz_set(out, series.coef[k]);
    comb_series_free(&series);
    return status;
}
