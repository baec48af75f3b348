/* Ranking by binary splitting over Lehmer digits; unranking by balanced divisions into
 * factorial-base digits (or class-by-class stepping for multisets with repeats). */
#include "core/perm_rank.h"

#include <stdlib.h>

#include "core/fenwick.h"
#include "core/perm_count.h"

enum { SPLIT_POLL_SIZE = 512 }; /* ranges at least this long poll the deadline */

/* Over items [a, b): D = prod (n - i), P = prod mp[i] and
 * N = sum_i L[i] * prod_{a <= j < i} mp[j] * prod_{i < j < b} (n - j),
 * so that the rank of a whole arrangement is N(0, n) / P(0, n) and the total D(0, n) / P(0, n). */
static bool rank_split(mpz_t N, mpz_t D, mpz_t P, const size_t *L, const size_t *mp, size_t n, size_t a,
                       size_t b, const deadline *dl) {
    if (b - a == 1) {
        mpz_set_ui(N, L[a]);
        mpz_set_ui(D, n - a);
        mpz_set_ui(P, mp[a]);
        return true;
    }
    if (b - a >= SPLIT_POLL_SIZE && deadline_expired(dl)) return false;
    size_t mid = a + (b - a) / 2;
    mpz_t N2, D2, P2;
    mpz_inits(N2, D2, P2, NULL);
    bool ok = rank_split(N, D, P, L, mp, n, a, mid, dl) && rank_split(N2, D2, P2, L, mp, n, mid, b, dl);
    if (ok) {
        mpz_mul(N, N, D2);
        mpz_addmul(N, P, N2);
        mpz_mul(D, D, D2);
        mpz_mul(P, P, P2);
    }
    mpz_clears(N2, D2, P2, NULL);
    return ok;
}

perm_status multiset_rank(mpz_t rank, mpz_t total, const uint32_t *seq, size_t n, size_t m,
                          const deadline *dl) {
    mpz_set_ui(rank, 0);
    mpz_set_ui(total, 1);
    if (n == 0) return PERM_OK;
    size_t *mult = calloc(m, sizeof *mult);
    size_t *L = malloc(n * sizeof *L);
    size_t *mp = malloc(n * sizeof *mp);
    fenwick f = {0};
    perm_status status = PERM_NO_MEMORY;
    if (mult == NULL || L == NULL || mp == NULL) goto done;
    for (size_t i = 0; i < n; i++) mult[seq[i]]++;
    if (!fenwick_init(&f, m, mult)) goto done;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = seq[i];
        L[i] = fenwick_prefix(&f, c);
        mp[i] = mult[c]--;
        fenwick_add(&f, c, (size_t)-1);
    }
    mpz_t N, D, P;
    mpz_inits(N, D, P, NULL);
    status = PERM_DEADLINE;
    if (rank_split(N, D, P, L, mp, n, 0, n, dl)) {
        mpz_divexact(rank, N, P);
        mpz_divexact(total, D, P);
        status = PERM_OK;
    }
    mpz_clears(N, D, P, NULL);
done:
    fenwick_free(&f);
    free(mult);
    free(L);
    free(mp);
    return status;
}

/* Splits r (below prod_{a <= i < b} (n - i); destroyed) into digits[a..b-1], digit i in radix n - i,
 * the last digit least significant: halves by one balanced division per level. */
static bool to_factorial_digits(size_t *digits, size_t n, size_t a, size_t b, mpz_t r, const deadline *dl) {
    if (mpz_fits_ulong_p(r)) {
        unsigned long x = mpz_get_ui(r);
        for (size_t i = b; i-- > a;) {
            digits[i] = x % (n - i);
            x /= n - i;
        }
        return true;
    }
    if (b - a <= 16) {
        for (size_t i = b; i-- > a;) digits[i] = mpz_fdiv_q_ui(r, r, n - i);
        return true;
    }
    if (b - a >= SPLIT_POLL_SIZE && deadline_expired(dl)) return false;
    size_t mid = a + (b - a) / 2;
    mpz_t weight, low;
    mpz_inits(weight, low, NULL);
    range_product(weight, n - b + 1, n - mid + 1); /* prod_{mid <= i < b} (n - i) */
    mpz_fdiv_qr(r, low, r, weight);
    mpz_clear(weight);
    bool ok = to_factorial_digits(digits, n, a, mid, r, dl) && to_factorial_digits(digits, n, mid, b, low, dl);
    mpz_clear(low);
    return ok;
}

