/* Ranking by binary splitting over Lehmer digits; unranking by balanced divisions into
 * factorial-base digits (or class-by-class stepping for multisets with repeats). */
#include "core/permutations/perm_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/common/fenwick.h"
#include "core/common/fork_join.h"
#include "core/common/slot_set.h"
#include "core/permutations/next_permutation.h"
#include "core/permutations/perm_count.h"
#include "core/permutations/rank_cancel.h"
#include "core/common/progress.h"

enum {
    SPLIT_POLL_SIZE = 512,        /* ranges at least this long poll the deadline */
    SPLIT_LEAF = 32,              /* ranges this short are assembled item by item, with word multipliers */
    SPLIT_PARALLEL_SIZE = 1 << 14 /* top-level ranges at least this long offer a sub-task */
};

/* Lehmer digits L[i] and multiplicities mp[i] of n items, the deadline polled while assembling, and
 * the common factors to cancel on the way (NULL: none; rank_cancel.h). */
typedef struct lehmer_digits {
    const size_t *L, *mp;
    size_t n;
    const deadline *dl;
    const rank_cancel *cancel;
} lehmer_digits;

/* Over items [a, b): D = prod (n - i), P = prod mp[i] and
 * N = sum_i L[i] * prod_{a <= j < i} mp[j] * prod_{i < j < b} (n - j),
 * so that the rank of a whole arrangement is N(0, n) / P(0, n) and the total D(0, n) / P(0, n).
 * Appending item i to a range is N = N (n - i) + P L[i], D = D (n - i), P = P mp[i]; joining two
 * ranges is N = N D2 + P N2, D = D D2, P = P P2 (the combine_step below). */
static void rank_leaf(mpz_t N, mpz_t D, mpz_t P, const lehmer_digits *in, size_t a, size_t b) {
    mpz_set_ui(N, 0);
    mpz_set_ui(D, 1);
    mpz_set_ui(P, 1);
    for (size_t i = a; i < b; i++) {
        mpz_mul_ui(N, N, in->n - i);
        mpz_addmul_ui(N, P, in->L[i]);
        mpz_mul_ui(D, D, in->n - i);
        mpz_mul_ui(P, P, in->mp[i]);
    }
    progress_add(progress_of(in->dl), b - a);
}

typedef struct combine_step {
    mpz_ptr N, D, P;   /* the left range's, becoming the joined range's */
    mpz_srcptr D2, P2; /* the right range's */
    mpz_ptr N2;        /* the right range's, scaled by P in place */
} combine_step;

static void scale_left(void *step) {
    combine_step *c = step;
    mpz_mul(c->N, c->N, c->D2);
}

static void scale_right(void *step) {
    combine_step *c = step;
    mpz_mul(c->N2, c->N2, c->P);
    mpz_mul(c->D, c->D, c->D2);
    mpz_mul(c->P, c->P, c->P2);
}

/* The largest product (N D2) on one thread, the other three on the other when `fork`. */
static void combine(combine_step *c, bool fork) {
    fork_join(fork, scale_left, c, scale_right, c);
    mpz_add(c->N, c->N, c->N2);
}

typedef struct split_task {
    const lehmer_digits *in;
    size_t a, b;
    mpz_ptr N, D, P;
    bool ok;
} split_task;

static void run_split(void *task);

/* N, D, P over [a, b), halves on two threads when `fork` (the top level of a long range only: two
 * cores, two threads). False when the deadline passed. */
static bool rank_split(mpz_t N, mpz_t D, mpz_t P, const lehmer_digits *in, size_t a, size_t b, bool fork) {
    if (b - a <= SPLIT_LEAF) {
        rank_leaf(N, D, P, in, a, b);
        return true;
    }
    if (b - a >= SPLIT_POLL_SIZE && deadline_expired(in->dl)) return false;
    size_t mid = rank_split_middle(a, b);
    mpz_t N2, D2, P2;
    mpz_inits(N2, D2, P2, NULL);
    split_task left = {in, a, mid, N, D, P, false}, right = {in, mid, b, N2, D2, P2, false};
    fork = fork && b - a >= SPLIT_PARALLEL_SIZE;
    fork_join(fork, run_split, &left, run_split, &right);
    bool ok = left.ok && right.ok;
    if (!ok) goto out;
    if (rank_cancel_applies(in->cancel, a, b)) rank_cancel_join(in->cancel, a, b, N, D, P, N2, D2, fork);
    else combine(&(combine_step){N, D, P, D2, P2, N2}, fork);
out:
    mpz_clears(N2, D2, P2, NULL);
    return ok;
}

