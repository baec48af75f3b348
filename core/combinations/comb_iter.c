/* Stepping through combinations in lexicographic order (see comb_iter.h). */
#include "core/combinations/comb_iter.h"

#include <stdlib.h>
#include <string.h>

#include "core/combinations/comb_rank.h"

core_status comb_iter_init(comb_iter *it, const comb_spec *spec, const mpz_t offset, const deadline *dl) {
    memset(it, 0, sizeof *it);
    it->n = comb_item_count(spec);
    it->k = spec->k;
    it->subsets = comb_is_subsets(spec);
    it->positions = malloc((it->k ? it->k : 1) * sizeof *it->positions);
    it->out = malloc((it->k ? it->k : 1) * sizeof *it->out);
    it->classes = malloc((it->n ? it->n : 1) * sizeof *it->classes);
    it->class_end = malloc((spec->m ? spec->m : 1) * sizeof *it->class_end);
    if (it->positions == NULL || it->out == NULL || it->classes == NULL || it->class_end == NULL) {
        comb_iter_free(it);
        return CORE_NO_MEMORY;
    }
    size_t at = 0;
    for (size_t c = 0; c < spec->m; c++) {
        for (size_t i = 0; i < spec->mult[c]; i++) it->classes[at++] = (uint32_t)c;
        it->class_end[c] = (uint32_t)at;
    }
    core_status status = comb_unrank_positions(it->positions, spec, offset, dl);
    if (status != CORE_OK) {
        comb_iter_free(it);
        return status;
    }
    for (size_t i = 0; i < it->k; i++) it->out[i] = it->classes[it->positions[i]];
    it->fresh = true;
    return CORE_OK;
}

const uint32_t *comb_iter_next(comb_iter *it, size_t *changed) {
    if (it->fresh) {
        it->fresh = false;
        *changed = 0;
        return it->out;
    }
    if (it->done) return NULL;
    uint32_t *p = it->positions;
    for (size_t i = it->k; i-- > 0;) {
        size_t candidate = it->subsets ? p[i] + 1 : it->class_end[it->classes[p[i]]];
        if (candidate + (it->k - i) > it->n) continue;
        for (size_t j = i; j < it->k; j++) {
            p[j] = (uint32_t)(candidate + (j - i));
            it->out[j] = it->classes[p[j]];
        }
        *changed = i;
        return it->out;
    }
    it->done = true;
    return NULL;
}

void comb_iter_free(comb_iter *it) {
    free(it->positions);
    free(it->out);
    free(it->classes);
    free(it->class_end);
    memset(it, 0, sizeof *it);
}
