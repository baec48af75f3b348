/* Every suspension of a connection, counted. libmicrohttpd aborts the process when MHD_stop_daemon
 * finds a connection suspended and not resumed ("MHD_stop_daemon() called while we have suspended
 * connections"), so every suspend and resume in the server goes through these two calls, and the
 * stop (server/http.c) waits for the count to reach zero before it stops the daemon (woken by the
 * resume that brings it there).
 *
 * Invariant: the count is the number of connections suspended and not yet resumed. A resume is
 * counted after libmicrohttpd has it, so at zero every connection is active or marked for resumption
 * (the daemon takes those back before it closes them). One server per process: the count is global,
 * like the metrics. */
#ifndef PUZZLED_SERVER_SUSPENSION_H
#define PUZZLED_SERVER_SUSPENSION_H

#include <stdbool.h>

#include <microhttpd.h>

#include "core/common/deadline.h"

/* MHD_suspend_connection, counted. On the connection's I/O thread, from a callback. */
void suspension_suspend(struct MHD_Connection *connection);

/* MHD_resume_connection, counted. From any thread, once per suspension. */
void suspension_resume(struct MHD_Connection *connection);

/* From any thread, while the connection is not closed by libmicrohttpd (its request has not ended):
 * the client closed its end of the connection, or reset it. poll(2) with POLLRDHUP sees the close
 * even behind bytes not read yet (a pipelined request), where a one-byte MSG_PEEK would read them. */
bool suspension_client_gone(struct MHD_Connection *connection);

/* Connections suspended now. */
unsigned suspension_count(void);

/* Waits until no connection is suspended, or until `limit` passes; true at none. */
bool suspension_wait_none(const deadline *limit);

#endif