static void run_split(void *task) {
    split_task *t = task;
    t->ok = rank_split(t->N, t->D, t->P, t->in, t->a, t->b, false);
}

typedef struct exact_quotient {
    mpz_ptr quotient;
    mpz_srcptr dividend, divisor;
} exact_quotient;

static void divide_exactly(void *task) {
    exact_quotient *q = task;
    mpz_divexact(q->quotient, q->dividend, q->divisor);
}

/* Lehmer digits when every class is there once (10^6 distinct items): the unused classes in a slot
 * set, which stays in cache where a Fenwick tree of 10^6 counts does not. False when out of memory. */
static bool distinct_lehmer_digits(size_t *L, size_t *mp, const uint32_t *seq, size_t n) {
    slot_set unused;
    if (!slot_set_init_free(&unused, n)) return false;
    for (size_t i = 0; i < n; i++) {
        L[i] = slot_set_free_below(&unused, seq[i]);
        mp[i] = 1;
        slot_set_take(&unused, seq[i]);
    }
    slot_set_free(&unused);
    return true;
}

core_status multiset_rank(mpz_t rank, mpz_t total, const uint32_t *seq, size_t n, size_t m, const deadline *dl) {
    mpz_set_ui(rank, 0);
    mpz_set_ui(total, 1);
    if (n == 0) return CORE_OK;
    size_t *mult = calloc(m, sizeof *mult);
    size_t *L = malloc(n * sizeof *L);
    size_t *mp = malloc(n * sizeof *mp);
    fenwick f = {0};
    core_status status = CORE_NO_MEMORY;
    if (mult == NULL || L == NULL || mp == NULL) goto out;
    for (size_t i = 0; i < n; i++) mult[seq[i]]++;
    if (m == n ? !distinct_lehmer_digits(L, mp, seq, n) : !fenwick_init(&f, m, mult)) goto out;
    for (size_t i = 0; i < n && m < n; i++) {
        uint32_t c = seq[i];
        L[i] = fenwick_prefix(&f, c);
        mp[i] = mult[c]--;
        fenwick_add(&f, c, (size_t)-1);
    }
    rank_cancel plan;
    bool planned = m < n && rank_cancel_init(&plan, mp, n);
    mpz_t N, D, P;
    mpz_inits(N, D, P, NULL);
    status = CORE_DEADLINE;
    if (rank_split(N, D, P, &(lehmer_digits){L, mp, n, dl, planned ? &plan : NULL}, 0, n, true)) {
        if (planned) rank_cancel_finish(&plan, D, P);
        exact_quotient rank_part = {rank, N, P}, total_part = {total, D, P};
        fork_join(mpz_sizeinbase(N, 2) >= FORK_JOIN_MIN_BITS, divide_exactly, &rank_part, divide_exactly, &total_part);
        status = CORE_OK;
    }
    mpz_clears(N, D, P, NULL);
    if (planned) rank_cancel_free(&plan);
out:
    fenwick_free(&f);
    free(mult);
    free(L);
    free(mp);
    return status;
}

core_status kperm_rank(mpz_t rank, mpz_t total, const uint32_t *positions, size_t n, size_t k, const deadline *dl) {
    mpz_set_ui(rank, 0);
    perm_count_k(total, n, k);
    if (k == 0) return CORE_OK;
    size_t *L = malloc(k * sizeof *L), *ones = malloc(k * sizeof *ones);
    slot_set unused = {0};
    core_status status = CORE_NO_MEMORY;
    if (L == NULL || ones == NULL || !slot_set_init_free(&unused, n)) goto out;
    for (size_t i = 0; i < k; i++) { /* digit i: the unused positions below positions[i], radix n - i */
        L[i] = slot_set_free_below(&unused, positions[i]);
        ones[i] = 1;
        slot_set_take(&unused, positions[i]);
    }
    mpz_t D, P;
    mpz_inits(D, P, NULL);
    status = rank_split(rank, D, P, &(lehmer_digits){L, ones, n, dl, NULL}, 0, k, true) ? CORE_OK : CORE_DEADLINE;
    mpz_clears(D, P, NULL);
out:
    slot_set_free(&unused);
    free(L);
    free(ones);
    return status;
}

