/* What a rank or unrank of distinct items costs on this machine, before it runs: the rank (perm_iter.h's
 * perm_rank_lexicographic) of a permutation of distinct items and the decimal text of its two numbers
 * (core/common/decimal.h, as the answer writes them) timed on a few sizes at start-up and fitted as a
 * power of the item count (core/common/growth_fit.h), so that a rank or unrank that cannot finish
 * within its time limit is known at once.
 *
 * The model: seconds(n) = C * n^e, C and e fitted. The work is GMP's products (binary splitting over
 * numbers of about n log2 n bits, perm_rank.h) and the numbers' conversion to decimal, which at 10^6
 * items is about as long as the rank itself (5.5M digits each); the growth per doubling of n is not
 * constant (word-sized products below 4,096 items, Toom products to 65,536, FFT products beyond). The
 * calibration times 2^12, 2^14 and 2^16 items (best of PERM_COST_RUNS), where the fitted exponent,
 * about 1.5, is a little steeper than the one beyond. It is then spread over the two threads the
 * rank's top level and the two conversions run on. The request also reads the items and an unrank
 * writes them (on one thread), which api/arrangements/items_cost.h times apart (core has no JSON). The unrank of the same items reads the rank's digits and writes the
 * items instead of the rank's digits: about as long as the rank at every size measured, so the rank's
 * model stands for both. Estimate against measured: docs/estimates.md. */
#ifndef PUZZLED_CORE_PERM_COST_H
#define PUZZLED_CORE_PERM_COST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/common/growth_fit.h"

/* The item counts timed at calibration (PERM_COST_FIRST_ITEMS, then each PERM_COST_STEP times the
 * last, PERM_COST_SIZES of them), and how many runs each (the fastest one counts). */
#define PERM_COST_FIRST_ITEMS 4096
#define PERM_COST_STEP 4
#define PERM_COST_SIZES 3
#define PERM_COST_RUNS 2
/* The most threads a rank or unrank runs on: its top level splits in two (perm_rank.h). */
#define PERM_COST_MAX_THREADS 2

typedef struct perm_cost {
    growth_model one_thread; /* seconds for the rank of n distinct items on one thread */
    unsigned threads;        /* the threads it spreads over here: PERM_COST_MAX_THREADS or the online cores */
} perm_cost;

/* Times the rank on one thread (processor time) for the sizes above and fits the model into *cost.
 * Runs on the calling thread, at start-up, before any request. False when memory ran out. */
bool perm_cost_calibrate(perm_cost *cost);

/* The model fitted to `count` >= 2 timed runs (items[i] items in seconds[i] on one thread), spread over
 * `threads`: what perm_cost_calibrate fits, for runs timed elsewhere. */
perm_cost perm_cost_fit(const double *items, const double *seconds, size_t count, unsigned threads);

/* The model's seconds for ranking or unranking `items` distinct items, spread over its threads: the
 * least such work takes here. */
double perm_cost_seconds(const perm_cost *cost, double items);

#endif
