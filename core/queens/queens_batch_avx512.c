/* The batched constellation search (queens_batch.h) in AVX-512 vector lanes, for the processors that
 * have them (chosen at run time by queens_batch_avx512_supported). Each of BATCH_LANES lanes holds
 * one parent node and takes one of its candidates per turn; a lane whose parent has none left is
 * refilled with the next parents of the batch by an expanding load, and the kept children of all lanes
 * are compressed into the next row's batch, so every turn works on BATCH_LANES candidates without a
 * data-dependent branch. The same nodes as the portable search, in the same batches. */
#include "core/queens/queens_batch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f")))

bool queens_batch_avx512_supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
}

/* The parents in the lanes, with the candidates they have not yet taken in `free`. */
typedef struct lanes {
    __m512i left, right, cols, free;
} lanes;

AVX512 static inline __m512i shift_left(__m512i v, int by) { return _mm512_sll_epi32(v, _mm_cvtsi32_si128(by)); }
AVX512 static inline __m512i shift_right(__m512i v, int by) { return _mm512_srl_epi32(v, _mm_cvtsi32_si128(by)); }
AVX512 static inline __mmask16 nonzero(__mmask16 within, __m512i v) {
    return _mm512_mask_test_epi32_mask(within, v, v);
}

/* Loads the next parents (from *next) into the lanes with no candidate left; returns the lanes that
 * have one. Past the batch's end the lanes load its zero padding, and stay empty. */
AVX512 static inline __mmask16 refill(lanes *l, const batch *parents, int *next, int count) {
    __mmask16 empty = _mm512_testn_epi32_mask(l->free, l->free);
    l->left = _mm512_mask_expandloadu_epi32(l->left, empty, &parents->left[*next]);
    l->right = _mm512_mask_expandloadu_epi32(l->right, empty, &parents->right[*next]);
    l->cols = _mm512_mask_expandloadu_epi32(l->cols, empty, &parents->cols[*next]);
    l->free = _mm512_mask_expandloadu_epi32(l->free, empty, &parents->free[*next]);
    *next += __builtin_popcount(empty);
    *next = *next < count ? *next : count;
    return _mm512_test_epi32_mask(l->free, l->free);
}

/* One child per lane: the lane's next candidate taken, the masks moved down `gap` rows. */
typedef struct children {
    __m512i left, right, cols;
} children;

AVX512 static inline children take(lanes *l, int gap) {
    __m512i bit = _mm512_and_si512(l->free, _mm512_sub_epi32(_mm512_setzero_si512(), l->free));
    l->free = _mm512_xor_si512(l->free, bit);
    return (children){shift_left(_mm512_or_si512(l->left, bit), gap), shift_right(_mm512_or_si512(l->right, bit), gap),
                      _mm512_or_si512(l->cols, bit)};
}

/* The squares of a row `allowed` leaves free below children c, moved `gap` rows further down. */
AVX512 static inline __m512i free_below(children c, int gap, uint32_t allowed) {
    __m512i attacked = _mm512_ternarylogic_epi32(shift_left(c.left, gap), shift_right(c.right, gap), c.cols, 0xfe);
    return _mm512_andnot_si512(attacked, _mm512_set1_epi32((int)allowed));
}

/* The solutions the children in `live` lanes complete, when one or two rows are left below them (as
 * the portable search's last rows: with two, the two columns left are tried both ways). */
AVX512 static inline int completions(const search_plan *plan, int d, children c, __mmask16 live) {
    __m512i next_free = free_below(c, 0, plan->allowed[d + 1]);
    if (d + 2 == plan->depth) return __builtin_popcount(nonzero(live, next_free));
    __m512i remaining = _mm512_andnot_si512(c.cols, _mm512_set1_epi32((int)plan->columns));
    __m512i low = _mm512_and_si512(remaining, _mm512_sub_epi32(_mm512_setzero_si512(), remaining));
    __m512i high = _mm512_xor_si512(remaining, low);
    int gap = plan->gap[d + 1];
    uint32_t last = plan->allowed[d + 2];
    children low_first = {_mm512_or_si512(c.left, low), _mm512_or_si512(c.right, low), _mm512_setzero_si512()};
    children high_first = {_mm512_or_si512(c.left, high), _mm512_or_si512(c.right, high), _mm512_setzero_si512()};
    /* the last row's square in the other column, free below the first choice's diagonals */
    __m512i low_then_high = _mm512_and_si512(free_below(low_first, gap, last), high);
    __m512i high_then_low = _mm512_and_si512(free_below(high_first, gap, last), low);
    __mmask16 low_ok = nonzero(nonzero(live, _mm512_and_si512(next_free, low)), low_then_high);
    __mmask16 high_ok = nonzero(nonzero(live, _mm512_and_si512(next_free, high)), high_then_low);
    return __builtin_popcount(low_ok) + __builtin_popcount(high_ok);
}

AVX512 static inline void store(uint32_t *to, __mmask16 keep, __m512i v) {
    _mm512_storeu_si512(to, _mm512_maskz_compress_epi32(keep, v));
}

AVX512 void queens_batch_search_avx512(batch_search *s, int d, int count) {
    if (batch_search_stopping(s, d)) return;
    const search_plan *plan = s->plan;
    const batch *parents = &s->rows[d];
    _mm512_storeu_si512(&s->rows[d].free[count], _mm512_setzero_si512());
    lanes l = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
    int next = 0, gap = plan->gap[d];
    __mmask16 live;
    if (d + 3 >= plan->depth) {
        uint64_t found = 0;
        while ((live = refill(&l, parents, &next, count)) != 0)
            found += (uint64_t)completions(plan, d, take(&l, gap), live);
        s->found += found;
        return;
    }
    batch *below = &s->rows[d + 1];
    uint32_t next_allowed = plan->allowed[d + 1], after_allowed = plan->allowed[d + 2];
    int next_gap = plan->gap[d + 1], out = 0;
    while ((live = refill(&l, parents, &next, count)) != 0) {
        children c = take(&l, gap);
        __m512i child_free = free_below(c, 0, next_allowed);
        /* kept when its row and, looking ahead as NQueensFAF does, the row after it keep a free square */
        __mmask16 keep = nonzero(nonzero(live, child_free), free_below(c, next_gap, after_allowed));
        store(&below->left[out], keep, c.left);
        store(&below->right[out], keep, c.right);
        store(&below->cols[out], keep, c.cols);
        store(&below->free[out], keep, child_free);
        out += __builtin_popcount(keep);
        if (out > BATCH - BATCH_LANES) {
            queens_batch_search_avx512(s, d + 1, out);
            out = 0;
            if (s->stopped) return;
        }
    }
    if (out != 0) queens_batch_search_avx512(s, d + 1, out);
}

#else

bool queens_batch_avx512_supported(void) { return false; }

void queens_batch_search_avx512(batch_search *s, int d, int count) { queens_batch_search_portable(s, d, count); }

#endif
