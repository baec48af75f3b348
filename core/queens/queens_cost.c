/* The n-queens count's cost model: sampled searches of the real counter, their growth fitted (see
 * queens_cost.h). */
#include "core/queens/queens_cost.h"

#include <math.h>

#include "core/queens/queens_constellation.h"
#include "core/queens/queens_count.h"
#include "core/queens/queens_solutions.h"

/* The searched constellations of a board: one per symmetry class, as the counter takes them. */
static bool searched(int n, uint64_t index) {
    return queens_constellation_class_size(n, queens_constellation_at(n, index)) != 0;
}

/* One thread's seconds for the count of n: QUEENS_COST_SAMPLES of its searches, the i-th the one at
 * position (i + 1/2) * searches / QUEENS_COST_SAMPLES among them, timed, and their sum scaled to all. */
static double sampled_seconds(int n) {
    uint64_t range = queens_constellation_range(n), searches = 0;
    for (uint64_t index = 0; index < range; index++) searches += searched(n, index);
    deadline none = deadline_none();
    queens_poll poll = {.dl = &none};
    atomic_init(&poll.stop, false);
    double spent = 0;
    unsigned timed = 0;
    for (uint64_t index = 0, position = 0; index < range && timed < QUEENS_COST_SAMPLES; index++) {
        if (!searched(n, index)) continue;
        if (position++ != (2 * timed + 1) * searches / (2 * QUEENS_COST_SAMPLES)) continue;
        uint64_t count;
        double started = growth_thread_seconds();
        queens_constellation_count(n, queens_constellation_at(n, index), &poll, &count);
        spent += growth_thread_seconds() - started;
        timed++;
    }
    return spent * (double)searches / timed;
}

/* The model's known term: ln(n^n). */
static double n_to_the_n(double n) { return n * log(n); }

queens_cost queens_cost_fit(const double seconds[QUEENS_COST_BOARDS], unsigned threads) {
    queens_cost cost = {.threads = threads};
    double sizes[QUEENS_COST_BOARDS];
    for (int i = 0; i < QUEENS_COST_BOARDS; i++) {
        cost.sampled[i] = seconds[i];
        sizes[i] = QUEENS_COST_FIRST_N + i;
    }
    enum { FROM = QUEENS_COST_BOARDS - QUEENS_COST_FITTED };
    cost.beyond = growth_fit(sizes + FROM, seconds + FROM, QUEENS_COST_FITTED, n_to_the_n);
    return cost;
}

queens_cost queens_cost_calibrate(void) {
    double seconds[QUEENS_COST_BOARDS];
    for (int i = 0; i < QUEENS_COST_BOARDS; i++) seconds[i] = sampled_seconds(QUEENS_COST_FIRST_N + i);
    return queens_cost_fit(seconds, growth_cores(QUEENS_COUNT_MAX_THREADS));
}

/* One thread's seconds for n: the first sampled board's below the samples, a sample's within them,
 * the fitted growth beyond. */
static double one_thread_seconds(const queens_cost *cost, int n) {
    if (n > QUEENS_COST_LAST_N) return growth_seconds(&cost->beyond, n);
    return cost->sampled[n < QUEENS_COST_FIRST_N ? 0 : n - QUEENS_COST_FIRST_N];
}

double queens_cost_seconds(const queens_cost *cost, int n) { return one_thread_seconds(cost, n) / cost->threads; }

int queens_cost_largest_n(const queens_cost *cost, double seconds) {
    int fits = 0; /* the model's time rises with n: the last n within `seconds` */
    while (fits < QUEENS_MAX_N && queens_cost_seconds(cost, fits + 1) <= seconds) fits++;
    return fits;
}
