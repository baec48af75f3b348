/* How far a long computation got, for someone who follows it from another thread (the server's
 * event streams, server/event_stream.c).
 *
 * Design: the computation writes, a follower reads, nobody waits. A computation that can take long
 * calls progress_begin() once it has checked its input and knows its unit of work (and the exact
 * number of units, if there is one), then progress_add() as units finish, next to where it already
 * polls its deadline: the record travels in the deadline (deadline.progress), so no signature
 * changes and a computation without a follower pays one NULL test. `done` only grows and never
 * passes `total`. Where a total is known, the moment each eighth of the work is reached is kept
 * (a milestone: the count and the time then), so a follower sees the course of the work however
 * late it looks and however fast the work is. A follower that leaves raises `abandoned`, and the
 * deadline then counts as expired: the computation stops at its next poll.
 *
 * Key invariant: milestones are recorded, and a follower's view is read, under one lock, each with
 * `done` read there: every milestone in a view has a `done` (and a time) no later than the view's,
 * and every milestone recorded after it no earlier. So a follower that sends the view's milestones
 * and then the view itself never goes backwards. Milestones never change once recorded. */
#ifndef PUZZLED_CORE_PROGRESS_H
#define PUZZLED_CORE_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* No exact total exists (or none is known yet): the unit counts up without a bound. */
#define PROGRESS_NO_TOTAL UINT64_MAX
/* The work is cut into this many equal parts; reaching each one is a milestone. */
#define PROGRESS_MILESTONES 8

typedef struct progress_milestone {
    uint64_t done; /* units done when the milestone was seen (at least its share of the total) */
    int64_t at_ns; /* core/common/monotonic.h nanoseconds then */
} progress_milestone;

typedef struct progress {
    atomic_uint_fast64_t done;
    atomic_uint_fast64_t total;     /* PROGRESS_NO_TOTAL: none */
    _Atomic(const char *) unit;     /* a static string; NULL until progress_begin() */
    atomic_bool abandoned;          /* the follower left: the computation should stop */
    atomic_uint milestones_reached; /* how many of `milestones` are written */
    pthread_mutex_t milestone_lock; /* taken to record a milestone (at most 8 times) and to read */
    progress_milestone milestones[PROGRESS_MILESTONES];
} progress;

/* The follower's copy (see the invariant above); `done` is capped by `total`. */
typedef struct progress_view {
    bool begun; /* progress_begin() has been called */
    uint64_t done;
    uint64_t total;      /* PROGRESS_NO_TOTAL: none */
    const char *unit;    /* NULL until begun */
    unsigned milestones; /* recorded so far */
    int64_t at_ns;       /* core/common/monotonic.h nanoseconds when read */
} progress_view;

void progress_init(progress *p);
void progress_destroy(progress *p);

/* The computation: what it counts (a static string such as "subproblems") and how many there are
 * (PROGRESS_NO_TOTAL: no exact total). Call once; `p` may be NULL (nobody follows). */
void progress_begin(progress *p, const char *unit, uint64_t total);

/* The computation: `units` more are done (any thread). `p` may be NULL. */
void progress_add(progress *p, uint64_t units);

/* The follower. */
progress_view progress_read(progress *p);

/* The follower: the milestone at `index` (below a view's `milestones`). */
progress_milestone progress_milestone_at(progress *p, unsigned index);

/* The follower left: the deadline carrying `p` expires at once. */
void progress_abandon(progress *p);
bool progress_abandoned(const progress *p);

#endif
