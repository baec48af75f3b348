/* Fisher-Yates (and Sattolo) from its dice on two threads, with the one-thread answer (see
 * shuffle_two_phase.h).
 *
 * The steps run i = n-1 down to 1, step i swapping positions i and j_i <= i. Cut them at `head`: the
 * late steps (i < head) touch only positions below head, so whatever the early steps left there, the
 * late steps move it by a permutation fixed by their own dice alone. So the helper applies the late
 * steps to an identity h of `head` values (h[p] = where p's final value stood after the early steps)
 * while the caller runs the early steps on the real array; then a[p] = a[h[p]] for p < head. The dice
 * of the late steps come after those of the early ones in the generator's stream, so the helper first
 * draws (and drops) the early dice on a copy of the generator: drawing is cheap, the swaps wait on
 * memory, and each thread's swaps now wait in parallel. This is the simplest case of evaluating the
 * sequential shuffle's dependence structure in parallel (Shun, Gu, Blelloch, Fineman and Gibbons,
 * "Sequential random permutation, list contraction and tree contraction are highly parallel", SODA
 * 2015), cut once for two cores rather than in reservation rounds.
 *
 * Memory: the helper's array, 4 bytes per position below head (about 22 MB for n = 10^7), only while
 * the shuffle is computed. */
#include "core/random/shuffle_two_phase.h"

#include <stdlib.h>
#include <string.h>

#include "core/common/fork_join.h"
#include "core/random/bounded_random.h"
#include "core/random/shuffle.h"

/* head = n * HEAD_SHARE_PER_MILLE / 1000: the helper also draws the early dice and builds its own
 * identity, so its share of the steps is below half (measured in docs/operations.md). */
enum { HEAD_SHARE_PER_MILLE = 550 };
enum { DROP_POLL_EVERY = 1 << 16 }; /* dice pairs dropped between deadline polls */
enum { GATHER_AHEAD = 16 };         /* positions read ahead of their use (prefetched) when composing */

typedef struct early_steps {
    rng *r;
    uint32_t *a;
    size_t n, head, less;
    const deadline *limit;
    core_status status;
} early_steps;

typedef struct late_steps {
    rng r; /* a copy of the generator, at the start of the early steps */
    uint32_t *h;
    size_t n, head, less;
    const deadline *limit;
    core_status status;
} late_steps;

/* The identity on the real array, then the steps i = n-1 down to head. */
static void run_early_steps(void *arg) {
    early_steps *e = arg;
    shuffle_identity(e->a, e->n);
    size_t next_i;
    e->status = shuffle_paired_swaps(e->r, e->a, e->n - 1, e->head + 1, e->less, &next_i, e->limit);
}

/* The early steps' dice drawn and dropped, then the steps below head on the identity of head values:
 * shuffle_swap_down on those alone, since head has n's parity and the pairs fall as they do in one run. */
static void run_late_steps(void *arg) {
    late_steps *l = arg;
    size_t until_poll = DROP_POLL_EVERY;
    for (size_t i = l->n - 1; i > l->head; i -= 2) {
        uint64_t dropped1, dropped2;
        bounded_random_pair(&l->r, i + 1 - l->less, i - l->less, &dropped1, &dropped2);
        if (--until_poll == 0) {
            if (deadline_expired(l->limit)) {
                l->status = CORE_DEADLINE;
                return;
            }
            until_poll = DROP_POLL_EVERY;
        }
    }
    l->status = shuffle_swap_down(&l->r, l->h, l->head, l->less, l->limit);
}

typedef struct gather_range {
    const uint32_t *a;
    uint32_t *h;
    size_t begin, end;
} gather_range;

/* h[p] = a[h[p]] over the range; the squares read are random, so they are prefetched ahead. */
static void gather(void *arg) {
    gather_range *g = arg;
    size_t p = g->begin;
    for (; p + GATHER_AHEAD < g->end; p++) {
        __builtin_prefetch(&g->a[g->h[p + GATHER_AHEAD]]);
        g->h[p] = g->a[g->h[p]];
    }
    for (; p < g->end; p++) g->h[p] = g->a[g->h[p]];
}

core_status shuffle_two_phase(rng *r, uint32_t *a, size_t n, size_t less, size_t head, const deadline *limit) {
    if (n < 2) return shuffle_swap_down(r, a, n, less, limit);
    if (head < 1 + less) head = 1 + less;
    if ((head ^ n) & 1) head++;
    if (head > n) head = n;
    uint32_t *h = malloc((head > 0 ? head : 1) * sizeof *h);
    if (h == NULL) return shuffle_swap_down(r, a, n, less, limit);
    shuffle_advise_memory(h, head);
    early_steps early = {.r = r, .a = a, .n = n, .head = head, .less = less, .limit = limit};
    late_steps late = {.r = *r, .h = h, .n = n, .head = head, .less = less, .limit = limit};
    fork_join(run_early_steps, &early, run_late_steps, &late);
    core_status status = CORE_DEADLINE;
    if (early.status != CORE_OK || late.status != CORE_OK) goto out;
    gather_range low = {a, h, 0, head / 2}, high = {a, h, head / 2, head};
    fork_join(gather, &low, gather, &high);
    memcpy(a, h, head * sizeof *h);
    *r = late.r; /* the generator after the last die, as after one run */
    status = CORE_OK;
out:
    explicit_bzero(&late.r, sizeof late.r); /* a secure generator's key */
    free(h);
    return status;
}

core_status shuffle_swap_down_fastest(rng *r, uint32_t *a, size_t n, size_t less, const deadline *limit) {
    if (n < SHUFFLE_TWO_PHASE_MIN_N) return shuffle_swap_down(r, a, n, less, limit);
    return shuffle_two_phase(r, a, n, less, (size_t)((uint64_t)n * HEAD_SHARE_PER_MILLE / 1000), limit);
}
