/* See suspension.h. An atomic counter: suspends and resumes happen on many threads. */
#include "server/suspension.h"

#include <stdatomic.h>

static atomic_uint suspended;

void suspension_suspend(struct MHD_Connection *connection) {
    atomic_fetch_add(&suspended, 1);
    MHD_suspend_connection(connection);
}

void suspension_resume(struct MHD_Connection *connection) {
    MHD_resume_connection(connection);
    atomic_fetch_sub(&suspended, 1);
}

unsigned suspension_count(void) { return atomic_load(&suspended); }
