/* The fixed seed stream of /shuffle: splitmix64 and ChaCha20 against published vectors, the whole
 * pipeline seed -> xoshiro256** -> paired dice -> permutation against an independent Python
 * implementation run at test time, reproducibility, and fresh randomness without a seed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/random/bounded_random.h"
#include "core/random/dice_relay.h"
#include "core/random/rng.h"
#include "core/random/sample.h"
#include "core/random/shuffle.h"

/* The independent Python reference (tests/unit/core/random/shuffle_reference.py). */
static const char *reference_path(void) {
    static char path[4096];
    const char *source = getenv("PUZZLED_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tests/unit/core/random/shuffle_reference.py", source ? source : ".");
    return path;
}

/* Runs the reference with `args` and returns its output (malloc'd). */
static char *run_reference(const char *args) {
    char command[8192];
    snprintf(command, sizeof command, "python3 %s %s", reference_path(), args);
    FILE *pipe = popen(command, "r");
    cr_assert(pipe != NULL);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    for (size_t got; (got = fread(out + len, 1, cap - len - 1, pipe)) > 0;) {
        len += got;
        if (cap - len < 2) out = realloc(out, cap *= 2);
    }
    out[len] = '\0';
    cr_assert_eq(pclose(pipe), 0, "the Python reference failed: %s", command);
    return out;
}

/* Appends the numbers as one space-separated line, like the reference prints them. */
static void append_line(char **text, size_t *len, size_t *cap, const uint64_t *values, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (*cap - *len < 32) *text = realloc(*text, *cap = *cap * 2 + 64);
        *len += (size_t)sprintf(*text + *len, i + 1 < count ? "%llu " : "%llu\n", (unsigned long long)values[i]);
    }
    if (count == 0) {
        if (*cap - *len < 2) *text = realloc(*text, *cap = *cap * 2 + 64);
        *len += (size_t)sprintf(*text + *len, "\n");
    }
}

static void seed_from_text(rng *r, const char *seed) {
    if (strlen(seed) == 64) {
        uint64_t state[4];
        for (int i = 0; i < 4; i++) {
            char word[17];
            memcpy(word, seed + 16 * i, 16);
            word[16] = '\0';
            state[i] = strtoull(word, NULL, 16);
        }
        cr_assert(rng_seed_state(r, state));
    } else {
        rng_seed_u64(r, strtoull(seed, NULL, 10));
    }
}

/* Our output for one job, and the job's text for the reference. */
typedef struct comparison {
    char *ours, *jobs;
    size_t ours_len, ours_cap, jobs_len, jobs_cap;
} comparison;

static void add_shuffles(comparison *c, const char *algorithm_name, shuffle_algorithm algorithm, const char *seed,
                         size_t n, size_t count) {
    rng r;
    seed_from_text(&r, seed);
    uint32_t *perm = malloc((n + 1) * sizeof *perm);
    uint64_t *wide = malloc((n + 1) * sizeof *wide);
    for (size_t k = 0; k < count; k++) {
        cr_assert_eq(shuffle_permutation(algorithm, &r, perm, n, NULL), CORE_OK);
        for (size_t i = 0; i < n; i++) wide[i] = perm[i];
        append_line(&c->ours, &c->ours_len, &c->ours_cap, wide, n);
    }
    if (c->jobs_cap - c->jobs_len < 128) c->jobs = realloc(c->jobs, c->jobs_cap = c->jobs_cap * 2 + 4096);
    c->jobs_len += (size_t)sprintf(c->jobs + c->jobs_len, " shuffle:%s:%s:%zu:%zu", seed, algorithm_name, n, count);
    free(wide);
    free(perm);
}

static void expect_reference(comparison *c) {
    char *expected = run_reference(c->jobs);
    cr_assert_str_eq(c->ours, expected, "differs from the reference for%s", c->jobs);
    free(expected);
    free(c->ours);
    free(c->jobs);
}

