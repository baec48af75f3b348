/* Benchmark of permutation rank and unrank (core/permutations/perm_rank.h: Fenwick-tree Lehmer digits,
 * big numbers assembled and taken apart by divide and conquer) against the textbook way in the same
 * run: Lehmer digits by counting, for each item, the smaller items after it (O(n^2)), rank assembled by
 * Horner's rule (r = r * (n - i) + digit) and unrank by dividing by 2, 3, ..., n one after the other
 * (each division as long as the number), then picking the digit-th unused item. Ours runs on a compute
 * pool of one worker per core, as in the server (bench/lib/compute_pool_install.h).
 * Without arguments: TSV table rows for n = 10,000 (median of 5). With `curve`: the scaling curves
 * from 10 to 1,000,000 items (the textbook peer up to 30,000: beyond, it takes minutes). With
 * `convert FILE...`: the peer of bench/rank/http.sh, GMP's plain single-threaded decimal conversion
 * of the numbers in those files (decimal digits), best of 3: one line per file, the seconds of
 * mpz_set_str and of mpz_get_str. With `radix BITS`: the scaled remainder tree study (radix_study.c).
 * With `text FILE`: the rank of the letters a..z in FILE (as bench/rank/http.sh's third request) in
 * process, best of 3: the caller's thread CPU, all threads' CPU and wall seconds of multiset_rank. */
#include <gmp.h>
#include <stdint.h>
#include <time.h>

#include "../lib/compute_pool_install.h"
#include "../lib/curve.h"
#include "radix_study.h"
#include "core/permutations/perm_rank.h"

#define TABLE_N 10000
#define PEER_MAX_N 30000

static void random_permutation(uint32_t *seq, size_t n) {
    for (size_t i = 0; i < n; i++) seq[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)rand() % (i + 1);
        uint32_t t = seq[i];
        seq[i] = seq[j];
        seq[j] = t;
    }
}

static void textbook_rank(mpz_t rank, const uint32_t *seq, size_t n) {
    mpz_set_ui(rank, 0);
    for (size_t i = 0; i < n; i++) {
        unsigned long smaller_after = 0;
        for (size_t j = i + 1; j < n; j++) smaller_after += seq[j] < seq[i];
        mpz_mul_ui(rank, rank, (unsigned long)(n - i));
        mpz_add_ui(rank, rank, smaller_after);
    }
}

static void textbook_unrank(uint32_t *seq, size_t n, const mpz_t rank) {
    mpz_t r;
    mpz_init_set(r, rank);
    size_t *digits = malloc(n * sizeof *digits);
    for (size_t base = 1; base <= n; base++) /* digit of position n - base, least significant first */
        digits[n - base] = mpz_fdiv_q_ui(r, r, (unsigned long)base);
    char *used = calloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        size_t item = 0;
        for (size_t skip = digits[i];; item++) { /* the skip-th unused item */
            if (used[item]) continue;
            if (skip == 0) break;
            skip--;
        }
        seq[i] = (uint32_t)item;
        used[item] = 1;
    }
    free(used);
    free(digits);
    mpz_clear(r);
}

typedef struct subject {
    size_t n;
    const uint32_t *seq;
    const size_t *mult; /* all 1 */
    mpz_t rank;         /* of seq */
    uint32_t *out;
} subject;

typedef void (*run_fn)(subject *s);

static void ours_rank(subject *s) {
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    if (multiset_rank(rank, total, s->seq, s->n, s->n, NULL) != CORE_OK || mpz_cmp(rank, s->rank) != 0) abort();
    mpz_clears(rank, total, NULL);
}

static void peer_rank(subject *s) {
    mpz_t rank;
    mpz_init(rank);
    textbook_rank(rank, s->seq, s->n);
    if (mpz_cmp(rank, s->rank) != 0) abort();
    mpz_clear(rank);
}

static void ours_unrank(subject *s) {
    if (multiset_unrank(s->out, s->mult, s->n, s->rank, NULL) != CORE_OK) abort();
    if (memcmp(s->out, s->seq, s->n * sizeof *s->out) != 0) abort();
}

static void peer_unrank(subject *s) {
    textbook_unrank(s->out, s->n, s->rank);
    if (memcmp(s->out, s->seq, s->n * sizeof *s->out) != 0) abort();
}

/* Seconds per run: the median of `repetitions` timings (0: as many as curve_repetitions says), each
 * timing a batch of runs long enough (about a millisecond) for the clock to resolve. */
static double seconds(run_fn run, subject *s, int repetitions) {
    double start = curve_now_seconds();
    run(s);
    double first = curve_now_seconds() - start;
    int batch = first < 1e-3 ? (int)(1e-3 / (first + 1e-9)) + 1 : 1;
    if (repetitions == 0) repetitions = curve_repetitions(first);
    double times[5];
    for (int r = 0; r < repetitions; r++) {
        start = curve_now_seconds();
        for (int b = 0; b < batch; b++) run(s);
        times[r] = (curve_now_seconds() - start) / batch;
    }
    return curve_median(times, (size_t)repetitions);
}