/* Unranking into factorial-base digits: digit i in radix n - i, the last least significant. The
 * range [a, b) of digits splits at mid = a + (b - a) / 2 with one division by the weight of its right
 * half, prod_{mid <= i < b} (n - i). The weights are the nodes of one product tree, built bottom-up
 * once before the divisions (heap numbering: node 1 is [0, k), node j's halves are 2j and 2j + 1),
 * instead of each multiplied out again from its factors at every level. Ranges of at most
 * DIGITS_LEAF digits need no weight: they are taken apart by word divisions. */
enum { DIGITS_LEAF = 16 };

typedef struct digit_split {
    size_t *digits;
    size_t n;
    mpz_t *weights; /* weights[j]: the right half's product of node j, for nodes longer than DIGITS_LEAF */
    const deadline *dl;
} digit_split;

/* Nodes a heap numbering of [0, k) needs: a node at depth d is longer than DIGITS_LEAF only when
 * 2^d < k / DIGITS_LEAF, so every such node's number is below 2 k / DIGITS_LEAF. */
static size_t weight_nodes(size_t k) { return 2 * k / DIGITS_LEAF + 2; }

typedef struct tree_task {
    const digit_split *split;
    size_t node, a, b;
    mpz_ptr product; /* NULL: the range's own product is not wanted */
    bool ok;
} tree_task;

static void run_tree(void *task);

/* Fills the weights of node `node` = [a, b) and below; product = prod_{a <= i < b} (n - i) if wanted. */
static bool build_weights(const digit_split *sp, size_t node, size_t a, size_t b, mpz_ptr product, bool fork) {
    if (b - a <= DIGITS_LEAF) {
        if (product != NULL) range_product(product, sp->n - b + 1, sp->n - a + 1);
        return true;
    }
    if (b - a >= SPLIT_POLL_SIZE && deadline_expired(sp->dl)) return false;
    size_t mid = a + (b - a) / 2;
    tree_task left = {sp, 2 * node, a, mid, product, false},
              right = {sp, 2 * node + 1, mid, b, sp->weights[node], false};
    fork_join(fork && b - a >= SPLIT_PARALLEL_SIZE, run_tree, &left, run_tree, &right);
    if (left.ok && right.ok && product != NULL) mpz_mul(product, product, sp->weights[node]);
    return left.ok && right.ok;
}

static void run_tree(void *task) {
    tree_task *t = task;
    t->ok = build_weights(t->split, t->node, t->a, t->b, t->product, false);
}

typedef struct digits_task {
    const digit_split *split;
    size_t node, a, b;
    mpz_ptr r;
    bool ok;
} digits_task;

static void run_digits(void *task);

/* Splits r (below the product over node `node` = [a, b); destroyed) into digits[a..b-1]: the two
 * halves of the top level on two threads when `fork` and the range is long. Each weight is freed
 * once used. */
static bool to_factorial_digits(const digit_split *sp, size_t node, size_t a, size_t b, mpz_t r, bool fork) {
    size_t n = sp->n, *digits = sp->digits;
    if (mpz_fits_ulong_p(r)) {
        unsigned long x = mpz_get_ui(r);
        for (size_t i = b; i-- > a;) {
            digits[i] = x % (n - i);
            x /= n - i;
        }
        progress_add(progress_of(sp->dl), b - a);
        return true;
    }
    if (b - a <= DIGITS_LEAF) {
        for (size_t i = b; i-- > a;) digits[i] = mpz_fdiv_q_ui(r, r, n - i);
        progress_add(progress_of(sp->dl), b - a);
        return true;
    }
    if (b - a >= SPLIT_POLL_SIZE && deadline_expired(sp->dl)) return false;
    size_t mid = a + (b - a) / 2;
    mpz_t low;
    mpz_init(low);
    mpz_fdiv_qr(r, low, r, sp->weights[node]);
    mpz_realloc2(sp->weights[node], 0);
    digits_task high_part = {sp, 2 * node, a, mid, r, false}, low_part = {sp, 2 * node + 1, mid, b, low, false};
    fork_join(fork && b - a >= SPLIT_PARALLEL_SIZE, run_digits, &high_part, run_digits, &low_part);
    mpz_clear(low);
    return high_part.ok && low_part.ok;
}

