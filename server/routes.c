/* The routing table (see routes.h). */
#include "server/routes.h"

#include <stdio.h>
#include <string.h>

#include "server/metrics.h"

static const route routes[] = {
    {"/shuffle", METHOD_GET | METHOD_POST, &shuffle_endpoint, ON_WORKER},
    {"/permutations", METHOD_GET | METHOD_POST, &permutations_endpoint, ON_WORKER},
    {"/permutation/rank", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &permutation_rank_endpoint, ON_WORKER},
    {"/permutation/unrank", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &permutation_unrank_endpoint, ON_WORKER},
    {"/queens", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &queens_endpoint, ON_WORKER},
    {"/knight-tour", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &knight_tour_endpoint, ON_WORKER},
    {"/word-ladder", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &word_ladder_endpoint, ON_WORKER},
    {"/queens/verify", METHOD_POST, &queens_verify_endpoint, ON_WORKER},
    {"/knight-tour/verify", METHOD_POST, &knight_tour_verify_endpoint, ON_WORKER},
    {"/word-ladder/verify", METHOD_POST, &word_ladder_verify_endpoint, ON_WORKER},
    {"/word-ladder/neighbours", METHOD_GET | METHOD_POST, &word_ladder_neighbours_endpoint, ON_WORKER},
    {"/word-ladder/puzzle", METHOD_GET | METHOD_POST, &word_ladder_puzzle_endpoint, ON_WORKER},
    {"/combinations", METHOD_GET | METHOD_POST, &combinations_endpoint, ON_WORKER},
    {"/combination/rank", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &combination_rank_endpoint, ON_WORKER},
    {"/combination/unrank", METHOD_GET | METHOD_POST | ROUTE_PROGRESS, &combination_unrank_endpoint, ON_WORKER},
    {"/sudoku/generate", METHOD_GET | METHOD_POST, &sudoku_generate_endpoint, ON_WORKER},
    {"/sudoku/solve", METHOD_GET | METHOD_POST | ROUTE_TEXT_BODY | ROUTE_PROGRESS, &sudoku_solve_endpoint, ON_WORKER},
    {"/sudoku/check", METHOD_GET | METHOD_POST, &sudoku_check_endpoint, ON_WORKER},
    {"/sudoku/hint", METHOD_GET | METHOD_POST, &sudoku_hint_endpoint, ON_WORKER},
    {"/sudoku/explain", METHOD_GET | METHOD_POST, &sudoku_explain_endpoint, ON_WORKER},
    {"/healthz", METHOD_GET, &health_endpoint, ON_IO_THREAD},
    {"/readyz", METHOD_GET, &readiness_endpoint, ON_IO_THREAD},
    {"/openapi.yaml", METHOD_GET, &openapi_endpoint, ON_IO_THREAD},
    {"/metrics", METHOD_GET, &metrics_endpoint, ON_IO_THREAD},
    {"/", METHOD_GET, &web_playground_endpoint, ON_IO_THREAD},
    {"/docs", METHOD_GET, &web_docs_endpoint, ON_IO_THREAD},
    {"/playground.css", METHOD_GET, &web_playground_css_endpoint, ON_IO_THREAD},
    {"/playground.js", METHOD_GET, &web_playground_js_endpoint, ON_IO_THREAD},
    {"/answers.js", METHOD_GET, &web_answers_js_endpoint, ON_IO_THREAD},
    {"/pictures.js", METHOD_GET, &web_pictures_js_endpoint, ON_IO_THREAD},
    {"/play.js", METHOD_GET, &web_play_js_endpoint, ON_IO_THREAD},
    {"/markdown.js", METHOD_GET, &web_markdown_js_endpoint, ON_IO_THREAD},
    {"/spec-worker.js", METHOD_GET, &web_spec_worker_js_endpoint, ON_IO_THREAD},
    {"/docs.css", METHOD_GET, &web_docs_css_endpoint, ON_IO_THREAD},
    {"/vendor/js-yaml.js", METHOD_GET, &web_js_yaml_endpoint, ON_IO_THREAD},
    {"/vendor/puzzled-client.js", METHOD_GET, &web_puzzled_client_endpoint, ON_IO_THREAD},
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
