/* The neighbours of a word (see dictionary_neighbours.h). A word in the group finds them through the
 * group's neighbour index (dictionary.h); any other word is compared with every word of the group. */
#include "core/ladder/dictionary_neighbours.h"

#include <stdbool.h>
#include <stdlib.h>

int dictionary_group_compare(const dictionary_group *group, uint32_t a, uint32_t b) {
    const uint32_t *x = dictionary_group_word(group, a), *y = dictionary_group_word(group, b);
    for (size_t p = 0; p < group->length; p++) {
        if (x[p] != y[p]) return x[p] < y[p] ? -1 : 1;
    }
    return 0;
}

static int compare_indices(const void *a, const void *b, void *group) {
    return dictionary_group_compare(group, *(const uint32_t *)a, *(const uint32_t *)b);
}

static bool one_letter_away(const uint32_t *a, const uint32_t *b, size_t length) {
    size_t differences = 0;
    for (size_t p = 0; p < length && differences < 2; p++) differences += a[p] != b[p];
    return differences == 1;
}

/* Appends `index`, growing the list as needed. */
static bool append(uint32_t **list, size_t *count, size_t *capacity, uint32_t index) {
    if (*count == *capacity) {
        size_t grown = *capacity ? 2 * *capacity : 16;
        uint32_t *bigger = realloc(*list, grown * sizeof *bigger);
        if (bigger == NULL) return false;
        *list = bigger;
        *capacity = grown;
    }
    (*list)[(*count)++] = index;
    return true;
}

core_status dictionary_neighbours(const dictionary_group *group, const uint32_t *letters, uint32_t **out,
                                  size_t *count) {
    uint32_t *list = NULL, word;
    size_t capacity = 0;
    core_status status = CORE_NO_MEMORY;
    *count = 0;
    if (dictionary_group_find(group, letters, &word)) {
        DICTIONARY_FOR_EACH_NEIGHBOUR(group, word, next, {
            if (!append(&list, count, &capacity, next)) goto out;
        });
    } else {
        for (uint32_t w = 0; w < group->count; w++) {
            if (one_letter_away(letters, dictionary_group_word(group, w), group->length) &&
                !append(&list, count, &capacity, w))
                goto out;
        }
    }
    if (*count > 1) qsort_r(list, *count, sizeof *list, compare_indices, (void *)group); /* list is NULL at 0 */
    *out = list;
    list = NULL;
    status = CORE_OK;
out:
    free(list);
    return status;
}
