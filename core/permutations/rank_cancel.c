/* Cancelling known common factors out of the rank's binary splitting (rank_cancel.h).
 *
 * Over items [a, b) the splitting keeps N, D = prod (n - j) and P = prod mp[j], with
 * S(a, b) = N / P = sum_i L[i] / mp[i] * prod_{i < j < b} (n - j) / mp[j]. Let M(b) be the number of
 * arrangements of items b..n-1 (the multinomial of their class counts; M(n) = 1). Then
 * M(b) S(a, b) = sum_i L[i] M(i + 1) / mp[i], a sum of whole numbers (each term counts the
 * arrangements of items i..n-1 that begin with a smaller class), so S(a, b)'s denominator in lowest
 * terms, q, divides both P and M(b), and N = (S q) (P / q) is a multiple of P / gcd(P, M(b)). So
 * G = gcd(P / gcd(P, M(b)), D) divides N, D and P, and dividing all three by it changes neither
 * N / P nor D / P; joining two ranges (N D2 + P N2, D D2, P P2) is the same on the smaller numbers.
 * Every prime of P is at most the largest multiplicity, and the exponents of the primes up to there
 * in D, P and M(b) come from Legendre's formula (D and M(b) are quotients of factorials) and from a
 * sweep over the multiplicities, so G is built from its prime factorisation without any gcd.
 *
 * A reduced range holds D as R times S: R, an mpz, the product of the prime factors of its (n - j)
 * above the largest multiplicity (never cancelled: P has none), and S, the rest, as exponents in the
 * plan like P, whose number is not kept. Joining two ranges then divides by G without a division:
 * with H the part of G that both S2 and P1 hold, N / G = (N1 R2 (S2 / H) + (P1 / H) N2) / (G / H), the
 * factors S2 / H and P1 / H built from their exponents, and G / H (1 or small) the one exact
 * division left; R = R1 R2. A range shorter than the threshold comes with its plain N, D and P; its R
 * is multiplied out afresh from its integers n - j, their small primes sieved out.
 *
 * For 10^6 letters of a 26-letter text the sums of the three numbers' sizes over each level of the
 * splitting shrink 4.3 times at the top level, 3.6 at the next, 2.5 at ranges of 62,500 items and
 * 1.9 at 15,625 (at the top P becomes 1: the rank is N and the total R S). Ranges near the end (M(b)
 * small) lose nearly all of P; ranges near the start keep P's large primes, which M(b) also has. */
#include "core/permutations/rank_cancel.h"

#include <stdlib.h>
#include <string.h>

#include "core/common/fork_join.h"
#include "core/common/prime_powers.h"

enum {
    RANK_CANCEL_MIN_SIZE = 4096,           /* shorter ranges are left as they are: little to cancel */
    RANK_CANCEL_MAX_RANGES = 256,          /* the threshold is at least n / this: bounds memory */
    RANK_CANCEL_MAX_MULTIPLICITY = 1 << 16 /* a larger multiplicity: no plan (the primes' table) */
};

/* One join's exponent rows (rank_cancel.h: scratch): S2 / H, P1 / H and G / H. */
enum { ROW_RIGHT_S, ROW_LEFT_P, ROW_EXCESS, SCRATCH_ROWS };

/* Appends the middles of the reduced ranges within [a, b) (at `depth` in the splitting) in ascending
 * order (ends come from callers), and counts the depths of reduced ranges. */
static void collect_bounds(rank_cancel *c, size_t a, size_t b, size_t depth) {
    if (b - a < c->threshold) return;
    size_t mid = rank_split_middle(a, b);
    collect_bounds(c, a, mid, depth + 1);
    if (c->bounds != NULL) c->bounds[c->bound_count] = mid;
    c->bound_count++;
    c->depths = depth + 1 > c->depths ? depth + 1 : c->depths;
    collect_bounds(c, mid, b, depth + 1);
}

/* Where the reduced range [a, b) keeps its S's and P's exponents (two rows): one place per depth, per
 * side of its parent and per half of the top level. A left range's rows wait there for its parent's
 * join while the right one's subtree is assembled on the same thread; the two halves of the top level
 * run on two threads; so no two live ranges share a place. */
static uint32_t *range_rows(const rank_cancel *c, size_t a, size_t b) {
    size_t lo = 0, hi = c->n, depth = 0, right = 0, half = 0;
    while (lo != a || hi != b) {
        size_t mid = rank_split_middle(lo, hi);
        right = a >= mid;
        if (right) lo = mid;
        else hi = mid;
        if (depth++ == 0) half = right;
    }
    return c->ranges + ((depth * 2 + right) * 2 + half) * 2 * c->prime_count;
}

static size_t bound_index(const rank_cancel *c, size_t at) {
    size_t lo = 0, hi = c->bound_count - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->bounds[mid] < at) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* suffix_p at every bound: one sweep from the last item down, factoring each multiplicity into the
 * row of the next bound below (begun as a copy of the row above it). */
