/* Building and querying the word-ladder dictionary: grouping by length, removing duplicates, the
 * blanked-letter bucket index and the letters-per-position substitution index (see dictionary.h). */
#include "core/ladder/dictionary.h"

#include "core/ladder/dictionary_letters.h"

#include <stdlib.h>
#include <string.h>

/* Letters handled between two looks at the deadline. */
enum { POLL_LETTERS = 16384 };

/* Letters per group: keeps word indices, bucket numbers and key-table slots within uint32_t. */
static const size_t MAX_GROUP_LETTERS = (size_t)1 << 30;

static const uint64_t HASH_BASE = 0x9E3779B97F4A7C15ull;

typedef struct pending_group {
    size_t length;
    size_t count;
    size_t capacity;
    uint32_t *letters;
} pending_group;

struct dictionary_builder {
    size_t only_length;
    dictionary_neighbour_index index;
    pending_group *groups;
    size_t group_count;
    size_t group_capacity;
};

static uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
}

static uint64_t word_hash(const uint32_t *letters, size_t length) {
    uint64_t h = 0;
    for (size_t i = 0; i < length; i++) {
        h = h * HASH_BASE + letters[i];
    }
    return h;
}

static size_t table_size_for(size_t keys) {
    size_t size = 16;
    while (size < 2 * keys) {
        size *= 2;
    }
    return size;
}

dictionary_builder *dictionary_builder_new(size_t only_length, dictionary_neighbour_index index) {
    dictionary_builder *builder = calloc(1, sizeof *builder);
    if (builder != NULL) {
        builder->only_length = only_length;
        builder->index = index;
    }
    return builder;
}

void dictionary_builder_free(dictionary_builder *builder) {
    if (builder == NULL) {
        return;
    }
    for (size_t g = 0; g < builder->group_count; g++) {
        free(builder->groups[g].letters);
    }
    free(builder->groups);
    free(builder);
}

static pending_group *pending_group_for(dictionary_builder *builder, size_t length) {
    for (size_t g = 0; g < builder->group_count; g++) {
        if (builder->groups[g].length == length) {
            return &builder->groups[g];
        }
    }
    if (builder->group_count == builder->group_capacity) {
        size_t capacity = builder->group_capacity ? 2 * builder->group_capacity : 8;
        pending_group *grown = realloc(builder->groups, capacity * sizeof *grown);
        if (grown == NULL) {
            return NULL;
        }
        builder->groups = grown;
        builder->group_capacity = capacity;
    }
    pending_group *group = &builder->groups[builder->group_count++];
    *group = (pending_group){.length = length};
    return group;
}

bool dictionary_builder_add(dictionary_builder *builder, const uint32_t *letters, size_t length) {
    if (builder->only_length != 0 && length != builder->only_length) {
        return true;
    }
    pending_group *group = pending_group_for(builder, length);
    if (group == NULL) {
        return false;
    }
    if (group->count == group->capacity) {
        size_t capacity = group->capacity ? 2 * group->capacity : 64;
        if (capacity > SIZE_MAX / sizeof(uint32_t) / length) {
            return false;
        }
        uint32_t *grown = realloc(group->letters, capacity * length * sizeof *grown);
        if (grown == NULL) {
            return false;
        }
        group->letters = grown;
        group->capacity = capacity;
    }
    memcpy(group->letters + group->count * length, letters, length * sizeof *letters);
    group->count++;
    return true;
}

static int compare_groups(const void *a, const void *b) {
    size_t x = ((const pending_group *)a)->length;
    size_t y = ((const pending_group *)b)->length;
    return (x > y) - (x < y);
}

static void group_free(dictionary_group *group) {
    free(group->letters);
    free(group->bucket_of);
    free(group->bucket_start);
    free(group->members);
    free(group->alphabet);
    free(group->alphabet_start);
    free(group->position_weight);
    free(group->slots);
}

/* The letters seen at each position, as one bitmap per position. */
enum { LETTER_SET_WORDS = DICTIONARY_LETTER_END / 64 + 1 };
typedef uint64_t letter_set[LETTER_SET_WORDS];

/* Moves the pending words into `group` in the order they came, dropping duplicates in place (the
 * group takes over the pending array, so the words are never copied whole), and fills the
 * whole-word lookup table on the way, and `seen` (one set per position) when it is not NULL. */
