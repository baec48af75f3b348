/* What server/http.c (the daemons, their start and their stop) and the server/request*.c files (one
 * request's handling) share, and nothing else includes: the server's state and the request callbacks
 * the daemons are started with. */
#ifndef PUZZLED_SERVER_HTTP_INTERNAL_H
#define PUZZLED_SERVER_HTTP_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include <microhttpd.h>

#include "api/api.h"
#include "server/clients.h"
#include "server/compute_pool.h"
#include "server/config.h"
#include "server/etag.h"
#include "server/gauge.h"
#include "server/http.h"
#include "server/open_sockets.h"
#include "server/static_gzip.h"
#include "server/timer.h"

/* "public, max-age=" and the seconds (at most 10 digits) and NUL. */
#define CACHE_CONTROL_SIZE 32

/* A daemon's view of the server: the public listener, or the admin one (--admin-port: /metrics). */
typedef struct listener {
    http_server *server;
    bool admin;
} listener;

struct http_server {
    struct MHD_Daemon *daemon;
    struct MHD_Daemon *admin_daemon; /* NULL without --admin-port */
    listener public_side, admin_side;
    char *tls_key, *tls_cert; /* PEM text read at start, NULL without TLS */
    const puzzled_config *config;
    compute_pool *pool;
    clients *clients;        /* client identity and fair shares */
    open_sockets *sockets;   /* the public connections' sockets, flushed before a stop closes them */
    static_gzip *pages_gzip; /* the web pages gzip'd at start (NULL: out of memory, sent as they are) */
    atomic_bool draining;    /* while stopping: answers say Connection: close, /readyz says 503 */
    atomic_bool cancelled;   /* raised when the drain time is up: running computations end */
    gauge requests_open;     /* begun and not yet freed (the stop waits for none) */
    timer *timer;            /* the one timer thread: the pool's expiry, the event streams' ticks */
    etag_seed etag_seed;     /* every ETag's start: the server's build and word lists, hashed at start-up */
    /* a pure answer's Cache-Control, "public, max-age=" and --cache-max-age, written at start-up */
    char cache_control[CACHE_CONTROL_SIZE];
};

/* libmicrohttpd takes its timeouts in whole seconds: a limit in ms, rounded up. */
static inline unsigned http_whole_seconds(unsigned ms) { return (ms + 999) / 1000; }

/* The daemons' callbacks (server/request.c); `cls` is the listener the request arrived on. */
void *http_request_begin(void *cls, const char *uri, struct MHD_Connection *connection);
void http_request_end(void *cls, struct MHD_Connection *connection, void **con_cls,
                      enum MHD_RequestTerminationCode termination);
enum MHD_Result http_request_handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                    const char *version, const char *upload_data, size_t *upload_data_size,
                                    void **con_cls);

#endif