static const char *const seeds[] = {
    "0",
    "42",
    "18446744073709551615",
    "9007199254740993",
    "0123456789abcdeffedcba9876543210000000000000000180000000000000a5",
};

static void check_algorithm(const char *name, shuffle_algorithm algorithm, size_t large_n) {
    comparison c = {0};
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        for (size_t n = 0; n <= 9; n++)
            if (n != 1 || algorithm != SHUFFLE_DERANGEMENT) add_shuffles(&c, name, algorithm, seeds[s], n, 3);
        add_shuffles(&c, name, algorithm, seeds[s], large_n, 2);
    }
    expect_reference(&c);
}

Test(shuffle_stream, fisher_yates_matches_reference) { check_algorithm("fisher-yates", SHUFFLE_FISHER_YATES, 1000); }

Test(shuffle_stream, inside_out_matches_reference) { check_algorithm("inside-out", SHUFFLE_INSIDE_OUT, 1001); }

Test(shuffle_stream, naive_matches_reference) { check_algorithm("naive", SHUFFLE_NAIVE, 999); }

Test(shuffle_stream, derangement_matches_reference) { check_algorithm("derangement", SHUFFLE_DERANGEMENT, 1000); }

Test(shuffle_stream, cycle_matches_reference) { check_algorithm("cycle", SHUFFLE_CYCLE, 1001); }

/* From DICE_RELAY_MIN_STEPS pairs of steps the dice are drawn on a helper thread (dice_relay.h): long
 * shuffles, two in a row from one generator (the second starts from the state the first left), against
 * the reference, for both algorithms that take their dice in pairs from the top. */
Test(shuffle_stream, relayed_dice_match_reference) {
    comparison c = {0};
    size_t n = 2 * DICE_RELAY_MIN_STEPS + 2 * DICE_RELAY_BATCH_PAIRS + 5; /* several batches and a short one */
    add_shuffles(&c, "fisher-yates", SHUFFLE_FISHER_YATES, "42", n, 2);
    add_shuffles(&c, "cycle", SHUFFLE_CYCLE, "9007199254740993", n + 1, 2);
    expect_reference(&c);
}

static void add_samples(comparison *c, const char *seed, uint64_t n, size_t k, size_t count) {
    rng r;
    seed_from_text(&r, seed);
    uint32_t *picks = malloc((k + 1) * sizeof *picks);
    uint64_t *wide = malloc((k + 1) * sizeof *wide);
    for (size_t round = 0; round < count; round++) {
        cr_assert_eq(shuffle_sample(&r, picks, n, k, NULL), CORE_OK);
        for (size_t i = 0; i < k; i++) wide[i] = picks[i];
        append_line(&c->ours, &c->ours_len, &c->ours_cap, wide, k);
    }
    if (c->jobs_cap - c->jobs_len < 128) c->jobs = realloc(c->jobs, c->jobs_cap = c->jobs_cap * 2 + 4096);
    c->jobs_len +=
        (size_t)sprintf(c->jobs + c->jobs_len, " sample:%s:%llu:%zu:%zu", seed, (unsigned long long)n, k, count);
    free(wide);
    free(picks);
}

Test(shuffle_stream, sample_matches_reference) {
    comparison c = {0};
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        for (size_t n = 0; n <= 7; n++)
            for (size_t k = 0; k <= n; k++) add_samples(&c, seeds[s], n, k, 2);
        add_samples(&c, seeds[s], 1000, 999, 1);
        add_samples(&c, seeds[s], 1000, 333, 1);
        add_samples(&c, seeds[s], SHUFFLE_MAX_N, 1001, 2);
        add_samples(&c, seeds[s], 1000000000, 1000, 2);
    }
    expect_reference(&c);
}