static core_status unique_words(pending_group *pending, dictionary_group *group, letter_set *seen,
                                const deadline *deadline) {
    size_t length = pending->length;
    size_t size = table_size_for(pending->count);
    group->length = length;
    group->slots = calloc(size, sizeof *group->slots);
    if (group->slots == NULL) {
        return CORE_NO_MEMORY;
    }
    group->letters = pending->letters;
    pending->letters = NULL;
    group->slot_mask = size - 1;
    uint32_t count = 0;
    size_t poll_every = length >= POLL_LETTERS ? 1 : POLL_LETTERS / length;
    for (size_t w = 0; w < pending->count; w++) {
        if (w % poll_every == 0 && deadline_expired(deadline)) {
            return CORE_DEADLINE;
        }
        const uint32_t *word = group->letters + w * length;
        size_t slot = mix64(word_hash(word, length)) & group->slot_mask;
        bool duplicate = false;
        while (group->slots[slot] != 0 && !duplicate) {
            duplicate = memcmp(dictionary_group_word(group, group->slots[slot] - 1), word, length * sizeof *word) == 0;
            slot = (slot + 1) & group->slot_mask;
        }
        if (!duplicate) {
            if (count < w) { /* word `count` is before word `w`: the two do not overlap */
                memcpy(group->letters + (size_t)count * length, word, length * sizeof *word);
            }
            group->slots[slot] = ++count;
            for (size_t p = 0; seen != NULL && p < length; p++) {
                seen[p][word[p] / 64] |= (uint64_t)1 << (word[p] % 64);
            }
        }
    }
    group->count = count;
    if (count > 0 && count < pending->capacity) { /* give back the room of the duplicates and the spare */
        uint32_t *shrunk = realloc(group->letters, (size_t)count * length * sizeof *shrunk);
        group->letters = shrunk != NULL ? shrunk : group->letters;
    }
    return CORE_OK;
}

/* One blanked key of the table of one position: a representative word and how many share it. */
typedef struct key_slot {
    uint64_t hash;
    uint32_t word_plus_one; /* 0: empty */
    uint32_t size;          /* words sharing the key */
    uint32_t bucket;        /* its bucket number, once numbered (0 until then) */
} key_slot;

static bool equal_except(const uint32_t *x, const uint32_t *y, size_t length, size_t blank) {
    for (size_t i = 0; i < length; i++) {
        if (i != blank && x[i] != y[i]) {
            return false;
        }
    }
    return true;
}

/* Finds or inserts the key of word `w` with letter `p` blanked; returns its slot. */
static size_t key_slot_for(const dictionary_group *group, key_slot *table, size_t mask, uint32_t w, size_t p,
                           uint64_t blanked_hash) {
    size_t slot = mix64(blanked_hash) & mask;
    const uint32_t *word = dictionary_group_word(group, w);
    for (;;) {
        key_slot *entry = &table[slot];
        if (entry->word_plus_one == 0) {
            *entry = (key_slot){.hash = blanked_hash, .word_plus_one = w + 1};
            return slot;
        }
        if (entry->hash == blanked_hash &&
            equal_except(dictionary_group_word(group, entry->word_plus_one - 1), word, group->length, p)) {
            return slot;
        }
        slot = (slot + 1) & mask;
    }
}

/* Scratch space of the bucket build. */
typedef struct bucket_build {
    key_slot *table; /* one position's keys; sized for the words of the group */
    size_t table_size;
    uint64_t *word_hashes; /* the polynomial hash of each word */
    uint32_t *sizes;       /* sizes[b]: words in bucket b */
    size_t bucket_count;   /* numbered so far, counting the empty bucket 0 */
    size_t bucket_capacity;
} bucket_build;

/* Numbers the buckets of position `p` (keys shared by two words or more) and records each word's. */
static core_status number_position(dictionary_group *group, bucket_build *build, size_t p, uint64_t weight,
                                   const deadline *deadline) {
    size_t length = group->length;
    size_t mask = build->table_size - 1;
    memset(build->table, 0, build->table_size * sizeof *build->table);
    size_t poll_every = length >= POLL_LETTERS ? 1 : POLL_LETTERS / length;
    for (uint32_t w = 0; w < group->count; w++) {
        if (w % poll_every == 0 && deadline_expired(deadline)) {
            return CORE_DEADLINE;
        }
        uint64_t blanked = build->word_hashes[w] - dictionary_group_word(group, w)[p] * weight;
        size_t slot = key_slot_for(group, build->table, mask, w, p, blanked);
        build->table[slot].size++;
        group->bucket_of[(size_t)w * length + p] = (uint32_t)slot;
    }
    for (uint32_t w = 0; w < group->count; w++) {
        uint32_t *bucket_of = &group->bucket_of[(size_t)w * length + p];
        key_slot *entry = &build->table[*bucket_of];
        if (entry->size >= 2 && entry->bucket == 0) {
            if (build->bucket_count == build->bucket_capacity) {
                size_t capacity = 2 * build->bucket_capacity;
                uint32_t *grown = realloc(build->sizes, capacity * sizeof *grown);
                if (grown == NULL) {
                    return CORE_NO_MEMORY;
                }
                build->sizes = grown;
                build->bucket_capacity = capacity;
            }
            entry->bucket = (uint32_t)build->bucket_count;
            build->sizes[build->bucket_count++] = entry->size;
        }
        *bucket_of = entry->bucket;
    }
    return CORE_OK;
}

