/* All orderings of n distinct one-byte items (numbers 0-9, one-character strings) in lexicographic
 * order, written as block templates translated by a byte shuffle (see permutation_blocks.h).
 *
 * In lexicographic order, while the first p = n - s positions (the prefix) stay put, the next s! lines
 * run through the orderings of the remaining s items, and they do so in the same pattern of ranks
 * every time: the r-th smallest of the remaining items stands wherever rank r stands in the orderings
 * of 0..s-1. So the text of one block of s! lines is computed once (per shape: n, numbers or strings,
 * JSON or NDJSON), with every byte a small code instead of a character: "prefix slot j" (codes
 * 0..p-1), "rank r among the remaining items" (codes p..n-1), and four punctuation codes (the opening
 * '[' or '"', ',', the closing ']' or '"', '\n'). For each prefix, a 16-byte table maps the codes to
 * the bytes (table[i] = the byte of the i-th entry of the block's first line, whose suffix is
 * ascending), and the block is translated into the output with a byte shuffle: pshufb (SSSE3's
 * _mm_shuffle_epi8) 16 bytes at a time, or 32 with AVX2's _mm256_shuffle_epi8 on the table in both
 * lanes; a plain table loop where neither runs. The build has no -march flags, so the shuffles are
 * compiled with __attribute__((target)) and chosen with __builtin_cpu_supports.
 *
 * The listing is then a byte range of the blocks laid end to end (JSON lines carry their comma in
 * front, the first line's skipped; NDJSON lines their newline at the end), and the translation does not
 * care where lines start: a call stops at exactly the room it was given, mid-line if need be, with
 * nothing carried over, and an offset or a limit is a byte position. Advancing to the next block is
 * the next p-prefix (core/permutations/next_permutation.h), after which the suffix is ascending again.
 *
 * The block templates are shared by all streams of the same shape, built at the first request that
 * needs them (not in a content call) and kept for the life of the process: 1.56 MB were every shape
 * ever asked for (1 to 10 numbers, since only 0-9 are one byte, and 1 to 12 characters, each as JSON
 * and as NDJSON). */
#include "api/arrangements/permutation_blocks.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/permutations/next_permutation.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BLOCK_SHUFFLES 1
#endif

enum { CODE_OPEN, CODE_COMMA, CODE_CLOSE, CODE_NEWLINE }; /* after the n item codes */

struct block_template {
    size_t prefix;     /* p: positions fixed within a block */
    size_t line_bytes; /* one line, with its comma (JSON) or newline (NDJSON) */
    size_t bytes;      /* lines * line_bytes */
    uint64_t lines;    /* s! */
    uint8_t codes[];   /* `bytes` codes */
};

/* Shapes: n (1..BLOCK_MAX_ITEMS), strings or numbers, NDJSON or JSON. */
static struct {
    pthread_mutex_t lock;
    _Atomic(block_template *) built[BLOCK_MAX_ITEMS + 1][2][2];
} shapes = {.lock = PTHREAD_MUTEX_INITIALIZER};

bool permutation_blocks_fit(const item_classes *items) {
    if (items->n == 0 || items->n > BLOCK_MAX_ITEMS || items->m != items->n) return false;
    for (size_t c = 0; c < items->m; c++)
        if (items->start[c + 1] - items->start[c] != 1) return false;
    return true;
}

static uint64_t factorial(size_t n) {
    uint64_t f = 1;
    for (size_t i = 2; i <= n; i++) f *= i;
    return f;
}

/* Writes one line's codes for the ordering `ranks` of the s suffix ranks at `to`; returns the end. */
static uint8_t *write_line_codes(uint8_t *to, const uint32_t *ranks, size_t n, size_t prefix, bool text, bool ndjson) {
    uint8_t code_base = (uint8_t)n;
    if (!ndjson) *to++ = code_base + CODE_COMMA;
    *to++ = code_base + CODE_OPEN;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && !text) *to++ = code_base + CODE_COMMA;
        *to++ = (uint8_t)(i < prefix ? i : prefix + ranks[i - prefix]);
    }
    *to++ = code_base + CODE_CLOSE;
    if (ndjson) *to++ = code_base + CODE_NEWLINE;
    return to;
}

static block_template *build_template(size_t n, bool text, bool ndjson) {
    size_t suffix = n < BLOCK_SUFFIX_ITEMS ? n : BLOCK_SUFFIX_ITEMS;
    size_t line_bytes = 2 + n + (text ? 0 : n - 1) + 1;
    uint64_t lines = factorial(suffix);
    block_template *t = malloc(sizeof *t + lines * line_bytes);
    if (t == NULL) return NULL;
    *t = (block_template){.prefix = n - suffix, .line_bytes = line_bytes, .bytes = lines * line_bytes, .lines = lines};
    uint32_t ranks[BLOCK_SUFFIX_ITEMS];
    for (size_t r = 0; r < suffix; r++) ranks[r] = (uint32_t)r;
    uint8_t *to = t->codes;
    for (uint64_t line = 0; line < lines; line++) {
        to = write_line_codes(to, ranks, n, t->prefix, text, ndjson);
        next_k_permutation(ranks, suffix, suffix, false);
    }
    return t;
}

/* The shared template of a shape, built on first use. */
static const block_template *template_of(size_t n, bool text, bool ndjson) {
    _Atomic(block_template *) *slot = &shapes.built[n][text][ndjson];
    block_template *t = atomic_load(slot);
    if (t != NULL) return t;
    pthread_mutex_lock(&shapes.lock);
    t = atomic_load(slot);
    if (t == NULL) {
        t = build_template(n, text, ndjson);
        atomic_store(slot, t);
    }
    pthread_mutex_unlock(&shapes.lock);
    return t;
}

