/* Core rank/unrank and counts: against brute-force enumeration on small multisets (and k-arrangement
 * ranks against the index in the lexicographic listing), against a plain
 * Python formula (run at test time) on medium ones, against the textbook formula in C beyond the size
 * where the work is split over two threads, and round trips up to 100,000 items. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/permutations/perm_count.h"
#include "core/permutations/perm_iter.h"
#include "core/permutations/perm_rank.h"
#include "core/common/progress.h"

/* Brute force: every distinct arrangement of length k in lexicographic order, by trying each
 * remaining class in ascending order at each slot (the seed's "sorted, dedup by sibling set"). */
typedef struct brute {
    size_t mult[8], m, k;
    uint32_t current[8];
    uint32_t (*all)[8];
    size_t count;
} brute;

static void enumerate(brute *b, size_t depth) {
    if (depth == b->k) {
        memcpy(b->all[b->count++], b->current, sizeof b->current);
        return;
    }
    for (size_t c = 0; c < b->m; c++) {
        if (b->mult[c] == 0) continue;
        b->mult[c]--;
        b->current[depth] = (uint32_t)c;
        enumerate(b, depth + 1);
        b->mult[c]++;
    }
}

static void random_multiset(brute *b, unsigned *seed, size_t max_n) {
    size_t n = 1 + (size_t)(rand_r(seed) % max_n);
    b->m = 1 + (size_t)(rand_r(seed) % n);
    memset(b->mult, 0, sizeof b->mult);
    for (size_t c = 0; c < b->m; c++) b->mult[c] = 1;
    for (size_t i = b->m; i < n; i++) b->mult[rand_r(seed) % b->m]++;
    b->k = n;
}

Test(perm_rank, rank_and_unrank_match_brute_force_enumeration) {
    unsigned seed = 7;
    brute b = {.all = malloc(5040 * sizeof *b.all)};
    for (int trial = 0; trial < 200; trial++) {
        random_multiset(&b, &seed, 7);
        b.count = 0;
        enumerate(&b, 0);
        mpz_t rank, total;
        mpz_inits(rank, total, NULL);
        for (size_t i = 0; i < b.count; i++) {
            cr_assert_eq(multiset_rank(rank, total, b.all[i], b.k, b.m, NULL), CORE_OK);
            cr_assert_eq(mpz_cmp_ui(rank, i), 0, "trial %d arrangement %zu", trial, i);
            cr_assert_eq(mpz_cmp_ui(total, b.count), 0);
            uint32_t back[8];
            cr_assert_eq(multiset_unrank(back, b.mult, b.m, rank, NULL), CORE_OK);
            cr_assert_arr_eq(back, b.all[i], b.k * sizeof *back, "trial %d unrank %zu", trial, i);
        }
        mpz_clears(rank, total, NULL);
    }
    free(b.all);
}

Test(perm_count, distinct_k_arrangements_match_brute_force) {
    unsigned seed = 99;
    brute b = {.all = malloc(5040 * sizeof *b.all)};
    mpz_t count;
    mpz_init(count);
    for (int trial = 0; trial < 200; trial++) {
        random_multiset(&b, &seed, 7);
        size_t n = b.k;
        b.k = (size_t)(rand_r(&seed) % (n + 2)); /* k = n + 1 too: no arrangements */
        b.count = 0;
        if (b.k <= n) enumerate(&b, 0);
        cr_assert_eq(perm_count_distinct(count, b.mult, b.m, b.k, NULL), CORE_OK);
        cr_assert_eq(mpz_cmp_ui(count, b.count), 0, "trial %d k %zu", trial, b.k);
    }
    mpz_clear(count);
    free(b.all);
}

Test(perm_count, k_permutations_and_known_values) {
    mpz_t count;
    mpz_init(count);
    perm_count_k(count, 12, 12);
    cr_assert_eq(mpz_cmp_ui(count, 479001600), 0);
    perm_count_k(count, 10, 3);
    cr_assert_eq(mpz_cmp_ui(count, 720), 0);
    perm_count_k(count, 5, 0);
    cr_assert_eq(mpz_cmp_ui(count, 1), 0);
    perm_count_k(count, 3, 4);
    cr_assert_eq(mpz_cmp_ui(count, 0), 0);
    size_t mississippi[] = {1, 4, 2, 4}; /* M I P S: 11! / (4! 2! 4!) = 34650 */
    cr_assert_eq(perm_count_distinct(count, mississippi, 4, 11, NULL), CORE_OK);
    cr_assert_eq(mpz_cmp_ui(count, 34650), 0);
    mpz_clear(count);
}

