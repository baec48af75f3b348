/* The routing table (see routes.h). */
#include "server/routes.h"

#include <stdio.h>
#include <string.h>

static const route routes[] = {
    {"/shuffle", METHOD_GET | METHOD_POST, &shuffle_endpoint},
    {"/permutations", METHOD_GET | METHOD_POST, &permutations_endpoint},
    {"/permutation/rank", METHOD_GET | METHOD_POST, &permutation_rank_endpoint},
    {"/permutation/unrank", METHOD_GET | METHOD_POST, &permutation_unrank_endpoint},
    {"/queens", METHOD_GET | METHOD_POST, &queens_endpoint},
    {"/knight-tour", METHOD_GET | METHOD_POST, &knight_tour_endpoint},
    {"/word-ladder", METHOD_GET | METHOD_POST, &word_ladder_endpoint},
    {"/sudoku/generate", METHOD_GET | METHOD_POST, &sudoku_generate_endpoint},
    {"/sudoku/solve", METHOD_GET | METHOD_POST | ROUTE_TEXT_BODY, &sudoku_solve_endpoint},
    {"/sudoku/check", METHOD_GET | METHOD_POST, &sudoku_check_endpoint},
    {"/sudoku/hint", METHOD_GET | METHOD_POST, &sudoku_hint_endpoint},
    {"/sudoku/explain", METHOD_GET | METHOD_POST, &sudoku_explain_endpoint},
    {"/healthz", METHOD_GET, &health_endpoint},
    {"/openapi.yaml", METHOD_GET, &openapi_endpoint},
};
enum { ROUTE_COUNT = sizeof routes / sizeof routes[0] };

const route *route_find(const char *path) {
    for (int i = 0; i < ROUTE_COUNT; i++) {
        if (strcmp(routes[i].path, path) == 0) return &routes[i];
    }
    return NULL;
}

unsigned route_method_bit(const char *method) {
    if (strcmp(method, "GET") == 0) return METHOD_GET;
    if (strcmp(method, "POST") == 0) return METHOD_POST;
    return 0;
}

void route_allow_header(const route *r, char *out, size_t size) {
    snprintf(out, size, "%s%sOPTIONS", (r->methods & METHOD_GET) ? "GET, " : "",
             (r->methods & METHOD_POST) ? "POST, " : "");
}

void route_list_paths(char *out, size_t size) {
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < ROUTE_COUNT && used < size; i++) {
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", routes[i].path);
    }
}
