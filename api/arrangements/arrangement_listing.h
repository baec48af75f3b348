/* The handler and the streamed answer shared by /permutations and /combinations: {"kind":"<key>",
 * "total":"...","next_offset":"..."|null,"<key>":[...]} (or one arrangement per line for NDJSON), the arrangements coming from an iterator
 * over class ids (core/) and written with the texts of a item_classes.
 *
 * The current arrangement's text is kept in `line`, with the end of each entry in `entry_end`, so a
 * step rewrites only the entries that changed, and whole arrangements are copied straight into the
 * stream's buffer (a run of them per reservation), so memory stays at the piece asked for plus a run.
 * Short lines of one-byte entries skip the patching: their fixed shape is copied and every entry set.
 * Every ordering of up to 12 distinct one-byte items (a kind's `every_ordering`) skips the iterator
 * altogether: api/arrangements/permutation_blocks.c translates a precomputed block of lines per prefix. */
#ifndef PUZZLED_API_ARRANGEMENT_LISTING_H
#define PUZZLED_API_ARRANGEMENT_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "api/api.h"
#include "core/common/deadline.h"
#include "core/common/status.h"
#include "api/arrangements/item_classes.h"
#include "api/arrangements/permutation_blocks.h"

/* The next arrangement (k class ids) or NULL after the last; *changed: the first index that differs
 * from the previous one (anything for the first). */
typedef const uint32_t *(*arrangement_next_fn)(void *iter, size_t *changed);

typedef enum { LISTING_HEAD, LISTING_ITEMS, LISTING_TAIL } listing_part;

typedef struct arrangement_listing {
    item_classes items; /* owned */
    void *iter;         /* owned; NULL when the offset is past the end: an empty list */
    arrangement_next_fn next;
    void (*free_iter)(void *iter);
    const char *list_key; /* "permutations", "combinations": the list's key and the answer's kind */
    size_t k;             /* entries per arrangement */
    bool ndjson;
    listing_part part;
    char *total;       /* decimal: how many arrangements there are in all */
    char *next_offset; /* decimal: the first arrangement after this answer's; NULL when it lists the last */
    uint64_t left;     /* arrangements still to send (the limit) */
    bool first;
    char *line;        /* '[' or '"' and the entries, without the closing character */
    size_t line_room;  /* the longest line, with its closing character */
    size_t *entry_end; /* k offsets into line */
    /* When every entry is one byte and a whole line fits SHORT_LINE bytes: the line's shape (brackets
     * or quotes, separators, closing character, newline) copied whole, then the k entries patched at
     * fixed places, with no loop whose count varies. 0 otherwise. */
    size_t fixed_line_len;
    char fixed_line[32];
    char entry_byte[256]; /* class c's one byte */
    /* Every ordering of a few distinct one-byte items: written by blocks (api/arrangements/permutation_blocks.h)
     * instead of the iterator, which is then NULL. */
    bool by_blocks;
    permutation_blocks blocks;
} arrangement_listing;

/* The fields both listing endpoints read alike (`k` by each endpoint's own rule). */
typedef struct listing_options {
    size_t k;
    bool distinct;
    bool count_only;
    mpz_t offset;
    /* The request's, else the default page (api_limits' default_page) for JSON, UINT64_MAX (no limit
     * at all) for NDJSON. */
    uint64_t limit;
} listing_options;

/* One listing endpoint: its list's key, its own fields, and how its core counts and iterates the
 * arrangements of its spec (a perm_spec, a comb_spec) over the items. */
typedef struct arrangement_kind {
    const char *list_key;   /* "permutations", "combinations": the list's key and the answer's kind */
    const char *total_kind; /* the kind of the count_only answer, {"kind":..,"total":".."} */
    /* Reads the endpoint's own fields (`k` and the like) and fills `spec`; false after an api_fail. */
    bool (*read)(api_request *req, const item_classes *items, listing_options *o, void *spec);
    core_status (*count)(mpz_t count, const void *spec, const deadline *limit);
    size_t iter_size;
    core_status (*iter_init)(void *iter, const void *spec, const mpz_t offset, const deadline *limit);
    arrangement_next_fn next;
    void (*free_iter)(void *iter); /* frees the iterator and its storage */
    /* True when `spec` lists every ordering of all the items (no repeats) in lexicographic order of
     * their classes, which api/arrangements/permutation_blocks.h can write; NULL for never. */
    bool (*every_ordering)(const void *spec);
} arrangement_kind;

/* The whole of a listing handler: reads the items and the fields, counts, and answers {"total":"..."}
 * (count_only) or streams the listing from `offset` on, within `limit`. `spec` is the endpoint's
 * storage for its spec. */
bool arrangement_listing_answer(api_request *req, api_response *res, const arrangement_kind *kind, void *spec);

#endif