/* A random permutation of n items and its rank, worked out by the textbook way when it is quick. */
static void subject_init(subject *s, size_t n) {
    uint32_t *seq = malloc(n * sizeof *seq);
    size_t *mult = malloc(n * sizeof *mult);
    for (size_t i = 0; i < n; i++) mult[i] = 1;
    random_permutation(seq, n);
    *s = (subject){.n = n, .seq = seq, .mult = mult, .out = malloc(n * sizeof *s->out)};
    mpz_init(s->rank);
    mpz_t total;
    mpz_init(total);
    if (multiset_rank(s->rank, total, seq, n, n, NULL) != CORE_OK) abort();
    mpz_clear(total);
    if (n <= PEER_MAX_N) { /* the two ways agree (the peers check it on every run too) */
        mpz_t check;
        mpz_init(check);
        textbook_rank(check, seq, n);
        if (mpz_cmp(check, s->rank) != 0) abort();
        mpz_clear(check);
    }
}

static void subject_free(subject *s) {
    free((void *)s->seq);
    free((void *)s->mult);
    free(s->out);
    mpz_clear(s->rank);
}

/* Best of 3 single-threaded mpz_set_str and mpz_get_str of the number in `path`; false if unreadable. */
static bool time_conversion(const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL) return false;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *digits = malloc((size_t)size + 1), *back = malloc((size_t)size + 2);
    size_t got = fread(digits, 1, (size_t)size, f);
    fclose(f);
    digits[got] = '\0';
    mpz_t v;
    mpz_init(v);
    double best_set = 1e9, best_get = 1e9;
    for (int round = 0; round < 3; round++) {
        double start = curve_now_seconds();
        if (mpz_set_str(v, digits, 10) != 0) abort();
        double middle = curve_now_seconds();
        mpz_get_str(back, 10, v);
        double end = curve_now_seconds();
        if (strcmp(back, digits) != 0) abort();
        best_set = middle - start < best_set ? middle - start : best_set;
        best_get = end - middle < best_get ? end - middle : best_get;
    }
    printf("%.3f\t%.3f\n", best_set, best_get);
    mpz_clear(v);
    free(digits);
    free(back);
    return true;
}

static double clock_seconds(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Best of 3 of multiset_rank over the letters of `path` up to its first newline; false if unreadable.
 * A bench tool: a character other than a..z, or no memory, aborts. */
static bool time_text_rank(const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL) return false;
    size_t n = 0, room = 1 << 20;
    uint32_t *seq = malloc(room * sizeof *seq);
    for (int c; (c = fgetc(f)) != EOF && c != '\n';) {
        if (c < 'a' || c > 'z') abort();
        if (n == room) seq = realloc(seq, (room *= 2) * sizeof *seq);
        seq[n++] = (uint32_t)(c - 'a');
    }
    fclose(f);
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    const clockid_t clocks[3] = {CLOCK_THREAD_CPUTIME_ID, CLOCK_PROCESS_CPUTIME_ID, CLOCK_MONOTONIC};
    double best[3] = {1e9, 1e9, 1e9};
    for (int round = 0; round < 3; round++) {
        double start[3];
        for (int k = 0; k < 3; k++) start[k] = clock_seconds(clocks[k]);
        if (multiset_rank(rank, total, seq, n, 26, NULL) != CORE_OK) abort();
        for (int k = 0; k < 3; k++) {
            double spent = clock_seconds(clocks[k]) - start[k];
            best[k] = spent < best[k] ? spent : best[k];
        }
    }
    printf("multiset_rank of %zu letters: caller's thread %.3f s, all threads %.3f s, wall %.3f s\n", n, best[0],
           best[1], best[2]);
    mpz_clears(rank, total, NULL);
    free(seq);
    return true;
}

int main(int argc, char **argv) {
    srand(2026);
    if (argc == 3 && strcmp(argv[1], "radix") == 0) return radix_study(strtoull(argv[2], NULL, 10));
    if (argc >= 2 && strcmp(argv[1], "convert") == 0) { /* the single-threaded peer: no pool */
        for (int i = 2; i < argc; i++)
            if (!time_conversion(argv[i])) return 1;
        return 0;
    }
    if (!compute_pool_install_per_core()) return 1; /* ours on every core, as in the server */
    if (argc == 3 && strcmp(argv[1], "text") == 0) return time_text_rank(argv[2]) ? 0 : 1;
    if (!curve_mode(argc, argv)) {
        subject s;
        subject_init(&s, TABLE_N);
        printf("permutation rank of 10,000 items, in process (median of 5)\t%.3f\ttextbook Lehmer digits + "
               "Horner\t%.3f\tms\tlower\n",
               1e3 * seconds(ours_rank, &s, 5), 1e3 * seconds(peer_rank, &s, 5));
        printf("permutation unrank of 10,000 items, in process (median of 5)\t%.3f\ttextbook repeated division + "
               "pick the unused\t%.3f\tms\tlower\n",
               1e3 * seconds(ours_unrank, &s, 5), 1e3 * seconds(peer_unrank, &s, 5));
        subject_free(&s);
        return 0;
    }
    const size_t sizes[] = {10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000, 300000, 1000000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        subject s;
        subject_init(&s, sizes[i]);
        bool peer = sizes[i] <= PEER_MAX_N;
        curve_point("rank", (double)sizes[i], seconds(ours_rank, &s, 0), peer ? seconds(peer_rank, &s, 0) : -1,
                    "textbook Lehmer digits + Horner");
        curve_point("unrank", (double)sizes[i], seconds(ours_unrank, &s, 0), peer ? seconds(peer_unrank, &s, 0) : -1,
                    "textbook repeated division");
        subject_free(&s);
    }
    return 0;
}
