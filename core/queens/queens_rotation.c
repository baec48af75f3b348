/* Solutions fixed by a rotation: a depth-first search that fills the topmost empty row with a queen
 * and, at once, the other squares of that queen's orbit under the rotation (4 squares for a quarter
 * turn, 2 for a half turn, 1 for the centre), each checked against the queens already placed. The
 * border queens are noted as they are placed, so a solution outside a part is told at once. */
#include "core/queens/queens_rotation.h"

#include "core/queens/queens_solutions.h"

#define POLL_INTERVAL 4096

typedef struct rotation_search {
    int n;
    int quarter_turns;
    const queens_part *within; /* NULL: every solution counts */
    uint64_t full_rows;
    queens_poll *poll;
    unsigned polls;
    bool stopped;
} rotation_search;

/* Lines in use: rows, columns, diagonals (col - row + n - 1) and anti-diagonals (row + col); and
 * the queens on the border lines placed so far. */
typedef struct lines {
    uint64_t rows, cols, diagonals, anti_diagonals;
    queens_constellation border;
} lines;

/* Adds a queen at (row, col) unless it shares a line with one already there. */
static bool place(lines *used, int n, int row, int col) {
    uint64_t r = (uint64_t)1 << row, c = (uint64_t)1 << col;
    uint64_t d = (uint64_t)1 << (col - row + n - 1), a = (uint64_t)1 << (row + col);
    if ((used->rows & r) || (used->cols & c) || (used->diagonals & d) || (used->anti_diagonals & a)) {
        return false;
    }
    used->rows |= r;
    used->cols |= c;
    used->diagonals |= d;
    used->anti_diagonals |= a;
    if (row == 0) used->border.top = col;
    if (row == n - 1) used->border.bottom = col;
    if (col == 0) used->border.left = row;
    if (col == n - 1) used->border.right = row;
    return true;
}

/* Places the orbit of (row, col): each quarter turn maps (row, col) to (col, n - 1 - row). */
static bool place_orbit(const rotation_search *s, lines *used, int row, int col) {
    int r = row, c = col;
    do {
        if (!place(used, s->n, r, c)) {
            return false;
        }
        for (int turn = 0; turn < s->quarter_turns; turn++) {
            int turned = c;
            c = s->n - 1 - r;
            r = turned;
        }
    } while (r != row || c != col);
    return true;
}

static uint64_t search(rotation_search *s, lines used) {
    if (used.rows == s->full_rows) {
        return s->within == NULL || queens_part_holds(s->within, used.border);
    }
    if (!s->stopped && ++s->polls % POLL_INTERVAL == 0) {
        s->stopped = queens_poll_stopped(s->poll);
    }
    if (s->stopped) {
        return 0;
    }
    int row = __builtin_ctzll(~used.rows);
    /* The squares of this row no queen attacks, as column bits; the orbit's other squares are
     * checked as they are placed. */
    uint64_t free = ~(used.cols | (used.diagonals >> (s->n - 1 - row)) | (used.anti_diagonals >> row)) & s->full_rows;
    uint64_t count = 0;
    while (free != 0) {
        int col = __builtin_ctzll(free);
        free &= free - 1;
        lines next = used;
        if (place_orbit(s, &next, row, col)) {
            count += search(s, next);
        }
    }
    return count;
}

core_status queens_count_rotation_fixed(int n, int quarter_turns, const queens_part *within, queens_poll *poll,
                                        uint64_t *count) {
    rotation_search s = {.n = n, .quarter_turns = quarter_turns, .within = within, .poll = poll};
    s.full_rows = ((uint64_t)1 << n) - 1;
    uint64_t found = search(&s, (lines){0});
    if (s.stopped) {
        return CORE_DEADLINE;
    }
    *count = found;
    return CORE_OK;
}
