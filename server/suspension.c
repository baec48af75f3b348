/* See suspension.h. A gauge (server/gauge.h): suspends and resumes happen on many threads, and the
 * stop waits for the count to reach zero. */
#include "server/suspension.h"

#include "server/gauge.h"

static gauge suspended = GAUGE_INITIALIZER;

void suspension_suspend(struct MHD_Connection *connection) {
    gauge_add(&suspended);
    MHD_suspend_connection(connection);
}

void suspension_resume(struct MHD_Connection *connection) {
    MHD_resume_connection(connection);
    gauge_sub(&suspended);
}

unsigned suspension_count(void) { return gauge_read(&suspended); }

bool suspension_wait_none(const deadline *limit) { return gauge_wait_zero(&suspended, limit); }
