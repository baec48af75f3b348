/* A dictionary for word ladders: distinct words (arrays of Unicode code points, all lowercase
 * letters, see dictionary_letters.h) grouped by length, each group in the order the words came and
 * indexed once for neighbour lookups (same length, exactly one letter different), in one of two ways:
 *
 * Buckets (DICTIONARY_NEIGHBOUR_BUCKETS, for dictionaries loaded once and queried many times): for
 * every word and every position, the word with that letter blanked out ("c*ld") is a key; words
 * sharing a key form a bucket, so the neighbours of a word are the other members of its buckets, one
 * bucket per position. Keys are hashed (polynomial hash, so the blanked key of every position costs
 * O(1)) into an open-addressing table, one position at a time so the table stays as small as the
 * group, and every hash hit is confirmed letter by letter, so collisions never merge buckets. Buckets
 * of a single word are not stored. Building is O(total letters) expected time and memory, with a
 * large constant (one table pass per position).
 *
 * Substitution (DICTIONARY_NEIGHBOUR_SUBSTITUTION, for a dictionary sent with one query): only the
 * whole-word table and, per position, the letters that occur there are built, in one pass over the
 * words. The neighbours of a word are then found by putting each of those letters at each position
 * and looking the result up, which costs O(letters seen per position, summed) per word and touches
 * only the words the search reaches. The hash of a changed word comes from the word's own in O(1)
 * (subtract the old letter's term, add the new one's). */
#ifndef PUZZLED_CORE_DICTIONARY_H
#define PUZZLED_CORE_DICTIONARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/common/deadline.h"
#include "core/common/status.h"

/* The words of one length, read-only once built. */
typedef enum dictionary_neighbour_index {
    DICTIONARY_NEIGHBOUR_BUCKETS,
    DICTIONARY_NEIGHBOUR_SUBSTITUTION,
} dictionary_neighbour_index;

typedef struct dictionary_group {
    size_t length;     /* letters per word */
    uint32_t count;    /* distinct words, in the order they were added */
    uint32_t *letters; /* word w is letters[w*length .. (w+1)*length) */
    /* Buckets; bucket_of is NULL for a substitution index. */
    uint32_t *bucket_of;    /* bucket_of[w*length + p]: the bucket of word w with letter p blanked;
                               0 when w is alone in it */
    uint32_t *bucket_start; /* bucket b holds members[bucket_start[b] .. bucket_start[b+1]);
                               bucket 0 is empty */
    uint32_t *members;      /* word indices, ascending within each bucket */
    /* Substitution (NULL for buckets): position p's letters, ascending, are
       alphabet[alphabet_start[p] .. alphabet_start[p+1]). */
    uint32_t *alphabet;
    uint32_t *alphabet_start;
    uint64_t *position_weight; /* the hash term of letter c at position p is c * position_weight[p] */
    uint32_t *slots;           /* whole-word lookup: open addressing, word index + 1, 0 when empty */
    size_t slot_mask;
} dictionary_group;

typedef struct dictionary {
    dictionary_group *groups; /* ascending length */
    size_t group_count;
    size_t word_count;
} dictionary;

typedef struct dictionary_builder dictionary_builder;

/* A builder that keeps words of every length (`only_length` 0) or only of `only_length` letters, and
 * indexes them the way `index` says. NULL when out of memory. */
dictionary_builder *dictionary_builder_new(size_t only_length, dictionary_neighbour_index index);

/* Adds a word (non-empty, lowercase letters: the caller checked); duplicates are dropped when
 * building. False when out of memory. */
bool dictionary_builder_add(dictionary_builder *builder, const uint32_t *letters, size_t length);

/* Removes duplicates and indexes the words; frees the builder in every case. On CORE_OK `*out` is
 * the dictionary (dictionary_free it), or NULL when the words of one length hold 2^30 letters or more
 * (too many to index). `deadline` may be NULL. */
core_status dictionary_builder_finish(dictionary_builder *builder, const deadline *deadline, dictionary **out);

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

/* The hash of word `index` (for dictionary_group_find_changed). */
uint64_t dictionary_group_word_hash(const dictionary_group *group, uint32_t index);

/* Looks up word `index` with its letter at `position` replaced by `letter`; `hash` is the hash of that
 * changed word. True with `*found` set when it is in the group. */
bool dictionary_group_find_changed(const dictionary_group *group, uint32_t index, size_t position, uint32_t letter,
                                   uint64_t hash, uint32_t *found);

/* About how many steps listing one word's neighbours costs (for deadline polling). */
static inline size_t dictionary_group_neighbour_work(const dictionary_group *group) {
    return group->bucket_of != NULL ? group->length : group->length + group->alphabet_start[group->length];
}

/* Runs `body` with `neighbour` (a uint32_t) bound to every neighbour of word `word` in `group`, each
 * once, in no particular order. `body` may `return` or `continue` (to the next neighbour). */
#define DICTIONARY_FOR_EACH_NEIGHBOUR(group, word, neighbour, body)                                                  \
    do {                                                                                                             \
        const dictionary_group *group_ = (group);                                                                    \
        uint32_t word_ = (word);                                                                                     \
        if (group_->bucket_of != NULL) {                                                                             \
            for (size_t position_ = 0; position_ < group_->length; position_++) {                                    \
                uint32_t bucket_ = group_->bucket_of[(size_t)word_ * group_->length + position_];                    \
                for (uint32_t at_ = group_->bucket_start[bucket_]; at_ < group_->bucket_start[bucket_ + 1]; at_++) { \
                    uint32_t neighbour = group_->members[at_];                                                       \
                    if (neighbour == word_) continue;                                                                \
                    body                                                                                             \
                }                                                                                                    \
            }                                                                                                        \
        } else {                                                                                                     \
            uint64_t hash_ = dictionary_group_word_hash(group_, word_);                                              \
            const uint32_t *letters_ = dictionary_group_word(group_, word_);                                         \
            for (size_t position_ = 0; position_ < group_->length; position_++) {                                    \
                uint64_t weight_ = group_->position_weight[position_];                                               \
                uint64_t blanked_ = hash_ - letters_[position_] * weight_;                                           \
                for (uint32_t at_ = group_->alphabet_start[position_]; at_ < group_->alphabet_start[position_ + 1];  \
                     at_++) {                                                                                        \
                    uint32_t letter_ = group_->alphabet[at_];                                                        \
                    uint32_t neighbour;                                                                              \
                    if (letter_ == letters_[position_] ||                                                            \
                        !dictionary_group_find_changed(group_, word_, position_, letter_,                            \
                                                       blanked_ + letter_ * weight_, &neighbour))                    \
                        continue;                                                                                    \
                    body                                                                                             \
                }                                                                                                    \
            }                                                                                                        \
        }                                                                                                            \
    } while (0)

#endif
