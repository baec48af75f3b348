/* RFC 9112 rules that libmicrohttpd 0.9.75 lets through, checked on the parsed request before it is
 * routed: an HTTP/1.1 request needs exactly one Host (section 3.2); no whitespace between a field
 * name and its colon, which reaches us as a name ending in a space (section 5.1); no control bytes
 * (a bare CR, say) in a field value (section 5.5); Transfer-Encoding must be exactly "chunked"
 * (anything else is 501, section 6.1), and never together with Content-Length (a request-smuggling
 * shape: 400, section 6.1). Each refusal is answered on the first call, so libmicrohttpd closes the
 * connection after it and nothing pipelined behind is read.
 *
 * What cannot be checked here, because libmicrohttpd consumes it before any callback sees it: an
 * obs-fold continuation line (it is merged into the previous field) and NUL or other control bytes
 * in a field name (they are dropped). docs/security.md lists these. */
#ifndef PUZZLED_SERVER_STRICT_HTTP_H
#define PUZZLED_SERVER_STRICT_HTTP_H

#include <stdbool.h>

#include <microhttpd.h>

#include "api/errors.h"

/* True when the request passes; else false with `error` filled. `version` is the request line's. */
bool strict_http_check(struct MHD_Connection *connection, const char *version, api_error *error);

#endif
