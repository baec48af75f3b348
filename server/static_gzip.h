/* The web pages and their files gzip-compressed once, at start-up. They are the endpoints marked
 * `revalidate` (api/service/web_pages.c): the same bytes for every request, answered on an I/O thread, where
 * nothing may compress a page (the /docs reference is over 300 KB) per request. A browser that takes gzip gets
 * these bytes instead (about a third of the size); any other client gets the files as they are. */
#ifndef PUZZLED_SERVER_STATIC_GZIP_H
#define PUZZLED_SERVER_STATIC_GZIP_H

#include "base/byte_buffer.h"
#include "server/routes.h"

typedef struct static_gzip static_gzip;

/* Runs every `revalidate` route's endpoint once and keeps its body gzip'd. NULL when out of memory:
 * the files then go out uncompressed. */
static_gzip *static_gzip_create(void);

/* The gzip'd body of `r`'s answer, or NULL when it has none. */
const byte_buffer *static_gzip_find(const static_gzip *cache, const route *r);

void static_gzip_destroy(static_gzip *cache);

#endif
