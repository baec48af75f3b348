/* The neighbours of a word in a dictionary group: the words of the same length exactly one letter
 * away, in code-point order. The word itself need not be in the group (a ladder's end may lie
 * outside the dictionary): then the group is scanned, else its buckets give the answer directly. */
#ifndef PUZZLED_CORE_DICTIONARY_NEIGHBOURS_H
#define PUZZLED_CORE_DICTIONARY_NEIGHBOURS_H

#include <stddef.h>
#include <stdint.h>

#include "core/common/status.h"
#include "core/ladder/dictionary.h"

/* Sets `*out` (malloc'd, free it; NULL when there are none) to the indices in `group` of the words one
 * letter away from `letters` (group->length code points), sorted by code points, and `*count`. */
core_status dictionary_neighbours(const dictionary_group *group, const uint32_t *letters, uint32_t **out,
                                  size_t *count);

/* Compares two words of `group` by code points, position by position (for sorting). */
int dictionary_group_compare(const dictionary_group *group, uint32_t a, uint32_t b);

#endif
