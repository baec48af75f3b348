/* Benchmark for /queens: the parallel symmetry-aware counter against a plain single-threaded
 * Somers-style bitboard counter with mirror halving (n = 16, and 17 with the argument "17"), and the
 * permutation method against the bitmask iterator listing every solution (n = 8..11).
 * Prints TSV rows: measure, ours, peer name, peer value, unit, which is better. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/queens_count.h"
#include "core/queens_solutions.h"

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

static void bench_count(int n) {
    deadline none = deadline_none();
    double start = now_seconds();
    uint64_t peer_total = somers_count(n);
    double peer_seconds = now_seconds() - start;
    start = now_seconds();
    queens_counts ours;
    if (!queens_count_fast(n, 0, &none, &ours) || ours.total != peer_total) {
        fprintf(stderr, "count mismatch at n=%d\n", n);
        exit(1);
    }
    double our_seconds = now_seconds() - start;
    printf("count_all_and_unique_n%d\t%.3f\tsomers_bitboard_mirror_1_thread\t%.3f\ts\tlower\n", n, our_seconds,
           peer_seconds);
    printf("count_speedup_n%d\t%.2f\t-\t-\tx\thigher\n", n, peer_seconds / our_seconds);
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

int main(int argc, char **argv) {
    int largest = argc > 1 && strcmp(argv[1], "17") == 0 ? 17 : 16;
    for (int n = 16; n <= largest; n++) {
        bench_count(n);
    }
    for (int n = 8; n <= 11; n++) {
        bench_listing(n);
    }
    return 0;
}
