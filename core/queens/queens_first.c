/* The explicit n-queens construction, one row at a time or as runs of rising columns. */
#include "core/queens/queens_first.h"

bool queens_first_exists(uint64_t n) { return n >= 1 && n != 2 && n != 3; }

/* The k-th (0-based) number of the odd list, 1-based values. */
static uint64_t odd_number(uint64_t n, uint64_t k) {
    uint64_t odds = (n + 1) / 2;
    switch (n % 6) {
    case 2: /* 3, 1, 7, 9, ..., n - 1, 5 */
        if (k <= 1) {
            return k == 0 ? 3 : 1;
        }
        return k == odds - 1 ? 5 : 2 * k + 3;
    case 3: /* 5, 7, ..., n, 1, 3 */ return k < odds - 2 ? 2 * k + 5 : 2 * (k - (odds - 2)) + 1;
    default: /* 1, 3, 5, ... */ return 2 * k + 1;
    }
}

/* The k-th (0-based) number of the even list, 1-based values. */
static uint64_t even_number(uint64_t n, uint64_t k) {
    uint64_t evens = n / 2;
    if (n % 6 == 3) { /* 4, 6, ..., n - 1, 2 */
        return k == evens - 1 ? 2 : 2 * k + 4;
    }
    return 2 * k + 2;
}

uint64_t queens_first_column(uint64_t n, uint64_t row) {
    uint64_t evens = n / 2;
    uint64_t value = row < evens ? even_number(n, row) : odd_number(n, row - evens);
    return value - 1;
}

/* The construction as runs of columns rising by QUEENS_FIRST_STEP, in row order (0-based columns;
 * the lists of queens_first_column, quoted 1-based in the comments, taken apart where they stop
 * rising by two). */
enum { MAX_RUNS = 5 };

static void add_run(queens_first_run *runs, unsigned *count, uint64_t column, uint64_t rows) {
    if (rows > 0) runs[(*count)++] = (queens_first_run){column, rows};
}

static unsigned construction_runs(uint64_t n, queens_first_run runs[MAX_RUNS]) {
    uint64_t evens = n / 2, odds = (n + 1) / 2;
    unsigned count = 0;
    switch (n % 6) {
    case 2: /* 2, 4, ..., n; then 3, 1, 7, 9, ..., n - 1, 5 */
        add_run(runs, &count, 1, evens);
        add_run(runs, &count, 2, 1);
        add_run(runs, &count, 0, 1);
        add_run(runs, &count, 6, odds - 3);
        add_run(runs, &count, 4, 1);
        break;
    case 3: /* 4, 6, ..., n - 1, 2; then 5, 7, ..., n, 1, 3 */
        add_run(runs, &count, 3, evens - 1);
        add_run(runs, &count, 1, 1);
        add_run(runs, &count, 4, odds - 2);
        add_run(runs, &count, 0, 2);
        break;
    default: /* 2, 4, ..., n; then 1, 3, ... */
        add_run(runs, &count, 1, evens);
        add_run(runs, &count, 0, odds);
        break;
    }
    return count;
}

queens_first_run queens_first_run_at(uint64_t n, uint64_t row) {
    queens_first_run runs[MAX_RUNS] = {{0, 0}};
    unsigned count = construction_runs(n, runs);
    unsigned i = 0;
    for (; i + 1 < count && row >= runs[i].rows; i++) row -= runs[i].rows;
    return (queens_first_run){runs[i].column + QUEENS_FIRST_STEP * row, runs[i].rows - row};
}
