/* Unit tests for api/queens/json_number_runs: every run written incrementally must be the text printf gives
 * for its numbers one by one (an independent reference), starting at and crossing every digit-count
 * boundary, for every step, and nothing may be written past the promised room. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/queens/json_number_runs.h"

enum { SENTINEL = 0x5A };

/* The run as printf writes it: ",first,first+step,...". */
static char *reference_run(uint64_t first, unsigned step, uint64_t count, size_t *length) {
    char *text = malloc(count * (1 + JW_UINT_MAX_DIGITS) + 1);
    cr_assert_not_null(text);
    size_t at = 0;
    for (uint64_t i = 0; i < count; i++) at += (size_t)sprintf(text + at, ",%" PRIu64, first + i * step);
    *length = at;
    return text;
}

static void expect_run(uint64_t first, unsigned step, uint64_t count) {
    size_t expected_length;
    char *expected = reference_run(first, step, count, &expected_length);
    size_t room = expected_length + JW_UINT_MAX_DIGITS, guard = 64;
    char *buffer = malloc(room + guard);
    cr_assert_not_null(buffer);
    memset(buffer, SENTINEL, room + guard);
    char *end = jw_put_uint_run(buffer, first, step, count);
    cr_assert_eq((size_t)(end - buffer), expected_length,
                 "first %" PRIu64 " step %u count %" PRIu64 ": %zu bytes, expected %zu", first, step, count,
                 (size_t)(end - buffer), expected_length);
    cr_assert(memcmp(buffer, expected, expected_length) == 0,
              "first %" PRIu64 " step %u count %" PRIu64 ": %.*s, expected %.*s", first, step, count,
              (int)(expected_length < 200 ? expected_length : 200), buffer,
              (int)(expected_length < 200 ? expected_length : 200), expected);
    for (size_t i = room; i < room + guard; i++)
        cr_assert_eq((unsigned char)buffer[i], SENTINEL, "first %" PRIu64 " step %u: written past the room", first,
                     step);
    free(buffer);
    free(expected);
}

/* Runs starting just below, at and just after every power of ten (the width changes, the carries
 * through nines), each long enough to cross the next boundary, for every step. */
Test(json_number_runs, matches_printf_around_every_power_of_ten) {
    for (unsigned step = 1; step <= JW_RUN_MAX_STEP; step++) {
        for (uint64_t power = 1;; power *= 10) {
            uint64_t low = power > 40 ? power - 40 : 0;
            for (uint64_t first = low; first <= power + 12; first++) {
                expect_run(first, step, 60);
            }
            if (power > UINT64_MAX / 10) break; /* 10^19, the last power below 2^64 */
        }
    }
}

/* Short runs (0 to 30 numbers) from every start below 1,200. */
Test(json_number_runs, matches_printf_for_short_runs) {
    for (unsigned step = 1; step <= JW_RUN_MAX_STEP; step++) {
        for (uint64_t first = 0; first < 1200; first += 1 + first / 100) {
            for (uint64_t count = 0; count <= 30; count++) expect_run(first, step, count);
        }
    }
}

/* Long runs through several widths (the n-queens construction's shape: 10^6 numbers, step 2), and up
 * to the largest numbers there are. */
Test(json_number_runs, matches_printf_for_long_runs_and_the_largest_numbers) {
    expect_run(0, 2, 1000000);
    expect_run(1, 2, 1000000);
    expect_run(9999001, 3, 5000);
    expect_run(UINT64_MAX - 9 * 1000, 9, 1001);
    expect_run(UINT64_MAX, 1, 1);
}
