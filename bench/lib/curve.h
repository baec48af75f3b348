/* What the benchmark binaries share for scaling curves (bench/curves/run.sh): a monotonic clock, the
 * median of a few timings, and the one output format. Run with the argument `curve`, a benchmark
 * prints one TSV row per point instead of its table rows:
 *     curve name, size, our seconds, the peer's seconds (or -), the peer's name
 * Header-only (static functions): each benchmark is its own executable. */
#ifndef PUZZLED_BENCH_CURVE_H
#define PUZZLED_BENCH_CURVE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double curve_now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline bool curve_mode(int argc, char **argv) { return argc > 1 && strcmp(argv[1], "curve") == 0; }

static inline int curve_compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of values[0..count-1] (reorders them). */
static inline double curve_median(double *values, size_t count) {
    qsort(values, count, sizeof *values, curve_compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

/* How many repetitions a point gets: 5 while one run is short, fewer for long runs, so a whole
 * curve stays within a few minutes. */
static inline int curve_repetitions(double first_run_seconds) {
    return first_run_seconds < 0.2 ? 5 : first_run_seconds < 2 ? 3 : 1;
}

/* One point; peer_seconds < 0 when the peer was not run at this size. */
static inline void curve_point(const char *curve, double size, double ours_seconds, double peer_seconds,
                               const char *peer) {
    if (peer_seconds < 0) {
        printf("%s\t%.0f\t%.9f\t-\t%s\n", curve, size, ours_seconds, peer);
    } else {
        printf("%s\t%.0f\t%.9f\t%.9f\t%s\n", curve, size, ours_seconds, peer_seconds, peer);
    }
    fflush(stdout);
}

#endif