/* Python's textbook formula one item at a time: the arrangements of what remains start as
 * math.factorial(n) // prod math.factorial(count); position i adds arrangements * smaller // left,
 * `smaller` the items left of smaller classes (a Fenwick tree of the counts), then arrangements
 * becomes arrangements * count[x] // left. One line "rank total" per case, in hex (Python limits
 * decimal conversions of big integers). */
static const char *const python_rank = "import sys\n"
                                       "from math import factorial\n"
                                       "for line in open(sys.argv[1]):\n"
                                       "    seq = [int(x) for x in line.split()]\n"
                                       "    m = max(seq) + 1; count = [0] * m; tree = [0] * (m + 1)\n"
                                       "    def add(c, d):\n"
                                       "        c += 1\n"
                                       "        while c <= m: tree[c] += d; c += c & -c\n"
                                       "    def below(c):\n"
                                       "        s = 0\n"
                                       "        while c > 0: s += tree[c]; c -= c & -c\n"
                                       "        return s\n"
                                       "    for x in seq: count[x] += 1; add(x, 1)\n"
                                       "    total = factorial(len(seq))\n"
                                       "    for c in count: total //= factorial(c)\n"
                                       "    rank = 0; arrangements = total\n"
                                       "    for i, x in enumerate(seq):\n"
                                       "        left = len(seq) - i\n"
                                       "        rank += arrangements * below(x) // left\n"
                                       "        arrangements = arrangements * count[x] // left\n"
                                       "        count[x] -= 1; add(x, -1)\n"
                                       "    print(format(rank, 'x'), format(total, 'x'))\n";

/* A Fisher-Yates shuffle of seq[0..n-1] driven by rand_r (the test's own seed). */
static void shuffle_items(uint32_t *seq, size_t n, unsigned *seed) {
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(rand_r(seed) % i);
        uint32_t t = seq[i - 1];
        seq[i - 1] = seq[j];
        seq[j] = t;
    }
}

/* One case for the Python reference: the items on a line, separated by spaces. */
static void write_case(FILE *f, const uint32_t *seq, size_t n) {
    for (size_t i = 0; i < n; i++) fprintf(f, i ? " %u" : "%u", seq[i]);
    fprintf(f, "\n");
}

/* Starts `script` (written to script_path, a mkstemp template) on the cases in cases_path; its answers
 * are read from the pipe returned. */
static FILE *run_python(const char *script, char *script_path, const char *cases_path) {
    FILE *f = fdopen(mkstemp(script_path), "w");
    fputs(script, f);
    fclose(f);
    char command[256];
    snprintf(command, sizeof command, "python3 %s %s", script_path, cases_path);
    FILE *p = popen(command, "r");
    cr_assert_not_null(p);
    return p;
}

/* Reads case c's answer from the Python reference `p` into expected_rank and checks multiset_rank of
 * seq (n items of m classes) against it, rank and total. */
static void check_rank_with_python(FILE *p, int c, const uint32_t *seq, size_t n, size_t m, mpz_t expected_rank) {
    mpz_t rank, total, expected_total;
    mpz_inits(rank, total, expected_total, NULL);
    cr_assert_eq(gmp_fscanf(p, "%Zx %Zx", expected_rank, expected_total), 2, "python output for case %d", c);
    cr_assert_eq(multiset_rank(rank, total, seq, n, m, NULL), CORE_OK);
    cr_assert_eq(mpz_cmp(rank, expected_rank), 0, "rank of case %d", c);
    cr_assert_eq(mpz_cmp(total, expected_total), 0, "total of case %d", c);
    mpz_clears(rank, total, expected_total, NULL);
}