static void run_digits(void *task) {
    digits_task *t = task;
    t->ok = to_factorial_digits(t->split, t->node, t->a, t->b, t->r, false);
}

/* digits[0..k-1] (digit i below n - i) of rank, by divide and conquer. */
static core_status factorial_digits(size_t **digits, size_t n, size_t k, const mpz_t rank, const deadline *dl) {
    size_t nodes = weight_nodes(k);
    *digits = malloc((k ? k : 1) * sizeof **digits);
    mpz_t *weights = malloc(nodes * sizeof *weights);
    if (*digits == NULL || weights == NULL) {
        free(weights);
        return CORE_NO_MEMORY;
    }
    for (size_t j = 0; j < nodes; j++) mpz_init(weights[j]);
    digit_split sp = {*digits, n, weights, dl};
    mpz_t r;
    mpz_init_set(r, rank);
    bool ok = k == 0 || (build_weights(&sp, 1, 0, k, NULL, true) && to_factorial_digits(&sp, 1, 0, k, r, true));
    mpz_clear(r);
    for (size_t j = 0; j < nodes; j++) mpz_clear(weights[j]);
    free(weights);
    return ok ? CORE_OK : CORE_DEADLINE;
}

core_status kperm_unrank(uint32_t *positions, size_t n, size_t k, const mpz_t rank, const deadline *dl) {
    size_t *digits = NULL;
    slot_set unused = {0};
    core_status status = CORE_NO_MEMORY;
    if (!slot_set_init_free(&unused, n)) goto out;
    status = factorial_digits(&digits, n, k, rank, dl);
    if (status != CORE_OK) goto out;
    for (size_t i = 0; i < k; i++) {
        size_t p = slot_set_select(&unused, digits[i]);
        positions[i] = (uint32_t)p;
        slot_set_take(&unused, p);
    }
    slot_set_list_free(&unused, positions + k); /* the rest in ascending order */
out:
    slot_set_free(&unused);
    free(digits);
    return status;
}

/* Unranking a multiset with repeats, by divide and conquer on the fraction x = rank / total, which
 * lies in the interval [A(p), A(p) + T(p)) / total of exactly one prefix p (A: the rank of its first
 * arrangement, T: its number of completions). The first half of the items needs only the leading
 * bits of x: it is decoded from x truncated to about that many bits, checked exactly against x (the
 * prefix's interval comes from binary splitting, as in ranking), moved to a neighbouring prefix when
 * the truncation landed just across a boundary, and decoded again with more bits in the rare case
 * that is not enough. The second half is decoded from (x - A/total) * total / T. */
typedef struct decoder {
    size_t *mult; /* remaining multiplicities */
    fenwick f;    /* the same counts */
    uint32_t *seq;
    size_t *L, *mp; /* Lehmer digits and multiplicities of a prefix being measured */
    uint32_t *work; /* a prefix and the remaining items, for stepping to a neighbouring prefix */
    const deadline *dl;
} decoder;

enum { DECODE_LEAF = 16 }; /* prefixes this short are decoded item by item */

static void take(decoder *d, uint32_t c) {
    d->mult[c]--;
    fenwick_add(&d->f, c, (size_t)-1);
}

static void give_back(decoder *d, const uint32_t *items, size_t h) {
    for (size_t i = h; i-- > 0;) {
        d->mult[items[i]]++;
        fenwick_add(&d->f, items[i], 1);
    }
}

/* Item by item: with `left` items remaining, the class holding x is the one whose block
 * [cum, cum + mult) / left holds x; then x becomes (x * left - cum) / mult. */
