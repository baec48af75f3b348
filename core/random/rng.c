/* Random 64-bit words: xoshiro256** seeded through splitmix64 or a 256-bit state, and a buffered
 * ChaCha20 keystream keyed from getrandom() for secure shuffles. */
#include "core/random/rng.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

static uint64_t splitmix64_next(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void rng_seed_u64(rng *r, uint64_t seed) {
    memset(r, 0, sizeof *r);
    for (int i = 0; i < 4; i++) r->state[i] = splitmix64_next(&seed);
}

bool rng_seed_state(rng *r, const uint64_t state[4]) {
    memset(r, 0, sizeof *r);
    memcpy(r->state, state, sizeof r->state);
    return (state[0] | state[1] | state[2] | state[3]) != 0;
}

static uint32_t rotl32(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

/* RFC 8439 section 2.1: a quarter round is two alike halves (add, xor, rotate d; add, xor, rotate b),
 * the first rotating by 16 and 12, the second by 8 and 7. */
#define HALF_ROUND(a, b, c, d, first, second) \
    do {                                      \
        a += b;                               \
        d ^= a;                               \
        d = rotl32(d, first);                 \
        c += d;                               \
        b ^= c;                               \
        b = rotl32(b, second);                \
    } while (0)
#define QUARTER_ROUND(a, b, c, d)       \
    do {                                \
        HALF_ROUND(a, b, c, d, 16, 12); \
        HALF_ROUND(a, b, c, d, 8, 7);   \
    } while (0)

/* One ChaCha20 block (RFC 8439 section 2.3) with a 64-bit block counter in words 12-13 and a zero
 * nonce in words 14-15. */
static void chacha20_block(const uint32_t key[8], uint64_t counter, uint32_t out[16]) {
    uint32_t input[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    memcpy(input + 4, key, 8 * sizeof(uint32_t));
    input[12] = (uint32_t)counter;
    input[13] = (uint32_t)(counter >> 32);
    uint32_t x[16];
    memcpy(x, input, sizeof x);
    for (int round = 0; round < 10; round++) {
        QUARTER_ROUND(x[0], x[4], x[8], x[12]);
        QUARTER_ROUND(x[1], x[5], x[9], x[13]);
        QUARTER_ROUND(x[2], x[6], x[10], x[14]);
        QUARTER_ROUND(x[3], x[7], x[11], x[15]);
        QUARTER_ROUND(x[0], x[5], x[10], x[15]);
        QUARTER_ROUND(x[1], x[6], x[11], x[12]);
        QUARTER_ROUND(x[2], x[7], x[8], x[13]);
        QUARTER_ROUND(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) out[i] = x[i] + input[i];
}

void rng_refill(rng *r) {
    for (size_t block = 0; block < RNG_BUFFER_WORDS / 8; block++) {
        uint32_t words[16];
        chacha20_block(r->key, r->block_counter++, words);
        /* The keystream bytes read as little-endian 64-bit words, independent of the host's order. */
        for (int i = 0; i < 8; i++)
            r->buffer[block * 8 + i] = (uint64_t)words[2 * i] | (uint64_t)words[2 * i + 1] << 32;
    }
    r->buffered_used = 0;
}

void rng_seed_chacha(rng *r, const uint8_t key[32]) {
    memset(r, 0, sizeof *r);
    r->secure = true;
    for (int i = 0; i < 8; i++)
        r->key[i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8 | (uint32_t)key[4 * i + 2] << 16 |
                    (uint32_t)key[4 * i + 3] << 24;
    r->buffered_used = RNG_BUFFER_WORDS; /* the first rng_next() fills the buffer */
}

/* Fills `buffer` from the kernel CSPRNG, retrying interrupted or short reads. */
static bool os_random(void *buffer, size_t length) {
    unsigned char *bytes = buffer;
    while (length > 0) {
        ssize_t got = getrandom(bytes, length, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        bytes += got;
        length -= (size_t)got;
    }
    return true;
}

bool rng_seed_secure(rng *r) {
    uint8_t key[32];
    if (!os_random(key, sizeof key)) return false;
    rng_seed_chacha(r, key);
    explicit_bzero(key, sizeof key);
    return true;
}

bool rng_fresh_seed(uint64_t *seed) { return os_random(seed, sizeof *seed); }