/* Waits for the Python reference to end well and removes its two files. */
static void finish_python(FILE *p, const char *cases_path, const char *script_path) {
    cr_assert_eq(pclose(p), 0);
    unlink(cases_path);
    unlink(script_path);
}

Test(perm_rank, medium_multisets_match_python) {
    enum { CASES = 12, N = 120 };
    static uint32_t seqs[CASES][N];
    static size_t mults[CASES][N];
    size_t ms[CASES];
    unsigned seed = 2024;
    char cases_path[] = "/tmp/perm_rank_cases_XXXXXX", script_path[] = "/tmp/perm_rank_ref_XXXXXX";
    FILE *f = fdopen(mkstemp(cases_path), "w");
    for (int c = 0; c < CASES; c++) {
        ms[c] = 1 + (size_t)(rand_r(&seed) % N);
        memset(mults[c], 0, sizeof mults[c]);
        for (size_t i = 0; i < N; i++) {
            seqs[c][i] = i < ms[c] ? (uint32_t)i : (uint32_t)(rand_r(&seed) % ms[c]);
            mults[c][seqs[c][i]]++;
        }
        shuffle_items(seqs[c], N, &seed);
        write_case(f, seqs[c], N);
    }
    fclose(f);
    FILE *p = run_python(python_rank, script_path, cases_path);
    mpz_t expected_rank;
    mpz_init(expected_rank);
    for (int c = 0; c < CASES; c++) {
        check_rank_with_python(p, c, seqs[c], N, ms[c], expected_rank);
        uint32_t back[N];
        cr_assert_eq(multiset_unrank(back, mults[c], ms[c], expected_rank, NULL), CORE_OK);
        cr_assert_arr_eq(back, seqs[c], sizeof back, "unrank of case %d", c);
    }
    finish_python(p, cases_path, script_path);
    mpz_clear(expected_rank);
}

