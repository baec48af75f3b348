/* Every endpoint the server routes to (one api/ file each), and the start-up hooks some need. */
#ifndef PUZZLED_API_ENDPOINTS_H
#define PUZZLED_API_ENDPOINTS_H

#include "api/api.h"

extern const api_endpoint health_endpoint;                 /* api/service/health.c */
extern const api_endpoint readiness_endpoint;              /* api/service/readiness.c */
extern const api_endpoint openapi_endpoint;                /* api/service/openapi_document.c */
extern const api_endpoint shuffle_endpoint;                /* api/random/shuffle.c */
extern const api_endpoint permutations_endpoint;           /* api/permutations/permutations.c */
extern const api_endpoint permutation_rank_endpoint;       /* api/permutations/permutation_rank.c */
extern const api_endpoint permutation_unrank_endpoint;     /* api/permutations/permutation_unrank.c */
extern const api_endpoint queens_endpoint;                 /* api/queens/queens.c */
extern const api_endpoint queens_verify_endpoint;          /* api/queens/queens_verify.c */
extern const api_endpoint knight_tour_endpoint;            /* api/knight/knight_tour.c */
extern const api_endpoint knight_tour_verify_endpoint;     /* api/knight/knight_tour_verify.c */
extern const api_endpoint word_ladder_endpoint;            /* api/ladder/word_ladder.c */
extern const api_endpoint combinations_endpoint;           /* api/combinations/combinations.c */
extern const api_endpoint combination_rank_endpoint;       /* api/combinations/combination_rank.c */
extern const api_endpoint combination_unrank_endpoint;     /* api/combinations/combination_unrank.c */
extern const api_endpoint word_ladder_verify_endpoint;     /* api/ladder/word_ladder_verify.c */
extern const api_endpoint word_ladder_neighbours_endpoint; /* api/ladder/word_ladder_neighbours.c */
extern const api_endpoint word_ladder_puzzle_endpoint;     /* api/ladder/word_ladder_puzzle.c */
extern const api_endpoint sudoku_generate_endpoint;        /* api/sudoku/sudoku_generate.c */
extern const api_endpoint sudoku_solve_endpoint;           /* api/sudoku/sudoku_solve.c */
extern const api_endpoint sudoku_check_endpoint;           /* api/sudoku/sudoku_check.c */
extern const api_endpoint sudoku_hint_endpoint;            /* api/sudoku/sudoku_steps.c */
extern const api_endpoint sudoku_explain_endpoint;         /* api/sudoku/sudoku_steps.c */
/* api/service/web_pages.c: the playground, the API reference and the files they load */
extern const api_endpoint web_playground_endpoint, web_docs_endpoint, web_playground_css_endpoint,
    web_playground_js_endpoint, web_answers_js_endpoint, web_pictures_js_endpoint, web_docs_css_endpoint,
    web_js_yaml_endpoint, web_puzzled_client_endpoint, web_play_js_endpoint, web_markdown_js_endpoint,
    web_spec_worker_js_endpoint;

/* Loads the built-in word-ladder dictionary once at start-up (api/ladder/word_ladder_words.c). Returns false, after
 * printing why on stderr, when it cannot; /word-ladder then needs a request dictionary. */
bool word_ladder_load_dictionary(const char *path);
/* Loads the union of the ':'-separated word lists `paths` as the dictionary "common", the same way. */
bool word_ladder_load_common_dictionary(const char *paths);
/* Frees both. */
void word_ladder_unload_dictionary(void);

/* Times the cost models of the endpoints that refuse hopeless work at once (api/cost_estimates.c): once
 * at start-up, before serving. */
void api_calibrate_costs(void);

#endif
