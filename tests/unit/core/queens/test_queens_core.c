/* Unit tests for core/queens_*: counts against OEIS A000170 / A002562, solution lists against an
 * independent brute force, the deadline, and the explicit construction against a validity checker. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/queens/queens_constellation.h"
#include "core/queens/queens_count.h"
#include "core/queens/queens_first.h"
#include "core/queens/queens_solutions.h"
#include "core/queens/queens_symmetry.h"

/* OEIS A000170 (all solutions) and A002562 (fundamental solutions), n = 1..15. */
static const uint64_t oeis_total[16] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184};
static const uint64_t oeis_unique[16] = {0, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053};

static const queens_algorithm algorithms[] = {QUEENS_BITMASK, QUEENS_BACKTRACKING, QUEENS_PERMUTATION};

/* ---- independent reference: all permutations in lexicographic order by recursion over the unused
 * values, each checked pair by pair; fundamental = equal to the minimum of its 8 images obtained by
 * moving every queen's (row, col) square geometrically. ---- */

typedef struct reference {
    int n;
    int count;
    int (*lists)[QUEENS_MAX_N];
} reference;

static bool pairwise_safe(const int *p, int n) {
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            if (abs(p[i] - p[j]) == j - i) {
                return false;
            }
        }
    }
    return true;
}

static void permute(reference *ref, int *p, bool *used, int depth) {
    if (depth == ref->n) {
        if (pairwise_safe(p, ref->n)) {
            memcpy(ref->lists[ref->count++], p, sizeof(int) * (size_t)ref->n);
        }
        return;
    }
    for (int v = 0; v < ref->n; v++) {
        if (!used[v]) {
            used[v] = true;
            p[depth] = v;
            permute(ref, p, used, depth + 1);
            used[v] = false;
        }
    }
}

/* Square (r, c) under symmetry k: k & 3 quarter turns, then a left-right mirror when k >= 4. */
static void move_square(int n, int k, int r, int c, int *r_out, int *c_out) {
    for (int turn = 0; turn < (k & 3); turn++) {
        int next_r = c;
        int next_c = n - 1 - r;
        r = next_r;
        c = next_c;
    }
    if (k >= 4) {
        c = n - 1 - c;
    }
    *r_out = r;
    *c_out = c;
}

static bool reference_fundamental(const int *p, int n) {
    for (int k = 1; k < 8; k++) {
        int image[QUEENS_MAX_N];
        for (int r = 0; r < n; r++) {
            int ir, ic;
            move_square(n, k, r, p[r], &ir, &ic);
            image[ir] = ic;
        }
        for (int r = 0; r < n; r++) {
            if (image[r] != p[r]) {
                if (image[r] < p[r]) {
                    return false;
                }
                break;
            }
        }
    }
    return true;
}

static reference reference_solutions(int n, bool unique) {
    reference ref = {.n = n, .lists = calloc(1000, sizeof *ref.lists)};
    int p[QUEENS_MAX_N];
    bool used[QUEENS_MAX_N] = {false};
    permute(&ref, p, used, 0);
    if (unique) {
        int kept = 0;
        for (int i = 0; i < ref.count; i++) {
            if (reference_fundamental(ref.lists[i], n)) {
                memmove(ref.lists[kept++], ref.lists[i], sizeof *ref.lists);
            }
        }
        ref.count = kept;
    }
    return ref;
}

static void expect_same_list(int n, queens_algorithm algorithm, bool unique) {
    reference ref = reference_solutions(n, unique);
    queens_iter it;
    cr_assert(queens_iter_init(&it, n, algorithm, unique));
    int index = 0;
    while (queens_iter_next(&it, NULL) == QUEENS_FOUND) {
        cr_assert_lt(index, ref.count, "n=%d algorithm %d unique %d: more solutions than the reference", n,
                     algorithm, unique);
        cr_assert_arr_eq(queens_iter_solution(&it), ref.lists[index], sizeof(int) * (size_t)n,
                         "n=%d algorithm %d unique %d: solution %d differs", n, algorithm, unique, index);
        index++;
    }
    cr_assert_eq(index, ref.count, "n=%d algorithm %d unique %d: %d solutions, reference %d", n, algorithm,
                 unique, index, ref.count);
    cr_assert_eq(queens_iter_next(&it, NULL), QUEENS_EXHAUSTED, "an exhausted iterator stays exhausted");
    free(ref.lists);
}

Test(queens_solutions, lists_equal_brute_force_in_content_and_order) {
    for (int n = 1; n <= 8; n++) {
        for (size_t a = 0; a < sizeof algorithms / sizeof *algorithms; a++) {
            expect_same_list(n, algorithms[a], false);
            expect_same_list(n, algorithms[a], true);
        }
    }
}

Test(queens_solutions, first_solution_of_eight_and_its_class) {
    queens_iter it;
    cr_assert(queens_iter_init(&it, 8, QUEENS_BITMASK, true));
    cr_assert_eq(queens_iter_next(&it, NULL), QUEENS_FOUND);
    const int expected[8] = {0, 4, 7, 5, 2, 6, 1, 3};
    cr_assert_arr_eq(queens_iter_solution(&it), expected, sizeof expected);
}

