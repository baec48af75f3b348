/* The streamed answer shared by /permutations and /combinations: {"count": "...", "<key>": [...]}
 * (or one arrangement per line for NDJSON), the arrangements coming from an iterator over class ids
 * (core/) and written with the texts of a perm_items.
 *
 * The current arrangement's text is kept in `line`, with the end of each entry in `entry_end`, so a
 * step rewrites only the entries that changed, and whole arrangements are copied straight into the
 * stream's buffer (a run of them per reservation), so memory stays at the piece asked for plus a run.
 * Short lines of one-byte entries skip the patching: their fixed shape is copied and every entry set. */
#ifndef PUZZLED_API_ARRANGEMENT_LISTING_H
#define PUZZLED_API_ARRANGEMENT_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "api/api.h"
#include "api/permutation_items.h"

/* The next arrangement (k class ids) or NULL after the last; *changed: the first index that differs
 * from the previous one (anything for the first). */
typedef const uint32_t *(*arrangement_next_fn)(void *iter, size_t *changed);

typedef enum { LISTING_HEAD, LISTING_ITEMS, LISTING_TAIL } listing_part;

typedef struct arrangement_listing {
    perm_items items; /* owned */
    void *iter;       /* owned; NULL when the offset is past the end: an empty list */
    arrangement_next_fn next;
    void (*free_iter)(void *iter);
    const char *list_key; /* "permutations", "combinations" */
    size_t k;             /* entries per arrangement */
    bool ndjson;
    listing_part part;
    char *count;   /* decimal */
    uint64_t left; /* arrangements still to send (the limit) */
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
} arrangement_listing;

/* A zeroed listing (NULL when out of memory) whose items and iterator the caller fills in. */
arrangement_listing *arrangement_listing_new(void);

/* The end of both listing handlers: when `ok`, prepares `l` and answers {"count":"..."} (count_only)
 * or streams the listing (taking `l`); frees `l` otherwise. Returns `ok`, false when out of memory. */
bool arrangement_listing_respond(api_request *req, api_response *res, arrangement_listing *l, bool ok,
                                 const mpz_t count, size_t k, uint64_t limit, bool count_only);

#endif
