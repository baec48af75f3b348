/* The start-up gzip of the web pages' fixed answers (see static_gzip.h). One slot per route, indexed
 * like the routing table; a slot is empty for a computing route. Small files are gzip'd too: done once,
 * it costs nothing per request, and every file then answers alike (Vary, Content-Encoding). */
#include "server/static_gzip.h"

#include <stdlib.h>

#include "server/compression.h"

struct static_gzip {
    size_t count;
    json_writer bodies[]; /* bodies[route_index(r)]; len 0: none */
};

/* The endpoint's answer gzip'd into `out`, which stays empty when the answer is not compressible or
 * memory ran out. */
static void gzip_answer(const api_endpoint *endpoint, json_writer *out) {
    api_request req = {0};
    api_response res = {.status = 200, .content_type = "application/json"};
    jw_init(&res.body);
    bool gzipped = false;
    if (!endpoint->handler(&req, &res) || !compression_applies_to(res.content_type)) goto out;
    if (res.fixed_body != NULL) jw_raw(&res.body, res.fixed_body, res.fixed_length);
    gzipped = !res.body.out_of_memory && gzip_body(&res.body);
out:
    if (gzipped) *out = res.body;
    else jw_free(&res.body);
}

static_gzip *static_gzip_create(void) {
    size_t count = route_count();
    static_gzip *cache = calloc(1, sizeof *cache + count * sizeof cache->bodies[0]);
    if (cache == NULL) return NULL;
    cache->count = count;
    for (size_t i = 0; i < count; i++) {
        const api_endpoint *endpoint = route_at(i)->endpoint;
        jw_init(&cache->bodies[i]);
        if (endpoint->revalidate) gzip_answer(endpoint, &cache->bodies[i]);
    }
    return cache;
}

const json_writer *static_gzip_find(const static_gzip *cache, const route *r) {
    if (cache == NULL) return NULL;
    const json_writer *body = &cache->bodies[route_index(r)];
    return body->len != 0 ? body : NULL;
}

void static_gzip_destroy(static_gzip *cache) {
    if (cache == NULL) return;
    for (size_t i = 0; i < cache->count; i++) jw_free(&cache->bodies[i]);
    free(cache);
}
