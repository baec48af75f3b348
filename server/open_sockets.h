/* The sockets of the open connections, so that a stop can wait until what was written to them has
 * left the machine. libmicrohttpd counts a request complete once its last bytes are in the kernel's
 * send queue; if the process then exits, and it runs in a container, the network namespace goes with
 * it and a slow client loses the queued tail (a cut stream). The stop therefore waits, bounded, until
 * every send queue is empty (SIOCOUTQ) before closing the connections. */
#ifndef PUZZLED_SERVER_OPEN_SOCKETS_H
#define PUZZLED_SERVER_OPEN_SOCKETS_H

#include <stdbool.h>

#include "core/common/deadline.h"

typedef struct open_sockets open_sockets;

open_sockets *open_sockets_create(void);
void open_sockets_destroy(open_sockets *sockets);

void open_sockets_add(open_sockets *sockets, int fd);
void open_sockets_remove(open_sockets *sockets, int fd);

/* Waits until no open socket has unsent bytes, or until `limit`; true when all were sent. */
bool open_sockets_wait_flushed(open_sockets *sockets, const deadline *limit);

#endif