static void fill_table(permutation_blocks *b) {
    for (size_t i = 0; i < b->n; i++) b->table[i] = (uint8_t)b->entry_byte[b->arrangement[i]];
}

/* The ordering of rank `offset` (below n!), its prefix kept and its suffix ascending: the factorial
 * digits of the rank pick each prefix entry among those left. */
static void seek_block(permutation_blocks *b, uint64_t offset) {
    uint32_t left[BLOCK_MAX_ITEMS];
    size_t count = b->n;
    for (size_t c = 0; c < count; c++) left[c] = (uint32_t)c;
    for (size_t i = 0; i < b->shape->prefix; i++) {
        uint64_t f = factorial(b->n - 1 - i), digit = offset / f;
        offset %= f;
        b->arrangement[i] = left[digit];
        memmove(left + digit, left + digit + 1, (count - digit - 1) * sizeof *left);
        count--;
    }
    memcpy(b->arrangement + b->shape->prefix, left, count * sizeof *left);
}

bool permutation_blocks_start(permutation_blocks *b, const item_classes *items, bool ndjson, uint64_t offset,
                              uint64_t lines) {
    *b = (permutation_blocks){.n = items->n, .shape = template_of(items->n, items->text, ndjson)};
    if (b->shape == NULL) return false;
    for (size_t c = 0; c < items->m; c++) b->entry_byte[c] = items->texts[items->start[c]];
    b->table[b->n + CODE_OPEN] = items->text ? '"' : '[';
    b->table[b->n + CODE_COMMA] = ',';
    b->table[b->n + CODE_CLOSE] = items->text ? '"' : ']';
    b->table[b->n + CODE_NEWLINE] = '\n';
    seek_block(b, offset);
    fill_table(b);
    size_t skipped = ndjson || lines == 0 ? 0 : 1; /* the first line's comma */
    b->position = (size_t)(offset % b->shape->lines) * b->shape->line_bytes + skipped;
    b->left = lines * b->shape->line_bytes - skipped;
    return true;
}

static void translate_plain(const uint8_t *codes, size_t len, const uint8_t table[BLOCK_TABLE_BYTES], char *out) {
    for (size_t i = 0; i < len; i++) out[i] = (char)table[codes[i]];
}

#ifdef BLOCK_SHUFFLES
__attribute__((target("ssse3"))) static void translate_ssse3(const uint8_t *codes, size_t len,
                                                             const uint8_t table[BLOCK_TABLE_BYTES], char *out) {
    __m128i lookup = _mm_loadu_si128((const __m128i *)table);
    size_t i = 0;
    for (; i + 16 <= len; i += 16)
        _mm_storeu_si128((__m128i *)(out + i), _mm_shuffle_epi8(lookup, _mm_loadu_si128((const __m128i *)(codes + i))));
    translate_plain(codes + i, len - i, table, out + i);
}

/* _mm256_shuffle_epi8 looks up within each 128-bit lane, so the table is in both. */
__attribute__((target("avx2"))) static void translate_avx2(const uint8_t *codes, size_t len,
                                                           const uint8_t table[BLOCK_TABLE_BYTES], char *out) {
    __m256i lookup = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)table));
    size_t i = 0;
    for (; i + 64 <= len; i += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(codes + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(codes + i + 32));
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_shuffle_epi8(lookup, a));
        _mm256_storeu_si256((__m256i *)(out + i + 32), _mm256_shuffle_epi8(lookup, b));
    }
    for (; i + 32 <= len; i += 32)
        _mm256_storeu_si256((__m256i *)(out + i),
                            _mm256_shuffle_epi8(lookup, _mm256_loadu_si256((const __m256i *)(codes + i))));
    translate_plain(codes + i, len - i, table, out + i);
}
#endif

size_t permutation_block_translators(block_translator found[BLOCK_TRANSLATORS]) {
    size_t count = 0;
    found[count++] = translate_plain;
#ifdef BLOCK_SHUFFLES
    __builtin_cpu_init();
    if (__builtin_cpu_supports("ssse3")) found[count++] = translate_ssse3;
    if (__builtin_cpu_supports("avx2")) found[count++] = translate_avx2;
#endif
    return count;
}

/* The best translator, chosen once. */
static block_translator chosen_translator(void) {
    static _Atomic(block_translator) chosen;
    block_translator t = atomic_load_explicit(&chosen, memory_order_relaxed);
    if (t == NULL) {
        block_translator found[BLOCK_TRANSLATORS];
        t = found[permutation_block_translators(found) - 1];
        atomic_store_explicit(&chosen, t, memory_order_relaxed);
    }
    return t;
}

size_t permutation_blocks_write(permutation_blocks *b, char *to, size_t room) {
    block_translator translate = chosen_translator();
    const block_template *shape = b->shape;
    size_t written = 0;
    while (written < room && b->left > 0) {
        if (b->position == shape->bytes) { /* the next prefix; its suffix is ascending again */
            next_k_permutation(b->arrangement, b->n, shape->prefix, false);
            fill_table(b);
            b->position = 0;
        }
        size_t chunk = shape->bytes - b->position;
        if (chunk > room - written) chunk = room - written;
        if (chunk > b->left) chunk = (size_t)b->left;
        translate(shape->codes + b->position, chunk, b->table, to + written);
        written += chunk;
        b->position += chunk;
        b->left -= chunk;
    }
    return written;
}
