/* Unit tests for core/queens/queens_constellation and queens_rotation: against an independent plain
 * backtracking search written here, the solutions of every border constellation, the class sizes
 * (weighted, they add up to all solutions), and the solutions each rotation fixes; and the deadline. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "core/queens/queens_constellation.h"
#include "core/queens/queens_rotation.h"
#include "queens_oeis.h"

#define MAX_REF_N 10

/* Every solution of n <= MAX_REF_N, by recursion over rows with arrays of used lines. */
typedef struct reference {
    int n;
    uint64_t total;
    uint64_t *per_constellation; /* indexed like queens_constellation_at: top, bottom, left, right */
    uint64_t fixed_by_quarter_turn, fixed_by_half_turn;
    int cols[MAX_REF_N];
    bool col_used[MAX_REF_N], diag_used[2 * MAX_REF_N], anti_used[2 * MAX_REF_N];
} reference;

/* Whether turning the board `turns` quarter turns ((r, c) -> (c, n - 1 - r)) leaves the solution. */
static bool turn_fixes(const reference *ref, int turns) {
    int n = ref->n;
    for (int r = 0; r < n; r++) {
        int row = r, col = ref->cols[r];
        for (int t = 0; t < turns; t++) {
            int turned = col;
            col = n - 1 - row;
            row = turned;
        }
        if (ref->cols[row] != col) {
            return false;
        }
    }
    return true;
}

static void record(reference *ref) {
    int n = ref->n, left = -1, right = -1;
    for (int r = 0; r < n; r++) {
        left = ref->cols[r] == 0 ? r : left;
        right = ref->cols[r] == n - 1 ? r : right;
    }
    size_t index =
        (((size_t)ref->cols[0] * (size_t)n + (size_t)ref->cols[n - 1]) * (size_t)n + (size_t)left) * (size_t)n +
        (size_t)right;
    ref->per_constellation[index]++;
    ref->total++;
    ref->fixed_by_quarter_turn += turn_fixes(ref, 1);
    ref->fixed_by_half_turn += turn_fixes(ref, 2);
}

static void place_row(reference *ref, int row) {
    int n = ref->n;
    if (row == n) {
        record(ref);
        return;
    }
    for (int col = 0; col < n; col++) {
        int diag = row - col + n - 1, anti = row + col;
        if (ref->col_used[col] || ref->diag_used[diag] || ref->anti_used[anti]) {
            continue;
        }
        ref->cols[row] = col;
        ref->col_used[col] = ref->diag_used[diag] = ref->anti_used[anti] = true;
        place_row(ref, row + 1);
        ref->col_used[col] = ref->diag_used[diag] = ref->anti_used[anti] = false;
    }
}

static reference *reference_new(int n) {
    reference *ref = calloc(1, sizeof *ref);
    ref->n = n;
    ref->per_constellation = calloc(queens_constellation_range(n), sizeof(uint64_t));
    place_row(ref, 0);
    return ref;
}

static void reference_free(reference *ref) {
    free(ref->per_constellation);
    free(ref);
}

static queens_poll no_limit(void) {
    queens_poll poll = {.dl = NULL};
    atomic_init(&poll.stop, false);
    return poll;
}

#define SEARCHES 3

/* The searches this processor runs (the portable one always, first). */
static int available_searches(queens_constellation_search out[SEARCHES]) {
    int count = 0;
    const queens_constellation_search all[SEARCHES] = {QUEENS_SEARCH_PORTABLE, QUEENS_SEARCH_AVX2,
                                                       QUEENS_SEARCH_AVX512};
    for (int i = 0; i < SEARCHES; i++) {
        if (queens_constellation_search_available(all[i])) out[count++] = all[i];
    }
    return count;
}

Test(queens_constellation, every_constellation_counts_its_solutions) {
    queens_constellation_search searches[SEARCHES];
    int search_count = available_searches(searches);
    for (int k = 0; k < search_count; k++)
        for (int n = 4; n <= MAX_REF_N; n++) {
            reference *ref = reference_new(n);
            queens_poll poll = no_limit();
            uint64_t weighted = 0, searched = 0;
            for (uint64_t index = 0; index < queens_constellation_range(n); index++) {
                queens_constellation c = queens_constellation_at(n, index);
                int class_size = queens_constellation_class_size(n, c);
                if (class_size == 0 && ref->per_constellation[index] == 0) {
                    continue; /* not a valid representative, and no solution has these border queens */
                }
                uint64_t count;
                cr_assert_eq(queens_constellation_count_with(n, c, searches[k], &poll, &count), CORE_OK);
                cr_assert_eq(count, ref->per_constellation[index], "search %d, n=%d constellation %d %d %d %d",
                             searches[k], n, c.top, c.bottom, c.left, c.right);
                weighted += (uint64_t)class_size * count;
                searched += class_size != 0;
            }
            cr_assert_eq(weighted, ref->total, "n=%d: class sizes times counts add up to every solution", n);
            cr_assert_gt(searched, 0);
            reference_free(ref);
        }
}

