/* The two-thread Fisher-Yates and single cycle (core/random/shuffle_two_phase.c) against the one-thread
 * run (shuffle_swap_down, itself checked against the Python reference in test_shuffle_stream.c): the
 * same permutation and the generator left in the same state, for every split of small n, for n around
 * SHUFFLE_TWO_PHASE_MIN_N where shuffle_permutation starts using two threads, for several seeds and for
 * a secure (ChaCha20) generator; and the service's path at the threshold against the Python reference. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/random/rng.h"
#include "core/random/shuffle.h"
#include "core/random/shuffle_two_phase.h"

static const uint64_t seeds[] = {0, 1, 42, 18446744073709551615u};

/* Shuffles n values from `start` both ways (two-phase with `head`) and compares the permutations and
 * the next generator words. */
static void expect_same(const rng *start, size_t n, size_t less, size_t head) {
    uint32_t *one = malloc((n + 1) * sizeof *one), *two = malloc((n + 1) * sizeof *two);
    cr_assert(one != NULL && two != NULL);
    rng r1 = *start, r2 = *start;
    cr_assert_eq(shuffle_swap_down(&r1, one, n, less, NULL), CORE_OK);
    cr_assert_eq(shuffle_two_phase(&r2, two, n, less, head, NULL), CORE_OK);
    cr_assert(memcmp(one, two, n * sizeof *one) == 0, "n %zu less %zu head %zu: the permutations differ", n, less,
              head);
    for (int w = 0; w < 4; w++)
        cr_assert_eq(rng_next(&r1), rng_next(&r2), "n %zu less %zu head %zu: the generator differs after", n, less,
                     head);
    free(one);
    free(two);
}

Test(shuffle_two_phase, every_split_of_small_n_matches_one_thread) {
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++)
        for (size_t less = 0; less <= 1; less++)
            for (size_t n = 0; n <= 40; n++)
                for (size_t head = 0; head <= n + 2; head++) {
                    rng r;
                    rng_seed_u64(&r, seeds[s] + n);
                    expect_same(&r, n, less, head);
                }
}

Test(shuffle_two_phase, secure_generator_matches_one_thread) {
    rng r;
    cr_assert(rng_seed_secure(&r));
    for (size_t less = 0; less <= 1; less++)
        for (size_t n = 100; n <= 103; n++)
            for (size_t head = 0; head <= n; head += 7) expect_same(&r, n, less, head);
    const size_t big = 100001; /* past the ChaCha20 buffer many times in both phases */
    expect_same(&r, big, 0, big / 2);
}

/* shuffle_permutation around the threshold: two threads from SHUFFLE_TWO_PHASE_MIN_N on. */
Test(shuffle_two_phase, service_path_around_the_threshold_matches_one_thread, .timeout = 300) {
    const size_t sizes[] = {SHUFFLE_TWO_PHASE_MIN_N - 1, SHUFFLE_TWO_PHASE_MIN_N, SHUFFLE_TWO_PHASE_MIN_N + 1,
                            3 * SHUFFLE_TWO_PHASE_MIN_N + 2};
    const shuffle_algorithm algorithms[] = {SHUFFLE_FISHER_YATES, SHUFFLE_CYCLE};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (size_t a = 0; a < 2; a++) {
            size_t n = sizes[k], less = algorithms[a] == SHUFFLE_CYCLE;
            uint32_t *one = malloc(n * sizeof *one), *service = malloc(n * sizeof *service);
            cr_assert(one != NULL && service != NULL);
            rng r1, r2;
            rng_seed_u64(&r1, 7 + k);
            rng_seed_u64(&r2, 7 + k);
            for (int round = 0; round < 2; round++) { /* the second from where the first left the generator */
                cr_assert_eq(shuffle_swap_down(&r1, one, n, less, NULL), CORE_OK);
                cr_assert_eq(shuffle_permutation(algorithms[a], &r2, service, n, NULL), CORE_OK);
                cr_assert(memcmp(one, service, n * sizeof *one) == 0, "n %zu algorithm %zu round %d", n, a, round);
            }
            free(one);
            free(service);
        }
}

/* The Python reference (tests/unit/core/random/shuffle_reference.py) for one two-thread shuffle at the
 * threshold, independent of both C paths. */
Test(shuffle_two_phase, threshold_shuffle_matches_python_reference, .timeout = 300) {
    const size_t n = SHUFFLE_TWO_PHASE_MIN_N + 1;
    const char *source = getenv("PUZZLED_SOURCE_DIR");
    char command[4096];
    snprintf(command, sizeof command, "python3 %s/tests/unit/core/random/shuffle_reference.py shuffle:5:fisher-yates:%zu:1",
             source ? source : ".", n);
    FILE *pipe = popen(command, "r");
    cr_assert(pipe != NULL);
    uint32_t *perm = malloc(n * sizeof *perm);
    rng r;
    rng_seed_u64(&r, 5);
    cr_assert_eq(shuffle_permutation(SHUFFLE_FISHER_YATES, &r, perm, n, NULL), CORE_OK);
    for (size_t i = 0; i < n; i++) {
        unsigned long value;
        cr_assert_eq(fscanf(pipe, "%lu", &value), 1, "the reference ended at position %zu", i);
        cr_assert_eq(value, perm[i], "position %zu", i);
    }
    cr_assert_eq(pclose(pipe), 0);
    free(perm);
}

Test(shuffle_two_phase, expired_deadline_stops_both_phases) {
    const size_t n = 1 << 18;
    uint32_t *perm = malloc(n * sizeof *perm);
    deadline past = deadline_after_ms(0);
    rng r;
    rng_seed_u64(&r, 1);
    for (size_t head = 2; head <= n; head += n / 4) /* the deadline seen by one phase, the other, or both */
        cr_assert_eq(shuffle_two_phase(&r, perm, n, 0, head, &past), CORE_DEADLINE);
    free(perm);
}
