/* The limits the endpoints enforce, owned by api/ and filled by server/ at start-up from its
 * configuration (server/config.c). Keeping them here is what lets api/ be built and tested without
 * server/: a test fills an api_limits by hand. */
#ifndef PUZZLED_API_LIMITS_H
#define PUZZLED_API_LIMITS_H

#include <stdint.h>

typedef struct api_limits {
    unsigned time_limit_ms;     /* longest computation; a request may ask for less with time_limit_ms */
    uint64_t max_shuffle_items; /* largest n or item count for /shuffle */
    uint64_t max_queens_n;      /* largest n for /queens mode "first" */
    uint64_t max_board_squares; /* largest rows*cols for /knight-tour */
    uint64_t max_rank_items;    /* most items for /permutations, /combinations and their /rank and /unrank */
    uint64_t default_page;      /* most entries a JSON list answer holds when its request names no limit */
} api_limits;

#endif
