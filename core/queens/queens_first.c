/* The explicit n-queens construction, one row at a time. */
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
