/* Whether a request's Accept header lets the server answer with one of a route's media types (RFC
 * 9110 section 12.5.1): the 406 not_acceptable of server/request_dispatch.c, decided before anything
 * is computed. Generous: no header, an empty one, wildcards and unknown parameters all accept; only a
 * media range that names a type (or its wildcard) with q=0, or a header whose ranges all name other
 * types, refuses it. */
#ifndef PUZZLED_SERVER_ACCEPT_H
#define PUZZLED_SERVER_ACCEPT_H

#include <stdbool.h>

/* True when `type` ("application/json", without parameters) is acceptable under `accept` (one header
 * line's value): the most specific media range that matches it (type/subtype, then type/star, then
 * star/star) has a q above 0. NULL, an empty value or one with no media range at all accepts anything;
 * parameters other than q, and a q that is not a number, are ignored. */
bool accept_allows(const char *accept, const char *type);

/* True when `accept` allows at least one of `types` (a NULL-terminated list). */
bool accept_allows_any(const char *accept, const char *const *types);

#endif
