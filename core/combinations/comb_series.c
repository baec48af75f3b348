/* Sub-multiset counting series (see comb_series.h). */
#include "core/combinations/comb_series.h"

#include <stdlib.h>

core_status comb_series_init(comb_series *s, size_t cap) {
    s->cap = cap;
    s->coef = malloc((cap + 1) * sizeof *s->coef);
    if (s->coef == NULL) return CORE_NO_MEMORY;
    for (size_t r = 0; r <= cap; r++) mpz_init(s->coef[r]);
    mpz_set_ui(s->coef[0], 1);
    return CORE_OK;
}

void comb_series_free(comb_series *s) {
    if (s->coef == NULL) return;
    for (size_t r = 0; r <= s->cap; r++) mpz_clear(s->coef[r]);
    free(s->coef);
    s->coef = NULL;
}

void comb_series_times_class(comb_series *s, size_t mult, size_t upto) {
    mpz_t *c = s->coef;
    size_t step = mult + 1;
    for (size_t r = upto; r >= step; r--) mpz_sub(c[r], c[r], c[r - step]); /* times (1 - x^(m+1)) */
    for (size_t r = 1; r <= upto; r++) mpz_add(c[r], c[r], c[r - 1]);       /* over (1 - x) */
}

void comb_series_over_class(comb_series *s, size_t mult, size_t upto) {
    mpz_t *c = s->coef;
    size_t step = mult + 1;
    for (size_t r = upto; r >= 1; r--) mpz_sub(c[r], c[r], c[r - 1]);       /* times (1 - x) */
    for (size_t r = step; r <= upto; r++) mpz_add(c[r], c[r], c[r - step]); /* over (1 - x^(m+1)) */
}
