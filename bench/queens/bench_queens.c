/* Benchmark for /queens: the parallel symmetry-aware counter against a plain single-threaded
 * Somers-style bitboard counter with mirror halving (n = 16, best of 3 interleaved runs;
 * also n = 17, once, with the argument "17"), on one thread and on every core, and the
 * permutation method against the bitmask iterator listing every solution (n = 8..11).
 * Prints TSV rows: measure, ours, peer name, peer value, unit, which is better. With `curve`: the
 * counting curve, n = 8 .. 17 on every core, the Somers peer up to n = 15 (bench/lib/curve.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/curve.h"
#include "core/queens/queens_count.h"
#include "core/queens/queens_solutions.h"

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

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

/* Seconds for one count by `threads` threads (0: the Somers peer), checked against `expected`. */
static double time_count(int n, unsigned threads, uint64_t *total) {
    deadline none = deadline_none();
    double start = now_seconds();
    if (threads == 0) {
        *total = somers_count(n);
    } else {
        queens_counts ours;
        if (!queens_count_fast(n, threads, &none, &ours)) {
            fprintf(stderr, "count failed at n=%d\n", n);
            exit(1);
        }
        *total = ours.total;
    }
    return now_seconds() - start;
}

/* The three counters take turns `runs` times (the machine is shared: interleaving spreads the noise
 * evenly); each keeps its best time. */
static void bench_count(int n, int runs) {
    const unsigned thread_counts[3] = {0, 1, 0}; /* peer, ours on 1 thread, ours on every core */
    double best[3] = {1e300, 1e300, 1e300};
    for (int run = 0; run < runs; run++) {
        uint64_t totals[3];
        for (int k = 0; k < 3; k++) {
            double seconds = time_count(n, k == 2 ? (unsigned)sysconf(_SC_NPROCESSORS_ONLN) : thread_counts[k],
                                        &totals[k]);
            best[k] = seconds < best[k] ? seconds : best[k];
        }
        if (totals[1] != totals[0] || totals[2] != totals[0]) {
            fprintf(stderr, "count mismatch at n=%d\n", n);
            exit(1);
        }
    }
    printf("count_all_and_unique_n%d\t%.3f\tsomers_bitboard_mirror_1_thread\t%.3f\ts\tlower\n", n, best[2],
           best[0]);
    printf("count_all_and_unique_n%d_1_thread\t%.3f\tsomers_bitboard_mirror_1_thread\t%.3f\ts\tlower\n", n,
           best[1], best[0]);
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
        while (queens_iter_next(&it, NULL) == QUEENS_FOUND) {
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
        uint64_t total;
        times[r] = time_count(n, threads, &total);
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
    for (int n = 8; n <= 17; n++) {
        double ours = curve_seconds(n, (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
        curve_point("queens", n, ours, n <= 15 ? curve_seconds(n, 0) : -1, "Somers bitboard counter, 1 thread");
    }
}

int main(int argc, char **argv) {
    if (curve_mode(argc, argv)) {
        curve();
        return 0;
    }
    int largest = argc > 1 && strcmp(argv[1], "17") == 0 ? 17 : 16;
    bench_count(16, 3);
    if (largest == 17) {
        bench_count(17, 1);
    }
    for (int n = 8; n <= 11; n++) {
        bench_listing(n);
    }
    return 0;
}
