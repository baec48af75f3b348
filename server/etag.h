/* Strong entity tags derived from the request alone, so that a conditional GET (If-None-Match) is
 * answered 304 before anything is computed. Every answer puzzled caches is a pure function of the
 * route, the request's fields (time_limit_ms aside: it never changes a 200 answer), a text/plain
 * body when the route takes one (bulk Sudoku: its lines are its question), the representation asked for (media type and content codings), and what the server was started with
 * that shapes answers (its build and its word lists): the tag is a 128-bit FNV-1a hash of exactly
 * those. A gzip'd answer is sent with the tag marked weak: the same content, but its bytes depend
 * on where the stream's pieces were flushed. */
#ifndef PUZZLED_SERVER_ETAG_H
#define PUZZLED_SERVER_ETAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* `"` + 32 hex digits + `"` + NUL */
#define ETAG_SIZE 35

/* The hash of the server's part of every tag (its build and its word lists: what shapes answers
 * besides the request), worked out once at start-up; every tag goes on from it. */
typedef struct etag_seed {
    uint64_t high, low;
} etag_seed;
etag_seed etag_seed_of(const char *server_fingerprint);

/* The tag, quoted, into `out`. `text_body` is NULL when the request has none. */
void etag_of_request(char out[ETAG_SIZE], const etag_seed *seed, const char *route_path, const char *representation,
                     const cJSON *params, const char *text_body, size_t text_body_len);

/* True when an If-None-Match value (a list of tags, weak ones included, or `*`) names `etag`. */
bool etag_matches(const char *if_none_match, const char *etag);

#endif
