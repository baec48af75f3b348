/* Building and querying the word-ladder dictionary: grouping by length, sorting, removing
 * duplicates, and the blanked-letter bucket index (see dictionary.h). */
#include "core/dictionary.h"

#include <stdlib.h>
#include <string.h>

enum { POLL_EVERY = 1024 };

/* Letters per group: keeps word indices, bucket numbers and key-table slots within uint32_t. */
static const size_t MAX_GROUP_LETTERS = (size_t)1 << 30;

static const uint64_t HASH_BASE = 0x9E3779B97F4A7C15ull;
static const uint64_t POSITION_SALT = 0xD6E8FEB86659FD93ull;

typedef struct pending_group {
    size_t length;
    size_t count;
    size_t capacity;
    uint32_t *letters;
} pending_group;

struct dictionary_builder {
    size_t only_length;
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

dictionary_builder *dictionary_builder_new(size_t only_length) {
    dictionary_builder *builder = calloc(1, sizeof *builder);
    if (builder != NULL) {
        builder->only_length = only_length;
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

static int compare_words(const void *a, const void *b, void *length) {
    const uint32_t *x = *(const uint32_t *const *)a;
    const uint32_t *y = *(const uint32_t *const *)b;
    for (size_t i = 0; i < *(const size_t *)length; i++) {
        if (x[i] != y[i]) {
            return x[i] < y[i] ? -1 : 1;
        }
    }
    return 0;
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
    free(group->slots);
}

/* Copies the pending words into `group` in code-point order without duplicates. */
static dictionary_status sort_unique(const pending_group *pending, dictionary_group *group) {
    size_t length = pending->length;
    const uint32_t **order = malloc(pending->count * sizeof *order);
    group->letters = malloc(pending->count * length * sizeof *group->letters);
    if (order == NULL || group->letters == NULL) {
        free(order);
        return DICTIONARY_OUT_OF_MEMORY;
    }
    for (size_t w = 0; w < pending->count; w++) {
        order[w] = pending->letters + w * length;
    }
    qsort_r(order, pending->count, sizeof *order, compare_words, &length);
    size_t count = 0;
    for (size_t w = 0; w < pending->count; w++) {
        if (count > 0 &&
            memcmp(order[w], group->letters + (count - 1) * length, length * sizeof(uint32_t)) == 0) {
            continue;
        }
        memcpy(group->letters + count * length, order[w], length * sizeof(uint32_t));
        count++;
    }
    free(order);
    group->length = length;
    group->count = (uint32_t)count;
    return DICTIONARY_OK;
}

static dictionary_status build_lookup(dictionary_group *group) {
    size_t size = table_size_for(group->count);
    group->slots = calloc(size, sizeof *group->slots);
    if (group->slots == NULL) {
        return DICTIONARY_OUT_OF_MEMORY;
    }
    group->slot_mask = size - 1;
    for (uint32_t w = 0; w < group->count; w++) {
        size_t slot = mix64(word_hash(dictionary_group_word(group, w), group->length)) & group->slot_mask;
        while (group->slots[slot] != 0) {
            slot = (slot + 1) & group->slot_mask;
        }
        group->slots[slot] = w + 1;
    }
    return DICTIONARY_OK;
}

/* One blanked key of the bucket table: a representative word and the blanked position. */
typedef struct key_slot {
    uint64_t hash;
    uint32_t word_plus_one; /* 0: empty */
    uint32_t position;
    uint32_t size;   /* words sharing the key */
    uint32_t bucket; /* final bucket number (0 for keys of a single word) */
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
    size_t slot = mix64(blanked_hash + (p + 1) * POSITION_SALT) & mask;
    const uint32_t *word = dictionary_group_word(group, w);
    for (;;) {
        key_slot *entry = &table[slot];
        if (entry->word_plus_one == 0) {
            *entry = (key_slot){.hash = blanked_hash, .word_plus_one = w + 1, .position = (uint32_t)p};
            return slot;
        }
        if (entry->hash == blanked_hash && entry->position == p &&
            equal_except(dictionary_group_word(group, entry->word_plus_one - 1), word, group->length, p)) {
            return slot;
        }
        slot = (slot + 1) & mask;
    }
}

static dictionary_status build_buckets(dictionary_group *group, const deadline *deadline) {
    size_t length = group->length;
    size_t keys = (size_t)group->count * length;
    size_t table_size = table_size_for(keys);
    key_slot *table = calloc(table_size, sizeof *table);
    uint64_t *weights = malloc(length * sizeof *weights);
    group->bucket_of = malloc((keys ? keys : 1) * sizeof *group->bucket_of);
    if (table == NULL || weights == NULL || group->bucket_of == NULL) {
        free(table);
        free(weights);
        return DICTIONARY_OUT_OF_MEMORY;
    }
    /* weights[p] = HASH_BASE^(length-1-p): removing letter p from the hash is one multiply. */
    uint64_t weight = 1;
    for (size_t p = length; p-- > 0;) {
        weights[p] = weight;
        weight *= HASH_BASE;
    }
    dictionary_status status = DICTIONARY_OK;
    for (uint32_t w = 0; w < group->count; w++) {
        if (w % POLL_EVERY == 0 && deadline_expired(deadline)) {
            status = DICTIONARY_DEADLINE_EXCEEDED;
            break;
        }
        const uint32_t *word = dictionary_group_word(group, w);
        uint64_t hash = word_hash(word, length);
        for (size_t p = 0; p < length; p++) {
            size_t slot = key_slot_for(group, table, table_size - 1, w, p, hash - word[p] * weights[p]);
            table[slot].size++;
            group->bucket_of[(size_t)w * length + p] = (uint32_t)slot;
        }
    }
    free(weights);
    size_t bucket_count = 1;
    size_t member_count = 0;
    for (size_t slot = 0; status == DICTIONARY_OK && slot < table_size; slot++) {
        if (table[slot].size >= 2) {
            table[slot].bucket = (uint32_t)bucket_count++;
            member_count += table[slot].size;
        }
    }
    if (status == DICTIONARY_OK) {
        group->bucket_start = calloc(bucket_count + 1, sizeof *group->bucket_start);
        group->members = malloc((member_count ? member_count : 1) * sizeof *group->members);
        if (group->bucket_start == NULL || group->members == NULL) {
            status = DICTIONARY_OUT_OF_MEMORY;
        }
    }
    if (status == DICTIONARY_OK) {
        for (size_t slot = 0; slot < table_size; slot++) {
            if (table[slot].bucket != 0) {
                group->bucket_start[table[slot].bucket + 1] = table[slot].size;
            }
        }
        for (size_t b = 1; b <= bucket_count; b++) {
            group->bucket_start[b] += group->bucket_start[b - 1];
        }
        /* Fill in ascending word order, using each key's size as a countdown of free places. */
        for (size_t k = 0; k < keys; k++) {
            key_slot *entry = &table[group->bucket_of[k]];
            uint32_t bucket = entry->bucket;
            group->bucket_of[k] = bucket;
            if (bucket != 0) {
                uint32_t filled = group->bucket_start[bucket + 1] - group->bucket_start[bucket] - entry->size;
                group->members[group->bucket_start[bucket] + filled] = (uint32_t)(k / length);
                entry->size--;
            }
        }
    }
    free(table);
    return status;
}

static dictionary_status build_group(const pending_group *pending, dictionary_group *group,
                                     const deadline *deadline) {
    if (pending->count * pending->length >= MAX_GROUP_LETTERS) {
        return DICTIONARY_TOO_LARGE;
    }
    dictionary_status status = sort_unique(pending, group);
    if (status == DICTIONARY_OK) {
        status = build_lookup(group);
    }
    if (status == DICTIONARY_OK) {
        status = build_buckets(group, deadline);
    }
    return status;
}

dictionary_status dictionary_builder_finish(dictionary_builder *builder, const deadline *deadline,
                                            dictionary **out) {
    dictionary *dict = calloc(1, sizeof *dict);
    if (dict != NULL && builder->group_count > 0) {
        dict->groups = calloc(builder->group_count, sizeof *dict->groups);
    }
    if (dict == NULL || (builder->group_count > 0 && dict->groups == NULL)) {
        free(dict);
        dictionary_builder_free(builder);
        return DICTIONARY_OUT_OF_MEMORY;
    }
    if (builder->group_count > 0) {
        qsort(builder->groups, builder->group_count, sizeof *builder->groups, compare_groups);
    }
    dictionary_status status = DICTIONARY_OK;
    for (size_t g = 0; g < builder->group_count && status == DICTIONARY_OK; g++) {
        status = build_group(&builder->groups[g], &dict->groups[g], deadline);
        dict->group_count = g + 1;
        dict->word_count += dict->groups[g].count;
        free(builder->groups[g].letters); /* keep peak memory near one copy of the words */
        builder->groups[g].letters = NULL;
    }
    dictionary_builder_free(builder);
    if (status != DICTIONARY_OK) {
        dictionary_free(dict);
        return status;
    }
    *out = dict;
    return DICTIONARY_OK;
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
