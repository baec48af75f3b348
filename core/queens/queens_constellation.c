/* Border constellations of n-queens solutions: their numbering, validity, symmetry classes, and the
 * search that counts the solutions of one (the inner rows, with the border queens' lines removed). */
#include "core/queens/queens_constellation.h"

#include "core/queens/queens_batch.h"

typedef struct square {
    int row, col;
} square;

/* The distinct squares of the border queens; returns how many (2 to 4: corners are shared). */
static int border_squares(int n, queens_constellation c, square out[4]) {
    const square all[4] = {{0, c.top}, {n - 1, c.bottom}, {c.left, 0}, {c.right, n - 1}};
    int count = 0;
    for (int a = 0; a < 4; a++) {
        bool seen = false;
        for (int b = 0; b < count; b++) {
            seen = seen || (out[b].row == all[a].row && out[b].col == all[a].col);
        }
        if (!seen) {
            out[count++] = all[a];
        }
    }
    return count;
}

static bool attack(square a, square b) {
    return a.row == b.row || a.col == b.col || a.row - a.col == b.row - b.col || a.row + a.col == b.row + b.col;
}

uint64_t queens_constellation_range(int n) {
    uint64_t side = (uint64_t)n;
    return side * side * side * side;
}

queens_constellation queens_constellation_at(int n, uint64_t index) {
    uint64_t side = (uint64_t)n;
    queens_constellation c;
    c.right = (int)(index % side);
    index /= side;
    c.left = (int)(index % side);
    index /= side;
    c.bottom = (int)(index % side);
    c.top = (int)(index / side);
    return c;
}

static uint64_t constellation_index(int n, queens_constellation c) {
    uint64_t side = (uint64_t)n;
    return ((((uint64_t)c.top * side) + (uint64_t)c.bottom) * side + (uint64_t)c.left) * side + (uint64_t)c.right;
}

/* A corner queen must be the queen of both lines through its corner, and no two queens may attack. */
static bool constellation_valid(int n, queens_constellation c) {
    int last = n - 1;
    if ((c.top == 0) != (c.left == 0) || (c.top == last) != (c.right == 0) || (c.bottom == 0) != (c.left == last) ||
        (c.bottom == last) != (c.right == last)) {
        return false;
    }
    square squares[4];
    int count = border_squares(n, c, squares);
    for (int a = 0; a < count; a++) {
        for (int b = a + 1; b < count; b++) {
            if (attack(squares[a], squares[b])) {
                return false;
            }
        }
    }
    return true;
}

/* Symmetry t of the square (0..7: an optional transpose, then optional flips of rows and columns). */
static square transform(int n, int t, square s) {
    if (t & 4) {
        s = (square){s.col, s.row};
    }
    if (t & 1) {
        s.row = n - 1 - s.row;
    }
    if (t & 2) {
        s.col = n - 1 - s.col;
    }
    return s;
}

static queens_constellation transform_constellation(int n, int t, queens_constellation c) {
    square squares[4];
    int count = border_squares(n, c, squares);
    queens_constellation image = {0, 0, 0, 0};
    for (int a = 0; a < count; a++) {
        square s = transform(n, t, squares[a]);
        if (s.row == 0) image.top = s.col;
        if (s.row == n - 1) image.bottom = s.col;
        if (s.col == 0) image.left = s.row;
        if (s.col == n - 1) image.right = s.row;
    }
    return image;
}

int queens_constellation_class_size(int n, queens_constellation c) {
    if (!constellation_valid(n, c)) {
        return 0;
    }
    uint64_t own = constellation_index(n, c);
    uint64_t images[8];
    int distinct = 0;
    for (int t = 0; t < 8; t++) {
        uint64_t image = constellation_index(n, transform_constellation(n, t, c));
        if (image < own) {
            return 0;
        }
        bool seen = false;
        for (int u = 0; u < distinct; u++) {
            seen = seen || images[u] == image;
        }
        if (!seen) {
            images[distinct++] = image;
        }
    }
    return distinct;
}

uint64_t queens_constellation_class_first(int n, queens_constellation c) {
    uint64_t first = constellation_index(n, c);
    for (int t = 1; t < 8; t++) {
        uint64_t image = constellation_index(n, transform_constellation(n, t, c));
        first = image < first ? image : first;
    }
    return first;
}

/* The column bit of `col`, or 0 off the board. */
static uint32_t column_bit(int n, int col) { return col >= 0 && col < n ? (uint32_t)1 << col : 0; }

