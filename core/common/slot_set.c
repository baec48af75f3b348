/* A bitmap of free slots with per-word counts in a Fenwick tree (see slot_set.h). */
#include "core/common/slot_set.h"

#include <stdlib.h>

enum { WORD_BITS = 64 };

bool slot_set_init_free(slot_set *s, size_t n) {
    size_t words = (n + WORD_BITS - 1) / WORD_BITS;
    s->n = n;
    s->words = malloc((words ? words : 1) * sizeof *s->words);
    size_t *counts = malloc((words ? words : 1) * sizeof *counts);
    bool ok = s->words != NULL && counts != NULL;
    if (!ok) goto out;
    for (size_t w = 0; w < words; w++) {
        size_t bits = w + 1 < words || n % WORD_BITS == 0 ? WORD_BITS : n % WORD_BITS;
        s->words[w] = bits == WORD_BITS ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
        counts[w] = bits;
    }
    ok = fenwick_init(&s->word_counts, words, counts);
out:
    free(counts);
    if (!ok) {
        free(s->words);
        s->words = NULL;
    }
    return ok;
}

void slot_set_free(slot_set *s) {
    free(s->words);
    s->words = NULL;
    fenwick_free(&s->word_counts);
}

void slot_set_take(slot_set *s, size_t i) {
    s->words[i / WORD_BITS] &= ~(UINT64_C(1) << (i % WORD_BITS));
    fenwick_add(&s->word_counts, i / WORD_BITS, (size_t)-1);
}

size_t slot_set_free_below(const slot_set *s, size_t i) {
    size_t below = fenwick_prefix(&s->word_counts, i / WORD_BITS);
    uint64_t lower_bits = (UINT64_C(1) << (i % WORD_BITS)) - 1;
    return i % WORD_BITS == 0 ? below : below + (size_t)__builtin_popcountll(s->words[i / WORD_BITS] & lower_bits);
}

/* The position of the r-th set bit of `word` (r below its count): whole bytes skipped by their
 * counts, then the bits below cleared one by one. */
static unsigned select_in_word(uint64_t word, size_t r) {
    unsigned shift = 0;
    for (size_t in_byte; r >= (in_byte = (size_t)__builtin_popcountll(word & 0xFF)); word >>= 8, shift += 8)
        r -= in_byte;
    for (; r > 0; r--) word &= word - 1;
    return shift + (unsigned)__builtin_ctzll(word);
}

size_t slot_set_select(const slot_set *s, size_t r) {
    size_t w = fenwick_select_within(&s->word_counts, &r);
    return w * WORD_BITS + select_in_word(s->words[w], r);
}

void slot_set_list_free(const slot_set *s, uint32_t *out) {
    for (size_t w = 0; w * WORD_BITS < s->n; w++)
        for (uint64_t bits = s->words[w]; bits != 0; bits &= bits - 1)
            *out++ = (uint32_t)(w * WORD_BITS + (size_t)__builtin_ctzll(bits));
}
