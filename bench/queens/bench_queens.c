/* Benchmark for /queens: the parallel counter against a plain single-threaded Somers-style
 * bitboard counter with mirror halving (n = 16, median of 5 interleaved runs), on one thread and on
 * every core; the constellation search in vector lanes against the portable one (n = 16, one thread,
 * where the processor has AVX-512); n = 17 and 18 alone (median of 5 and of 3; the peer would take
 * minutes), n = 19 once with the argument "19", and n = 19 and 20 once with "20", each checked
 * against OEIS; and the permutation method against the bitmask iterator listing every solution
 * (n = 8..11).
 * Prints TSV rows: measure, ours, peer name, peer value, unit, which is better. With `curve`: the
 * counting curve, n = 8 .. 18 on every core, the Somers peer up to n = 15 (bench/lib/curve.h). With
 * `split`: the line QUEENS_COUNT_SPLIT_MIN_N, below which a count is the plain search on one thread:
 * n = 8 .. 14, the count on every core against the enumeration, and against the constellations below
 * the line or one share from it. The shares go to a compute pool of one worker per core, as in the server. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/compute_pool_install.h"
#include "../lib/curve.h"
#include "core/queens/queens_constellation.h"
#include "core/queens/queens_count.h"
#include "core/queens/queens_parts.h"
#include "core/queens/queens_solutions.h"

static double clock_seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* The processor time of every thread of this process (the pool's workers too): on a shared machine
 * what a count costs, whatever share of the cores it was given. */
