/* The batched constellation search in 16 AVX-512 lanes (queens_batch_lanes.h), for the processors
 * that have them (chosen at run time by queens_batch_avx512_supported): AVX-512's own expanding load
 * and compressing store (vpexpandd, vpcompressd) refill the lanes and write the kept children. */
#include "core/queens/queens_batch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>

bool queens_batch_avx512_supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
}

#define LANES_TARGET __attribute__((target("avx512f")))
#define LANES_SEARCH queens_batch_search_avx512
#define LANES 16

typedef __m512i vec;
typedef __mmask16 lane_mask;

LANES_TARGET static inline vec v_set1(uint32_t x) { return _mm512_set1_epi32((int)x); }
LANES_TARGET static inline vec v_zero(void) { return _mm512_setzero_si512(); }
LANES_TARGET static inline vec v_and(vec a, vec b) { return _mm512_and_si512(a, b); }
LANES_TARGET static inline vec v_or(vec a, vec b) { return _mm512_or_si512(a, b); }
LANES_TARGET static inline vec v_xor(vec a, vec b) { return _mm512_xor_si512(a, b); }
LANES_TARGET static inline vec v_sub(vec a, vec b) { return _mm512_sub_epi32(a, b); }
LANES_TARGET static inline vec v_andnot(vec a, vec b) { return _mm512_andnot_si512(a, b); }
LANES_TARGET static inline vec v_or3(vec a, vec b, vec c) { return _mm512_ternarylogic_epi32(a, b, c, 0xfe); }
LANES_TARGET static inline vec v_shl(vec v, int by) { return _mm512_sll_epi32(v, _mm_cvtsi32_si128(by)); }
LANES_TARGET static inline vec v_shr(vec v, int by) { return _mm512_srl_epi32(v, _mm_cvtsi32_si128(by)); }
LANES_TARGET static inline lane_mask v_nonzero(lane_mask within, vec v) {
    return _mm512_mask_test_epi32_mask(within, v, v);
}
LANES_TARGET static inline lane_mask v_zero_lanes(vec v) { return _mm512_testn_epi32_mask(v, v); }
LANES_TARGET static inline vec v_expand_load(vec old, lane_mask into, const uint32_t *from) {
    return _mm512_mask_expandloadu_epi32(old, into, from);
}
LANES_TARGET static inline void v_compress_store(uint32_t *to, lane_mask keep, vec v) {
    _mm512_storeu_si512(to, _mm512_maskz_compress_epi32(keep, v));
}
static inline int lane_count(lane_mask m) { return __builtin_popcount(m); }

#include "core/queens/queens_batch_lanes.h"

#else

bool queens_batch_avx512_supported(void) { return false; }

void queens_batch_search_avx512(batch_search *s, int d, int count) { queens_batch_search_portable(s, d, count); }

#endif
