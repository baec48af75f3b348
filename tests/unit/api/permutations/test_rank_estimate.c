/* A rank's or unrank's estimate (api/permutations/rank_estimate.h) from models fitted to runs made by
 * known powers: its seconds are the sum those powers give (the rank spread over its threads, the items
 * read and written on one), each part rising; the largest item count that fits a time is consistent
 * with the estimate both ways (it fits, one more does not), capped at the most asked, 0 when none
 * fits, and an unrank (its items written too) never fits more than a rank; before the calibration
 * nothing is estimated or refused. */
#include <criterion/criterion.h>
#include <math.h>

#include "api/permutations/rank_estimate.h"

/* Item counts up to the largest --max-rank-items allows (2^31). */
#define MOST_ITEMS ((size_t)1 << 31)

/* The powers the runs are made by: the rank on one thread, the items read, the items written. */
static double ranked_power(double n) { return 2e-9 * pow(n, 1.5); }
static double read_power(double n) { return 6e-8 * pow(n, 1.1); }
static double written_power(double n) { return 4e-9 * n; }

static const double timed[] = {4096, 16384, 65536};

static perm_cost rank_model(void) {
    double seconds[3];
    for (int i = 0; i < 3; i++) seconds[i] = ranked_power(timed[i]);
    return perm_cost_fit(timed, seconds, 3, 2);
}

static items_cost items_model(void) {
    double read[3], write[3];
    for (int i = 0; i < 3; i++) {
        read[i] = read_power(timed[i]);
        write[i] = written_power(timed[i]);
    }
    return items_cost_fit(timed, read, write, 3);
}

Test(rank_estimate, the_seconds_are_the_parts_summed) {
    perm_cost rank = rank_model();
    items_cost items = items_model();
    static const rank_work works[] = {
        {65536, 65536, 0}, {65536, 65536, 65536}, {1000000, 1000, 1000}, {2000000, 1000000, 0}, {7, 5000000, 5000000},
    };
    for (size_t i = 0; i < sizeof works / sizeof *works; i++) {
        rank_work w = works[i];
        double want = ranked_power((double)w.ranked) / 2 + read_power((double)w.read) +
                      (w.written ? written_power((double)w.written) : 0);
        double got = rank_work_seconds(&rank, &items, w);
        cr_assert(fabs(got - want) <= 1e-9 * want, "%zu read, %zu ranked, %zu written: %.12g s, want %.12g s", w.read,
                  w.ranked, w.written, got, want);
    }
}

Test(rank_estimate, more_of_any_part_takes_longer) {
    perm_cost rank = rank_model();
    items_cost items = items_model();
    for (size_t n = 4096; n < MOST_ITEMS; n *= 3) {
        rank_work w = {n, n, n};
        double seconds = rank_work_seconds(&rank, &items, w);
        cr_assert_lt(rank_work_seconds(&rank, &items, (rank_work){n, n, 0}), seconds, "%zu: none written", n);
        cr_assert_gt(rank_work_seconds(&rank, &items, (rank_work){2 * n, n, n}), seconds, "%zu: more read", n);
        cr_assert_gt(rank_work_seconds(&rank, &items, (rank_work){n, 2 * n, n}), seconds, "%zu: more ranked", n);
        cr_assert_gt(rank_work_seconds(&rank, &items, (rank_work){n, n, 2 * n}), seconds, "%zu: more written", n);
    }
}

/* largest fits `seconds` and largest + 1 does not (unless largest is `most`). */
static void expect_largest_consistent(const perm_cost *rank, const items_cost *items, bool writes, double seconds,
                                      size_t most) {
    size_t largest = rank_work_largest_items(rank, items, writes, seconds, most);
    cr_assert(largest <= most, "%zu", largest);
    rank_work fits = {largest, largest, writes ? largest : 0},
              beyond = {largest + 1, largest + 1, writes ? largest + 1 : 0};
    if (largest > 0)
        cr_assert(rank_work_seconds(rank, items, fits) <= seconds, "%zu items fit %g s: %g s", largest, seconds,
                  rank_work_seconds(rank, items, fits));
    if (largest < most)
        cr_assert(rank_work_seconds(rank, items, beyond) > seconds, "%zu items do not fit %g s: %g s", largest + 1,
                  seconds, rank_work_seconds(rank, items, beyond));
}

Test(rank_estimate, the_largest_count_that_fits_agrees_with_the_estimate) {
    perm_cost rank = rank_model();
    items_cost items = items_model();
    for (double limit = 1e-7; limit < 1e7; limit *= 2.9) {
        for (int writes = 0; writes < 2; writes++) {
            expect_largest_consistent(&rank, &items, writes, limit, MOST_ITEMS);
            expect_largest_consistent(&rank, &items, writes, limit, 1000000);
        }
        cr_assert_leq(rank_work_largest_items(&rank, &items, true, limit, MOST_ITEMS),
                      rank_work_largest_items(&rank, &items, false, limit, MOST_ITEMS), "%g s", limit);
    }
    cr_assert_eq(rank_work_largest_items(&rank, &items, false, 1e-30, MOST_ITEMS), 0, "none fits");
    cr_assert_eq(rank_work_largest_items(&rank, &items, true, 1e30, 1000000), 1000000, "capped at the most asked");
}

Test(rank_estimate, nothing_is_estimated_before_the_calibration) {
    cr_assert_lt(rank_estimate_seconds((rank_work){1000000, 1000000, 1000000}), 0);
    static const api_limits limits = {.time_limit_ms = 1, .max_rank_items = 1000000};
    api_request req;
    api_request_init(&req);
    req.limits = &limits;
    req.time_limit_ms = 1;
    cr_assert(rank_check_estimate(&req, "items", "unranking the arrangement", true, 1e9), "nothing refused");
}