/* digits[0..k-1] (digit i below n - i) of rank, by divide and conquer. */
static perm_status factorial_digits(size_t **digits, size_t n, size_t k, const mpz_t rank, const deadline *dl) {
    *digits = malloc((k ? k : 1) * sizeof **digits);
    if (*digits == NULL) return PERM_NO_MEMORY;
    mpz_t r;
    mpz_init_set(r, rank);
    bool ok = k == 0 || to_factorial_digits(*digits, n, 0, k, r, dl);
    mpz_clear(r);
    return ok ? PERM_OK : PERM_DEADLINE;
}

perm_status kperm_unrank(uint32_t *positions, size_t n, size_t k, const mpz_t rank, const deadline *dl) {
    size_t *digits;
    perm_status status = factorial_digits(&digits, n, k, rank, dl);
    if (status != PERM_OK) {
        free(digits);
        return status;
    }
    fenwick f;
    if (!fenwick_init(&f, n, NULL)) {
        free(digits);
        return PERM_NO_MEMORY;
    }
    for (size_t i = 0; i < k; i++) {
        size_t p = fenwick_select(&f, digits[i]);
        positions[i] = (uint32_t)p;
        fenwick_add(&f, p, (size_t)-1);
    }
    size_t next = k;
    for (size_t p = 0; p < n; p++)
        if (fenwick_prefix(&f, p + 1) - fenwick_prefix(&f, p) == 1) positions[next++] = (uint32_t)p;
    fenwick_free(&f);
    free(digits);
    return PERM_OK;
}

/* Class by class: with T arrangements of the remaining `len` items and rank r < T, the first class is
 * the one whose block [T * cum / len, T * (cum + mult) / len) holds r. Switches to 128-bit words once
 * T fits in 64 bits. */
static perm_status stepwise_unrank(uint32_t *seq, size_t *mult, size_t m, size_t n, const mpz_t rank,
                                   const deadline *dl) {
    fenwick f;
    if (!fenwick_init(&f, m, mult)) return PERM_NO_MEMORY;
    mpz_t T, r, scaled;
    mpz_inits(T, r, scaled, NULL);
    perm_status status = perm_count_distinct(T, mult, m, n, dl);
    mpz_set(r, rank);
    size_t i = 0;
    for (; status == PERM_OK && i < n && !mpz_fits_ulong_p(T); i++) {
        size_t len = n - i;
        mpz_mul_ui(scaled, r, len);
        mpz_fdiv_q(scaled, scaled, T);
        size_t c = fenwick_select(&f, mpz_get_ui(scaled));
        size_t cum = fenwick_prefix(&f, c);
        mpz_mul_ui(scaled, T, cum);
        mpz_divexact_ui(scaled, scaled, len);
        mpz_sub(r, r, scaled);
        mpz_mul_ui(T, T, mult[c]);
        mpz_divexact_ui(T, T, len);
        seq[i] = (uint32_t)c;
        mult[c]--;
        fenwick_add(&f, c, (size_t)-1);
        if (i % 256 == 255 && deadline_expired(dl)) status = PERM_DEADLINE;
    }
    if (status == PERM_OK) {
        unsigned __int128 t = mpz_get_ui(T), x = mpz_get_ui(r);
        for (; i < n; i++) {
            size_t len = n - i;
            size_t c = fenwick_select(&f, (size_t)(x * len / t));
            size_t cum = fenwick_prefix(&f, c);
            x -= t * cum / len;
            t = t * mult[c] / len;
            seq[i] = (uint32_t)c;
            mult[c]--;
            fenwick_add(&f, c, (size_t)-1);
        }
    }
    mpz_clears(T, r, scaled, NULL);
    fenwick_free(&f);
    return status;
}

perm_status multiset_unrank(uint32_t *seq, const size_t *mult, size_t m, const mpz_t rank,
                            const deadline *dl) {
    size_t n = 0;
    for (size_t c = 0; c < m; c++) n += mult[c];
    if (n == m) {
        /* All distinct: class ids are positions in sorted order. */
        uint32_t *positions = malloc((n ? n : 1) * sizeof *positions);
        if (positions == NULL) return PERM_NO_MEMORY;
        perm_status status = kperm_unrank(positions, n, n, rank, dl);
        for (size_t i = 0; status == PERM_OK && i < n; i++) seq[i] = positions[i];
        free(positions);
        return status;
    }
    size_t *left = malloc(m * sizeof *left);
    if (left == NULL) return PERM_NO_MEMORY;
    for (size_t c = 0; c < m; c++) left[c] = mult[c];
    perm_status status = stepwise_unrank(seq, left, m, n, rank, dl);
    free(left);
    return status;
}