static void plan_search(int n, queens_constellation c, search_plan *plan) {
    square squares[4];
    int count = border_squares(n, c, squares);
    uint32_t taken_rows = 0;
    plan->columns = (uint32_t)(((uint64_t)1 << n) - 1);
    for (int a = 0; a < count; a++) {
        plan->columns &= ~((uint32_t)1 << squares[a].col);
        taken_rows |= (uint32_t)1 << squares[a].row;
    }
    plan->depth = 0;
    int previous_row = -1;
    for (int row = 0; row < n; row++) {
        if (taken_rows & ((uint32_t)1 << row)) {
            continue;
        }
        uint32_t attacked = 0;
        for (int a = 0; a < count; a++) {
            int distance = row - squares[a].row;
            attacked |= column_bit(n, squares[a].col - distance) | column_bit(n, squares[a].col + distance);
        }
        if (previous_row >= 0) {
            plan->gap[plan->depth - 1] = row - previous_row;
        }
        plan->allowed[plan->depth++] = plan->columns & ~attacked;
        previous_row = row;
    }
}

/* How wide the top of the search is: the product of the free columns of its first SCORE_ROWS rows. */
#define SCORE_ROWS 5

static uint64_t plan_width(const search_plan *plan) {
    uint64_t width = 1;
    for (int d = 0; d < SCORE_ROWS && d < plan->depth; d++) {
        width *= (uint64_t)__builtin_popcount(plan->allowed[d]);
    }
    return width;
}

/* All 8 images of a constellation have as many solutions, but not as large a search: starting where
 * the rows are most constrained prunes sooner. Of the 8, the one whose first rows are narrowest is
 * planned (at n = 14 this searches 62% of the nodes of the constellation as numbered, against 56%
 * for the best of the 8 found by searching them all). */
static void plan_narrowest(int n, queens_constellation c, search_plan *plan) {
    plan_search(n, c, plan);
    uint64_t width = plan_width(plan);
    for (int t = 1; t < 8; t++) {
        search_plan image;
        plan_search(n, transform_constellation(n, t, c), &image);
        uint64_t image_width = plan_width(&image);
        if (image_width < width) {
            *plan = image;
            width = image_width;
        }
    }
}

/* The portable row search: every node of a batch shares the row's masks, so the expansion is one
 * loop that takes one child per turn and moves to the next parent without a data-dependent branch (a
 * child is written unconditionally and kept by advancing the output count): the plain depth-first
 * search spends most of its time on mispredicted loop exits, one per node. */

/* Walks the candidates of a run of parents, one per call, moving to the next parent without a
 * branch. Two cursors over the two halves of a batch run side by side, so that the latency of one
 * (a candidate, the next parent's load) overlaps the other's. */
typedef struct cursor {
    int parent, end;
    uint32_t free; /* the current parent's candidates not yet taken */
} cursor;

static cursor cursor_over(const batch *parents, int from, int to) { return (cursor){from, to, parents->free[from]}; }

static inline bool cursor_more(const cursor *c) { return c->parent < c->end; }

/* Takes the next candidate: its bit, and in *parent the node it extends. */
static inline uint32_t cursor_take(cursor *c, const batch *parents, int *parent) {
    uint32_t bit = c->free & -c->free;
    uint32_t following = parents->free[c->parent + 1]; /* read unconditionally: no branch */
    *parent = c->parent;
    c->free ^= bit;
    uint32_t next_parent = c->free == 0;
    c->parent += (int)next_parent;
    c->free |= following & -next_parent;
    return bit;
}

/* The rows' masks one expansion step uses. */
typedef struct step {
    uint32_t next_allowed, after_allowed;
    int gap, next_gap;
} step;

static step step_at(const search_plan *plan, int d) {
    step st = {plan->allowed[d + 1], 0, plan->gap[d], 0};
    if (d + 2 < plan->depth) {
        st.after_allowed = plan->allowed[d + 2];
        st.next_gap = plan->gap[d + 1];
    }
    return st;
}

/* The last rows, without a batch of their own. With two rows to go after row d's queen, two columns
 * remain: the two ways to place them are checked directly. With one, the column left completes a
 * solution when it is free. */
static inline uint64_t completions(const search_plan *plan, int d, const batch *parents, int parent, uint32_t bit) {
    uint32_t left = (parents->left[parent] | bit) << plan->gap[d],
             right = (parents->right[parent] | bit) >> plan->gap[d];
    uint32_t cols = parents->cols[parent] | bit;
    uint32_t next_free = plan->allowed[d + 1] & ~(left | right | cols);
    if (d + 2 == plan->depth) {
        return next_free != 0;
    }
    uint32_t remaining = plan->columns & ~cols, low = remaining & -remaining, high = remaining ^ low;
    uint32_t last = plan->allowed[d + 2];
    int gap = plan->gap[d + 1];
    uint64_t low_then_high =
        ((next_free & low) != 0) & ((last & high & ~(((left | low) << gap) | ((right | low) >> gap))) != 0);
    uint64_t high_then_low =
        ((next_free & high) != 0) & ((last & low & ~(((left | high) << gap) | ((right | high) >> gap))) != 0);
    return low_then_high + high_then_low;
}

/* Writes the child of `parent` through `bit` at children[*out], and keeps it (advances *out) when
 * its row and, looking ahead as NQueensFAF does, the row after it keep a free square. */
