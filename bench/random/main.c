/* Benchmark: shuffling 10,000,000 integers with the core shuffles against a plain Fisher-Yates using
 * rand() % (i+1), and against Fisher-Yates with one Lemire die per element (what the paired dice save).
 * Each figure is the best of several rounds, ours and the peer alternating, in the same process.
 * With `curve`: the scaling curve from 10^3 to 10^7 items against the rand() peer (bench/lib/curve.h).
 * The core shuffles' helper tasks (the identity written in two halves, the dice drawn ahead) run on a
 * compute pool of one worker per core, as in the server (bench/lib/compute_pool_install.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../lib/compute_pool_install.h"
#include "../lib/curve.h"
#include "core/random/bounded_random.h"
#include "core/random/shuffle.h"

enum { N = 10000000, ROUNDS = 5 };

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static uint64_t checksum; /* keeps the work observable */

static void rand_modulo_fisher_yates(uint32_t *a, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) a[i] = i;
    for (uint32_t i = n - 1; i >= 1; i--) {
        uint32_t j = (uint32_t)rand() % (i + 1);
        uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static rng seeded_generator;

static void lemire_single_fisher_yates(uint32_t *a, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) a[i] = i;
    for (uint32_t i = n - 1; i >= 1; i--) {
        uint32_t j = (uint32_t)bounded_random(&seeded_generator, (uint64_t)i + 1);
        uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static rng secure_generator;
static void core_fisher_yates(uint32_t *a, uint32_t n) {
    shuffle_permutation(SHUFFLE_FISHER_YATES, &seeded_generator, a, n, NULL);
}
static void core_inside_out(uint32_t *a, uint32_t n) {
    shuffle_permutation(SHUFFLE_INSIDE_OUT, &seeded_generator, a, n, NULL);
}
static void core_secure_fisher_yates(uint32_t *a, uint32_t n) {
    shuffle_permutation(SHUFFLE_FISHER_YATES, &secure_generator, a, n, NULL);
}

typedef void (*shuffle_run)(uint32_t *a, uint32_t n);

static double time_ms(shuffle_run run, uint32_t *a, uint32_t n) {
    double start = now_ms();
    run(a, n);
    double elapsed = now_ms() - start;
    checksum += a[0] ^ a[n / 2] ^ a[n - 1];
    return elapsed;
}

static void compare(const char *measure, shuffle_run ours, const char *peer_name, shuffle_run peer, uint32_t *a) {
    double best_ours = 1e300, best_peer = 1e300;
    for (int round = 0; round < ROUNDS; round++) {
        double t = time_ms(ours, a, N);
        if (t < best_ours) best_ours = t;
        t = time_ms(peer, a, N);
        if (t < best_peer) best_peer = t;
    }
    printf("%s\t%.1f\t%s\t%.1f\tms\tlower\n", measure, best_ours, peer_name, best_peer);
    fflush(stdout);
}

/* Milliseconds per shuffle of n items: the median of 5 timings, ours and the peer alternating, each
 * timing enough shuffles (at least about 10 ms of work) for the clock to resolve. */
static void curve_pair(uint32_t *a, uint32_t n, double *ours, double *peer) {
    int batch = (int)(10000000 / n) + 1; /* about 10 ms at 1 ns per item */
    double ours_times[5], peer_times[5];
    for (int r = 0; r < 5; r++) {
        double start = curve_now_seconds();
        for (int b = 0; b < batch; b++) core_fisher_yates(a, n);
        ours_times[r] = (curve_now_seconds() - start) / batch;
        start = curve_now_seconds();
        for (int b = 0; b < batch; b++) rand_modulo_fisher_yates(a, n);
        peer_times[r] = (curve_now_seconds() - start) / batch;
        checksum += a[0];
    }
    *ours = curve_median(ours_times, 5);
    *peer = curve_median(peer_times, 5);
}

/* The scaling curve: n = 10^3 .. 10^7, three points a decade. */
static void curve(uint32_t *a) {
    for (double n = 1000; n <= N * 1.01; n *= 3.1622776601683795) {
        double ours, peer;
        curve_pair(a, (uint32_t)(n + 0.5), &ours, &peer);
        curve_point("shuffle", (double)(uint32_t)(n + 0.5), ours, peer, "rand()%(i+1) Fisher-Yates");
    }
}

int main(int argc, char **argv) {
    uint32_t *a = malloc((size_t)N * sizeof *a);
    if (a == NULL) return 1;
    if (!compute_pool_install_per_core()) return 1;
    srand(1);
    rng_seed_u64(&seeded_generator, 1);
    if (!rng_seed_secure(&secure_generator)) return 1;
    if (curve_mode(argc, argv)) {
        curve(a);
        free(a);
        return 0;
    }
    compare("shuffle_10M_fisher_yates", core_fisher_yates, "rand()%(i+1) fisher-yates", rand_modulo_fisher_yates, a);
    compare("shuffle_10M_fisher_yates", core_fisher_yates, "one lemire die per element", lemire_single_fisher_yates, a);
    compare("shuffle_10M_inside_out", core_inside_out, "rand()%(i+1) fisher-yates", rand_modulo_fisher_yates, a);
    compare("shuffle_10M_secure_fisher_yates", core_secure_fisher_yates, "rand()%(i+1) fisher-yates",
            rand_modulo_fisher_yates, a);
    fprintf(stderr, "checksum %llu\n", (unsigned long long)checksum);
    free(a);
    return 0;
}
