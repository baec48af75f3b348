/* The HTTP layer: a libmicrohttpd daemon whose access handler reads requests, routes them, runs the
 * endpoint and queues its answer, plus CORS, errors, body limits, access logging and draining. */
#ifndef PUZZLED_SERVER_HTTP_H
#define PUZZLED_SERVER_HTTP_H

#include <stdbool.h>

#include "server/config.h"

typedef struct http_server http_server;

/* Starts listening; NULL after printing why on stderr. */
http_server *http_server_start(const puzzled_config *config);

/* True when the public listener speaks HTTPS (--tls-cert, --tls-key). */
bool http_server_uses_tls(const http_server *server);

/* The bound port (useful with --port 0). */
unsigned http_server_port(const http_server *server);

/* Stops accepting, lets in-flight requests finish for up to `drain_ms`, then stops and frees. False
 * (after printing why) when a connection was left suspended: the daemon is then left running, since
 * stopping it would abort the process; the caller exits. */
bool http_server_stop(http_server *server, unsigned drain_ms);

#endif
