/* The numbers of n-queens solutions as OEIS lists them, n = 1..27, for tests that must not trust the
 * service's own count: all solutions, A000170 (https://oeis.org/A000170, b-file: n = 26 by Preusser,
 * Engelhardt et al. 2009; n = 27 by the Q27 project, Preusser and Engelhardt 2016), and fundamental
 * solutions (one per class under the 8 symmetries of the square), A002562 (https://oeis.org/A002562). */
#ifndef PUZZLED_TESTS_QUEENS_OEIS_H
#define PUZZLED_TESTS_QUEENS_OEIS_H

#include <stdint.h>

#define QUEENS_OEIS_MAX_N 27

/* Indexed by n; index 0 unused. */
static const uint64_t oeis_a000170[QUEENS_OEIS_MAX_N + 1] = {
    0,
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2680,
    14200,
    73712,
    365596,
    2279184,
    14772512,
    95815104,
    666090624,
    4968057848,
    39029188884,
    314666222712,
    2691008701644,
    24233937684440,
    227514171973736,
    2207893435808352,
    22317699616364044,
    234907967154122528,
};

static const uint64_t oeis_a002562[QUEENS_OEIS_MAX_N + 1] = {
    0,
    1,
    0,
    0,
    1,
    2,
    1,
    6,
    12,
    46,
    92,
    341,
    1787,
    9233,
    45752,
    285053,
    1846955,
    11977939,
    83263591,
    621012754,
    4878666808,
    39333324973,
    336376244042,
    3029242658210,
    28439272956934,
    275986683743434,
    2789712466510289,
    29363495934315694,
};

#endif
