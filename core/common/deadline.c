/* Cooperative time limits on the monotonic clock. */
#include "core/common/deadline.h"
#include "core/common/progress.h"

#include "core/common/monotonic.h"

deadline deadline_after_ms(uint64_t ms) { return (deadline){.at_ns = monotonic_now_ns() + (int64_t)ms * 1000000}; }

deadline deadline_none(void) { return (deadline){.at_ns = 0}; }

bool deadline_expired(const deadline *d) {
    if (d == NULL) return false;
    if (d->cancelled != NULL && atomic_load_explicit(d->cancelled, memory_order_relaxed)) return true;
    if (d->abandoned != NULL && atomic_load_explicit(d->abandoned, memory_order_relaxed)) return true;
    if (progress_abandoned(d->progress)) return true;
    return d->at_ns != 0 && monotonic_now_ns() >= d->at_ns;
}

uint64_t deadline_remaining_ms(const deadline *d) {
    if (d == NULL || d->at_ns == 0) return UINT64_MAX;
    if (deadline_expired(d)) return 0;
    return (uint64_t)(d->at_ns - monotonic_now_ns()) / 1000000;
}
