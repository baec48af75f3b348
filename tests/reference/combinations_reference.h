/* Independent ground truth for the combination tests, written apart from core/combinations/ and sharing
 * nothing with it: every k-subset of positions of a small multiset's sorted items, by counting through
 * bit masks, sorted into the order the service lists them (by positions; with `distinct` by class
 * sequence, each kept once at its earliest positions), on random multisets of up to 9 items. */
#ifndef PUZZLED_TESTS_COMBINATIONS_REFERENCE_H
#define PUZZLED_TESTS_COMBINATIONS_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { COMB_REFERENCE_MAX_N = 9, COMB_REFERENCE_MAX_LIST = 1 << COMB_REFERENCE_MAX_N };

typedef struct comb_reference_entry {
    uint32_t classes[COMB_REFERENCE_MAX_N];   /* the class of each chosen item, k of them, then zeros */
    uint32_t positions[COMB_REFERENCE_MAX_N]; /* the chosen positions in the sorted items, ascending */
} comb_reference_entry;

typedef struct comb_reference_case {
    size_t mult[COMB_REFERENCE_MAX_N]; /* m class multiplicities, each at least 1 */
    size_t m;
    size_t n; /* items: the sum of the multiplicities */
    size_t k; /* 0 to n + 1: above n there is no combination */
    bool distinct;
    size_t count; /* the combinations, listed in order in `list` */
    comb_reference_entry list[COMB_REFERENCE_MAX_LIST];
} comb_reference_case;

/* A random case from rand_r(seed): 0 to 9 items in random classes, a random k, `distinct` as asked,
 * and its list. */
void comb_reference_random_case(comb_reference_case *out, bool distinct, unsigned *seed);

/* A check of one random case: `trial` counts from 0, `seed` is the rand_r state the cases are drawn
 * from (for a check's own draws). */
typedef void comb_reference_check(const comb_reference_case *c, int trial, unsigned *seed);
/* Runs `check` on `trials` random cases drawn from one fixed seed, `distinct` on every other one: the
 * set-up every core test of the combinations shares. */
void comb_reference_each_random_case(int trials, comb_reference_check *check);

/* The index in the list of the first entry with the classes of entry `i` (the rank the service gives
 * repeated values that are not distinct). */
size_t comb_reference_first_of_classes(const comb_reference_case *c, size_t i);

#endif
