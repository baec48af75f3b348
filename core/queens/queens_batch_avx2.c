/* The batched constellation search in 8 AVX2 lanes (queens_batch_lanes.h), for the processors that
 * have AVX2 and BMI2 but not AVX-512 (chosen at run time by queens_batch_avx2_supported). AVX2 has no
 * expanding load or compressing store: each is a permutation of the lanes, its indices made from the
 * lane mask with BMI2's bit deposit and extract (one index byte per lane). */
#include "core/queens/queens_batch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>

bool queens_batch_avx2_supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
}

#define LANES_TARGET __attribute__((target("avx2,bmi2")))
#define LANES_SEARCH queens_batch_search_avx2
#define LANES 8

typedef __m256i vec;
typedef unsigned lane_mask; /* bit i: lane i */

/* The lane indices 0..7, one byte each, and a byte of ones for each lane of a mask. */
#define LANE_INDICES 0x0706050403020100ULL
#define LANE_BYTES 0x0101010101010101ULL
#define ALL_LANES 0xffu

LANES_TARGET static inline vec v_set1(uint32_t x) { return _mm256_set1_epi32((int)x); }
LANES_TARGET static inline vec v_zero(void) { return _mm256_setzero_si256(); }
LANES_TARGET static inline vec v_and(vec a, vec b) { return _mm256_and_si256(a, b); }
LANES_TARGET static inline vec v_or(vec a, vec b) { return _mm256_or_si256(a, b); }
LANES_TARGET static inline vec v_xor(vec a, vec b) { return _mm256_xor_si256(a, b); }
LANES_TARGET static inline vec v_sub(vec a, vec b) { return _mm256_sub_epi32(a, b); }
LANES_TARGET static inline vec v_andnot(vec a, vec b) { return _mm256_andnot_si256(a, b); }
LANES_TARGET static inline vec v_or3(vec a, vec b, vec c) { return _mm256_or_si256(_mm256_or_si256(a, b), c); }
LANES_TARGET static inline vec v_shl(vec v, int by) { return _mm256_sll_epi32(v, _mm_cvtsi32_si128(by)); }
LANES_TARGET static inline vec v_shr(vec v, int by) { return _mm256_srl_epi32(v, _mm_cvtsi32_si128(by)); }
LANES_TARGET static inline lane_mask v_zero_lanes(vec v) {
    return (lane_mask)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256())));
}
LANES_TARGET static inline lane_mask v_nonzero(lane_mask within, vec v) {
    return within & ~v_zero_lanes(v) & ALL_LANES;
}

/* A byte of ones in each byte of a lane of `m`. */
LANES_TARGET static inline uint64_t lane_bytes(lane_mask m) { return _pdep_u64(m, LANE_BYTES) * 0xff; }

/* The index bytes as lane indices of a permutation. */
LANES_TARGET static inline vec permutation(uint64_t indices) {
    return _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)indices));
}

LANES_TARGET static inline vec v_expand_load(vec old, lane_mask into, const uint32_t *from) {
    uint64_t bytes = lane_bytes(into);
    vec moved = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)from),
                                            permutation(_pdep_u64(LANE_INDICES, bytes)));
    return _mm256_blendv_epi8(old, moved, _mm256_cvtepi8_epi32(_mm_cvtsi64_si128((long long)bytes)));
}

LANES_TARGET static inline void v_compress_store(uint32_t *to, lane_mask keep, vec v) {
    vec packed = _mm256_permutevar8x32_epi32(v, permutation(_pext_u64(LANE_INDICES, lane_bytes(keep))));
    _mm256_storeu_si256((__m256i *)to, packed);
}

static inline int lane_count(lane_mask m) { return __builtin_popcount(m); }

#include "core/queens/queens_batch_lanes.h"

#else

bool queens_batch_avx2_supported(void) { return false; }

void queens_batch_search_avx2(batch_search *s, int d, int count) { queens_batch_search_portable(s, d, count); }

#endif
