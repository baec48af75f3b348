/* Which page origins may read the answers (--cors-origin): "*" for any, or a comma-separated list of
 * origins ("https://puzzles.example, http://localhost:5173"). With a list, an answer to a request
 * whose Origin is on it echoes that origin in Access-Control-Allow-Origin; any other origin gets no
 * such header (the browser then keeps the answer from the page). Every answer under a list says
 * `Vary: Origin`, so a cache never serves one origin's answer to another. */
#ifndef PUZZLED_SERVER_CORS_H
#define PUZZLED_SERVER_CORS_H

#include <stdbool.h>
#include <stddef.h>

/* Longest --cors-origin value. */
enum { CORS_ORIGINS_MAX = 1024 };

/* True when `list` is "*" or a list of origins (scheme "http" or "https", a host, an optional port,
 * no path). Otherwise writes why into `why`. */
bool cors_origins_valid(const char *list, char *why, size_t why_size);

/* The Access-Control-Allow-Origin value for a request from `origin` (NULL: the request named none):
 * "*", the origin itself when listed, or NULL (send no such header). */
const char *cors_allowed_origin(const char *list, const char *origin);

/* True when the answer varies with the request's Origin (a list, not "*"). */
bool cors_varies(const char *list);

#endif
