/* Completing a partial n-queens board (see queens_complete.h). */
#include "core/queens/queens_complete.h"

#include <stdbool.h>
#include <stdlib.h>

#define EMPTY UINT32_MAX
#define FIRST_BUDGET 32 /* backtracks before the first restart */

typedef struct board {
    uint32_t n;
    uint32_t *cols;      /* column of the queen in each row, or EMPTY */
    uint32_t *free;      /* empty rows: how many of their squares no queen attacks */
    bool *column_taken;  /* n */
    bool *sum_taken;     /* 2n - 1: diagonal row + col */
    bool *diff_taken;    /* 2n - 1: diagonal row - col + n - 1 */
    uint32_t *stack_row; /* the rows filled by the search, in order */
    uint32_t *first_try; /* per row: the column its tries start from (then upwards, wrapping around) */
    uint32_t empty_rows;
} board;

static bool square_free(const board *b, uint32_t row, uint32_t col) {
    return !b->column_taken[col] && !b->sum_taken[row + col] && !b->diff_taken[row + b->n - 1 - col];
}

static void mark(board *b, uint32_t row, uint32_t col, bool taken) {
    b->column_taken[col] = taken;
    b->sum_taken[row + col] = taken;
    b->diff_taken[row + b->n - 1 - col] = taken;
}

/* The squares of `other` the queen on [row, col] attacks: its column and its two diagonals (distinct
 * since other != row), those on the board. */
static int attacked_in(uint32_t n, uint32_t row, uint32_t col, uint32_t other, uint32_t out[3]) {
    int64_t distance = (int64_t)other - row, count = 0;
    int64_t candidates[3] = {col, (int64_t)col + distance, (int64_t)col - distance};
    for (int i = 0; i < 3; i++) {
        if (candidates[i] >= 0 && candidates[i] < n) out[count++] = (uint32_t)candidates[i];
    }
    return (int)count;
}

/* Places a queen and updates the empty rows' counts; false when some empty row is left with none. */
static bool place(board *b, uint32_t row, uint32_t col) {
    bool alive = true;
    for (uint32_t other = 0; other < b->n; other++) {
        if (b->cols[other] != EMPTY || other == row) continue;
        uint32_t squares[3];
        int count = attacked_in(b->n, row, col, other, squares);
        for (int i = 0; i < count; i++) b->free[other] -= square_free(b, other, squares[i]);
        alive = alive && b->free[other] > 0;
    }
    mark(b, row, col, true);
    b->cols[row] = col;
    b->empty_rows--;
    return alive;
}

static void unplace(board *b, uint32_t row) {
    uint32_t col = b->cols[row];
    mark(b, row, col, false);
    b->cols[row] = EMPTY;
    b->empty_rows++;
    for (uint32_t other = 0; other < b->n; other++) {
        if (b->cols[other] != EMPTY || other == row) continue;
        uint32_t squares[3];
        int count = attacked_in(b->n, row, col, other, squares);
        for (int i = 0; i < count; i++) b->free[other] += square_free(b, other, squares[i]);
    }
}

/* The empty row with the fewest free squares (the lowest such row). */
static uint32_t most_constrained_row(const board *b) {
    uint32_t best = EMPTY;
    for (uint32_t row = 0; row < b->n; row++) {
        if (b->cols[row] == EMPTY && (best == EMPTY || b->free[row] < b->free[best])) best = row;
    }
    return best;
}

/* The next free column of `row` in its order of tries (first_try[row], then upwards, wrapping
 * around), after `tried` columns of that order were tried; n when none is left. */
static uint32_t next_free_column(const board *b, uint32_t row, uint32_t tried) {
    for (; tried < b->n; tried++) {
        uint32_t col = (uint32_t)(((uint64_t)b->first_try[row] + tried) % b->n);
        if (square_free(b, row, col)) return col;
    }
    return b->n;
}

/* How many columns of `row`'s order of tries come up to and including `col`. */
static uint32_t tries_through(const board *b, uint32_t row, uint32_t col) {
    return (uint32_t)(((uint64_t)col + b->n - b->first_try[row]) % b->n) + 1;
}