static int ascending(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int descending(const void *a, const void *b) { return ascending(b, a); }

/* The rank of seq (n items over m classes with multiplicities mult), and back. */
static void rank_and_back(const uint32_t *seq, size_t n, size_t m, const size_t *mult) {
    uint32_t *back = malloc(n * sizeof *back);
    mpz_t rank, total, count;
    mpz_inits(rank, total, count, NULL);
    cr_assert_eq(multiset_rank(rank, total, seq, n, m, NULL), CORE_OK);
    cr_assert_eq(perm_count_distinct(count, mult, m, n, NULL), CORE_OK);
    cr_assert_eq(mpz_cmp(total, count), 0);
    cr_assert_lt(mpz_cmp(rank, total), 0);
    cr_assert_eq(multiset_unrank(back, mult, m, rank, NULL), CORE_OK);
    cr_assert_arr_eq(back, seq, n * sizeof *seq, "round trip of %zu items over %zu classes", n, m);
    mpz_clears(rank, total, count, NULL);
    free(back);
}

/* Rank and unrank report items as their places are settled: rank each item once (the leaves of its
 * divide and conquer), unrank every item at least once (a truncated decoding may decode a block
 * again; a follower's view is capped at the total). */
Test(perm_rank, rank_and_unrank_report_their_items) {
    enum { N = 5000 };
    uint32_t *seq = malloc(N * sizeof *seq), *back = malloc(N * sizeof *back);
    size_t *mult = malloc(N * sizeof *mult);
    for (size_t i = 0; i < N; i++) seq[i] = (uint32_t)i, mult[i] = 1;
    srand(29);
    for (size_t i = N - 1; i > 0; i--) {
        size_t j = (size_t)rand() % (i + 1);
        uint32_t t = seq[i];
        seq[i] = seq[j];
        seq[j] = t;
    }
    progress ranked, unranked;
    progress_init(&ranked);
    progress_init(&unranked);
    deadline rank_dl = deadline_none(), unrank_dl = deadline_none();
    rank_dl.progress = &ranked;
    unrank_dl.progress = &unranked;
    progress_begin(&ranked, "items", N);
    progress_begin(&unranked, "items", N);
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    cr_assert_eq(multiset_rank(rank, total, seq, N, N, &rank_dl), CORE_OK);
    cr_assert_eq(atomic_load(&ranked.done), N);
    cr_assert_eq(multiset_unrank(back, mult, N, rank, &unrank_dl), CORE_OK);
    cr_assert_arr_eq(back, seq, N * sizeof *seq);
    cr_assert_geq(atomic_load(&unranked.done), N);
    cr_assert_eq(progress_read(&unranked).done, N);
    mpz_clears(rank, total, NULL);
    progress_destroy(&ranked);
    progress_destroy(&unranked);
    free(seq);
    free(back);
    free(mult);
}

/* A random arrangement of n items over m classes (m == n: a permutation), and the arrangements at
 * the edges of prefix blocks made from it (a tail sorted up is the first completion of its prefix,
 * sorted down the last), where truncated decoding lands next to boundaries. */
static void round_trips(size_t n, size_t m, unsigned seed, int edges) {
    uint32_t *seq = malloc(n * sizeof *seq), *edge = malloc(n * sizeof *edge);
    size_t *mult = calloc(m, sizeof *mult);
    for (size_t i = 0; i < n; i++) {
        seq[i] = i < m ? (uint32_t)i : (uint32_t)(rand_r(&seed) % m);
        mult[seq[i]]++;
    }
    shuffle_items(seq, n, &seed);
    rank_and_back(seq, n, m, mult);
    for (int e = 0; e < edges; e++) {
        size_t cut = (size_t)(rand_r(&seed) % (n + 1));
        memcpy(edge, seq, n * sizeof *seq);
        qsort(edge + cut, n - cut, sizeof *edge, e % 2 ? descending : ascending);
        rank_and_back(edge, n, m, mult);
    }
    free(seq);
    free(edge);
    free(mult);
}

Test(perm_rank, round_trip_100000_distinct_items) { round_trips(100000, 100000, 1, 0); }
Test(perm_rank, round_trip_100000_items_over_2_classes) { round_trips(100000, 2, 2, 0); }
Test(perm_rank, round_trip_100000_items_over_26_classes) { round_trips(100000, 26, 3, 0); }
Test(perm_rank, round_trip_100000_items_over_1000_classes) { round_trips(100000, 1000, 4, 0); }
Test(perm_rank, round_trip_100000_items_nearly_distinct) { round_trips(100000, 99990, 5, 0); }
Test(perm_rank, round_trips_at_prefix_block_edges) {
    for (unsigned seed = 0; seed < 40; seed++) round_trips(200 + seed * 50, 2 + seed % 7 * 3, seed, 6);
}

/* The textbook formula, one item at a time with exact integers: T = the arrangements of what remains
 * (n! / prod mult! at first), rank += T L / left for the L remaining items of smaller classes, then
 * T = T mult[c] / left. Lehmer digits by counting over the classes. */
static void textbook_rank(mpz_t rank, const uint32_t *seq, size_t n, size_t m) {
    size_t *mult = calloc(m, sizeof *mult);
    for (size_t i = 0; i < n; i++) mult[seq[i]]++;
    mpz_t arrangements, factor;
    mpz_inits(arrangements, factor, NULL);
    mpz_fac_ui(arrangements, n);
    for (size_t c = 0; c < m; c++) {
        mpz_fac_ui(factor, mult[c]);
        mpz_divexact(arrangements, arrangements, factor);
    }
    mpz_set_ui(rank, 0);
    for (size_t i = 0; i < n; i++) {
        size_t left = n - i, smaller = 0;
        for (uint32_t c = 0; c < seq[i]; c++) smaller += mult[c];
        mpz_mul_ui(factor, arrangements, smaller);
        mpz_divexact_ui(factor, factor, left);
        mpz_add(rank, rank, factor);
        mpz_mul_ui(arrangements, arrangements, mult[seq[i]]--);
        mpz_divexact_ui(arrangements, arrangements, left);
    }
    mpz_clears(arrangements, factor, NULL);
    free(mult);
}

/* Long enough for the top level to run on two threads (the halves, then the big products and the
 * two exact divisions at once), distinct and over 26 classes, with an odd length for uneven halves. */
Test(perm_rank, ranks_on_two_threads_match_the_textbook_formula) {
    const size_t sizes[][2] = {{20001, 20001}, {40000, 26}, {16385, 3}};
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t n = sizes[t][0], m = sizes[t][1];
        unsigned seed = (unsigned)(t + 99);
        uint32_t *seq = malloc(n * sizeof *seq), *back = malloc(n * sizeof *back);
        size_t *mult = calloc(m, sizeof *mult);
        for (size_t i = 0; i < n; i++) seq[i] = i < m ? (uint32_t)i : (uint32_t)(rand_r(&seed) % m);
        shuffle_items(seq, n, &seed);
        for (size_t i = 0; i < n; i++) mult[seq[i]]++;
        mpz_t rank, total, expected;
        mpz_inits(rank, total, expected, NULL);
        textbook_rank(expected, seq, n, m);
        cr_assert_eq(multiset_rank(rank, total, seq, n, m, NULL), CORE_OK);
        cr_assert_eq(mpz_cmp(rank, expected), 0, "rank of %zu items over %zu classes", n, m);
        cr_assert_eq(multiset_unrank(back, mult, m, expected, NULL), CORE_OK);
        cr_assert_arr_eq(back, seq, n * sizeof *seq, "unrank of %zu items over %zu classes", n, m);
        mpz_clears(rank, total, expected, NULL);
        free(seq);
        free(back);
        free(mult);
    }
}

