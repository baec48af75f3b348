/* How much of a test's big comparison against its reference a run covers. The whole suite's unit and
 * integration stages cover all of it. A run with PUZZLED_TEST_SAMPLE_DIVISOR=D in its environment
 * covers a fixed 1/D of it: the quick tier (scripts/test.sh quick), which a contributor runs after any
 * change, and the sanitizer stages, which run the same code many times slower to find memory errors
 * and undefined behaviour, after the plain build has compared every answer. The sample is the same
 * cases in every run (the first ones, or every D-th), so a test's own checks on what its sample holds
 * (every kind of answer occurred) still apply to it. */
#ifndef PUZZLED_TESTS_TEST_SAMPLE_H
#define PUZZLED_TESTS_TEST_SAMPLE_H

#include <stdlib.h>

/* The divisor D, 1 when the variable is unset or not a positive number. */
static inline int test_sample_divisor(void) {
    const char *text = getenv("PUZZLED_TEST_SAMPLE_DIVISOR");
    int divisor = text != NULL ? atoi(text) : 1;
    return divisor >= 1 ? divisor : 1;
}

/* The first count / D of `count` cases. */
#define TEST_SAMPLE(count) ((count) / test_sample_divisor())

#endif