static void decode_items(decoder *d, size_t at, size_t len, size_t h, mpz_t num, mpz_t den) {
    mpz_t q;
    mpz_init(q);
    for (size_t i = 0; i < h; i++) {
        size_t left = len - i;
        mpz_mul_ui(q, num, left);
        mpz_fdiv_q(q, q, den);
        uint32_t c = (uint32_t)fenwick_select(&d->f, mpz_get_ui(q));
        mpz_mul_ui(num, num, left);
        mpz_submul_ui(num, den, fenwick_prefix(&d->f, c));
        mpz_mul_ui(den, den, d->mult[c]);
        d->seq[at + i] = c;
        take(d, c);
    }
    mpz_clear(q);
}

/* N, D, P (see rank_split) of the prefix seq[at..at+h), already taken from a multiset of len items:
 * its interval is [N / D, (N + P) / D) in units of x. */
static bool measure_prefix(decoder *d, size_t at, size_t len, size_t h, mpz_t N, mpz_t D, mpz_t P) {
    give_back(d, d->seq + at, h);
    for (size_t i = 0; i < h; i++) {
        uint32_t c = d->seq[at + i];
        d->L[i] = fenwick_prefix(&d->f, c);
        d->mp[i] = d->mult[c];
        take(d, c);
    }
    return rank_split(N, D, P, &(lehmer_digits){d->L, d->mp, len, d->dl, NULL}, 0, h, false);
}

/* -1 when x = num / den lies before [N / D, (N + P) / D), 1 after it, 0 inside. */
static int locate(const mpz_t num, const mpz_t den, const mpz_t N, const mpz_t D, const mpz_t P) {
    mpz_t x, edge;
    mpz_inits(x, edge, NULL);
    mpz_mul(x, num, D);
    mpz_mul(edge, N, den);
    int where = mpz_cmp(x, edge) < 0 ? -1 : 0;
    mpz_addmul(edge, P, den);
    if (where == 0 && mpz_cmp(x, edge) >= 0) where = 1;
    mpz_clears(x, edge, NULL);
    return where;
}

/* Replaces the prefix seq[at..at+h) by the next distinct one (the previous one when backwards). */
static void step_prefix(decoder *d, size_t at, size_t len, size_t h, bool backwards) {
    memcpy(d->work, d->seq + at, h * sizeof *d->work);
    for (size_t r = 0; r < len - h; r++) {
        size_t rank = backwards ? len - h - 1 - r : r;
        d->work[h + r] = (uint32_t)fenwick_select(&d->f, rank);
    }
    next_k_permutation(d->work, len, h, backwards);
    give_back(d, d->seq + at, h);
    for (size_t i = 0; i < h; i++) {
        d->seq[at + i] = d->work[i];
        take(d, d->work[i]);
    }
}

/* The bits of x to keep for decoding the first h1 of h items (of len remaining) when x has `bits`:
 * its share of the information, taken as for distinct items (where the early items carry the most,
 * so the share is never too small), plus a margin of 2% and 64 bits. */
static size_t prefix_precision(size_t bits, size_t len, size_t h, size_t h1) {
    double whole = lgamma((double)len + 1) - lgamma((double)(len - h) + 1);
    double first = lgamma((double)len + 1) - lgamma((double)(len - h1) + 1);
    return (size_t)((double)bits * first / whole * 1.02) + 64;
}

/* Decodes seq[at..at+h) for x = num / den among the arrangements of the remaining len items.
 * `counted`: den is exactly their number, so the rest stays an exact integer rank and total and the
 * answer is exact. Otherwise x is itself a truncation made by a caller that checks the answer, so
 * the rest is truncated again to the bits it can still carry. */
