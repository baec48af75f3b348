/* The routing table (see routes.h). */
#include "server/routes.h"

#include <stdio.h>
#include <string.h>

#include "server/metrics.h"

/* What a route's answers can be (errors are JSON on every route), in the order that breaks a tie of
 * Accept's preferences: JSON answers; NDJSON for the lists (api_respond_stream with req->ndjson);
 * bulk Sudoku's text lines (ROUTE_TEXT_BODY); events where the route follows progress
 * (ROUTE_PROGRESS); SVG where a `format` draws a board; the service's files by their content type
 * (api/service/). */
#define SVG "image/svg+xml"
static const char *const json[] = {MEDIA_JSON, NULL};
static const char *const json_lines[] = {MEDIA_JSON, MEDIA_NDJSON, NULL};
static const char *const json_events[] = {MEDIA_JSON, MEDIA_EVENTS, NULL};
static const char *const json_lines_events[] = {MEDIA_JSON, MEDIA_NDJSON, MEDIA_EVENTS, NULL};
static const char *const json_svg[] = {MEDIA_JSON, SVG, NULL};
static const char *const boards[] = {MEDIA_JSON, MEDIA_NDJSON, MEDIA_EVENTS, SVG, NULL};
static const char *const sudoku_solve[] = {MEDIA_JSON, MEDIA_NDJSON, MEDIA_TEXT, MEDIA_EVENTS, SVG, NULL};
static const char *const yaml[] = {"application/yaml", NULL};
static const char *const metrics_text[] = {MEDIA_TEXT, NULL};
static const char *const html[] = {"text/html", NULL};
static const char *const css[] = {"text/css", NULL};
static const char *const script[] = {"text/javascript", NULL};

static const route routes[] = {
    {"/shuffle", METHOD_GET | METHOD_POST, &shuffle_endpoint, ON_WORKER, json_lines},
    {"/permutations", METHOD_GET | METHOD_POST, &permutations_endpoint, ON_WORKER, json_lines},
    {"/permutation/rank", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &permutation_rank_endpoint, ON_WORKER,
     json_events},
    {"/permutation/unrank", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &permutation_unrank_endpoint, ON_WORKER,
     json_events},
    {"/queens", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &queens_endpoint, ON_WORKER, boards},
    {"/knight-tour", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &knight_tour_endpoint, ON_WORKER, boards},
    {"/word-ladder", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &word_ladder_endpoint, ON_WORKER, json_lines_events},
    {"/queens/verify", METHOD_POST, &queens_verify_endpoint, ON_WORKER, json},
    {"/knight-tour/verify", METHOD_POST, &knight_tour_verify_endpoint, ON_WORKER, json},
    {"/word-ladder/verify", METHOD_POST, &word_ladder_verify_endpoint, ON_WORKER, json},
    {"/word-ladder/neighbours", METHOD_GET | METHOD_POST, &word_ladder_neighbours_endpoint, ON_WORKER, json},
    {"/word-ladder/puzzle", METHOD_GET | METHOD_POST, &word_ladder_puzzle_endpoint, ON_WORKER, json},
    {"/combinations", METHOD_GET | METHOD_POST, &combinations_endpoint, ON_WORKER, json_lines},
    {"/combination/rank", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &combination_rank_endpoint, ON_WORKER,
     json_events},
    {"/combination/unrank", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &combination_unrank_endpoint, ON_WORKER,
     json_events},
    {"/sudoku/generate", METHOD_GET | METHOD_POST, &sudoku_generate_endpoint, ON_WORKER, json_svg},
    {"/sudoku/solve", METHOD_GET | METHOD_POST | ROUTE_TEXT_BODY | ROUTE_PROGRESS, &sudoku_solve_endpoint, ON_WORKER,
     sudoku_solve},
    {"/sudoku/check", METHOD_GET | METHOD_POST, &sudoku_check_endpoint, ON_WORKER, json},
    {"/sudoku/hint", METHOD_GET | METHOD_POST, &sudoku_hint_endpoint, ON_WORKER, json},
    {"/sudoku/explain", METHOD_GET | METHOD_POST, &sudoku_explain_endpoint, ON_WORKER, json},
    {"/healthz", METHOD_GET, &health_endpoint, ON_IO_THREAD, json},
    {"/readyz", METHOD_GET, &readiness_endpoint, ON_IO_THREAD, json},
    {"/openapi.yaml", METHOD_GET, &openapi_endpoint, ON_IO_THREAD, yaml},
    {"/metrics", METHOD_GET, &metrics_endpoint, ON_IO_THREAD, metrics_text},
    {"/", METHOD_GET, &web_playground_endpoint, ON_IO_THREAD, html},
    {"/docs", METHOD_GET, &web_docs_endpoint, ON_IO_THREAD, html},
    {"/playground.css", METHOD_GET, &web_playground_css_endpoint, ON_IO_THREAD, css},
    {"/playground.js", METHOD_GET, &web_playground_js_endpoint, ON_IO_THREAD, script},
    {"/answers.js", METHOD_GET, &web_answers_js_endpoint, ON_IO_THREAD, script},
    {"/pictures.js", METHOD_GET, &web_pictures_js_endpoint, ON_IO_THREAD, script},
    {"/play.js", METHOD_GET, &web_play_js_endpoint, ON_IO_THREAD, script},
    {"/markdown.js", METHOD_GET, &web_markdown_js_endpoint, ON_IO_THREAD, script},
    {"/spec-worker.js", METHOD_GET, &web_spec_worker_js_endpoint, ON_IO_THREAD, script},
    {"/docs.css", METHOD_GET, &web_docs_css_endpoint, ON_IO_THREAD, css},
    {"/vendor/js-yaml.js", METHOD_GET, &web_js_yaml_endpoint, ON_IO_THREAD, script},
    {"/vendor/puzzled-client.js", METHOD_GET, &web_puzzled_client_endpoint, ON_IO_THREAD, script},
};
enum { ROUTE_COUNT = sizeof routes / sizeof routes[0] };

const route *route_find(const char *path) {
    for (int i = 0; i < ROUTE_COUNT; i++) {
        if (strcmp(routes[i].path, path) == 0) return &routes[i];
    }
    return NULL;
}

size_t route_count(void) { return ROUTE_COUNT; }

const route *route_at(size_t index) { return &routes[index]; }

size_t route_index(const route *r) { return (size_t)(r - routes); }

unsigned route_method_bit(const char *method) {
    /* HEAD is GET without the body (RFC 9110 9.3.2); libmicrohttpd leaves the body out */
    if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0) return METHOD_GET;
    if (strcmp(method, "POST") == 0) return METHOD_POST;
    return 0;
}

void route_allow_header(const route *r, char *out, size_t size) {
    snprintf(out, size, "%s%sOPTIONS", (r->methods & METHOD_GET) ? "GET, HEAD, " : "",
             (r->methods & METHOD_POST) ? "POST, " : "");
}

void route_list_paths(char *out, size_t size) {
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < ROUTE_COUNT && used < size; i++) {
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", routes[i].path);
    }
}