/* Lays the buckets out one after the other, members in ascending word order. */
static core_status place_members(dictionary_group *group, const bucket_build *build) {
    size_t keys = (size_t)group->count * group->length;
    uint32_t *next_place = NULL;
    core_status status = CORE_NO_MEMORY;
    group->bucket_start = malloc((build->bucket_count + 1) * sizeof *group->bucket_start);
    if (group->bucket_start == NULL) {
        goto out;
    }
    group->bucket_start[0] = 0;
    group->bucket_start[1] = 0; /* bucket 0 is empty */
    for (size_t b = 1; b < build->bucket_count; b++) {
        group->bucket_start[b + 1] = group->bucket_start[b] + build->sizes[b];
    }
    size_t member_count = group->bucket_start[build->bucket_count];
    group->members = malloc((member_count ? member_count : 1) * sizeof *group->members);
    next_place = malloc(build->bucket_count * sizeof *next_place);
    if (group->members == NULL || next_place == NULL) {
        goto out;
    }
    memcpy(next_place, group->bucket_start, build->bucket_count * sizeof *next_place);
    for (size_t k = 0; k < keys; k++) {
        uint32_t bucket = group->bucket_of[k];
        if (bucket != 0) {
            group->members[next_place[bucket]++] = (uint32_t)(k / group->length);
        }
    }
    status = CORE_OK;
out:
    free(next_place);
    return status;
}

/* Builds the buckets one position at a time, so the key table stays as small as the group. */
static core_status build_buckets(dictionary_group *group, const deadline *deadline) {
    size_t length = group->length;
    size_t keys = (size_t)group->count * length;
    bucket_build build = {.table_size = table_size_for(group->count), .bucket_count = 1, .bucket_capacity = 1024};
    build.table = malloc(build.table_size * sizeof *build.table);
    build.word_hashes = malloc((group->count ? group->count : 1) * sizeof *build.word_hashes);
    build.sizes = malloc(build.bucket_capacity * sizeof *build.sizes);
    group->bucket_of = malloc((keys ? keys : 1) * sizeof *group->bucket_of);
    core_status status = CORE_NO_MEMORY;
    if (build.table == NULL || build.word_hashes == NULL || build.sizes == NULL || group->bucket_of == NULL) {
        goto out;
    }
    for (uint32_t w = 0; w < group->count; w++) {
        build.word_hashes[w] = word_hash(dictionary_group_word(group, w), length);
    }
    build.sizes[0] = 0;
    /* Removing letter p from a word's hash subtracts letter * HASH_BASE^(length-1-p). */
    uint64_t weight = 1;
    for (size_t p = length; p-- > 0;) {
        status = number_position(group, &build, p, weight, deadline);
        if (status != CORE_OK) {
            goto out;
        }
        weight *= HASH_BASE;
    }
    status = place_members(group, &build);
out:
    free(build.table);
    free(build.word_hashes);
    free(build.sizes);
    return status;
}

/* The substitution index from the letters `seen` at each position (read out in ascending order) and
 * the hash weight of each position. */
static core_status build_substitution(dictionary_group *group, const letter_set *seen) {
    size_t length = group->length;
    size_t letters = 0;
    for (size_t p = 0; p < length; p++) {
        for (size_t i = 0; i < LETTER_SET_WORDS; i++) {
            letters += (size_t)__builtin_popcountll(seen[p][i]);
        }
    }
    group->alphabet = malloc((letters ? letters : 1) * sizeof *group->alphabet);
    group->alphabet_start = malloc((length + 1) * sizeof *group->alphabet_start);
    group->position_weight = malloc(length * sizeof *group->position_weight);
    if (group->alphabet == NULL || group->alphabet_start == NULL || group->position_weight == NULL) {
        return CORE_NO_MEMORY;
    }
    uint64_t weight = 1; /* the hash is the sum of letter[p] * HASH_BASE^(length-1-p) */
    for (size_t p = length; p-- > 0;) {
        group->position_weight[p] = weight;
        weight *= HASH_BASE;
    }
    size_t at = 0;
    for (size_t p = 0; p < length; p++) {
        group->alphabet_start[p] = (uint32_t)at;
        for (uint32_t i = 0; i < LETTER_SET_WORDS; i++) {
            for (uint64_t bits = seen[p][i]; bits != 0; bits &= bits - 1) {
                group->alphabet[at++] = i * 64 + (uint32_t)__builtin_ctzll(bits);
            }
        }
    }
    group->alphabet_start[length] = (uint32_t)at;
    return CORE_OK;
}