static bool decode(decoder *d, size_t at, size_t len, size_t h, mpz_t num, mpz_t den, bool counted) {
    if (h <= DECODE_LEAF) {
        decode_items(d, at, len, h, num, den);
        progress_add(progress_of(d->dl), h);
        return true;
    }
    if (deadline_expired(d->dl)) return false;
    size_t h1 = h / 2, bits = mpz_sizeinbase(den, 2);
    size_t precision = prefix_precision(bits, len, h, h1);
    mpz_t N, D, P, xt, dt;
    mpz_inits(N, D, P, xt, dt, NULL);
    bool ok = true;
    for (;;) {
        bool exact = precision + 64 >= bits;
        if (exact) {
            mpz_set(xt, num);
            mpz_set(dt, den);
        } else {
            mpz_mul_2exp(xt, num, precision);
            mpz_fdiv_q(xt, xt, den);
            mpz_set_ui(dt, 1);
            mpz_mul_2exp(dt, dt, precision);
        }
        ok = decode(d, at, len, h1, xt, dt, exact && counted) && measure_prefix(d, at, len, h1, N, D, P);
        int where = ok ? locate(num, den, N, D, P) : 0;
        for (int tries = 0; ok && where != 0 && tries < 2; tries++) {
            step_prefix(d, at, len, h1, where < 0);
            ok = measure_prefix(d, at, len, h1, N, D, P);
            where = ok ? locate(num, den, N, D, P) : 0;
        }
        if (!ok || where == 0) break;
        give_back(d, d->seq + at, h1);
        if (exact) { /* even all the bits of x were not enough below (truncated deeper): item by item */
            mpz_set(xt, num);
            mpz_set(dt, den);
            decode_items(d, at, len, h1, xt, dt);
            ok = measure_prefix(d, at, len, h1, N, D, P);
            break;
        }
        precision *= 2;
    }
    if (!ok) goto out;
    mpz_mul(num, num, D);
    mpz_submul(num, N, den); /* x' = (x D - N) / P */
    mpz_mul(den, den, P);
    if (counted) { /* rank' = rank - total N / D and total' = total P / D */
        mpz_divexact(num, num, D);
        mpz_divexact(den, den, D);
    } else { /* x' carries about log2(D / P) bits fewer than x: keep those it has, in binary */
        size_t spent = mpz_sizeinbase(D, 2) - mpz_sizeinbase(P, 2);
        size_t kept = (bits > spent ? bits - spent : 0) + 2;
        mpz_mul_2exp(num, num, kept);
        mpz_fdiv_q(num, num, den);
        mpz_set_ui(den, 1);
        mpz_mul_2exp(den, den, kept);
    }
    ok = decode(d, at + h1, len - h1, h - h1, num, den, counted);
out:
    mpz_clears(N, D, P, xt, dt, NULL);
    return ok;
}

static core_status decode_multiset(uint32_t *seq, const size_t *mult, size_t m, size_t n, const mpz_t rank,
                                   const deadline *dl) {
    decoder d = {.seq = seq, .dl = dl};
    d.mult = malloc(m * sizeof *d.mult);
    d.L = malloc(n * sizeof *d.L);
    d.mp = malloc(n * sizeof *d.mp);
    d.work = malloc(n * sizeof *d.work);
    core_status status = CORE_NO_MEMORY;
    if (d.mult != NULL && d.L != NULL && d.mp != NULL && d.work != NULL && fenwick_init(&d.f, m, mult)) {
        memcpy(d.mult, mult, m * sizeof *d.mult);
        mpz_t num, den;
        mpz_init_set(num, rank);
        mpz_init(den);
        status = perm_count_distinct(den, mult, m, n, dl);
        if (status == CORE_OK && !decode(&d, 0, n, n, num, den, true)) status = CORE_DEADLINE;
        mpz_clears(num, den, NULL);
        fenwick_free(&d.f);
    }
    free(d.mult);
    free(d.L);
    free(d.mp);
    free(d.work);
    return status;
}

core_status multiset_unrank(uint32_t *seq, const size_t *mult, size_t m, const mpz_t rank, const deadline *dl) {
    size_t n = 0;
    for (size_t c = 0; c < m; c++) n += mult[c];
    if (n == m) {
        /* All distinct: class ids are positions in sorted order. */
        uint32_t *positions = malloc((n ? n : 1) * sizeof *positions);
        if (positions == NULL) return CORE_NO_MEMORY;
        core_status status = kperm_unrank(positions, n, n, rank, dl);
        for (size_t i = 0; status == CORE_OK && i < n; i++) seq[i] = positions[i];
        free(positions);
        return status;
    }
    return decode_multiset(seq, mult, m, n, rank, dl);
}
