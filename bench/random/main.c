/* Benchmark: shuffling 10,000,000 integers with the core shuffles against a plain Fisher-Yates using
 * rand() % (i+1), and against Fisher-Yates with one Lemire die per element (what the paired dice save).
 * Each figure is the best of several rounds, ours and the peer alternating, in the same process. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/random/bounded_random.h"
#include "core/random/shuffle.h"

enum { N = 10000000, ROUNDS = 5 };

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static uint64_t checksum; /* keeps the work observable */

static void rand_modulo_fisher_yates(uint32_t *a) {
    for (uint32_t i = 0; i < N; i++) a[i] = i;
    for (uint32_t i = N - 1; i >= 1; i--) {
        uint32_t j = (uint32_t)rand() % (i + 1);
        uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static rng seeded_generator;

static void lemire_single_fisher_yates(uint32_t *a) {
    for (uint32_t i = 0; i < N; i++) a[i] = i;
    for (uint32_t i = N - 1; i >= 1; i--) {
        uint32_t j = (uint32_t)bounded_random(&seeded_generator, (uint64_t)i + 1);
        uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static rng secure_generator;
static void core_fisher_yates(uint32_t *a) { shuffle_permutation(SHUFFLE_FISHER_YATES, &seeded_generator, a, N, NULL); }
static void core_inside_out(uint32_t *a) { shuffle_permutation(SHUFFLE_INSIDE_OUT, &seeded_generator, a, N, NULL); }
static void core_secure_fisher_yates(uint32_t *a) { shuffle_permutation(SHUFFLE_FISHER_YATES, &secure_generator, a, N, NULL); }

typedef void (*shuffle_run)(uint32_t *a);

static double time_ms(shuffle_run run, uint32_t *a) {
    double start = now_ms();
    run(a);
    double elapsed = now_ms() - start;
    checksum += a[0] ^ a[N / 2] ^ a[N - 1];
    return elapsed;
}

static void compare(const char *measure, shuffle_run ours, const char *peer_name, shuffle_run peer, uint32_t *a) {
    double best_ours = 1e300, best_peer = 1e300;
    for (int round = 0; round < ROUNDS; round++) {
        double t = time_ms(ours, a);
        if (t < best_ours) best_ours = t;
        t = time_ms(peer, a);
        if (t < best_peer) best_peer = t;
    }
    printf("%s\t%.1f\t%s\t%.1f\tms\tlower\n", measure, best_ours, peer_name, best_peer);
    fflush(stdout);
}

int main(void) {
    uint32_t *a = malloc((size_t)N * sizeof *a);
    if (a == NULL) return 1;
    srand(1);
    rng_seed_u64(&seeded_generator, 1);
    if (!rng_seed_secure(&secure_generator)) return 1;
    compare("shuffle_10M_fisher_yates", core_fisher_yates, "rand()%(i+1) fisher-yates", rand_modulo_fisher_yates, a);
    compare("shuffle_10M_fisher_yates", core_fisher_yates, "one lemire die per element", lemire_single_fisher_yates, a);
    compare("shuffle_10M_inside_out", core_inside_out, "rand()%(i+1) fisher-yates", rand_modulo_fisher_yates, a);
    compare("shuffle_10M_secure_fisher_yates", core_secure_fisher_yates, "rand()%(i+1) fisher-yates",
            rand_modulo_fisher_yates, a);
    fprintf(stderr, "checksum %llu\n", (unsigned long long)checksum);
    free(a);
    return 0;
}
