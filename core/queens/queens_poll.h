/* The stop shared by the threads of one count: the deadline, polled every few thousand search nodes,
 * and a flag the first thread to see it pass raises so that every other thread returns too. */
#ifndef PUZZLED_CORE_QUEENS_POLL_H
#define PUZZLED_CORE_QUEENS_POLL_H

#include <stdatomic.h>
#include <stdbool.h>

#include "core/common/deadline.h"

typedef struct queens_poll {
    const deadline *dl; /* NULL: no limit */
    atomic_bool stop;
} queens_poll;

/* True once the deadline has passed, here or as seen by another thread. */
static inline bool queens_poll_stopped(queens_poll *p) {
    if (deadline_expired(p->dl)) {
        atomic_store(&p->stop, true);
    }
    return atomic_load_explicit(&p->stop, memory_order_relaxed);
}

#endif