/* Buckets: the words, then the bucket index. Substitution: one pass over the words fills the word
 * table and the letters seen, then the small per-position index. */
static core_status build_group(pending_group *pending, dictionary_neighbour_index index, dictionary_group *group,
                               const deadline *deadline) {
    if (index == DICTIONARY_NEIGHBOUR_BUCKETS) {
        core_status status = unique_words(pending, group, NULL, deadline);
        return status == CORE_OK ? build_buckets(group, deadline) : status;
    }
    letter_set *seen = calloc(pending->length, sizeof *seen);
    if (seen == NULL) {
        return CORE_NO_MEMORY;
    }
    core_status status = unique_words(pending, group, seen, deadline);
    if (status != CORE_OK) {
        goto out;
    }
    status = build_substitution(group, seen);
out:
    free(seen);
    return status;
}

static bool too_large(const dictionary_builder *builder) {
    for (size_t g = 0; g < builder->group_count; g++) {
        if (builder->groups[g].count * builder->groups[g].length >= MAX_GROUP_LETTERS) {
            return true;
        }
    }
    return false;
}

core_status dictionary_builder_finish(dictionary_builder *builder, const deadline *deadline, dictionary **out) {
    core_status status = CORE_OK;
    dictionary *dict = NULL;
    *out = NULL;
    if (too_large(builder)) {
        goto out;
    }
    status = CORE_NO_MEMORY;
    dict = calloc(1, sizeof *dict);
    if (dict == NULL) {
        goto out;
    }
    if (builder->group_count > 0) {
        dict->groups = calloc(builder->group_count, sizeof *dict->groups);
        if (dict->groups == NULL) {
            goto out;
        }
        qsort(builder->groups, builder->group_count, sizeof *builder->groups, compare_groups);
    }
    status = CORE_OK;
    for (size_t g = 0; g < builder->group_count; g++) {
        status = build_group(&builder->groups[g], builder->index, &dict->groups[g], deadline);
        dict->group_count = g + 1;
        dict->word_count += dict->groups[g].count;
        if (status != CORE_OK) {
            goto out;
        }
    }
    *out = dict;
    dict = NULL;
out:
    dictionary_builder_free(builder);
    dictionary_free(dict);
    return status;
}

void dictionary_free(dictionary *dict) {
    if (dict == NULL) {
        return;
    }
    for (size_t g = 0; g < dict->group_count; g++) {
        group_free(&dict->groups[g]);
    }
    free(dict->groups);
    free(dict);
}

const dictionary_group *dictionary_group_of_length(const dictionary *dict, size_t length) {
    size_t low = 0;
    size_t high = dict->group_count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (dict->groups[mid].length < length) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    return low < dict->group_count && dict->groups[low].length == length ? &dict->groups[low] : NULL;
}

uint64_t dictionary_group_word_hash(const dictionary_group *group, uint32_t index) {
    return word_hash(dictionary_group_word(group, index), group->length);
}

bool dictionary_group_find_changed(const dictionary_group *group, uint32_t index, size_t position, uint32_t letter,
                                   uint64_t hash, uint32_t *found) {
    const uint32_t *word = dictionary_group_word(group, index);
    size_t slot = mix64(hash) & group->slot_mask;
    while (group->slots[slot] != 0) {
        uint32_t w = group->slots[slot] - 1;
        const uint32_t *candidate = dictionary_group_word(group, w);
        if (candidate[position] == letter && equal_except(candidate, word, group->length, position)) {
            *found = w;
            return true;
        }
        slot = (slot + 1) & group->slot_mask;
    }
    return false;
}

bool dictionary_group_find(const dictionary_group *group, const uint32_t *letters, uint32_t *index) {
    size_t slot = mix64(word_hash(letters, group->length)) & group->slot_mask;
    while (group->slots[slot] != 0) {
        uint32_t w = group->slots[slot] - 1;
        if (memcmp(dictionary_group_word(group, w), letters, group->length * sizeof *letters) == 0) {
            *index = w;
            return true;
        }
        slot = (slot + 1) & group->slot_mask;
    }
    return false;
}
