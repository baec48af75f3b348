/* Slot-by-slot unranking of distinct arrangements: at each slot try the candidate positions (the
 * earliest unused one of each class) in position order, skipping the completions of each; and the
 * ranking that counts those same completions. */
#include "core/permutations/perm_seek.h"

#include <stdbool.h>
#include <stdlib.h>

#include "core/permutations/perm_count.h"
#include "core/common/progress.h"

core_status distinct_seek(uint32_t *positions, const uint32_t *cls, size_t n, size_t m, size_t k, const mpz_t offset,
                          const deadline *dl) {
    size_t *mult = calloc(m ? m : 1, sizeof *mult);
    size_t *used = calloc(m ? m : 1, sizeof *used);
    size_t *occurrence = malloc((n ? n : 1) * sizeof *occurrence);
    bool *taken = calloc(n ? n : 1, sizeof *taken);
    core_status status = CORE_NO_MEMORY;
    mpz_t r, total, completions;
    mpz_inits(r, total, completions, NULL);
    if (mult == NULL || used == NULL || occurrence == NULL || taken == NULL) goto out;
    for (size_t p = 0; p < n; p++) occurrence[p] = mult[cls[p]]++;
    mpz_set(r, offset);
    status = k == n ? perm_count_distinct(total, mult, m, n, dl) : CORE_OK;
    for (size_t i = 0; i < k && status == CORE_OK; i++) {
        size_t len = n - i;
        bool chosen = false;
        for (size_t p = 0; p < n && !chosen && status == CORE_OK; p++) {
            size_t c = cls[p];
            if (taken[p] || occurrence[p] != used[c]) continue;
            if (k == n) {
                mpz_mul_ui(completions, total, mult[c]);
                mpz_divexact_ui(completions, completions, len);
            } else {
                mult[c]--;
                status = perm_count_distinct(completions, mult, m, k - i - 1, dl);
                mult[c]++;
            }
            if (mpz_cmp(r, completions) < 0) {
                positions[i] = (uint32_t)p;
                taken[p] = true;
                used[c]++;
                mult[c]--;
                mpz_swap(total, completions);
                chosen = true;
            } else {
                mpz_sub(r, r, completions);
            }
        }
        progress_add(progress_of(dl), 1);
        if (status == CORE_OK && deadline_expired(dl)) status = CORE_DEADLINE;
    }
    size_t next = k;
    for (size_t p = 0; p < n && status == CORE_OK; p++)
        if (!taken[p]) positions[next++] = (uint32_t)p;
out:
    mpz_clears(r, total, completions, NULL);
    free(mult);
    free(used);
    free(occurrence);
    free(taken);
    return status;
}

core_status distinct_rank(mpz_t rank, const uint32_t *seq, size_t k, const size_t *mult, size_t m, const deadline *dl) {
    size_t *left = malloc((m ? m : 1) * sizeof *left);
    if (left == NULL) return CORE_NO_MEMORY;
    for (size_t c = 0; c < m; c++) left[c] = mult[c];
    mpz_t completions;
    mpz_init(completions);
    mpz_set_ui(rank, 0);
    core_status status = CORE_OK;
    for (size_t i = 0; i < k && status == CORE_OK; i++) {
        for (size_t c = 0; c < seq[i] && status == CORE_OK; c++) {
            if (left[c] == 0) continue;
            left[c]--;
            status = perm_count_distinct(completions, left, m, k - i - 1, dl);
            left[c]++;
            mpz_add(rank, rank, completions);
        }
        left[seq[i]]--;
        progress_add(progress_of(dl), 1);
        if (status == CORE_OK && deadline_expired(dl)) status = CORE_DEADLINE;
    }
    mpz_clear(completions);
    free(left);
    return status;
}
