/* The routing table: path, allowed methods, endpoint. 404, 405 with Allow, and CORS preflight
 * answers all derive from it, so adding an endpoint is one row here and one file in api/. */
#ifndef PUZZLED_SERVER_ROUTES_H
#define PUZZLED_SERVER_ROUTES_H

#include <stddef.h>

#include "api/endpoints.h"

enum { METHOD_GET = 1, METHOD_POST = 2 };
/* With the methods: a POST with Content-Type text/plain hands its body to the endpoint as text
 * (api_request.text_body) instead of parsing it as JSON fields. */
enum { ROUTE_TEXT_BODY = 4 };
/* With the methods: Accept: text/event-stream is answered with the computation's progress as
 * server-sent events, then its answer (server/event_stream.h). */
enum { ROUTE_PROGRESS = 8 };

/* Where a route is answered: cheap, bounded answers on the I/O thread that read the request; every
 * computation on a compute worker (see server/request_dispatch.c). */
typedef enum route_thread { ON_WORKER, ON_IO_THREAD } route_thread;

/* The media types of the answers whose form Accept chooses (server/request_dispatch.c): JSON, the
 * default; NDJSON for a streamed list (api_request.ndjson); bulk Sudoku's text lines
 * (api_request.plain_text); progress events (ROUTE_PROGRESS). A route's other types come with the
 * request itself: SVG where its `format` draws, a file's own type. */
#define MEDIA_JSON "application/json"
#define MEDIA_NDJSON "application/x-ndjson"
#define MEDIA_TEXT "text/plain"
#define MEDIA_EVENTS "text/event-stream"

typedef struct route {
    const char *path;
    unsigned methods; /* METHOD_* bits; OPTIONS (preflight) is always allowed */
    const api_endpoint *endpoint;
    route_thread thread;
    const char *const *media; /* every media type its answers have, NULL-terminated, JSON first where it
                                 answers JSON: the Accept that excludes them all is answered 406, and
                                 of the MEDIA_ ones the Accept prefers, the first is chosen (server/accept.h) */
} route;

/* The route for an exact path, or NULL. */
const route *route_find(const char *path);

/* The table's size, its i-th route, and a route's position in it (for metrics labels). */
size_t route_count(void);
const route *route_at(size_t index);
size_t route_index(const route *r);

/* METHOD_* bit for an HTTP method name (HEAD is METHOD_GET), or 0 for one no route serves. */
unsigned route_method_bit(const char *method);

/* "GET, HEAD, POST, OPTIONS" for the route. */
void route_allow_header(const route *r, char *out, size_t size);

/* "/a, /b, ..." of every path, for the 404 message. */
void route_list_paths(char *out, size_t size);

#endif