/* Long enough for the common factors of the binary splitting to be cancelled (core/permutations/
 * rank_cancel.c: ranges of 4,096 items and more), over few and many classes, nearly distinct, odd
 * lengths, and the first and last arrangements of a 26-letter multiset. */
Test(perm_rank, ranks_with_cancelled_factors_match_python) {
    enum { CASES = 8 };
    const size_t sizes[CASES][2] = {{20000, 26},  {16385, 2}, {12001, 3},  {20000, 700},
                                    {9000, 8990}, {8193, 26}, {10000, 26}, {10000, 26}};
    uint32_t *seqs[CASES];
    unsigned seed = 32;
    char cases_path[] = "/tmp/perm_rank_cases_XXXXXX", script_path[] = "/tmp/perm_rank_ref_XXXXXX";
    FILE *f = fdopen(mkstemp(cases_path), "w");
    for (int c = 0; c < CASES; c++) {
        size_t n = sizes[c][0], m = sizes[c][1];
        uint32_t *seq = seqs[c] = malloc(n * sizeof *seq);
        for (size_t i = 0; i < n; i++) seq[i] = i < m ? (uint32_t)i : (uint32_t)(rand_r(&seed) % m);
        if (c == CASES - 2) qsort(seq, n, sizeof *seq, ascending);
        else if (c == CASES - 1) qsort(seq, n, sizeof *seq, descending);
        else shuffle_items(seq, n, &seed);
        write_case(f, seq, n);
    }
    fclose(f);
    FILE *p = run_python(python_rank, script_path, cases_path);
    mpz_t expected_rank;
    mpz_init(expected_rank);
    for (int c = 0; c < CASES; c++) {
        check_rank_with_python(p, c, seqs[c], sizes[c][0], sizes[c][1], expected_rank);
        free(seqs[c]);
    }
    finish_python(p, cases_path, script_path);
    mpz_clear(expected_rank);
}

Test(perm_rank, extremes_of_100000_distinct_items) {
    size_t n = 100000;
    uint32_t *seq = malloc(n * sizeof *seq);
    for (size_t i = 0; i < n; i++) seq[i] = (uint32_t)(n - 1 - i);
    mpz_t rank, total, factorial;
    mpz_inits(rank, total, factorial, NULL);
    mpz_fac_ui(factorial, n);
    cr_assert_eq(multiset_rank(rank, total, seq, n, n, NULL), CORE_OK);
    cr_assert_eq(mpz_cmp(total, factorial), 0);
    mpz_sub_ui(factorial, factorial, 1);
    cr_assert_eq(mpz_cmp(rank, factorial), 0, "the descending arrangement is the last");
    for (size_t i = 0; i < n; i++) seq[i] = (uint32_t)i;
    cr_assert_eq(multiset_rank(rank, total, seq, n, n, NULL), CORE_OK);
    cr_assert_eq(mpz_sgn(rank), 0, "the ascending arrangement is the first");
    mpz_clears(rank, total, factorial, NULL);
    free(seq);
}

