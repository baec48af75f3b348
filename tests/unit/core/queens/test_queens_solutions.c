/* Unit tests for core/queens/queens_solutions: the solution iterators of every algorithm against an
 * independent brute force, in content and order (all solutions, and the fundamental ones), the size
 * range, and a deadline that pauses and resumes the same sequence. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/queens/queens_solutions.h"

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

/* The next solution of an iterator without a deadline (which cannot fail): false when exhausted. */
static bool next_solution(queens_iter *it) {
    bool found;
    cr_assert_eq(queens_iter_next(it, NULL, &found), CORE_OK);
    return found;
}

static void expect_same_list(int n, queens_algorithm algorithm, bool unique) {
    reference ref = reference_solutions(n, unique);
    queens_iter it;
    cr_assert(queens_iter_init(&it, n, algorithm, unique));
    int index = 0;
    while (next_solution(&it)) {
        cr_assert_lt(index, ref.count, "n=%d algorithm %d unique %d: more solutions than the reference", n, algorithm,
                     unique);
        cr_assert_arr_eq(queens_iter_solution(&it), ref.lists[index], sizeof(int) * (size_t)n,
                         "n=%d algorithm %d unique %d: solution %d differs", n, algorithm, unique, index);
        index++;
    }
    cr_assert_eq(index, ref.count, "n=%d algorithm %d unique %d: %d solutions, reference %d", n, algorithm, unique,
                 index, ref.count);
    cr_assert_not(next_solution(&it), "an exhausted iterator stays exhausted");
    free(ref.lists);
}

Test(queens_solutions, lists_equal_brute_force_in_content_and_order) {
    for (int n = 1; n <= 8; n++) {
        for (queens_algorithm algorithm = QUEENS_BITMASK; algorithm <= QUEENS_PERMUTATION; algorithm++) {
            expect_same_list(n, algorithm, false);
            expect_same_list(n, algorithm, true);
        }
    }
}

Test(queens_solutions, first_solution_of_eight_and_its_class) {
    queens_iter it;
    cr_assert(queens_iter_init(&it, 8, QUEENS_BITMASK, true));
    cr_assert(next_solution(&it));
    const int expected[8] = {0, 4, 7, 5, 2, 6, 1, 3};
    cr_assert_arr_eq(queens_iter_solution(&it), expected, sizeof expected);
}

Test(queens_solutions, rejects_sizes_out_of_range) {
    queens_iter it;
    cr_assert_not(queens_iter_init(&it, 0, QUEENS_BITMASK, false));
    cr_assert_not(queens_iter_init(&it, QUEENS_MAX_N + 1, QUEENS_BITMASK, false));
    cr_assert(queens_iter_init(&it, QUEENS_MAX_N, QUEENS_BITMASK, false));
    cr_assert(next_solution(&it), "the largest board still yields a first solution");
}

Test(queens_solutions, deadline_pauses_and_resumes_the_same_sequence) {
    queens_iter plain, paused;
    queens_iter_init(&plain, 11, QUEENS_BACKTRACKING, true);
    queens_iter_init(&paused, 11, QUEENS_BACKTRACKING, true);
    deadline past = deadline_after_ms(0);
    int pauses = 0;
    for (;;) {
        bool expected = next_solution(&plain);
        bool got;
        while (queens_iter_next(&paused, &past, &got) == CORE_DEADLINE) {
            pauses++;
        }
        cr_assert_eq(got, expected);
        if (!got) {
            break;
        }
        cr_assert_arr_eq(queens_iter_solution(&paused), queens_iter_solution(&plain), sizeof(int) * 11);
    }
    cr_assert_gt(pauses, 0, "an expired deadline must interrupt a long enumeration");
}
