/* Counting n-queens solutions: Takaken's symmetry-aware bitboard search split into parallel tasks,
 * and plain enumeration. */
#include "core/queens/queens_count.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "core/queens/queens_symmetry.h"

/* n = 1 has no second row to split the search on; its count comes from enumeration. */
#define FAST_MIN_N 2
/* Nodes are counted, and the deadline and the other workers' stop flag polled, only above the last
 * POLL_ROWS rows (where most nodes are, so the count costs little), every POLL_INTERVAL such nodes. */
#define POLL_ROWS 3
#define POLL_INTERVAL 1024
#define MAX_THREADS QUEENS_COUNT_MAX_THREADS

/* One unit of work: the queens of rows 0 and 1 (as column bits). A corner task has row 0 in column 0
 * and `bound1` is row 1's column; a non-corner task has row 0 in column `bound1`. */
typedef struct count_task {
    bool corner;
    int bound1;
    uint64_t row0;
    uint64_t row1;
} count_task;

typedef struct count_shared {
    int n;
    const deadline *dl;
    const count_task *tasks;
    size_t task_count;
    atomic_size_t next_task;
    atomic_bool stop; /* the deadline passed: every worker returns */
} count_shared;

/* The state of one search (Takaken's globals, made per task). */
typedef struct search {
    count_shared *shared;
    int last;          /* n - 1 */
    uint64_t mask;     /* all n columns */
    uint64_t topbit;   /* column n - 1 */
    uint64_t sidemask; /* columns 0 and n - 1 */
    uint64_t lastmask; /* columns the last row may not use (non-corner) */
    uint64_t endbit;   /* the last row's column that allows 180-degree symmetry */
    int bound1;
    int bound2;
    uint64_t board[QUEENS_MAX_N]; /* the column bit of each row's queen */
    uint64_t count2, count4, count8;
    uint64_t nodes;
    bool stopped; /* this search saw the shared stop flag */
} search;

static bool search_stopped(search *s) {
    if (!s->stopped && ++s->nodes % POLL_INTERVAL == 0) {
        if (deadline_expired(s->shared->dl)) {
            atomic_store(&s->shared->stop, true);
        }
        s->stopped = atomic_load(&s->shared->stop);
    }
    return s->stopped;
}

/* A complete non-corner placement: compares it with its 90, 180 and 270 degree rotations (Takaken's
 * Check). If one is smaller, another member represents the class and nothing is counted; else the
 * class holds 2 solutions (symmetric under a quarter turn), 4 (under a half turn) or 8. */
static void classify(search *s, uint64_t last_row_bit) {
    const uint64_t *b = s->board;
    int own;
    if (b[s->bound2] == 1) {
        uint64_t ptn = 2;
        for (own = 1; own <= s->last; own++, ptn <<= 1) {
            uint64_t bit = 1;
            for (int you = s->last; b[you] != ptn && b[own] >= bit; you--) {
                bit <<= 1;
            }
            if (b[own] > bit) {
                return;
            }
            if (b[own] < bit) {
                break;
            }
        }
        if (own > s->last) {
            s->count2++;
            return;
        }
    }
    if (last_row_bit == s->endbit) {
        int you = s->last - 1;
        for (own = 1; own <= s->last; own++, you--) {
            uint64_t bit = 1;
            for (uint64_t ptn = s->topbit; ptn != b[you] && b[own] >= bit; ptn >>= 1) {
                bit <<= 1;
            }
            if (b[own] > bit) {
                return;
            }
            if (b[own] < bit) {
                break;
            }
        }
        if (own > s->last) {
            s->count4++;
            return;
        }
    }
    if (b[s->bound1] == s->topbit) {
        uint64_t ptn = s->topbit >> 1;
        for (own = 1; own <= s->last; own++, ptn >>= 1) {
            uint64_t bit = 1;
            for (int you = 0; b[you] != ptn && b[own] >= bit; you++) {
                bit <<= 1;
            }
            if (b[own] > bit) {
                return;
            }
            if (b[own] < bit) {
                break;
            }
        }
    }
    s->count8++;
}

