/* Unit tests for core/queens/queens_count: both counters against OEIS A000170 (all solutions) and
 * A002562 (fundamental solutions), the fast counter with any number of threads, its progress (each
 * subproblem reported once), and the deadline. */
#include <criterion/criterion.h>

#include "core/queens/queens_constellation.h"
#include "core/queens/queens_count.h"
#include "core/common/progress.h"

/* OEIS A000170 (all solutions) and A002562 (fundamental solutions), n = 1..15. */
static const uint64_t oeis_total[16] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184};
static const uint64_t oeis_unique[16] = {0, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053};

Test(queens_count, every_algorithm_matches_oeis_up_to_13) {
    for (int n = 1; n <= 13; n++) {
        for (queens_algorithm algorithm = QUEENS_BITMASK; algorithm <= QUEENS_PERMUTATION; algorithm++) {
            if (algorithm == QUEENS_PERMUTATION && n > QUEENS_PERMUTATION_MAX_N) {
                continue;
            }
            queens_counts counts;
            cr_assert_eq(queens_count_by_enumeration(n, algorithm, NULL, &counts), CORE_OK);
            cr_assert_eq(counts.total, oeis_total[n], "n=%d algorithm %d total", n, algorithm);
            cr_assert_eq(counts.unique, oeis_unique[n], "n=%d algorithm %d unique", n, algorithm);
        }
    }
}

Test(queens_count, fast_counter_matches_oeis_up_to_15) {
    for (int n = 1; n <= 15; n++) {
        queens_counts counts;
        cr_assert_eq(queens_count_fast(n, 0, NULL, &counts), CORE_OK);
        cr_assert_eq(counts.total, oeis_total[n], "n=%d total", n);
        cr_assert_eq(counts.unique, oeis_unique[n], "n=%d unique", n);
    }
}

Test(queens_count, fast_counter_is_independent_of_the_thread_count) {
    for (unsigned threads = 1; threads <= 5; threads += 2) {
        queens_counts counts;
        cr_assert_eq(queens_count_fast(12, threads, NULL, &counts), CORE_OK);
        cr_assert_eq(counts.total, oeis_total[12], "%u threads", threads);
        cr_assert_eq(counts.unique, oeis_unique[12], "%u threads", threads);
    }
}

Test(queens_count, fast_counter_reports_every_subproblem_once_on_any_thread_count) {
    for (unsigned threads = 1; threads <= 3; threads++) {
        progress p;
        progress_init(&p);
        deadline followed = deadline_none();
        followed.progress = &p;
        queens_counts counts;
        cr_assert_eq(queens_count_fast(12, threads, &followed, &counts), CORE_OK);
        cr_assert_eq(counts.total, oeis_total[12]);
        progress_view view = progress_read(&p);
        cr_assert_str_eq(view.unit, "subproblems");
        cr_assert_eq(view.total, queens_constellation_range(12));
        cr_assert_eq(atomic_load(&p.done), view.total, "%u threads: each subproblem reported once", threads);
        cr_assert_eq(view.milestones, PROGRESS_MILESTONES);
        progress_destroy(&p);
    }
}

Test(queens_count, deadline_stops_both_counters) {
    deadline past = deadline_after_ms(0);
    queens_counts counts = {7, 7};
    cr_assert_eq(queens_count_fast(20, 0, &past, &counts), CORE_DEADLINE);
    cr_assert_eq(queens_count_by_enumeration(16, QUEENS_BITMASK, &past, &counts), CORE_DEADLINE);
    cr_assert_eq(counts.total, 7, "a stopped count leaves the output alone");
}