static inline void add_child(const step *st, const batch *parents, int parent, uint32_t bit, batch *children,
                             int *out) {
    uint32_t left = (parents->left[parent] | bit) << st->gap, right = (parents->right[parent] | bit) >> st->gap;
    uint32_t cols = parents->cols[parent] | bit;
    uint32_t child_free = st->next_allowed & ~(left | right | cols);
    uint32_t after_free = st->after_allowed & ~((left << st->next_gap) | (right >> st->next_gap) | cols);
    children->left[*out] = left;
    children->right[*out] = right;
    children->cols[*out] = cols;
    children->free[*out] = child_free;
    *out += (child_free != 0) & (after_free != 0);
}

/* What taking a candidate of row d needs. */
typedef struct row_visit {
    const search_plan *plan;
    step st;
    int d;
    bool last_rows; /* d is the third or second row from the end */
    const batch *parents;
    batch *children;
} row_visit;

/* Takes the next candidate of cursor `c`: in the last rows, counts the solutions it completes;
 * above them, adds its child to the next row's batch. */
static inline void take_candidate(const row_visit *v, cursor *c, int *out, uint64_t *found) {
    int parent;
    uint32_t bit = cursor_take(c, v->parents, &parent);
    if (v->last_rows) {
        *found += completions(v->plan, v->d, v->parents, parent, bit);
    } else {
        add_child(&v->st, v->parents, parent, bit, v->children, out);
    }
}

/* Takes every candidate of the `count` nodes of row d: in the last rows, counts the solutions it
 * completes; above them, adds its child to row d + 1's batch and searches that batch when full. */
void queens_batch_search_portable(batch_search *s, int d, int count) {
    if (batch_search_stopping(s, d)) {
        return;
    }
    const batch *parents = &s->rows[d];
    row_visit visit = {s->plan, step_at(s->plan, d), d, d + 3 >= s->plan->depth, parents, &s->rows[d + 1]};
    int out = 0;
    uint64_t found = 0;
    cursor a = cursor_over(parents, 0, count / 2), b = cursor_over(parents, count / 2, count);
    for (;;) {
        bool both = cursor_more(&a) && cursor_more(&b);
        cursor *single = cursor_more(&a) ? &a : &b;
        if (!both && !cursor_more(single)) {
            break;
        }
        if (both) {
            take_candidate(&visit, &a, &out, &found);
            take_candidate(&visit, &b, &out, &found);
        } else {
            take_candidate(&visit, single, &out, &found);
        }
        if (out >= BATCH - 1) {
            queens_batch_search_portable(s, d + 1, out);
            out = 0;
            if (s->stopped) {
                return;
            }
        }
    }
    s->found += found;
    if (out != 0) {
        queens_batch_search_portable(s, d + 1, out);
    }
}

uint64_t queens_constellation_weight(int n, queens_constellation c) {
    search_plan plan;
    plan_narrowest(n, c, &plan);
    return plan_width(&plan);
}

bool queens_constellation_search_available(queens_constellation_search search) {
    switch (search) {
    case QUEENS_SEARCH_AVX512: return queens_batch_avx512_supported();
    case QUEENS_SEARCH_AVX2: return queens_batch_avx2_supported();
    default: return true;
    }
}

core_status queens_constellation_count(int n, queens_constellation c, queens_poll *poll, uint64_t *count) {
    queens_constellation_search best = queens_batch_avx512_supported() ? QUEENS_SEARCH_AVX512
                                       : queens_batch_avx2_supported() ? QUEENS_SEARCH_AVX2
                                                                       : QUEENS_SEARCH_PORTABLE;
    return queens_constellation_count_with(n, c, best, poll, count);
}

core_status queens_constellation_count_with(int n, queens_constellation c, queens_constellation_search search,
                                            queens_poll *poll, uint64_t *count) {
    search_plan plan;
    plan_narrowest(n, c, &plan);
    if (plan.depth <= 1) {
        *count = plan.depth == 0 ? 1 : plan.allowed[0] != 0; /* one column is left */
        return CORE_OK;
    }
    batch rows[QUEENS_MAX_N];
    batch_search s = {.plan = &plan, .rows = rows, .poll = poll, .poll_below = plan.depth - BATCH_POLL_DEPTH};
    rows[0] = (batch){.free = {plan.allowed[0]}};
    if (plan.allowed[0] != 0) {
        void (*row_search)(batch_search *, int, int) = search == QUEENS_SEARCH_AVX512 ? queens_batch_search_avx512
                                                       : search == QUEENS_SEARCH_AVX2 ? queens_batch_search_avx2
                                                                                      : queens_batch_search_portable;
        row_search(&s, 0, 1);
    }
    if (s.stopped) {
        return CORE_DEADLINE;
    }
    *count = s.found;
    return CORE_OK;
}
