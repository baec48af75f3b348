/* Counting n-queens solutions: all of them by border constellations (NQueensFAF's method, see
 * queens_constellation.h) searched in shares offered to idle threads (core/common/fork_join.h), or by a
 * plain bitmask search for a small n; the fundamental ones by Burnside's lemma from the solutions the
 * rotations fix (queens_rotation.h); and plain enumeration, for cross-checks. */
#include "core/queens/queens_count.h"

#include <stdatomic.h>
#include <unistd.h>

#include "core/common/fork_join.h"
#include "core/queens/queens_constellation.h"
#include "core/queens/queens_poll.h"
#include "core/queens/queens_rotation.h"
#include "core/queens/queens_symmetry.h"
#include "core/common/progress.h"

#define MAX_THREADS QUEENS_COUNT_MAX_THREADS

/* What the shares of one count have in common: the constellations to count, the next one to take (one
 * at a time, so that both cores finish together whatever each constellation costs) and the stop. */
typedef struct count_shared {
    int n;
    const uint64_t *numbers; /* the constellation numbers to count, or NULL: every number below `range` */
    uint64_t range;          /* how many there are */
    atomic_uint_fast64_t next;
    queens_poll poll;
} count_shared;

typedef struct worker {
    count_shared *shared;
    uint64_t total; /* solutions of the constellations this share took, each times its class size */
} worker;

static void worker_run(void *arg) {
    worker *w = arg;
    count_shared *shared = w->shared;
    for (;;) {
        uint64_t index = atomic_fetch_add(&shared->next, 1);
        if (index >= shared->range || atomic_load_explicit(&shared->poll.stop, memory_order_relaxed)) {
            break;
        }
        queens_constellation c =
            queens_constellation_at(shared->n, shared->numbers != NULL ? shared->numbers[index] : index);
        int class_size = queens_constellation_class_size(shared->n, c);
        uint64_t count = 0;
        if (class_size != 0 && queens_constellation_count(shared->n, c, &shared->poll, &count) != CORE_OK) {
            break;
        }
        w->total += (uint64_t)class_size * count;
        progress_add(progress_of(shared->poll.dl), 1);
    }
}

static unsigned online_cores(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (unsigned)cores : 1;
}

/* Every solution, in `shares` shares: this thread's, and the others offered to idle threads (a share
 * nobody took runs here after this one's, and finds the constellations all taken). CORE_DEADLINE when
 * stopped. */
static core_status count_all(count_shared *shared, unsigned shares, uint64_t *total) {
    worker workers[MAX_THREADS] = {{0}};
    parallel_task offered[MAX_THREADS];
    for (unsigned i = 0; i < shares; i++) workers[i].shared = shared;
    for (unsigned i = 1; i < shares; i++) fork_join_offer(&offered[i], worker_run, &workers[i]);
    worker_run(&workers[0]);
    fork_join_join_all(&offered[1], shares - 1);
    uint64_t sum = 0;
    for (unsigned i = 0; i < shares; i++) sum += workers[i].total;
    *total = sum;
    return atomic_load(&shared->poll.stop) ? CORE_DEADLINE : CORE_OK;
}

/* The solutions of the constellations `numbers` (NULL: all), those the rotations fix among them (within
 * `part`'s classes, or all when NULL), and from both the fundamental ones. */
static core_status count_constellations(int n, const uint64_t *numbers, uint64_t range, const queens_part *part,
                                        unsigned threads, const deadline *dl, queens_counts *out) {
    if (threads == 0) {
        threads = online_cores();
    }
    if (threads > MAX_THREADS) {
        threads = MAX_THREADS;
    }
    count_shared shared = {.n = n, .numbers = numbers, .range = range, .poll = {.dl = dl}};
    /* the work units are the constellations, each a subproblem searched on its own */
    progress_begin(progress_of(dl), "subproblems", shared.range);
    atomic_init(&shared.next, 0);
    atomic_init(&shared.poll.stop, false);
    uint64_t total, half_turn_fixed, quarter_turn_fixed;
    core_status status = count_all(&shared, threads, &total);
    if (status != CORE_OK) return status;
    status = queens_count_rotation_fixed(n, 2, part, &shared.poll, &half_turn_fixed);
    if (status != CORE_OK) return status;
    status = queens_count_rotation_fixed(n, 1, part, &shared.poll, &quarter_turn_fixed);
    if (status != CORE_OK) return status;
    out->total = total;
    out->unique = (total + half_turn_fixed + 2 * quarter_turn_fixed) / 8;
    return CORE_OK;
}

/* A small board filled row by row (count_small): each row's queen as a column bit, and what the
 * solutions found so far add up to. */
typedef struct small_search {
    int n;
    uint32_t queen[QUEENS_COUNT_SPLIT_MIN_N];
    uint64_t weight; /* what each solution under the first row's queen stands for */
    uint64_t total, half_turn_fixed, quarter_turn_fixed;
} small_search;