Test(queens_constellation, the_searches_agree_on_full_batches) {
    /* n = 14 fills the batches of its middle rows, which the reference's boards do not: there each
     * vector search the processor has must count every class as the portable one does. */
    enum { N = 14 };
    queens_constellation_search searches[SEARCHES];
    int search_count = available_searches(searches);
    if (search_count == 1) cr_log_info("no vector lanes here: only the portable search runs");
    queens_poll poll = no_limit();
    for (int k = 1; k < search_count; k++) {
        uint64_t total = 0;
        for (uint64_t index = 0; index < queens_constellation_range(N); index++) {
            queens_constellation c = queens_constellation_at(N, index);
            int class_size = queens_constellation_class_size(N, c);
            if (class_size == 0) continue;
            uint64_t portable, vector;
            cr_assert_eq(queens_constellation_count_with(N, c, QUEENS_SEARCH_PORTABLE, &poll, &portable), CORE_OK);
            cr_assert_eq(queens_constellation_count_with(N, c, searches[k], &poll, &vector), CORE_OK);
            cr_assert_eq(vector, portable, "search %d, constellation %d %d %d %d", searches[k], c.top, c.bottom, c.left,
                         c.right);
            total += (uint64_t)class_size * vector;
        }
        cr_assert_eq(total, oeis_a000170[N], "search %d: OEIS A000170(14)", searches[k]);
    }
}

Test(queens_constellation, class_sizes_partition_the_valid_constellations) {
    /* Every constellation some solution has belongs to exactly one class, whose representative is
     * valid and no larger; the class sizes of the representatives add up to the valid constellations
     * counted here by their definition (one queen per border line, no two attacking). */
    for (int n = 4; n <= 12; n++) {
        uint64_t valid = 0, in_classes = 0;
        for (uint64_t index = 0; index < queens_constellation_range(n); index++) {
            queens_constellation c = queens_constellation_at(n, index);
            int squares[4][2] = {{0, c.top}, {n - 1, c.bottom}, {c.left, 0}, {c.right, n - 1}};
            bool ok = (c.top == 0) == (c.left == 0) && (c.top == n - 1) == (c.right == 0) &&
                      (c.bottom == 0) == (c.left == n - 1) && (c.bottom == n - 1) == (c.right == n - 1);
            for (int a = 0; a < 4 && ok; a++) {
                for (int b = a + 1; b < 4 && ok; b++) {
                    int dr = squares[a][0] - squares[b][0], dc = squares[a][1] - squares[b][1];
                    bool same = dr == 0 && dc == 0;
                    ok = same || (dr != 0 && dc != 0 && abs(dr) != abs(dc));
                }
            }
            valid += ok;
            in_classes += (uint64_t)queens_constellation_class_size(n, c);
        }
        cr_assert_eq(in_classes, valid, "n=%d", n);
    }
}

Test(queens_rotation, fixed_solutions_match_the_reference) {
    for (int n = 2; n <= MAX_REF_N; n++) {
        reference *ref = reference_new(n);
        queens_poll poll = no_limit();
        uint64_t quarter, half;
        cr_assert_eq(queens_count_rotation_fixed(n, 1, NULL, &poll, &quarter), CORE_OK);
        cr_assert_eq(queens_count_rotation_fixed(n, 2, NULL, &poll, &half), CORE_OK);
        cr_assert_eq(quarter, ref->fixed_by_quarter_turn, "n=%d quarter turn", n);
        cr_assert_eq(half, ref->fixed_by_half_turn, "n=%d half turn", n);
        reference_free(ref);
    }
}

Test(queens_constellation, an_expired_deadline_stops_both_searches) {
    deadline past = deadline_after_ms(0);
    queens_poll poll = {.dl = &past};
    atomic_init(&poll.stop, false);
    uint64_t count = 7;
    queens_constellation corner = {0, 5, 0, 9}; /* n = 26: the corner queen leaves the most to search */
    cr_assert_gt(queens_constellation_class_size(26, corner), 0);
    queens_constellation_search searches[SEARCHES];
    int search_count = available_searches(searches);
    for (int k = 0; k < search_count; k++) {
        cr_assert_eq(queens_constellation_count_with(26, corner, searches[k], &poll, &count), CORE_DEADLINE);
    }
    cr_assert_eq(queens_count_rotation_fixed(30, 2, NULL, &poll, &count), CORE_DEADLINE);
    cr_assert_eq(count, 7, "a stopped search leaves the output alone");
}
