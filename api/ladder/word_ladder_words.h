/* What the word-ladder endpoints (/word-ladder, /word-ladder/verify, /word-ladder/neighbours) share:
 * the dictionaries loaded at start-up (built-in and "common"), the choice of dictionary for a request
 * (its own `dictionary`, "common", or the built-in one), reading words from request fields, writing them out, and the
 * unknown-word error. */
#ifndef PUZZLED_API_WORD_LADDER_WORDS_H
#define PUZZLED_API_WORD_LADDER_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "core/ladder/dictionary.h"

/* The dictionary a request uses. */
typedef struct ladder_words {
    const dictionary *dict; /* the request's own or the built-in one */
    dictionary *own;        /* the request's `dictionary`, or NULL */
    const char *name;       /* for messages: "built-in", "common" or "request's" */
} ladder_words;

/* Reads the request's "dictionary" field: a list of words (only words of `length` letters are indexed)
 * or "common"; the built-in dictionary when it is absent. 503 no_dictionary when the one asked for is
 * not loaded. */
bool ladder_words_choose(api_request *req, size_t length, ladder_words *out);
void ladder_words_free(ladder_words *words);

/* The group of `length`-letter words of the chosen dictionary, or NULL when it has none. */
const dictionary_group *ladder_words_group(const ladder_words *words, size_t length);

/* Reads the required string field `name` as a word of letters, lowered, into `*out` (malloc'd code
 * points; free it, also after a failure). */
bool ladder_word_read(api_request *req, const char *name, uint32_t **out, size_t *length);

/* Decodes `text`, element `index` of the array field `field`, as a word of letters, lowered, into `out`
 * (room for strlen(text) code points); a 400 naming the element when it is not one. */
bool ladder_word_read_entry(api_request *req, const char *field, size_t index, const char *text, uint32_t *out,
                            size_t *length);

/* Writes the word as a JSON string. */
void ladder_word_write(json_writer *out, const uint32_t *letters, size_t length);

/* The 422 unknown_word for the word of field `name` not in the chosen dictionary (`group`: its words of
 * that length, may be NULL). */
bool ladder_fail_unknown_word(api_request *req, const char *name, const uint32_t *letters, size_t length,
                              const ladder_words *words, const dictionary_group *group);

#endif
