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

/* The completions of a board whose rows above are filled: `columns`, and the squares of the next row
 * that the diagonals of the queens above attack (`left`, `right`), within `all`, the board's columns. */
static uint64_t count_completions(uint32_t all, uint32_t columns, uint32_t left, uint32_t right) {
    if (columns == all) return 1;
    uint64_t found = 0;
    for (uint32_t free = all & ~(columns | left | right); free != 0; free &= free - 1) {
        uint32_t queen = free & (0u - free);
        found += count_completions(all, columns | queen, (left | queen) << 1, (right | queen) >> 1);
    }
    return found;
}

/* Below QUEENS_COUNT_SPLIT_MIN_N: every solution by a plain bitmask search, the first row's queen in
 * the left half only and the count doubled (the mirror image of a solution has its queen in the other
 * half), the middle column of an odd n once; the fundamental ones by Burnside's lemma, as for the
 * constellations. Bounded work: the deadline is polled by the rotations' searches alone. */
static core_status count_small(int n, const deadline *dl, queens_counts *out) {
    if (n == 1) { /* every symmetry fixes the one solution: Burnside's formula does not hold */
        *out = (queens_counts){1, 1};
        return CORE_OK;
    }
    uint32_t all = ((uint32_t)1 << n) - 1;
    uint64_t total = 0;
    for (int col = 0; col < n / 2; col++) {
        uint32_t queen = (uint32_t)1 << col;
        total += 2 * count_completions(all, queen, queen << 1, queen >> 1);
    }
    if (n % 2 == 1) {
        uint32_t queen = (uint32_t)1 << (n / 2);
        total += count_completions(all, queen, queen << 1, queen >> 1);
    }
    queens_poll poll = {.dl = dl};
    atomic_init(&poll.stop, false);
    uint64_t half_turn_fixed, quarter_turn_fixed;
    core_status status = queens_count_rotation_fixed(n, 2, NULL, &poll, &half_turn_fixed);
    if (status == CORE_OK) status = queens_count_rotation_fixed(n, 1, NULL, &poll, &quarter_turn_fixed);
    if (status != CORE_OK) return status;
    *out = (queens_counts){total, (total + half_turn_fixed + 2 * quarter_turn_fixed) / 8};
    return CORE_OK;
}

core_status queens_count_fast(int n, unsigned threads, const deadline *dl, queens_counts *out) {
    if (n < QUEENS_COUNT_SPLIT_MIN_N) {
        return count_small(n, dl, out);
    }
    return count_constellations(n, NULL, queens_constellation_range(n), NULL, threads, dl, out);
}

core_status queens_count_part(const queens_part *part, unsigned threads, const deadline *dl, queens_counts *out) {
    if (part->n < QUEENS_PART_MIN_N) {
        if (part->whole) return count_small(part->n, dl, out);
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