static double process_seconds(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

/* The peer: the textbook recursion over (columns, diagonals) bitboards. */
static uint64_t somers_rec(uint64_t all, uint64_t down, uint64_t left, uint64_t right) {
    if (down == all) {
        return 1;
    }
    uint64_t count = 0;
    uint64_t free_cols = all & ~(down | left | right);
    while (free_cols != 0) {
        uint64_t bit = free_cols & -free_cols;
        free_cols ^= bit;
        count += somers_rec(all, down | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
}

/* Mirror halving: row 0 only in the left half (each counts twice), plus the middle column when n is odd. */
static uint64_t somers_count(int n) {
    uint64_t all = ((uint64_t)1 << n) - 1;
    uint64_t total = 0;
    for (int col = 0; col < n / 2; col++) {
        uint64_t bit = (uint64_t)1 << col;
        total += 2 * somers_rec(all, bit, bit << 1, bit >> 1);
    }
    if (n % 2 == 1) {
        uint64_t bit = (uint64_t)1 << (n / 2);
        total += somers_rec(all, bit, bit << 1, bit >> 1);
    }
    return total;
}

/* Seconds for one count by `threads` threads (0: the Somers peer), and in *processor the processor
 * seconds of all threads; *total is its answer, and *unique ours (the peer's: 0). */
static double time_count(int n, unsigned threads, uint64_t *total, uint64_t *unique, double *processor) {
    deadline none = deadline_none();
    double start = now_seconds(), processor_start = process_seconds();
    *unique = 0;
    if (threads == 0) {
        *total = somers_count(n);
    } else {
        queens_counts ours;
        if (queens_count_fast(n, threads, &none, &ours) != CORE_OK) {
            fprintf(stderr, "count failed at n=%d\n", n);
            exit(1);
        }
        *total = ours.total;
        *unique = ours.unique;
    }
    *processor = process_seconds() - processor_start;
    return now_seconds() - start;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

#define MAX_RUNS 9

/* OEIS A000170 and A002562 (all and fundamental solutions, oeis.org; tests/reference/queens_oeis.h
 * holds them to n = 27), the check for the counts the peer is too slow to repeat. */
#define OEIS_MAX_N 20
static const uint64_t oeis_total[OEIS_MAX_N + 1] = {
    0,    1,     0,     0,      2,       10,       4,        40,        92,         352,        724,
    2680, 14200, 73712, 365596, 2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884};
static const uint64_t oeis_unique[OEIS_MAX_N + 1] = {0,     1,      0,       0,        1,        2,         1,
                                                     6,     12,     46,      92,       341,      1787,      9233,
                                                     45752, 285053, 1846955, 11977939, 83263591, 621012754, 4878666808};

/* The counters take turns `runs` times (the machine is shared: interleaving spreads the noise
 * evenly); each reports its median. With `peer`, the Somers counter and ours on one thread run too,
 * and every answer must agree; without, ours (every core) is checked against OEIS. */
static void bench_count(int n, int runs, bool peer) {
    const unsigned cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    const unsigned thread_counts[3] = {cores, 1, 0}; /* ours on every core, ours on 1 thread, the peer */
    int counters = peer ? 3 : 1;
    double seconds[3][MAX_RUNS], processor[3][MAX_RUNS];
    for (int run = 0; run < runs; run++) {
        uint64_t totals[3], unique;
        for (int k = 0; k < counters; k++) {
            seconds[k][run] = time_count(n, thread_counts[k], &totals[k], &unique, &processor[k][run]);
            if (totals[k] != (peer ? totals[0] : oeis_total[n]) ||
                (thread_counts[k] != 0 && unique != oeis_unique[n])) {
                fprintf(stderr, "count mismatch at n=%d\n", n);
                exit(1);
            }
        }
    }
    if (!peer) {
        printf("count_all_and_unique_n%d_median_of_%d\t%.3f\t-\t-\ts\tlower\n", n, runs, median(seconds[0], runs));
        printf("count_all_and_unique_n%d_processor_time_median_of_%d\t%.3f\t-\t-\ts\tlower\n", n, runs,
               median(processor[0], runs));
        return;
    }
    printf(
        "count_all_and_unique_n%d_processor_time_median_of_%d\t%.3f\tsomers_bitboard_mirror_1_thread\t%.3f\ts\tlower\n",
        n, runs, median(processor[0], runs), median(processor[2], runs));
    double somers = median(seconds[2], runs);
    printf("count_all_and_unique_n%d_median_of_%d\t%.3f\tsomers_bitboard_mirror_1_thread\t%.3f\ts\tlower\n", n, runs,
           median(seconds[0], runs), somers);
    printf("count_all_and_unique_n%d_1_thread_median_of_%d\t%.3f\tsomers_bitboard_mirror_1_thread\t%.3f\ts\tlower\n", n,
           runs, median(seconds[1], runs), somers);
}

/* Seconds to list every solution with `algorithm`, best of `runs`; *found is the number listed. */
static double time_listing(int n, queens_algorithm algorithm, int runs, uint64_t *found) {
    double best = 1e300;
    for (int run = 0; run < runs; run++) {
        queens_iter it;
        queens_iter_init(&it, n, algorithm, false);
        uint64_t count = 0;
        uint64_t checksum = 0;
        double start = now_seconds();
        bool more;
        while (queens_iter_next(&it, NULL, &more) == CORE_OK && more) {
            count++;
            checksum += (uint64_t)queens_iter_solution(&it)[n - 1];
        }
        double seconds = now_seconds() - start;
        if (checksum == UINT64_MAX) { /* keeps the loop from being optimised away */
            puts("");
        }
        best = seconds < best ? seconds : best;
        *found = count;
    }
    return best;
}

static void bench_listing(int n) {
    uint64_t ours_found, peer_found;
    double ours = time_listing(n, QUEENS_BITMASK, 3, &ours_found);
    double peer = time_listing(n, QUEENS_PERMUTATION, n <= 10 ? 3 : 1, &peer_found);
    if (ours_found != peer_found) {
        fprintf(stderr, "listing mismatch at n=%d\n", n);
        exit(1);
    }
    printf("list_all_n%d_bitmask\t%.6f\tpermutation_method\t%.6f\ts\tlower\n", n, ours, peer);
}

/* Seconds to count n queens (threads 0: the Somers peer): the median of as many runs as
 * curve_repetitions says, each checked against the first. */
static double curve_seconds(int n, unsigned threads) {
    double times[5];
    uint64_t first_total = 0;
    int repetitions = 5;
    for (int r = 0; r < repetitions; r++) {
        uint64_t total, unique;
        double processor;
        times[r] = time_count(n, threads, &total, &unique, &processor);
        if (r == 0) {
            first_total = total;
            repetitions = curve_repetitions(times[0]);
        } else if (total != first_total) {
            exit(1);
        }
    }
    return curve_median(times, (size_t)repetitions);
}

static void curve(void) {
    for (int n = 8; n <= 18; n++) {
        double ours = curve_seconds(n, (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
        curve_point("queens", n, ours, n <= 15 ? curve_seconds(n, 0) : -1, "Somers bitboard counter, 1 thread");
    }
}

/* Seconds per count of n by `counter` (the default counter on 1 share or on `cores`, the constellations
 * on `cores` as the one part of every class, its split included, or the enumeration): the best of 25
 * rounds, each of enough counts to last about 5 ms (the best, not the median: on a shared machine the
 * rounds a core was taken from are the noise, and the best round is the closest to an idle machine's). */
enum split_counter { ONE_SHARE, EVERY_CORE, CONSTELLATIONS, ENUMERATION };

static core_status count_constellations_whole(int n, unsigned cores, queens_counts *counts) {
    queens_part whole;
    core_status status = queens_part_select(n, 0, 1, &whole);
    if (status == CORE_OK) status = queens_count_part(&whole, cores, NULL, counts);
    queens_part_free(&whole);
    return status;
}

static double count_once(int n, enum split_counter counter, unsigned cores) {
    queens_counts counts = {0, 0};
    double start = now_seconds();
    core_status status = counter == ENUMERATION ? queens_count_by_enumeration(n, QUEENS_BITMASK, NULL, &counts)
                         : counter == CONSTELLATIONS
                             ? count_constellations_whole(n, cores, &counts)
                             : queens_count_fast(n, counter == ONE_SHARE ? 1 : cores, NULL, &counts);
    if (status != CORE_OK || counts.total != oeis_total[n]) exit(1);
    return now_seconds() - start;
}

static double split_seconds(int n, enum split_counter counter, unsigned cores) {
    enum { ROUNDS = 25 };
    double once = count_once(n, counter, cores);
    long counts = once > 0.005 ? 1 : (long)(0.005 / (once > 1e-7 ? once : 1e-7));
    double best = 1e300;
    for (int round = 0; round < ROUNDS; round++) {
        double start = now_seconds();
        for (long k = 0; k < counts; k++) count_once(n, counter, cores);
        double per_count = (now_seconds() - start) / (double)counts;
        best = per_count < best ? per_count : best;
    }
    return best;
}

/* The default counter on every core against the enumeration; below QUEENS_COUNT_SPLIT_MIN_N (the plain
 * search) against the constellations on every core too, from there (the constellations) against one
 * share: the rows on both sides of the line show why it is where it is. */
static void split(void) {
    const unsigned cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    for (int n = 8; n <= 14; n++) {
        double every = split_seconds(n, EVERY_CORE, cores);
        printf("count_n%d_every_core\t%.7f\tenumeration_1_thread\t%.7f\ts\tlower\n", n, every,
               split_seconds(n, ENUMERATION, cores));
        if (n < QUEENS_COUNT_SPLIT_MIN_N)
            printf("count_n%d_every_core\t%.7f\tconstellations_every_core\t%.7f\ts\tlower\n", n, every,
                   split_seconds(n, CONSTELLATIONS, cores));
        else
            printf("count_n%d_every_core\t%.7f\tone_share\t%.7f\ts\tlower\n", n, every,
                   split_seconds(n, ONE_SHARE, cores));
    }
}

/* Processor seconds of this thread to count every class of n with `search`; *total is their
 * solutions, each class's times its size. */
static double time_search(int n, queens_constellation_search search, uint64_t *total) {
    queens_poll poll = {.dl = NULL};
    atomic_init(&poll.stop, false);
    double start = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    *total = 0;
    for (uint64_t index = 0; index < queens_constellation_range(n); index++) {
        queens_constellation c = queens_constellation_at(n, index);
        int class_size = queens_constellation_class_size(n, c);
        uint64_t count = 0;
        if (class_size != 0) queens_constellation_count_with(n, c, search, &poll, &count);
        *total += (uint64_t)class_size * count;
    }
    return clock_seconds(CLOCK_THREAD_CPUTIME_ID) - start;
}

/* Each search in vector lanes this processor has against the portable one, n = 16, one thread, best
 * of 5 interleaved. */
static void bench_lanes(void) {
    enum { N = 16, RUNS = 5, SEARCHES = 3 };
    const queens_constellation_search searches[SEARCHES] = {QUEENS_SEARCH_PORTABLE, QUEENS_SEARCH_AVX2,
                                                            QUEENS_SEARCH_AVX512};
    const char *names[SEARCHES] = {"portable", "avx2", "avx512"};
    double best[SEARCHES] = {1e300, 1e300, 1e300};
    for (int run = 0; run < RUNS; run++) {
        for (int k = 0; k < SEARCHES; k++) {
            if (!queens_constellation_search_available(searches[k])) continue;
            uint64_t total;
            double seconds = time_search(N, searches[k], &total);
            if (total != oeis_total[N]) {
                fprintf(stderr, "search %s: count mismatch at n=%d\n", names[k], N);
                exit(1);
            }
            best[k] = seconds < best[k] ? seconds : best[k];
        }
    }
    for (int k = 1; k < SEARCHES; k++) {
        if (!queens_constellation_search_available(searches[k])) continue;
        printf("count_all_n%d_%s_lanes_1_thread_processor_time_best_of_%d\t%.3f\tportable_batched_search\t%."
               "3f\ts\tlower\n",
               N, names[k], RUNS, best[k], best[0]);
    }
}

int main(int argc, char **argv) {
    if (!compute_pool_install_per_core()) return 1;
    if (curve_mode(argc, argv)) {
        curve();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "split") == 0) {
        split();
        return 0;
    }
    int up_to = argc > 1 && strcmp(argv[1], "20") == 0 ? 20 : argc > 1 && strcmp(argv[1], "19") == 0 ? 19 : 18;
    bench_count(16, 5, true);
    bench_lanes();
    bench_count(17, 5, false);
    bench_count(18, 3, false);
    for (int n = 19; n <= up_to; n++) bench_count(n, 1, false);
    for (int n = 8; n <= 11; n++) {
        bench_listing(n);
    }
    return 0;
}
