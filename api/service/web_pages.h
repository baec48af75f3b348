/* What the server needs to know of the embedded files (api/service/web_pages.c) beyond their endpoints: a
 * digest of their contents (web/ and openapi.yaml), part of every ETag, so that a tag changes when a
 * file does, even between two builds of the same version and commit (a container build knows no
 * commit), and a browser that revalidates a page gets the new one. */
#ifndef PUZZLED_API_WEB_PAGES_H
#define PUZZLED_API_WEB_PAGES_H

#define WEB_PAGES_DIGEST_SIZE 17 /* 16 hex digits and the NUL */

void web_pages_digest(char out[WEB_PAGES_DIGEST_SIZE]);

#endif
