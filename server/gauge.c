/* See gauge.h. A waiter announces itself before it looks at the count, and a change looks for waiters
 * after it made the count zero (both sequentially consistent), so at least one of them sees the
 * other: either the waiter sees zero, or the change sees the waiter and wakes it under the lock, which
 * the waiter holds from its look until it sleeps. */
#include "server/gauge.h"

void gauge_add(gauge *g) { atomic_fetch_add(&g->count, 1); }

void gauge_sub(gauge *g) {
    if (atomic_fetch_sub(&g->count, 1) != 1 || atomic_load(&g->waiters) == 0) return;
    mutex_lock(&g->lock);
    pthread_cond_broadcast(&g->zero);
    mutex_unlock(&g->lock);
}

unsigned gauge_read(gauge *g) { return atomic_load(&g->count); }

bool gauge_wait_zero(gauge *g, const deadline *limit) {
    mutex_lock(&g->lock);
    atomic_fetch_add(&g->waiters, 1);
    while (atomic_load(&g->count) != 0 && !deadline_expired(limit)) {
        if (limit == NULL || limit->at_ns == 0) mutex_wait(&g->zero, &g->lock);
        else mutex_wait_until(&g->zero, &g->lock, limit->at_ns);
    }
    atomic_fetch_sub(&g->waiters, 1);
    bool zero = atomic_load(&g->count) == 0;
    mutex_unlock(&g->lock);
    return zero;
}
