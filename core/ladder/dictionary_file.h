/* Loading word-list files (one word per line, UTF-8, such as /usr/share/dict/words) into a
 * dictionary. Lines that are not entirely lowercase letters under the rule of dictionary_letters.h
 * (proper nouns, possessives with apostrophes, abbreviations, malformed UTF-8) are skipped. */
#ifndef PUZZLED_CORE_DICTIONARY_FILE_H
#define PUZZLED_CORE_DICTIONARY_FILE_H

#include <stddef.h>

#include "core/ladder/dictionary.h"

typedef struct dictionary_file_stats {
    size_t lines;           /* lines read */
    size_t skipped;         /* lines that are not words of lowercase letters */
    const char *unreadable; /* the file that could not be opened or read (errno tells why), else NULL */
} dictionary_file_stats;

/* Reads `path` and builds its dictionary into `*out` (dictionary_free it). On CORE_OK `*out` is NULL
 * when the file cannot be opened or read (stats->unreadable names it, errno says why) or holds too many
 * letters (see dictionary_builder_finish). `stats` may be NULL. */
core_status dictionary_load_file(const char *path, dictionary **out, dictionary_file_stats *stats);

/* The same for the union of `count` files (SCOWL ships one file per size and variety); `stats`
 * counts the lines of all of them; the first that cannot be read ends the loading. */
core_status dictionary_load_files(const char *const *paths, size_t count, dictionary **out,
                                  dictionary_file_stats *stats);

#endif
