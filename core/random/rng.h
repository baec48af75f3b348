/* Random 64-bit words for shuffling, from one of two sources:
 *  - seeded: xoshiro256** (Blackman and Vigna), whose stream is fixed forever by the seed. A 64-bit
 *    seed is expanded to the 256-bit state by four splitmix64 outputs; a 256-bit seed is the state.
 *  - secure: ChaCha20 keyed with 32 bytes from getrandom(), read 64-bit little-endian words at a time
 *    from a buffered keystream (one system call per generator, not per draw).
 * rng_next() is inline because shuffles call it once or twice per element. */
#ifndef PUZZLED_CORE_RNG_H
#define PUZZLED_CORE_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { RNG_BUFFER_WORDS = 64 }; /* ChaCha20 keystream words buffered at a time (8 blocks) */

typedef struct rng {
    bool secure;
    uint64_t state[4];      /* xoshiro256** state (seeded generators) */
    uint32_t key[8];        /* ChaCha20 key (secure generators) */
    uint64_t block_counter; /* next ChaCha20 block; the nonce is zero */
    uint64_t buffer[RNG_BUFFER_WORDS];
    size_t buffered_used; /* words of `buffer` already handed out */
} rng;

/* Seeds xoshiro256** from a 64-bit seed: state[i] = the (i+1)-th output of splitmix64(seed). */
void rng_seed_u64(rng *r, uint64_t seed);

/* Seeds xoshiro256** with a 256-bit state. Returns false (leaving `r` unusable) when all four words
 * are zero, the one state xoshiro cannot leave. */
bool rng_seed_state(rng *r, const uint64_t state[4]);

/* A ChaCha20 generator with this 32-byte key, block counter 0 and nonce 0 (tests use known keys). */
void rng_seed_chacha(rng *r, const uint8_t key[32]);

/* A ChaCha20 generator keyed from getrandom(). Returns false if the OS gave no randomness. */
bool rng_seed_secure(rng *r);

/* A fresh 64-bit seed from getrandom(). Returns false if the OS gave no randomness. */
bool rng_fresh_seed(uint64_t *seed);

/* Refills the ChaCha20 buffer (the slow path of rng_next for secure generators). */
void rng_refill(rng *r);

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* The next uniformly random 64-bit word. */
static inline uint64_t rng_next(rng *r) {
    if (r->secure) {
        if (r->buffered_used == RNG_BUFFER_WORDS) rng_refill(r);
        return r->buffer[r->buffered_used++];
    }
    uint64_t *s = r->state;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

#endif
