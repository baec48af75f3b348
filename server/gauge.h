/* A count that a thread can wait to see at zero: the server's open requests and suspended
 * connections, which the stop (server/http.c) waits for. The count changes under its own mutex, and
 * the change that brings it to zero wakes the waiters, so a stop sleeps until then instead of
 * polling. */
#ifndef PUZZLED_SERVER_GAUGE_H
#define PUZZLED_SERVER_GAUGE_H

#include <pthread.h>
#include <stdbool.h>

#include "core/common/deadline.h"

typedef struct gauge {
    pthread_mutex_t lock;
    pthread_cond_t zero; /* signalled when the count comes down to zero */
    unsigned count;
} gauge;

#define GAUGE_INITIALIZER \
    { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 }

void gauge_add(gauge *g);
void gauge_sub(gauge *g);
unsigned gauge_read(gauge *g);

/* Waits until the count is zero, or until `limit` passes (NULL or at_ns 0: no limit); true at zero. */
bool gauge_wait_zero(gauge *g, const deadline *limit);

#endif
