/* The n-queens count's cost model: timed runs of the real counter, fitted (see queens_cost.h). */
#include "core/queens/queens_cost.h"

#include <math.h>

#include "core/queens/queens_count.h"

/* A count of the board size *n on this thread alone. */
static void count_board(void *n) {
    queens_counts counts;
    queens_count_fast(*(const int *)n, 1, NULL, &counts);
}

/* The model's known term: ln(n^n). */
static double n_to_the_n(double n) { return n * log(n); }

queens_cost queens_cost_calibrate(void) {
    enum { BOARDS = QUEENS_COST_LAST_N - QUEENS_COST_FIRST_N + 1 };
    double sizes[BOARDS], seconds[BOARDS];
    for (int i = 0; i < BOARDS; i++) {
        int n = QUEENS_COST_FIRST_N + i;
        sizes[i] = n;
        seconds[i] = growth_time_fastest(count_board, &n, QUEENS_COST_RUNS);
    }
    return (queens_cost){.one_thread = growth_fit(sizes, seconds, BOARDS, n_to_the_n),
                         .threads = growth_cores(QUEENS_COUNT_MAX_THREADS)};
}

double queens_cost_seconds(const queens_cost *cost, int n) {
    return growth_seconds(&cost->one_thread, n) / cost->threads;
}

int queens_cost_largest_n(const queens_cost *cost, double seconds) {
    return (int)growth_largest_size(&cost->one_thread, seconds * cost->threads, 1, QUEENS_MAX_N);
}
