/* Warnsdorff's rule: always move to the square with the fewest onward moves. Ties are broken by the
 * larger distance from the centre (Arnd Roth's rule, which keeps the walk on the rim until the rim is
 * done), and remaining ties by a seeded pseudo-random order so that retries take different walks.
 * Linear time and memory: two bytes per square. */
#include <stdlib.h>

#include "core/knight/knight_tour_internal.h"

static uint64_t next_random(uint64_t *state) { /* splitmix64 */
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

core_status kt_warnsdorff_walk(int rows, int cols, uint32_t start, bool closed, uint64_t seed, uint32_t *path,
                               bool *covered) {
    uint32_t n = (uint32_t)rows * (uint32_t)cols, nb[8];
    uint8_t *degree = malloc(n);
    if (degree == NULL) return CORE_NO_MEMORY;
    for (uint32_t v = 0; v < n; v++) degree[v] = (uint8_t)kt_neighbours(rows, cols, v, nb);
    const uint8_t visited = 0xFF;
    uint64_t random_state = seed;
    uint32_t v = start, length = 0;
    for (;;) {
        path[length++] = v;
        degree[v] = visited;
        int k = kt_neighbours(rows, cols, v, nb);
        for (int i = 0; i < k; i++)
            if (degree[nb[i]] != visited) degree[nb[i]]--;
        if (length == n) break;
        uint32_t best = KT_NONE_SQUARE;
        int64_t best_distance = 0;
        uint64_t best_key = 0;
        for (int i = 0; i < k; i++) {
            uint32_t w = nb[i];
            if (degree[w] == visited) continue;
            int64_t dr = 2 * (int64_t)(w / (uint32_t)cols) - (rows - 1);
            int64_t dc = 2 * (int64_t)(w % (uint32_t)cols) - (cols - 1);
            int64_t distance = dr * dr + dc * dc;
            uint64_t key = seed != 0 ? next_random(&random_state) : 0;
            bool better = best == KT_NONE_SQUARE || degree[w] < degree[best] ||
                          (degree[w] == degree[best] &&
                           (distance > best_distance || (distance == best_distance && key > best_key)));
            if (better) {
                best = w;
                best_distance = distance;
                best_key = key;
            }
        }
        if (best == KT_NONE_SQUARE) break;
        v = best;
    }
    free(degree);
    *covered = length == n && (!closed || kt_is_knight_move(cols, path[n - 1], start));
    return CORE_OK;
}
