/* What a count of n-queens solutions costs on this machine, before it runs: the fast counter
 * (queens_count.h) timed on a few boards at start-up and fitted (core/common/growth_fit.h), so that a
 * count that cannot finish within its time limit is known at once.
 *
 * The model: seconds(n) = C * n^n * r^n, C and r fitted. The search's nodes go with the number of
 * solutions, which is ((1 + o(1)) n e^-1.944)^n (Simkin, "The number of n-queens configurations",
 * 2021), so the growth per n itself rises with n (x4 at n = 14, x7 at 16, x10 near 26) and a plain
 * exponential fitted to small boards would say far too much fits. Processor time of one thread, best
 * of QUEENS_COST_RUNS, measured here: n = 11: 1.5 ms, 12: 3.4, 13: 8.1, 14: 33, 15: 124, 16: 833;
 * below 13 the fixed costs per border constellation (about n^4 of them) weigh most (x2.2 per n), so
 * the calibration times n = 12 to 14 (about 90 ms of processor time in all). Fitted on those, r came
 * out at 0.09 to 0.1 (theory: e^-1.944 = 0.14 asymptotically) and the model said 0.45 s for n = 16
 * (measured 0.83 s) and 1.8 s for n = 17: it still underestimates past its boards, so it is a lower
 * bound, safe for refusing work, a little optimistic about what fits. */
#ifndef PUZZLED_CORE_QUEENS_COST_H
#define PUZZLED_CORE_QUEENS_COST_H

#include "core/common/growth_fit.h"

/* The boards timed at calibration, and how many runs each (the fastest one counts: a busy machine
 * only ever slows a run down). */
#define QUEENS_COST_FIRST_N 12
#define QUEENS_COST_LAST_N 14
#define QUEENS_COST_RUNS 2

typedef struct queens_cost {
    growth_model one_thread; /* seconds for the count of n on one thread */
    unsigned threads;        /* the most threads a count can use here: the online cores */
} queens_cost;

/* Times the fast counter on one thread (processor time) for n = QUEENS_COST_FIRST_N ..
 * QUEENS_COST_LAST_N and fits the model. Runs on the calling thread, at start-up, before any request. */
queens_cost queens_cost_calibrate(void);

/* The model's seconds for counting an n x n board, spread over all `threads` cores: the least a count
 * takes here. */
double queens_cost_seconds(const queens_cost *cost, int n);

/* The largest n (at most QUEENS_MAX_N) whose count the model says takes at most `seconds`; 0 for none. */
int queens_cost_largest_n(const queens_cost *cost, double seconds);

#endif
