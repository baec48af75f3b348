/* A dictionary for word ladders: distinct words (arrays of Unicode code points, all lowercase
 * letters, see dictionary_letters.h) grouped by length, each group in the order the words came and
 * indexed once for neighbour lookups.
 *
 * The index: for every word and every position, the word with that letter blanked out ("c*ld") is a
 * key; words sharing a key form a bucket, so the neighbours of a word (same length, exactly one
 * letter different) are the other members of its buckets, one bucket per position. Keys are hashed
 * (polynomial hash, so the blanked key of every position costs O(1)) into an open-addressing table,
 * one position at a time so the table stays as small as the group, and every hash hit is confirmed
 * letter by letter, so collisions never merge buckets. Buckets of a
 * single word are not stored. Building is O(total letters) expected time and memory. */
#ifndef PUZZLED_CORE_DICTIONARY_H
#define PUZZLED_CORE_DICTIONARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/common/deadline.h"

typedef enum dictionary_status {
    DICTIONARY_OK,
    DICTIONARY_OUT_OF_MEMORY,
    DICTIONARY_TOO_LARGE, /* a group holds 2^30 or more letters */
    DICTIONARY_DEADLINE_EXCEEDED,
    DICTIONARY_UNREADABLE, /* a word-list file could not be read (errno tells why) */
} dictionary_status;

/* The words of one length, read-only once built. */
typedef struct dictionary_group {
    size_t length;          /* letters per word */
    uint32_t count;         /* distinct words, in the order they were added */
    uint32_t *letters;      /* word w is letters[w*length .. (w+1)*length) */
    uint32_t *bucket_of;    /* bucket_of[w*length + p]: the bucket of word w with letter p blanked;
                               0 when w is alone in it */
    uint32_t *bucket_start; /* bucket b holds members[bucket_start[b] .. bucket_start[b+1]);
                               bucket 0 is empty */
    uint32_t *members;      /* word indices, ascending within each bucket */
    uint32_t *slots;        /* whole-word lookup: open addressing, word index + 1, 0 when empty */
    size_t slot_mask;
} dictionary_group;

typedef struct dictionary {
    dictionary_group *groups; /* ascending length */
    size_t group_count;
    size_t word_count;
} dictionary;

typedef struct dictionary_builder dictionary_builder;

/* A builder that keeps words of every length (`only_length` 0) or only of `only_length` letters.
 * NULL when out of memory. */
dictionary_builder *dictionary_builder_new(size_t only_length);

/* Adds a word (non-empty, lowercase letters: the caller checked); duplicates are dropped when
 * building. False when out of memory. */
bool dictionary_builder_add(dictionary_builder *builder, const uint32_t *letters, size_t length);

/* Removes duplicates and indexes the words; frees the builder in every case. On
 * DICTIONARY_OK `*out` is the dictionary (dictionary_free it). `deadline` may be NULL. */
dictionary_status dictionary_builder_finish(dictionary_builder *builder, const deadline *deadline,
                                            dictionary **out);

/* Drops a builder without building (NULL is allowed). */
void dictionary_builder_free(dictionary_builder *builder);

void dictionary_free(dictionary *dict);

/* The group of words with `length` letters, or NULL when there is none. */
const dictionary_group *dictionary_group_of_length(const dictionary *dict, size_t length);

/* The index of the word `letters` (group->length code points) in `group`, or false. */
bool dictionary_group_find(const dictionary_group *group, const uint32_t *letters, uint32_t *index);

static inline const uint32_t *dictionary_group_word(const dictionary_group *group, uint32_t index) {
    return group->letters + (size_t)index * group->length;
}

#endif