static void board_free(board *b) {
    free(b->cols);
    free(b->free);
    free(b->column_taken);
    free(b->sum_taken);
    free(b->diff_taken);
    free(b->stack_row);
    free(b->first_try);
}

static bool board_init(board *b, uint32_t n) {
    *b = (board){.n = n, .empty_rows = n};
    size_t lines = 2 * (size_t)n - 1;
    b->cols = malloc(n * sizeof *b->cols);
    b->free = malloc(n * sizeof *b->free);
    b->column_taken = calloc(n, sizeof *b->column_taken);
    b->sum_taken = calloc(lines, sizeof *b->sum_taken);
    b->diff_taken = calloc(lines, sizeof *b->diff_taken);
    b->stack_row = malloc(n * sizeof *b->stack_row);
    b->first_try = malloc(n * sizeof *b->first_try);
    if (!b->cols || !b->free || !b->column_taken || !b->sum_taken || !b->diff_taken || !b->stack_row || !b->first_try)
        return false;
    for (uint32_t row = 0; row < n; row++) b->cols[row] = EMPTY, b->free[row] = n;
    return true;
}

/* New pseudo-random starting columns for every row (xorshift64 from `scramble`). */
static void shuffle_tries(board *b, uint64_t *scramble) {
    for (uint32_t row = 0; row < b->n; row++) {
        *scramble ^= *scramble << 13, *scramble ^= *scramble >> 7, *scramble ^= *scramble << 17;
        b->first_try[row] = (uint32_t)(*scramble % b->n);
    }
}

core_status queens_complete(uint32_t n, const queens_square *placed, size_t k, const deadline *dl, uint32_t *cols,
                            bool *completed) {
    board b;
    core_status status = CORE_NO_MEMORY;
    *completed = false;
    if (!board_init(&b, n)) goto out;
    status = CORE_OK;
    uint64_t scramble = 0x9E3779B97F4A7C15u; /* a fixed seed: the same board gets the same answer */
    shuffle_tries(&b, &scramble);
    bool alive = true;
    for (size_t i = 0; i < k; i++) alive = place(&b, placed[i].row, placed[i].col) && alive;
    /* The search: stack_row[0 .. depth) are the rows it filled; backtracking moves the top row's queen
     * to its next free column, or pops the row. After `budget` backtracks it restarts with other
     * starting columns and twice the budget, which cuts the long runs a bad early choice causes
     * (Gomes, Selman and Kautz, "Boosting combinatorial search through randomization", AAAI 1998)
     * while staying complete: the budget grows without bound. */
    uint64_t backtracks = 0, budget = FIRST_BUDGET;
    uint32_t depth = 0;
    bool advance = alive; /* true: fill a new row; false: move the top row's queen on */
    for (;;) {
        if (dl != NULL && deadline_expired(dl)) { /* each step costs O(n): polling is cheap beside it */
            status = CORE_DEADLINE;
            goto out;
        }
        if (!advance && depth > 0 && ++backtracks > budget) {
            while (depth > 0 && (dl == NULL || depth % 256 != 0 || !deadline_expired(dl)))
                unplace(&b, b.stack_row[--depth]);
            if (depth > 0) {
                status = CORE_DEADLINE;
                goto out;
            }
            shuffle_tries(&b, &scramble);
            backtracks = 0;
            budget *= 2;
            advance = true;
        }
        uint32_t row, col;
        if (advance) {
            if (b.empty_rows == 0) {
                for (uint32_t r = 0; r < n; r++) cols[r] = b.cols[r];
                *completed = true;
                goto out;
            }
            row = most_constrained_row(&b);
            col = next_free_column(&b, row, 0);
            b.stack_row[depth++] = row;
        } else {
            if (depth == 0) goto out; /* every choice tried: no completion */
            row = b.stack_row[depth - 1];
            uint32_t tried = tries_through(&b, row, b.cols[row]);
            unplace(&b, row);
            col = next_free_column(&b, row, tried);
        }
        if (col == n) { /* this row has no column left: back up */
            depth--;
            advance = false;
            continue;
        }
        advance = place(&b, row, col);
    }
out:
    board_free(&b);
    return status;
}
