/* Lexicographic n-queens solution iterators: bitmask, backtracking and permutation methods. */
#include "core/queens/queens_solutions.h"

#include <string.h>

#include "core/queens/queens_symmetry.h"

/* Steps between two deadline polls. */
#define POLL_INTERVAL 4096

bool queens_iter_init(queens_iter *it, int n, queens_algorithm algorithm, bool unique) {
    if (n < 1 || n > QUEENS_MAX_N) {
        return false;
    }
    memset(it, 0, sizeof *it);
    it->n = n;
    it->algorithm = algorithm;
    it->unique = unique;
    for (int row = 0; row < n; row++) {
        it->allowed[row] = ((uint64_t)1 << n) - 1;
    }
    return true;
}

void queens_iter_require(queens_iter *it, int row, int col) { it->allowed[row] &= (uint64_t)1 << col; }

const int *queens_iter_solution(const queens_iter *it) { return it->cols; }

static uint64_t board_mask(int n) { return ((uint64_t)1 << n) - 1; }

/* Bitmask method. free_cols[row] holds the columns of `row` not yet tried and not attacked. */
static void bitmask_enter_row(queens_iter *it, int row, uint64_t down, uint64_t left, uint64_t right) {
    it->down[row] = down;
    it->left[row] = left;
    it->right[row] = right;
    it->free_cols[row] = board_mask(it->n) & it->allowed[row] & ~(down | left | right);
}

static core_status bitmask_next(queens_iter *it, const deadline *dl, bool *found) {
    if (!it->started) {
        it->started = true;
        bitmask_enter_row(it, 0, 0, 0, 0);
    }
    while (it->row >= 0) {
        if (++it->steps % POLL_INTERVAL == 0 && deadline_expired(dl)) {
            return CORE_DEADLINE;
        }
        int row = it->row;
        uint64_t candidates = it->free_cols[row];
        if (candidates == 0) {
            it->row--;
            continue;
        }
        uint64_t bit = candidates & -candidates;
        it->free_cols[row] = candidates ^ bit;
        it->cols[row] = __builtin_ctzll(bit);
        if (row == it->n - 1) {
            *found = true;
            return CORE_OK;
        }
        bitmask_enter_row(it, row + 1, it->down[row] | bit, (it->left[row] | bit) << 1, (it->right[row] | bit) >> 1);
        it->row = row + 1;
    }
    return CORE_OK;
}

/* Backtracking method. cols[row] is the column tried last in `row` (-1: none yet). */
static void backtracking_mark(queens_iter *it, int row, int col, bool used) {
    it->col_used[col] = used;
    it->sum_used[row + col] = used;
    it->diff_used[row - col + it->n - 1] = used;
}

static bool backtracking_free(const queens_iter *it, int row, int col) {
    return !it->col_used[col] && !it->sum_used[row + col] && !it->diff_used[row - col + it->n - 1] &&
           (it->allowed[row] >> col & 1);
}

static core_status backtracking_next(queens_iter *it, const deadline *dl, bool *found) {
    if (!it->started) {
        it->started = true;
        it->cols[0] = -1;
    }
    while (it->row >= 0) {
        if (++it->steps % POLL_INTERVAL == 0 && deadline_expired(dl)) {
            return CORE_DEADLINE;
        }
        int row = it->row;
        int col = it->cols[row];
        if (col >= 0) {
            backtracking_mark(it, row, col, false);
        }
        do {
            col++;
        } while (col < it->n && !backtracking_free(it, row, col));
        if (col == it->n) {
            it->cols[row] = -1;
            it->row--;
            continue;
        }
        backtracking_mark(it, row, col, true);
        it->cols[row] = col;
        if (row == it->n - 1) {
            *found = true;
            return CORE_OK;
        }
        it->row = row + 1;
        it->cols[row + 1] = -1;
    }
    return CORE_OK;
}

/* Permutation method: cols runs through all permutations of 0..n-1 in lexicographic order. */
static bool next_permutation(int *a, int n) {
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1]) {
        i--;
    }
    if (i < 0) {
        return false;
    }
    int j = n - 1;
    while (a[j] <= a[i]) {
        j--;
    }
    int swap = a[i];
    a[i] = a[j];
    a[j] = swap;
    for (int lo = i + 1, hi = n - 1; lo < hi; lo++, hi--) {
        swap = a[lo];
        a[lo] = a[hi];
        a[hi] = swap;
    }
    return true;
}

static bool diagonals_free(const int *cols, int n) {
    uint64_t sums = 0;
    uint64_t diffs = 0;
    for (int r = 0; r < n; r++) {
        uint64_t sum = (uint64_t)1 << (r + cols[r]);
        uint64_t diff = (uint64_t)1 << (r - cols[r] + n - 1);
        if ((sums & sum) || (diffs & diff)) {
            return false;
        }
        sums |= sum;
        diffs |= diff;
    }
    return true;
}

static bool within_allowed(const queens_iter *it) {
    for (int r = 0; r < it->n; r++) {
        if (!(it->allowed[r] >> it->cols[r] & 1)) {
            return false;
        }
    }
    return true;
}

static core_status permutation_next(queens_iter *it, const deadline *dl, bool *found) {
    if (it->row < 0) {
        return CORE_OK;
    }
    for (;;) {
        if (++it->steps % POLL_INTERVAL == 0 && deadline_expired(dl)) {
            return CORE_DEADLINE;
        }
        if (!it->started) {
            it->started = true;
            for (int r = 0; r < it->n; r++) {
                it->cols[r] = r;
            }
        } else if (!next_permutation(it->cols, it->n)) {
            it->row = -1;
            return CORE_OK;
        }
        if (diagonals_free(it->cols, it->n) && within_allowed(it)) {
            *found = true;
            return CORE_OK;
        }
    }
}

static core_status any_next(queens_iter *it, const deadline *dl, bool *found) {
    switch (it->algorithm) {
    case QUEENS_BACKTRACKING: return backtracking_next(it, dl, found);
    case QUEENS_PERMUTATION: return permutation_next(it, dl, found);
    case QUEENS_BITMASK:
    default: return bitmask_next(it, dl, found);
    }
}

core_status queens_iter_next(queens_iter *it, const deadline *dl, bool *found) {
    for (;;) {
        *found = false;
        core_status status = any_next(it, dl, found);
        if (status != CORE_OK || !*found || !it->unique || queens_is_canonical(it->cols, it->n)) {
            return status;
        }
    }
}
