/* What a count of n-queens solutions costs on this machine, before it runs: the fast counter's own
 * searches (queens_count.h) timed on a sample of each board's border constellations at start-up, and
 * their growth fitted (core/common/growth_fit.h), so that a count that cannot finish within its time
 * limit is known at once.
 *
 * A count is one search per symmetry class of border constellations (queens_constellation.h), so its
 * time is the sum of those searches' times. For each board from QUEENS_COST_FIRST_N to
 * QUEENS_COST_LAST_N the calibration times QUEENS_COST_SAMPLES of them, spread evenly over the
 * constellations in their order (a systematic sample), and scales their sum by how many there are:
 * the board's time measured on a few per cent of its work, at the sizes where the time limits fall
 * (n = 18 is the largest count within the default 10 s limit on two cores). Beyond QUEENS_COST_LAST_N
 * the model is seconds(n) = C * n^n * r^n, C and r fitted to the largest QUEENS_COST_FITTED sampled
 * boards and anchored at the last: the searches' nodes go with the number of solutions, which is
 * ((1 + o(1)) n e^-1.944)^n (Simkin, "The number of n-queens configurations", 2021), so the growth
 * per n itself rises with n (x5 from 14 to 15, x6.5 from 16 to 17). Below QUEENS_COST_FIRST_N the
 * first board's time stands: an upper bound, where the counter's fixed costs weigh most.
 *
 * Why sample rather than time whole boards: the growth is only seen from about n = 15 on (below, the
 * fixed costs per constellation flatten it: x2.2 to x4 per n), and whole boards of 15 to 18 cost
 * seconds of processor time; a line fitted to whole boards of 12 to 14 grew x3.8 per n where the
 * counts grow x6.3, and said a quarter of n = 18's time. Figures and the command that makes them:
 * docs/estimates.md. */
#ifndef PUZZLED_CORE_QUEENS_COST_H
#define PUZZLED_CORE_QUEENS_COST_H

#include "core/common/growth_fit.h"

/* The boards sampled at calibration, the constellations timed on each, and how many of the largest
 * sampled boards the growth beyond them is fitted to. */
#define QUEENS_COST_FIRST_N 12
#define QUEENS_COST_LAST_N 18
#define QUEENS_COST_SAMPLES 48
#define QUEENS_COST_FITTED 3

enum { QUEENS_COST_BOARDS = QUEENS_COST_LAST_N - QUEENS_COST_FIRST_N + 1 };

typedef struct queens_cost {
    double sampled[QUEENS_COST_BOARDS]; /* one thread's seconds for the count of n = QUEENS_COST_FIRST_N + i */
    growth_model beyond;                /* one thread's seconds beyond QUEENS_COST_LAST_N */
    unsigned threads;                   /* the most threads a count can use here: the online cores */
} queens_cost;

/* Times the sampled searches on one thread (processor time) for n = QUEENS_COST_FIRST_N ..
 * QUEENS_COST_LAST_N and fits the growth beyond. Runs on the calling thread, at start-up, before any
 * request. */
queens_cost queens_cost_calibrate(void);

/* The model fitted to one thread's seconds for the counts of n = QUEENS_COST_FIRST_N + i (i <
 * QUEENS_COST_BOARDS, each > 0), spread over `threads`: what queens_cost_calibrate fits, for times
 * measured elsewhere. */
queens_cost queens_cost_fit(const double seconds[QUEENS_COST_BOARDS], unsigned threads);

/* The model's seconds for counting an n x n board (1 <= n <= QUEENS_MAX_N), spread over all `threads`
 * cores: the least a count takes here. */
double queens_cost_seconds(const queens_cost *cost, int n);

/* The largest n (at most QUEENS_MAX_N) whose count the model says takes at most `seconds`; 0 for none. */
int queens_cost_largest_n(const queens_cost *cost, double seconds);

#endif
