/* Unit tests for api/arrangements/permutation_blocks: every translator this CPU runs (the plain loop, SSSE3, AVX2)
 * against indexing the table by hand, on every length and alignment; and the listings, for n = 1..12
 * items as numbers and as strings, JSON and NDJSON, from offsets and to limits on and around the block
 * edges, written in calls of many sizes, against lines built by the textbook next-permutation step. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "api/arrangements/permutation_blocks.h"
#include "permutations_reference.h"

Test(permutation_blocks, every_translator_matches_the_table_at_every_length_and_alignment) {
    block_translator found[BLOCK_TRANSLATORS];
    size_t count = permutation_block_translators(found);
    cr_assert_geq(count, 1);
    enum { MOST = 300, SHIFTS = 40 };
    uint8_t codes[MOST + SHIFTS], table[BLOCK_TABLE_BYTES];
    char out[MOST + SHIFTS + 1], expected[MOST + SHIFTS];
    unsigned seed = 20261127;
    for (size_t i = 0; i < sizeof codes; i++) codes[i] = (uint8_t)(rand_r(&seed) % BLOCK_TABLE_BYTES);
    for (size_t i = 0; i < sizeof table; i++) table[i] = (uint8_t)('A' + rand_r(&seed) % 60);
    for (size_t i = 0; i < sizeof codes; i++) expected[i] = (char)table[codes[i]];
    for (size_t t = 0; t < count; t++)
        for (size_t shift = 0; shift < SHIFTS; shift++)
            for (size_t len = 0; len <= MOST; len++) {
                memset(out, '#', sizeof out);
                found[t](codes + shift, len, table, out + shift % 7);
                cr_assert(memcmp(out + shift % 7, expected + shift, len) == 0, "translator %zu, length %zu", t, len);
                cr_assert_eq(out[shift % 7 + len], '#', "translator %zu wrote past %zu bytes", t, len);
            }
}

static const char number_bytes[] = "0123456789", letter_bytes[] = "kbdqazmxcwep";

/* Items 0..n-1 whose texts are `bytes` (given in ascending order), as item_classes_read makes them. */
static void make_items(item_classes *items, size_t n, const char *bytes, bool text, size_t start[]) {
    for (size_t i = 0; i <= n; i++) start[i] = i;
    *items = (item_classes){.n = n, .m = n, .text = text, .texts = (char *)bytes, .start = start};
}

/* The expected listing of `lines` orderings from the `offset`-th, stepped from the first. */
static char *expected_listing(const char *sorted, int n, bool text, bool ndjson, uint64_t offset, uint64_t lines,
                              size_t *len) {
    char *out = malloc(lines * (2 * (size_t)n + 2) + 1);
    int p[BLOCK_MAX_ITEMS];
    for (int i = 0; i < n; i++) p[i] = i;
    for (uint64_t skip = 0; skip < offset; skip++) cr_assert(reference_next_permutation(p, n));
    *len = 0;
    for (uint64_t line = 0; line < lines; line++) {
        if (line > 0 && !ndjson) out[(*len)++] = ',';
        out[(*len)++] = text ? '"' : '[';
        for (int i = 0; i < n; i++) {
            if (i > 0 && !text) out[(*len)++] = ',';
            out[(*len)++] = sorted[p[i]];
        }
        out[(*len)++] = text ? '"' : ']';
        if (ndjson) out[(*len)++] = '\n';
        if (line + 1 < lines) cr_assert(reference_next_permutation(p, n));
    }
    return out;
}

static uint64_t factorial(int n) { return n <= 1 ? 1 : (uint64_t)n * factorial(n - 1); }

/* Lists through permutation_blocks_write in calls of `room` bytes and compares with the reference. */
static void expect_listing(int n, bool text, bool ndjson, uint64_t offset, uint64_t lines, size_t room) {
    const char *bytes = text ? letter_bytes : number_bytes;
    char sorted[BLOCK_MAX_ITEMS + 1];
    memcpy(sorted, bytes, (size_t)n);
    sorted[n] = '\0';
    for (int i = 0; i < n; i++) /* insertion sort: the classes ascend by value */
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            char t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    item_classes items;
    size_t start[BLOCK_MAX_ITEMS + 1];
    make_items(&items, (size_t)n, sorted, text, start);
    cr_assert(permutation_blocks_fit(&items));
    permutation_blocks b;
    cr_assert(permutation_blocks_start(&b, &items, ndjson, offset, lines));
    size_t expected_len;
    char *expected = expected_listing(sorted, n, text, ndjson, offset, lines, &expected_len);
    char *got = malloc(expected_len + room + 1);
    size_t len = 0, wrote;
    while ((wrote = permutation_blocks_write(&b, got + len, room)) > 0) {
        cr_assert(wrote == room || b.left == 0, "a call short of its room before the end");
        len += wrote;
    }
    cr_assert_eq(len, expected_len, "n %d %s %s offset %lu lines %lu room %zu: %zu bytes, expected %zu", n,
                 text ? "text" : "numbers", ndjson ? "ndjson" : "json", (unsigned long)offset, (unsigned long)lines,
                 room, len, expected_len);
    cr_assert(memcmp(got, expected, len) == 0, "n %d offset %lu lines %lu room %zu: the bytes differ", n,
              (unsigned long)offset, (unsigned long)lines, room);
    free(got);
    free(expected);
}

Test(permutation_blocks, whole_listings_of_up_to_eight_items_in_calls_of_many_sizes) {
    const size_t rooms[] = {1, 5, 31, 4096, 65536};
    for (int n = 1; n <= 8; n++)
        for (int kind = 0; kind < 4; kind++)
            for (size_t r = 0; r < sizeof rooms / sizeof *rooms; r++)
                expect_listing(n, kind & 1, kind & 2, 0, factorial(n), rooms[r]);
}

Test(permutation_blocks, offsets_and_limits_on_and_around_block_edges) {
    const uint64_t block = 5040; /* 7! */
    const uint64_t windows[][2] = {{0, 1},         {block - 1, 2},     {block, 1},         {block + 1, block},
                                   {3, 3 * block}, {2 * block - 2, 5}, {block / 2, block}, {7 * block - 3, 7}};
    for (int n = 8; n <= 10; n++) /* one-byte numbers stop at 9; the letters go on below */
        for (int kind = 0; kind < 4; kind++)
            for (size_t w = 0; w < sizeof windows / sizeof *windows; w++)
                expect_listing(n, kind & 1, kind & 2, windows[w][0], windows[w][1], 4093);
    for (int n = 11; n <= BLOCK_MAX_ITEMS; n++)
        for (int ndjson = 0; ndjson < 2; ndjson++)
            for (size_t w = 0; w < sizeof windows / sizeof *windows; w++)
                expect_listing(n, true, ndjson, windows[w][0], windows[w][1], 65536);
}

Test(permutation_blocks, only_distinct_one_byte_items_up_to_the_table_fit) {
    size_t start[BLOCK_MAX_ITEMS + 2];
    item_classes items;
    make_items(&items, BLOCK_MAX_ITEMS, letter_bytes, true, start);
    cr_assert(permutation_blocks_fit(&items));
    make_items(&items, BLOCK_MAX_ITEMS + 1, "abcdefghijklm", true, start);
    cr_assert_not(permutation_blocks_fit(&items), "more items than codes");
    make_items(&items, 3, "abcd", false, start);
    start[3] = 4; /* the last class two bytes long */
    cr_assert_not(permutation_blocks_fit(&items));
    make_items(&items, 3, "abc", false, start);
    items.m = 2; /* a repeated class */
    cr_assert_not(permutation_blocks_fit(&items));
}