static void sweep_multiplicities(rank_cancel *c, const size_t *mp, const uint16_t *factor_index) {
    size_t pc = c->prime_count, k = c->bound_count - 1; /* bounds[k] = n: nothing after it */
    memset(c->suffix_p + k * pc, 0, pc * sizeof *c->suffix_p);
    memcpy(c->suffix_p + (k - 1) * pc, c->suffix_p + k * pc, pc * sizeof *c->suffix_p);
    for (size_t j = c->n; j-- > 0;) {
        uint32_t *row = c->suffix_p + (k - 1) * pc;
        for (size_t v = mp[j]; v > 1;) {
            uint16_t i = factor_index[v];
            uint32_t p = c->primes[i];
            do {
                v /= p;
                row[i]++;
            } while (v % p == 0);
        }
        if (j == c->bounds[k - 1] && --k > 0) memcpy(c->suffix_p + (k - 1) * pc, row, pc * sizeof *row);
    }
}

bool rank_cancel_init(rank_cancel *c, const size_t *mp, size_t n) {
    *c = (rank_cancel){.n = n, .threshold = RANK_CANCEL_MIN_SIZE};
    if (c->threshold < n / RANK_CANCEL_MAX_RANGES + 1) c->threshold = n / RANK_CANCEL_MAX_RANGES + 1;
    size_t largest = 0;
    for (size_t j = 0; j < n; j++) largest = mp[j] > largest ? mp[j] : largest;
    if (n < c->threshold || largest < 2 || largest > RANK_CANCEL_MAX_MULTIPLICITY) return false;
    collect_bounds(c, 0, n, 0);
    c->bound_count += 2; /* 0 and n */
    c->bounds = malloc(c->bound_count * sizeof *c->bounds);
    c->primes = malloc((largest / 2 + 1) * sizeof *c->primes);
    uint16_t *factor_index = malloc((largest + 1) * sizeof *factor_index);
    bool ok = false;
    if (c->bounds == NULL || c->primes == NULL || factor_index == NULL) goto out;
    c->prime_count = primes_sieve((uint32_t)largest, c->primes, factor_index);
    c->suffix_p = malloc(c->bound_count * c->prime_count * sizeof *c->suffix_p);
    c->ranges = malloc(c->depths * 2 * 2 * 2 * c->prime_count * sizeof *c->ranges);
    c->scratch = malloc(2 * SCRATCH_ROWS * c->prime_count * sizeof *c->scratch);
    c->interval = malloc(2 * c->threshold * sizeof *c->interval);
    if (c->suffix_p == NULL || c->ranges == NULL || c->scratch == NULL || c->interval == NULL) goto out;
    c->bound_count = 0;
    c->bounds[c->bound_count++] = 0;
    collect_bounds(c, 0, n, 0);
    c->bounds[c->bound_count++] = n;
    sweep_multiplicities(c, mp, factor_index);
    ok = true;
out:
    free(factor_index);
    if (!ok) rank_cancel_free(c);
    return ok;
}

void rank_cancel_free(rank_cancel *c) {
    free(c->primes);
    free(c->bounds);
    free(c->suffix_p);
    free(c->ranges);
    free(c->scratch);
    free(c->interval);
    *c = (rank_cancel){0};
}

/* The exponents of primes[i] in S (D's part over the primes up to the largest multiplicity) and P of
 * the range [a, b) as they are now: a reduced range's as its join left them, a shorter one's from the
 * factorials (nothing was cancelled out of it). */
typedef struct range_exponents {
    const uint32_t *d, *p; /* a reduced range's stored exponents, or NULL */
    size_t from, to;       /* a shorter range: n - a and n - b */
    const uint32_t *suffix_from, *suffix_to;
} range_exponents;

static range_exponents exponents_of(const rank_cancel *c, size_t a, size_t b) {
    if (b - a >= c->threshold) {
        const uint32_t *rows = range_rows(c, a, b);
        return (range_exponents){.d = rows, .p = rows + c->prime_count};
    }
    return (range_exponents){.from = c->n - a,
                             .to = c->n - b,
                             .suffix_from = c->suffix_p + bound_index(c, a) * c->prime_count,
                             .suffix_to = c->suffix_p + bound_index(c, b) * c->prime_count};
}

static void exponents_at(const range_exponents *r, size_t i, uint32_t p, uint32_t *d, uint32_t *pe) {
    if (r->d != NULL) {
        *d = r->d[i];
        *pe = r->p[i];
    } else {
        *d = factorial_exponent(r->from, p) - factorial_exponent(r->to, p);
        *pe = r->suffix_from[i] - r->suffix_to[i];
    }
}

