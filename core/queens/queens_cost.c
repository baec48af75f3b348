/* The n-queens count's cost model: timed runs of the real counter, fitted (see queens_cost.h). */
#include "core/queens/queens_cost.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

#include "core/queens/queens_count.h"

/* This thread's processor time: what the count itself costs, whatever else the machine runs meanwhile
 * (under load, wall-clock times of the calibration runs came out 3 to 10 times too long here). */
static double thread_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* The fastest of QUEENS_COST_RUNS counts of n on this thread alone. */
static double time_count(int n) {
    double fastest = 0;
    for (int run = 0; run < QUEENS_COST_RUNS; run++) {
        queens_counts counts;
        double started = thread_seconds();
        queens_count_fast(n, 1, NULL, &counts);
        double took = thread_seconds() - started;
        if (run == 0 || took < fastest) fastest = took;
    }
    return fastest;
}

static unsigned count_threads(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) return 1;
    return cores < QUEENS_COUNT_MAX_THREADS ? (unsigned)cores : QUEENS_COUNT_MAX_THREADS;
}

/* The model's known term: ln(n^n). */
static double n_to_the_n(double n) { return n * log(n); }

queens_cost queens_cost_calibrate(void) {
    enum { BOARDS = QUEENS_COST_LAST_N - QUEENS_COST_FIRST_N + 1 };
    double sizes[BOARDS], seconds[BOARDS];
    for (int i = 0; i < BOARDS; i++) {
        sizes[i] = QUEENS_COST_FIRST_N + i;
        seconds[i] = time_count(QUEENS_COST_FIRST_N + i);
    }
    return (queens_cost){.one_thread = growth_fit(sizes, seconds, BOARDS, n_to_the_n), .threads = count_threads()};
}

double queens_cost_seconds(const queens_cost *cost, int n) {
    return growth_seconds(&cost->one_thread, n) / cost->threads;
}

int queens_cost_largest_n(const queens_cost *cost, double seconds) {
    return (int)growth_largest_size(&cost->one_thread, seconds * cost->threads, 1, QUEENS_MAX_N);
}