/* A sample of all n is the Fisher-Yates shuffle of the same seed read backwards. */
Test(shuffle_stream, full_sample_is_fisher_yates_backwards) {
    for (size_t n = 0; n <= 40; n++) {
        uint32_t shuffled[40], picked[40];
        rng a, b;
        rng_seed_u64(&a, 500 + n);
        rng_seed_u64(&b, 500 + n);
        shuffle_permutation(SHUFFLE_FISHER_YATES, &a, shuffled, n, NULL);
        cr_assert_eq(shuffle_sample(&b, picked, n, n, NULL), CORE_OK);
        for (size_t i = 0; i < n; i++) cr_assert_eq(picked[i], shuffled[n - 1 - i], "n %zu position %zu", n, i);
    }
}

/* Bounds whose product is just above 2^63 make about half the words fall in the rejected region, so
 * the slow paths run often and must agree with the reference draw for draw. */
Test(shuffle_stream, rejection_paths_match_reference) {
    enum { DRAWS = 2000 };
    const uint64_t b1 = 3037000500u, b2 = 3037000500u, single = (UINT64_C(1) << 63) + 1;
    rng r;
    rng_seed_u64(&r, 7);
    char *ours = NULL;
    size_t len = 0, cap = 0;
    for (int i = 0; i < DRAWS; i++) {
        uint64_t pair[2];
        bounded_random_pair(&r, b1, b2, &pair[0], &pair[1]);
        cr_assert(pair[0] < b1 && pair[1] < b2);
        append_line(&ours, &len, &cap, pair, 2);
    }
    char *expected = run_reference("dice:7:3037000500:3037000500:2000");
    cr_assert_str_eq(ours, expected);
    free(expected);

    rng_seed_u64(&r, 8);
    len = 0;
    for (int i = 0; i < DRAWS; i++) {
        uint64_t value = bounded_random(&r, single);
        cr_assert(value < single);
        append_line(&ours, &len, &cap, &value, 1);
    }
    expected = run_reference("dice:8:9223372036854775809:2000");
    cr_assert_str_eq(ours, expected);
    free(expected);
    free(ours);
}

/* Published splitmix64 outputs (seed 0, and seed 1234567 as used in the xoshiro reference docs). */
Test(shuffle_stream, splitmix64_seeding_matches_published_values) {
    rng r;
    rng_seed_u64(&r, 0);
    cr_assert_eq(r.state[0], UINT64_C(0xe220a8397b1dcdaf));
    rng_seed_u64(&r, 1234567);
    const uint64_t expected[4] = {UINT64_C(6457827717110365317), UINT64_C(3203168211198807973),
                                  UINT64_C(9817491932198370423), UINT64_C(4593380528125082431)};
    for (int i = 0; i < 4; i++) cr_assert_eq(r.state[i], expected[i]);
}

Test(shuffle_stream, all_zero_state_is_refused) {
    rng r;
    const uint64_t zero[4] = {0, 0, 0, 0}, one[4] = {0, 0, 0, 1};
    cr_assert_not(rng_seed_state(&r, zero));
    cr_assert(rng_seed_state(&r, one));
}

/* Compares the next 8 words of `r` with 64 keystream bytes given in hex. */
static void expect_keystream(rng *r, const char *hex) {
    for (int w = 0; w < 8; w++) {
        uint64_t expected = 0;
        for (int b = 0; b < 8; b++) {
            unsigned byte;
            cr_assert_eq(sscanf(hex + 16 * w + 2 * b, "%2x", &byte), 1);
            expected |= (uint64_t)byte << (8 * b);
        }
        cr_assert_eq(rng_next(r), expected, "keystream word %d", w);
    }
}

/* RFC 8439 appendix A.1, test vectors 1, 2 (zero key, blocks 0 and 1) and 4 (key 00 ff 00 ..., block 2). */
Test(shuffle_stream, chacha20_matches_rfc8439_vectors) {
    rng r;
    uint8_t key[32] = {0};
    rng_seed_chacha(&r, key);
    expect_keystream(&r, "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
                         "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586");
    expect_keystream(&r, "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
                         "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f");
    key[1] = 0xff;
    rng_seed_chacha(&r, key);
    for (int i = 0; i < 16; i++) rng_next(&r);
    expect_keystream(&r, "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca"
                         "13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096");
}