Test(queens_solutions, rejects_sizes_out_of_range) {
    queens_iter it;
    cr_assert_not(queens_iter_init(&it, 0, QUEENS_BITMASK, false));
    cr_assert_not(queens_iter_init(&it, QUEENS_MAX_N + 1, QUEENS_BITMASK, false));
    cr_assert(queens_iter_init(&it, QUEENS_MAX_N, QUEENS_BITMASK, false));
    cr_assert_eq(queens_iter_next(&it, NULL), QUEENS_FOUND, "the largest board still yields a first solution");
}

Test(queens_solutions, deadline_pauses_and_resumes_the_same_sequence) {
    queens_iter plain, paused;
    queens_iter_init(&plain, 11, QUEENS_BACKTRACKING, true);
    queens_iter_init(&paused, 11, QUEENS_BACKTRACKING, true);
    deadline past = deadline_after_ms(0);
    int pauses = 0;
    for (;;) {
        queens_step expected = queens_iter_next(&plain, NULL);
        queens_step got;
        while ((got = queens_iter_next(&paused, &past)) == QUEENS_DEADLINE_EXCEEDED) {
            pauses++;
        }
        cr_assert_eq(got, expected);
        if (got != QUEENS_FOUND) {
            break;
        }
        cr_assert_arr_eq(queens_iter_solution(&paused), queens_iter_solution(&plain), sizeof(int) * 11);
    }
    cr_assert_gt(pauses, 0, "an expired deadline must interrupt a long enumeration");
}

Test(queens_count, every_algorithm_matches_oeis_up_to_13) {
    for (int n = 1; n <= 13; n++) {
        for (size_t a = 0; a < sizeof algorithms / sizeof *algorithms; a++) {
            if (algorithms[a] == QUEENS_PERMUTATION && n > QUEENS_PERMUTATION_MAX_N) {
                continue;
            }
            queens_counts counts;
            cr_assert(queens_count_by_enumeration(n, algorithms[a], NULL, &counts));
            cr_assert_eq(counts.total, oeis_total[n], "n=%d algorithm %d total", n, algorithms[a]);
            cr_assert_eq(counts.unique, oeis_unique[n], "n=%d algorithm %d unique", n, algorithms[a]);
        }
    }
}

Test(queens_count, fast_counter_matches_oeis_up_to_15) {
    for (int n = 1; n <= 15; n++) {
        queens_counts counts;
        cr_assert(queens_count_fast(n, 0, NULL, &counts));
        cr_assert_eq(counts.total, oeis_total[n], "n=%d total", n);
        cr_assert_eq(counts.unique, oeis_unique[n], "n=%d unique", n);
    }
}

Test(queens_count, fast_counter_is_independent_of_the_thread_count) {
    for (unsigned threads = 1; threads <= 5; threads += 2) {
        queens_counts counts;
        cr_assert(queens_count_fast(12, threads, NULL, &counts));
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
        cr_assert(queens_count_fast(12, threads, &followed, &counts));
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
    cr_assert_not(queens_count_fast(20, 0, &past, &counts));
    cr_assert_not(queens_count_by_enumeration(16, QUEENS_BITMASK, &past, &counts));
    cr_assert_eq(counts.total, 7, "a stopped count leaves the output alone");
}

/* ---- the construction, checked by marking columns and both diagonals ---- */

static bool construction_valid(uint64_t n) {
    bool *col = calloc(n, 1);
    bool *sum = calloc(2 * n, 1);
    bool *diff = calloc(2 * n, 1);
    bool ok = true;
    for (uint64_t r = 0; r < n && ok; r++) {
        uint64_t c = queens_first_column(n, r);
        if (c >= n || col[c] || sum[r + c] || diff[r + n - 1 - c]) {
            ok = false;
        } else {
            col[c] = sum[r + c] = diff[r + n - 1 - c] = true;
        }
    }
    free(col);
    free(sum);
    free(diff);
    return ok;
}

Test(queens_first, existence) {
    cr_assert(queens_first_exists(1));
    cr_assert_not(queens_first_exists(2));
    cr_assert_not(queens_first_exists(3));
    cr_assert(queens_first_exists(4));
    cr_assert_eq(queens_first_column(1, 0), 0);
}

Test(queens_first, valid_for_every_n_up_to_3000) {
    for (uint64_t n = 4; n <= 3000; n++) {
        cr_assert(construction_valid(n), "n=%lu", (unsigned long)n);
    }
}

Test(queens_first, valid_for_large_n_of_every_residue_mod_6) {
    for (uint64_t n = 100000; n < 100006; n++) {
        cr_assert(construction_valid(n), "n=%lu", (unsigned long)n);
    }
    cr_assert(construction_valid(1000000));
    cr_assert(construction_valid(1000003));
}