Test(perm_rank, deadline_stops_large_work) {
    size_t n = 100000;
    uint32_t *seq = malloc(n * sizeof *seq);
    for (size_t i = 0; i < n; i++) seq[i] = (uint32_t)i;
    deadline past = deadline_after_ms(0);
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    usleep(1000);
    cr_assert_eq(multiset_rank(rank, total, seq, n, n, &past), CORE_DEADLINE);
    mpz_clears(rank, total, NULL);
    free(seq);
}

/* The rank of every k-arrangement the lexicographic iterator lists, distinct or not, is its index
 * (the first index for repeated sequences), for random multisets and every k. */
Test(perm_rank, rank_of_k_arrangements_inverts_the_lexicographic_listing) {
    unsigned seed = 4242;
    mpz_t zero, rank, total, count;
    mpz_inits(zero, rank, total, count, NULL);
    for (int trial = 0; trial < 150; trial++) {
        brute b;
        random_multiset(&b, &seed, 6);
        size_t n = b.k;
        uint32_t classes[8];
        size_t at = 0;
        for (size_t c = 0; c < b.m; c++)
            for (size_t t = 0; t < b.mult[c]; t++) classes[at++] = (uint32_t)c;
        for (size_t k = 0; k <= n; k++) {
            perm_spec spec = {classes, n, b.m, k, trial % 2 == 0, PERM_ORDER_LEXICOGRAPHIC};
            cr_assert_eq(perm_count(count, &spec, NULL), CORE_OK);
            perm_iter it;
            cr_assert_eq(perm_iter_init(&it, &spec, zero, NULL), CORE_OK);
            uint32_t(*listed)[8] = malloc(mpz_get_ui(count) * sizeof *listed);
            size_t index = 0, changed;
            for (const uint32_t *a; (a = perm_iter_next(&it, &changed)) != NULL; index++) {
                memset(listed[index], 0, sizeof listed[index]);
                memcpy(listed[index], a, k * sizeof *a);
                size_t first = 0;
                while (memcmp(listed[first], listed[index], sizeof listed[index]) != 0) first++;
                cr_assert_eq(perm_rank_lexicographic(rank, total, &spec, a, NULL), CORE_OK);
                cr_assert_eq(mpz_cmp_ui(rank, first), 0, "trial %d k %zu index %zu", trial, k, index);
                cr_assert_eq(mpz_cmp(total, count), 0);
            }
            cr_assert_eq(mpz_cmp_ui(count, index), 0);
            free(listed);
            perm_iter_free(&it);
        }
    }
    mpz_clears(zero, rank, total, count, NULL);
}

/* k-arrangements of 100,000 items: positioned by the iterator at a random offset, ranked back. */
Test(perm_rank, k_arrangement_round_trips_at_100000_items) {
    enum { N = 100000 };
    uint32_t *classes = malloc(N * sizeof *classes);
    for (size_t i = 0; i < N; i++) classes[i] = (uint32_t)i;
    const size_t ks[] = {3, N / 2, N - 1};
    gmp_randstate_t state;
    gmp_randinit_default(state);
    mpz_t count, offset, rank, total;
    mpz_inits(count, offset, rank, total, NULL);
    for (size_t t = 0; t < 3; t++) {
        perm_spec spec = {classes, N, N, ks[t], t == 1, PERM_ORDER_LEXICOGRAPHIC};
        cr_assert_eq(perm_count(count, &spec, NULL), CORE_OK);
        mpz_urandomm(offset, state, count);
        perm_iter it;
        cr_assert_eq(perm_iter_init(&it, &spec, offset, NULL), CORE_OK);
        size_t changed;
        const uint32_t *a = perm_iter_next(&it, &changed);
        cr_assert_eq(perm_rank_lexicographic(rank, total, &spec, a, NULL), CORE_OK);
        cr_assert_eq(mpz_cmp(rank, offset), 0, "k %zu", ks[t]);
        cr_assert_eq(mpz_cmp(total, count), 0);
        perm_iter_free(&it);
    }
    mpz_clears(count, offset, rank, total, NULL);
    gmp_randclear(state);
    free(classes);
}