/* A quarter turn maps (row, col) to (col, n - 1 - row), a half turn to (n - 1 - row, n - 1 - col). */
static bool fixed_by_half_turn(const small_search *s, const int *column) {
    for (int row = 0; row < s->n / 2; row++)
        if (column[s->n - 1 - row] != s->n - 1 - column[row]) return false;
    return true;
}

static bool fixed_by_quarter_turn(const small_search *s, const int *column) {
    for (int row = 0; row < s->n; row++)
        if (column[column[row]] != s->n - 1 - row) return false;
    return true;
}

/* A solution found: counted, with the rotations that fix it. */
static void tally(small_search *s) {
    int column[QUEENS_COUNT_SPLIT_MIN_N];
    for (int row = 0; row < s->n; row++) column[row] = __builtin_ctz(s->queen[row]);
    s->total += s->weight;
    if (!fixed_by_half_turn(s, column)) return;
    s->half_turn_fixed += s->weight;
    if (fixed_by_quarter_turn(s, column)) s->quarter_turn_fixed += s->weight;
}

/* Every solution with the first row's queen at `first`, depth first without recursion: the row being
 * filled has at hand its squares still to try and the columns and diagonals its queen must avoid; each
 * row above keeps its own while it waits. A queen that leaves the next row no square is passed over
 * at once, and one that leaves the last row its one square completes a solution. */
static void count_completions(small_search *s, uint32_t first) {
    uint32_t free_above[QUEENS_COUNT_SPLIT_MIN_N], columns_above[QUEENS_COUNT_SPLIT_MIN_N];
    uint32_t left_above[QUEENS_COUNT_SPLIT_MIN_N], right_above[QUEENS_COUNT_SPLIT_MIN_N];
    uint32_t all = ((uint32_t)1 << s->n) - 1, free = first, columns = 0, left = 0, right = 0;
    for (int row = 0, last = s->n - 1;;) {
        while (free != 0) {
            uint32_t queen = free & (0u - free);
            free ^= queen;
            s->queen[row] = queen;
            uint32_t next_columns = columns | queen, next_left = (left | queen) << 1, next_right = (right | queen) >> 1;
            uint32_t next_free = all & ~(next_columns | next_left | next_right);
            if (next_free == 0) continue;
            if (row + 1 == last) {
                s->queen[last] = next_free;
                tally(s);
                continue;
            }
            free_above[row] = free;
            columns_above[row] = columns;
            left_above[row] = left;
            right_above[row] = right;
            row++;
            free = next_free;
            columns = next_columns;
            left = next_left;
            right = next_right;
        }
        if (row-- == 0) return;
        free = free_above[row];
        columns = columns_above[row];
        left = left_above[row];
        right = right_above[row];
    }
}

/* Below QUEENS_COUNT_SPLIT_MIN_N: every solution by a plain bitmask search, the first row's queen in
 * the left half only and each solution counted twice (its mirror image has its queen in the other
 * half), the middle column of an odd n once. A mirror image is fixed by the rotations that fix the
 * solution, so the solutions they fix are tallied alike, as each is found, and the fundamental ones
 * follow by Burnside's lemma, as for the constellations. Bounded work: no deadline is polled. */
static void count_small(int n, queens_counts *out) {
    if (n == 1) { /* every symmetry fixes the one solution: Burnside's formula does not hold */
        *out = (queens_counts){1, 1};
        return;
    }
    small_search s = {.n = n};
    for (int col = 0; col < (n + 1) / 2; col++) {
        s.weight = n % 2 == 1 && col == n / 2 ? 1 : 2;
        count_completions(&s, (uint32_t)1 << col);
    }
    *out = (queens_counts){s.total, (s.total + s.half_turn_fixed + 2 * s.quarter_turn_fixed) / 8};
}

core_status queens_count_fast(int n, unsigned threads, const deadline *dl, queens_counts *out) {
    if (n < QUEENS_COUNT_SPLIT_MIN_N) {
        count_small(n, out);
        return CORE_OK;
    }
    return count_constellations(n, NULL, queens_constellation_range(n), NULL, threads, dl, out);
}

core_status queens_count_part(const queens_part *part, unsigned threads, const deadline *dl, queens_counts *out) {
    if (part->n < QUEENS_PART_MIN_N) {
        if (part->whole) {
            count_small(part->n, out);
            return CORE_OK;
        }
        progress_begin(progress_of(dl), "subproblems", 0);
        *out = (queens_counts){0, 0};
        return CORE_OK;
    }
    return count_constellations(part->n, part->classes, part->class_count, part, threads, dl, out);
}

core_status queens_count_by_enumeration(int n, queens_algorithm algorithm, const deadline *dl, queens_counts *out) {
    queens_iter it;
    queens_iter_init(&it, n, algorithm, false);
    queens_counts counts = {0, 0};
    bool found;
    core_status status;
    while ((status = queens_iter_next(&it, dl, &found)) == CORE_OK && found) {
        counts.total++;
        if (queens_is_canonical(queens_iter_solution(&it), n)) {
            counts.unique++;
        }
    }
    if (status != CORE_OK) {
        return status;
    }
    *out = counts;
    return CORE_OK;
}
