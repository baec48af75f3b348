/* How far a long computation got (see progress.h). */
#include "core/common/progress.h"

#include "core/common/monotonic.h"

void progress_init(progress *p) {
    atomic_init(&p->done, 0);
    atomic_init(&p->total, PROGRESS_NO_TOTAL);
    atomic_init(&p->unit, NULL);
    atomic_init(&p->abandoned, false);
    atomic_init(&p->milestones_reached, 0);
    pthread_mutex_init(&p->milestone_lock, NULL);
}

void progress_destroy(progress *p) { pthread_mutex_destroy(&p->milestone_lock); }

void progress_begin(progress *p, const char *unit, uint64_t total) {
    if (p == NULL) return;
    atomic_store(&p->total, total);
    atomic_store(&p->unit, unit);
}

/* How many eighths of `total` `done` covers (0 .. PROGRESS_MILESTONES). */
static unsigned eighths(uint64_t done, uint64_t total) {
    if (done >= total) return PROGRESS_MILESTONES;
    if (total <= UINT64_MAX / PROGRESS_MILESTONES) return (unsigned)(done * PROGRESS_MILESTONES / total);
    return (unsigned)(done / (total / PROGRESS_MILESTONES));
}

/* Records every milestone that `done` has now passed. Under the lock `done` is read afresh, so the
 * recorded values never decrease whichever thread gets here first. */
static void record_milestones(progress *p, uint64_t total) {
    pthread_mutex_lock(&p->milestone_lock);
    uint64_t done = atomic_load(&p->done);
    unsigned reached = atomic_load_explicit(&p->milestones_reached, memory_order_relaxed);
    unsigned now_reached = eighths(done, total);
    int64_t at_ns = monotonic_now_ns();
    for (unsigned i = reached; i < now_reached; i++) p->milestones[i] = (progress_milestone){done, at_ns};
    if (now_reached > reached) atomic_store_explicit(&p->milestones_reached, now_reached, memory_order_release);
    pthread_mutex_unlock(&p->milestone_lock);
}

void progress_add(progress *p, uint64_t units) {
    if (p == NULL) return;
    uint64_t done = atomic_fetch_add_explicit(&p->done, units, memory_order_relaxed) + units;
    uint64_t total = atomic_load_explicit(&p->total, memory_order_relaxed);
    if (total == PROGRESS_NO_TOTAL || total == 0) return;
    if (eighths(done, total) > atomic_load_explicit(&p->milestones_reached, memory_order_relaxed))
        record_milestones(p, total);
}

progress_view progress_read(progress *p) {
    progress_view view = {.unit = atomic_load(&p->unit)};
    view.begun = view.unit != NULL;
    pthread_mutex_lock(&p->milestone_lock);
    view.total = atomic_load(&p->total);
    view.done = atomic_load(&p->done);
    view.milestones = atomic_load(&p->milestones_reached);
    view.at_ns = monotonic_now_ns();
    pthread_mutex_unlock(&p->milestone_lock);
    if (view.done > view.total) view.done = view.total;
    return view;
}

progress_milestone progress_milestone_at(progress *p, unsigned index) {
    pthread_mutex_lock(&p->milestone_lock);
    progress_milestone milestone = p->milestones[index];
    pthread_mutex_unlock(&p->milestone_lock);
    return milestone;
}

void progress_abandon(progress *p) { atomic_store(&p->abandoned, true); }

bool progress_abandoned(const progress *p) {
    return p != NULL && atomic_load_explicit(&p->abandoned, memory_order_relaxed);
}