Test(shuffle_stream, same_seed_same_shuffles_other_seed_other_shuffles) {
    enum { N = 200 };
    uint32_t a[N], b[N], c[N];
    rng first, second, other;
    rng_seed_u64(&first, 123);
    rng_seed_u64(&second, 123);
    rng_seed_u64(&other, 124);
    for (int round = 0; round < 3; round++) {
        shuffle_permutation(SHUFFLE_FISHER_YATES, &first, a, N, NULL);
        shuffle_permutation(SHUFFLE_FISHER_YATES, &second, b, N, NULL);
        shuffle_permutation(SHUFFLE_FISHER_YATES, &other, c, N, NULL);
        cr_assert_arr_eq(a, b, sizeof a);
        cr_assert(memcmp(a, c, sizeof a) != 0);
    }
}

/* Huge-page advice changes nothing but the pages: an advised array of 3,000,000 values (its aligned
 * 2 MiB blocks advised) gets the same shuffle from a seed as a plain one. */
Test(shuffle_stream, memory_advice_keeps_the_shuffle) {
    enum { N = 3000000 };
    uint32_t *advised = malloc(N * sizeof *advised), *plain = malloc(N * sizeof *plain);
    cr_assert(advised != NULL && plain != NULL);
    shuffle_advise_memory(advised, N);
    rng first, second;
    rng_seed_u64(&first, 99);
    rng_seed_u64(&second, 99);
    cr_assert_eq(shuffle_permutation(SHUFFLE_FISHER_YATES, &first, advised, N, NULL), CORE_OK);
    cr_assert_eq(shuffle_permutation(SHUFFLE_FISHER_YATES, &second, plain, N, NULL), CORE_OK);
    cr_assert(memcmp(advised, plain, N * sizeof *plain) == 0);
    free(advised);
    free(plain);
}

/* Without a seed: fresh seeds differ, and two secure generators give different shuffles. The chance
 * that this fails by luck is 2^-64 and 1/200!. */
Test(shuffle_stream, unseeded_generators_are_independent) {
    uint64_t s1, s2;
    cr_assert(rng_fresh_seed(&s1));
    cr_assert(rng_fresh_seed(&s2));
    cr_assert_neq(s1, s2);
    enum { N = 200 };
    uint32_t a[N], b[N];
    rng r1, r2;
    cr_assert(rng_seed_secure(&r1));
    cr_assert(rng_seed_secure(&r2));
    shuffle_permutation(SHUFFLE_FISHER_YATES, &r1, a, N, NULL);
    shuffle_permutation(SHUFFLE_FISHER_YATES, &r2, b, N, NULL);
    cr_assert(memcmp(a, b, sizeof a) != 0);
}

Test(shuffle_stream, expired_deadline_stops_every_algorithm) {
    enum { N = 1 << 20 };
    uint32_t *perm = malloc(N * sizeof *perm);
    deadline past = deadline_after_ms(0);
    rng r;
    rng_seed_u64(&r, 1);
    cr_assert_eq(shuffle_permutation(SHUFFLE_FISHER_YATES, &r, perm, N, &past), CORE_DEADLINE);
    cr_assert_eq(shuffle_permutation(SHUFFLE_INSIDE_OUT, &r, perm, N, &past), CORE_DEADLINE);
    cr_assert_eq(shuffle_permutation(SHUFFLE_NAIVE, &r, perm, N, &past), CORE_DEADLINE);
    cr_assert_eq(shuffle_permutation(SHUFFLE_DERANGEMENT, &r, perm, N, &past), CORE_DEADLINE);
    cr_assert_eq(shuffle_permutation(SHUFFLE_CYCLE, &r, perm, N, &past), CORE_DEADLINE);
    cr_assert_eq(shuffle_sample(&r, perm, SHUFFLE_MAX_N, N, &past), CORE_DEADLINE);
    free(perm);
}