/* Candidate columns of row y (< last) in the non-corner search, or 0 to prune. */
static uint64_t noncorner_candidates(const search *s, int y, uint64_t left, uint64_t down, uint64_t right) {
    uint64_t bitmap = s->mask & ~(left | down | right);
    if (y < s->bound1) {
        bitmap &= ~s->sidemask;
    } else if (y == s->bound2) {
        if ((down & s->sidemask) == 0) {
            return 0;
        }
        if ((down & s->sidemask) != s->sidemask) {
            bitmap &= s->sidemask;
        }
    }
    return bitmap;
}

static void noncorner_search(search *s, int y, uint64_t left, uint64_t down, uint64_t right) {
    if (y < s->last - POLL_ROWS && search_stopped(s)) {
        return;
    }
    if (y == s->last) {
        uint64_t bitmap = s->mask & ~(left | down | right);
        if (bitmap != 0 && (bitmap & s->lastmask) == 0) {
            s->board[y] = bitmap;
            classify(s, bitmap);
        }
        return;
    }
    uint64_t bitmap = noncorner_candidates(s, y, left, down, right);
    while (bitmap != 0) {
        uint64_t bit = bitmap & -bitmap;
        bitmap ^= bit;
        s->board[y] = bit;
        noncorner_search(s, y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

/* Candidate columns of row y (< last) in the corner search: column 1 only after row bound1, which
 * keeps one of each pair of solutions mirrored in the main diagonal. */
static uint64_t corner_candidates(const search *s, int y, uint64_t left, uint64_t down, uint64_t right) {
    uint64_t bitmap = s->mask & ~(left | down | right);
    return y < s->bound1 ? bitmap & ~(uint64_t)2 : bitmap;
}

static void corner_search(search *s, int y, uint64_t left, uint64_t down, uint64_t right) {
    if (y < s->last - POLL_ROWS && search_stopped(s)) {
        return;
    }
    if (y == s->last) {
        if ((s->mask & ~(left | down | right)) != 0) {
            s->count8++;
        }
        return;
    }
    uint64_t bitmap = corner_candidates(s, y, left, down, right);
    while (bitmap != 0) {
        uint64_t bit = bitmap & -bitmap;
        bitmap ^= bit;
        corner_search(s, y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

static void search_init(search *s, count_shared *shared, int bound1) {
    int n = shared->n;
    *s = (search){.shared = shared, .last = n - 1, .bound1 = bound1, .bound2 = n - 1 - bound1};
    s->mask = ((uint64_t)1 << n) - 1;
    s->topbit = (uint64_t)1 << (n - 1);
    s->sidemask = s->topbit | 1;
    uint64_t low = ((uint64_t)1 << bound1) - 1;
    s->lastmask = low | (s->mask ^ (s->mask >> bound1));
    s->endbit = s->topbit >> bound1;
}

/* Runs one task: the queens of rows 0 and 1 are given, the search fills the rest. */
static void run_task(search *s, const count_task *t) {
    s->board[0] = t->row0;
    s->board[1] = t->row1;
    uint64_t left = ((t->row0 << 1) | t->row1) << 1;
    uint64_t down = t->row0 | t->row1;
    uint64_t right = ((t->row0 >> 1) | t->row1) >> 1;
    if (t->corner) {
        corner_search(s, 2, left, down, right);
    } else {
        noncorner_search(s, 2, left, down, right);
    }
}

typedef struct worker_result {
    uint64_t count2, count4, count8;
} worker_result;

typedef struct worker {
    count_shared *shared;
    worker_result result;
} worker;

static void *worker_run(void *arg) {
    worker *w = arg;
    count_shared *shared = w->shared;
    for (;;) {
        size_t i = atomic_fetch_add(&shared->next_task, 1);
        if (i >= shared->task_count || atomic_load(&shared->stop)) {
            break;
        }
        search s;
        search_init(&s, shared, shared->tasks[i].bound1);
        run_task(&s, &shared->tasks[i]);
        w->result.count2 += s.count2;
        w->result.count4 += s.count4;
        w->result.count8 += s.count8;
    }
    return NULL;
}

/* Lists the tasks: every admissible pair of row-0 and row-1 queens, the few big corner searches
 * first so the small non-corner ones fill the gaps at the end. Returns the number written. */
static size_t list_tasks(count_shared *shared, count_task *tasks) {
    int n = shared->n;
    size_t count = 0;
    for (int bound1 = 2; bound1 < n - 1; bound1++) {
        tasks[count++] = (count_task){.corner = true, .bound1 = bound1, .row0 = 1, .row1 = (uint64_t)1 << bound1};
    }
    for (int bound1 = 1; bound1 < n - 1 - bound1; bound1++) {
        search s;
        search_init(&s, shared, bound1);
        uint64_t row0 = (uint64_t)1 << bound1;
        uint64_t bitmap = noncorner_candidates(&s, 1, row0 << 1, row0, row0 >> 1);
        while (bitmap != 0) {
            uint64_t bit = bitmap & -bitmap;
            bitmap ^= bit;
            tasks[count++] = (count_task){.corner = false, .bound1 = bound1, .row0 = row0, .row1 = bit};
        }
    }
    return count;
}

static unsigned online_cores(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (unsigned)cores : 1;
}

bool queens_count_fast(int n, unsigned threads, const deadline *dl, queens_counts *out) {
    if (n < FAST_MIN_N) {
        return queens_count_by_enumeration(n, QUEENS_BITMASK, dl, out);
    }
    count_task tasks[QUEENS_MAX_N * QUEENS_MAX_N];
    count_shared shared = {.n = n, .dl = dl, .tasks = tasks};
    atomic_init(&shared.next_task, 0);
    atomic_init(&shared.stop, false);
    shared.task_count = list_tasks(&shared, tasks);

    if (threads == 0) {
        threads = online_cores();
    }
    if (threads > MAX_THREADS) {
        threads = MAX_THREADS;
    }
    worker workers[MAX_THREADS] = {{0}};
    pthread_t ids[MAX_THREADS];
    unsigned started = 1; /* workers[0] is this thread */
    for (unsigned i = 0; i < threads; i++) {
        workers[i].shared = &shared;
    }
    while (started < threads && pthread_create(&ids[started], NULL, worker_run, &workers[started]) == 0) {
        started++;
    }
    worker_run(&workers[0]);
    worker_result sum = workers[0].result;
    for (unsigned i = 1; i < started; i++) {
        pthread_join(ids[i], NULL);
        sum.count2 += workers[i].result.count2;
        sum.count4 += workers[i].result.count4;
        sum.count8 += workers[i].result.count8;
    }
    if (atomic_load(&shared.stop)) {
        return false;
    }
    out->total = 2 * sum.count2 + 4 * sum.count4 + 8 * sum.count8;
    out->unique = sum.count2 + sum.count4 + sum.count8;
    return true;
}

bool queens_count_by_enumeration(int n, queens_algorithm algorithm, const deadline *dl, queens_counts *out) {
    queens_iter it;
    if (!queens_iter_init(&it, n, algorithm, false)) {
        return false;
    }
    queens_counts counts = {0, 0};
    queens_step step;
    while ((step = queens_iter_next(&it, dl)) == QUEENS_FOUND) {
        counts.total++;
        if (queens_is_canonical(queens_iter_solution(&it), n)) {
            counts.unique++;
        }
    }
    if (step == QUEENS_DEADLINE_EXCEEDED) {
        return false;
    }
    *out = counts;
    return true;
}
