/* Unit tests for core/queens/queens_complete and queens_verify: on every board up to 8 x 8, every
 * single placed queen and many random pairs, a completion is found exactly when a brute-force
 * enumeration written here finds a solution containing the placed queens, and it is one; the attack
 * count of random placements equals a pair-by-pair count; a deadline already past stops the search. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "core/queens/queens_complete.h"
#include "core/queens/queens_verify.h"

/* Whether some solution of n keeps the placed queens, by trying every permutation row by row. */
static bool completable(int n, const queens_square *placed, size_t k, int row, int *cols) {
    if (row == n) return true;
    for (int c = 0; c < n; c++) {
        bool ok = true;
        for (int r = 0; r < row && ok; r++) ok = cols[r] != c && abs(cols[r] - c) != row - r;
        for (size_t i = 0; i < k && ok; i++) ok = placed[i].row != (uint32_t)row || placed[i].col == (uint32_t)c;
        if (!ok) continue;
        cols[row] = c;
        if (completable(n, placed, k, row + 1, cols)) return true;
    }
    return false;
}

static void check(uint32_t n, queens_square *placed, size_t k) {
    uint32_t cols[8];
    int scratch[8];
    uint64_t pairs;
    size_t listed;
    queens_attack first;
    cr_assert(queens_sort_distinct(placed, k, &first.first));
    cr_assert_eq(queens_find_attacks(n, placed, k, &first, 1, &listed, &pairs), CORE_OK);
    if (pairs > 0) return; /* the endpoint answers a conflict before searching */
    bool completed;
    cr_assert_eq(queens_complete(n, placed, k, NULL, cols, &completed), CORE_OK);
    bool expected = completable((int)n, placed, k, 0, scratch);
    cr_assert_eq(completed, expected, "n %u, %zu placed", n, k);
    if (!expected) return;
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t s = r + 1; s < n; s++)
            cr_assert(cols[r] != cols[s] && abs((int)cols[r] - (int)cols[s]) != (int)(s - r), "a valid solution");
    for (size_t i = 0; i < k; i++) cr_assert_eq(cols[placed[i].row], placed[i].col, "keeps the placed queens");
}

Test(queens_complete, agrees_with_brute_force_up_to_8) {
    unsigned seed = 7;
    for (uint32_t n = 1; n <= 8; n++) {
        for (uint32_t square = 0; square < n * n; square++) {
            queens_square one = {square / n, square % n};
            check(n, &one, 1);
        }
        for (int trial = 0; trial < 200; trial++) {
            queens_square two[2] = {{(uint32_t)rand_r(&seed) % n, (uint32_t)rand_r(&seed) % n},
                                    {(uint32_t)rand_r(&seed) % n, (uint32_t)rand_r(&seed) % n}};
            if (two[0].row == two[1].row && two[0].col == two[1].col) continue;
            check(n, two, 2);
        }
    }
}

Test(queens_complete, an_expired_deadline_stops_it) {
    deadline past = deadline_after_ms(0);
    uint32_t cols[200];
    queens_square one = {0, 0};
    bool completed;
    cr_assert_eq(queens_complete(200, &one, 1, &past, cols, &completed), CORE_DEADLINE);
}

Test(queens_verify, attack_counts_equal_pair_by_pair_counts) {
    unsigned seed = 11;
    for (int trial = 0; trial < 500; trial++) {
        uint32_t n = 1 + (uint32_t)rand_r(&seed) % 9;
        queens_square queens[12];
        size_t k = 0;
        for (int i = 0; i < 12; i++) {
            queens_square s = {(uint32_t)rand_r(&seed) % n, (uint32_t)rand_r(&seed) % n};
            bool taken = false;
            for (size_t j = 0; j < k; j++) taken |= queens[j].row == s.row && queens[j].col == s.col;
            if (!taken) queens[k++] = s;
        }
        uint64_t expected = 0;
        for (size_t i = 0; i < k; i++)
            for (size_t j = i + 1; j < k; j++) {
                int dr = (int)queens[i].row - (int)queens[j].row, dc = (int)queens[i].col - (int)queens[j].col;
                expected += dr == 0 || dc == 0 || dr == dc || dr == -dc;
            }
        queens_square repeated;
        queens_attack attacks[100];
        size_t listed;
        uint64_t pairs;
        cr_assert(queens_sort_distinct(queens, k, &repeated));
        cr_assert_eq(queens_find_attacks(n, queens, k, attacks, 100, &listed, &pairs), CORE_OK);
        cr_assert_eq(pairs, expected);
        cr_assert_eq(listed, expected < 100 ? expected : 100);
    }
}
