/* The rank's and unrank's cost model: timed ranks of distinct items and their numbers' text, fitted
 * (see perm_cost.h). */
#include "core/permutations/perm_cost.h"

#include <gmp.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/common/decimal.h"
#include "core/permutations/perm_iter.h"

/* A permutation of n distinct items to rank, the numbers that receive its rank and total, and whether
 * memory for their text ran out. */
typedef struct timed_rank {
    const perm_spec *spec;
    const uint32_t *items;
    mpz_ptr rank, total;
    bool failed;
} timed_rank;

/* The rank, and its two numbers written in decimal as the answer writes them. */
static void rank_once(void *arg) {
    timed_rank *t = arg;
    perm_rank_lexicographic(t->rank, t->total, t->spec, t->items, NULL);
    size_t rank_room = decimal_room(t->rank);
    char *text = malloc(rank_room + decimal_room(t->total));
    if (text == NULL) {
        t->failed = true;
        return;
    }
    decimal_write(text, t->rank);
    decimal_write(text + rank_room, t->total);
    free(text);
}

/* An odd multiplier: i * it mod a power of two is a permutation of 0..n-1, scattered as a shuffle. */
#define SCATTER 2654435761u

bool perm_cost_calibrate(perm_cost *cost) {
    size_t largest = PERM_COST_FIRST_ITEMS;
    for (int i = 1; i < PERM_COST_SIZES; i++) largest *= PERM_COST_STEP;
    uint32_t *items = malloc(largest * sizeof *items);
    if (items == NULL) return false;
    double sizes[PERM_COST_SIZES], seconds[PERM_COST_SIZES];
    mpz_t rank, total;
    mpz_inits(rank, total, NULL);
    bool failed = false;
    for (size_t n = PERM_COST_FIRST_ITEMS, i = 0; i < PERM_COST_SIZES; i++, n *= PERM_COST_STEP) {
        for (size_t j = 0; j < n; j++) items[j] = (uint32_t)((j * SCATTER) & (n - 1));
        perm_spec spec = {items, n, n, n, true, PERM_ORDER_LEXICOGRAPHIC};
        timed_rank run = {&spec, items, rank, total, false};
        sizes[i] = (double)n;
        seconds[i] = growth_time_fastest(rank_once, &run, PERM_COST_RUNS);
        failed = failed || run.failed;
    }
    mpz_clears(rank, total, NULL);
    free(items);
    if (failed) return false;
    *cost = perm_cost_fit(sizes, seconds, PERM_COST_SIZES, growth_cores(PERM_COST_MAX_THREADS));
    return true;
}

perm_cost perm_cost_fit(const double *items, const double *seconds, size_t count, unsigned threads) {
    return (perm_cost){.one_thread = growth_fit_power(items, seconds, count), .threads = threads};
}

double perm_cost_seconds(const perm_cost *cost, double items) {
    return growth_seconds(&cost->one_thread, items) / cost->threads;
}
