/* See suspension.h. A gauge (server/gauge.h): suspends and resumes happen on many threads, and the
 * stop waits for the count to reach zero. POLLRDHUP is Linux's (since 2.6.17), as is epoll, which
 * the daemons use already. */
#include "server/suspension.h"

#include <poll.h>

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

bool suspension_client_gone(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) return false;
    struct pollfd watched = {.fd = info->connect_fd, .events = POLLRDHUP};
    return poll(&watched, 1, 0) == 1 && (watched.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

unsigned suspension_count(void) { return gauge_read(&suspended); }

bool suspension_wait_none(const deadline *limit) { return gauge_wait_zero(&suspended, limit); }
