/* See gauge.h. The waits are on the deadlines' clock (core/common/monotonic.h). */
#include "server/gauge.h"

#include "core/common/monotonic.h"

void gauge_add(gauge *g) {
    pthread_mutex_lock(&g->lock);
    g->count++;
    pthread_mutex_unlock(&g->lock);
}

void gauge_sub(gauge *g) {
    pthread_mutex_lock(&g->lock);
    if (--g->count == 0) pthread_cond_broadcast(&g->zero);
    pthread_mutex_unlock(&g->lock);
}

unsigned gauge_read(gauge *g) {
    pthread_mutex_lock(&g->lock);
    unsigned count = g->count;
    pthread_mutex_unlock(&g->lock);
    return count;
}

bool gauge_wait_zero(gauge *g, const deadline *limit) {
    pthread_mutex_lock(&g->lock);
    while (g->count != 0 && !deadline_expired(limit)) {
        if (limit == NULL || limit->at_ns == 0) {
            pthread_cond_wait(&g->zero, &g->lock);
        } else {
            struct timespec at = monotonic_timespec(limit->at_ns);
            pthread_cond_clockwait(&g->zero, &g->lock, CLOCK_MONOTONIC, &at);
        }
    }
    bool zero = g->count == 0;
    pthread_mutex_unlock(&g->lock);
    return zero;
}