/* D = R for a range [a, b) shorter than the threshold, which comes with D = R S: the product of the
 * integers n - b + 1 .. n - a, each with every prime up to the largest multiplicity divided out (a
 * sieve over that interval, in `interval`), multiplied in words. */
static void keep_rough_part(const rank_cancel *c, size_t a, size_t b, mpz_t D, uint64_t *interval) {
    if (b - a >= c->threshold) return;
    size_t low = c->n - b + 1, length = b - a;
    for (size_t k = 0; k < length; k++) interval[k] = low + k;
    for (size_t i = 0; i < c->prime_count; i++) {
        uint32_t p = c->primes[i];
        for (size_t k = (p - low % p) % p; k < length; k += p)
            while (interval[k] % p == 0) interval[k] /= p;
    }
    size_t used = 0; /* words go where values already multiplied in were */
    uint64_t word = 1;
    for (size_t k = 0; k < length; k++) {
        if (word > UINT64_MAX / interval[k]) {
            interval[used++] = word;
            word = 1;
        }
        word *= interval[k];
    }
    interval[used++] = word;
    word_product(D, interval, used);
}

typedef struct join_step {
    const rank_cancel *c;
    const uint32_t *rows;
    mpz_ptr N, D, N2;
    mpz_srcptr D2;
} join_step;

/* N1 R2 (S2 / H). */
static void scale_left(void *step) {
    join_step *j = step;
    mpz_t factor;
    mpz_init(factor);
    prime_power_product(factor, j->c->primes, j->rows + ROW_RIGHT_S * j->c->prime_count, j->c->prime_count);
    mpz_mul(factor, factor, j->D2);
    mpz_mul(j->N, j->N, factor);
    mpz_clear(factor);
}

/* (P1 / H) N2, and R1 R2. */
static void scale_right(void *step) {
    join_step *j = step;
    mpz_t factor;
    mpz_init(factor);
    prime_power_product(factor, j->c->primes, j->rows + ROW_LEFT_P * j->c->prime_count, j->c->prime_count);
    mpz_mul(j->N2, j->N2, factor);
    mpz_mul(j->D, j->D, j->D2);
    mpz_clear(factor);
}

void rank_cancel_join(const rank_cancel *c, size_t a, size_t b, mpz_t N, mpz_t D, mpz_t P, mpz_t N2, mpz_t D2,
                      bool fork) {
    size_t mid = rank_split_middle(a, b), pc = c->prime_count;
    uint32_t *s = range_rows(c, a, b), *p = s + pc;
    size_t half = a < rank_split_middle(0, c->n) ? 0 : 1;
    uint32_t *rows = c->scratch + half * SCRATCH_ROWS * pc;
    range_exponents left = exponents_of(c, a, mid), right = exponents_of(c, mid, b);
    keep_rough_part(c, a, mid, D, c->interval + half * c->threshold);
    keep_rough_part(c, mid, b, D2, c->interval + half * c->threshold);
    const uint32_t *suffix_b = c->suffix_p + bound_index(c, b) * pc;
    bool excess = false;
    for (size_t i = 0; i < pc; i++) {
        uint32_t prime = c->primes[i], sl, pl, sr, pr;
        exponents_at(&left, i, prime, &sl, &pl);
        exponents_at(&right, i, prime, &sr, &pr);
        uint32_t in_m = factorial_exponent(c->n - b, prime) - suffix_b[i]; /* M(b)'s exponent */
        uint32_t all_s = sl + sr, all_p = pl + pr;
        uint32_t beyond_m = all_p > in_m ? all_p - in_m : 0; /* P / gcd(P, M(b))'s */
        uint32_t g = beyond_m < all_s ? beyond_m : all_s;    /* G's */
        uint32_t h = g < sr ? g : sr;                        /* H's */
        h = h < pl ? h : pl;
        rows[ROW_RIGHT_S * pc + i] = sr - h;
        rows[ROW_LEFT_P * pc + i] = pl - h;
        rows[ROW_EXCESS * pc + i] = g - h;
        excess |= g > h;
        s[i] = all_s - g;
        p[i] = all_p - g;
    }
    join_step step = {c, rows, N, D, N2, D2};
    fork_join(fork, scale_left, &step, scale_right, &step);
    mpz_add(N, N, N2);
    if (excess) {
        mpz_t E;
        mpz_init(E);
        prime_power_product(E, c->primes, rows + ROW_EXCESS * pc, pc);
        mpz_divexact(N, N, E);
        mpz_clear(E);
    }
    mpz_set_ui(P, 1);
}

void rank_cancel_finish(const rank_cancel *c, mpz_t D, mpz_t P) {
    const uint32_t *rows = range_rows(c, 0, c->n);
    mpz_t S;
    mpz_init(S);
    prime_power_product(S, c->primes, rows, c->prime_count);
    mpz_mul(D, D, S);
    prime_power_product(P, c->primes, rows + c->prime_count, c->prime_count);
    mpz_clear(S);
}
