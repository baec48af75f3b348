/* A count that a thread can wait to see at zero: the server's open requests and suspended
 * connections, which the stop (server/http.c) waits for. The count is an atomic, so that adding and
 * taking away, once or twice for every request, take no lock that the I/O threads would share; the
 * lock and the condition serve the waiters alone. A change that brings the count to zero while
 * someone waits takes the lock and wakes them, so a stop sleeps until then instead of polling. */
#ifndef PUZZLED_SERVER_GAUGE_H
#define PUZZLED_SERVER_GAUGE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "core/common/deadline.h"
#include "server/thread_safety.h"

typedef struct gauge {
    atomic_uint count;
    atomic_uint waiters; /* threads in gauge_wait_zero */
    mutex lock;          /* the waiters' */
    pthread_cond_t zero; /* signalled when the count comes down to zero while someone waits */
} gauge;

#define GAUGE_INITIALIZER \
    { 0, 0, MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER }

void gauge_add(gauge *g);
void gauge_sub(gauge *g);
unsigned gauge_read(gauge *g);

/* Waits until the count is zero, or until `limit` passes (NULL or at_ns 0: no limit); true at zero. */
bool gauge_wait_zero(gauge *g, const deadline *limit);

#endif
