/* Every ordering of a few distinct one-byte items, in lexicographic order, as JSON or NDJSON lines
 * written by translating a precomputed block of coded text through a 16-byte table (a byte shuffle),
 * rather than line by line. The design is in the comment at the top of api/arrangements/permutation_blocks.c. */
#ifndef PUZZLED_API_PERMUTATION_BLOCKS_H
#define PUZZLED_API_PERMUTATION_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/arrangements/item_classes.h"

/* Codes are table indexes: the items (at most BLOCK_MAX_ITEMS) and four punctuation bytes. */
enum {
    BLOCK_TABLE_BYTES = 16,
    BLOCK_PUNCTUATION_CODES = 4,
    BLOCK_MAX_ITEMS = BLOCK_TABLE_BYTES - BLOCK_PUNCTUATION_CODES
};
/* A block lists the orderings of the last BLOCK_SUFFIX_ITEMS items (fewer when there are fewer): 7! =
 * 5,040 lines, 111 KB for ten numbers, which stays in the L2 cache. */
enum { BLOCK_SUFFIX_ITEMS = 7 };

typedef struct block_template block_template; /* shared, built once per shape, never freed */

typedef struct permutation_blocks {
    const block_template *shape;
    size_t n;                              /* items */
    uint32_t arrangement[BLOCK_MAX_ITEMS]; /* the current block's prefix, then its suffix ascending */
    char entry_byte[BLOCK_MAX_ITEMS];      /* class c's one byte */
    uint8_t table[BLOCK_TABLE_BYTES];      /* code -> output byte for the current block */
    size_t position;                       /* bytes of the current block already written */
    uint64_t left;                         /* bytes of the listing still to write */
} permutation_blocks;

/* Whether `items` (all of them per line, no repeats) can be listed this way: at most BLOCK_MAX_ITEMS
 * distinct classes, each one byte of text. */
bool permutation_blocks_fit(const item_classes *items);

/* Starts the listing of `lines` orderings from the `offset`-th (offset + lines <= n!), the lines
 * separated by commas (JSON; no comma before the first) or ended by newlines (NDJSON). False when out
 * of memory (the shared block could not be built). */
bool permutation_blocks_start(permutation_blocks *b, const item_classes *items, bool ndjson, uint64_t offset,
                              uint64_t lines);

/* Writes the next min(room, left) bytes of the listing at `to`; returns how many. */
size_t permutation_blocks_write(permutation_blocks *b, char *to, size_t room);

/* out[i] = table[codes[i]] for i < len, every code below BLOCK_TABLE_BYTES. */
typedef void (*block_translator)(const uint8_t *codes, size_t len, const uint8_t table[BLOCK_TABLE_BYTES], char *out);
/* The translators this CPU runs, the plain loop first and the one listings use last; for the tests,
 * which check every one against the plain loop. Returns how many (at most BLOCK_TRANSLATORS). */
enum { BLOCK_TRANSLATORS = 3 };
size_t permutation_block_translators(block_translator found[BLOCK_TRANSLATORS]);

#endif
