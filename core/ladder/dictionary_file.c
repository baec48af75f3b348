/* Reading word-list files into a dictionary (see dictionary_file.h). */
#include "core/ladder/dictionary_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/ladder/dictionary_letters.h"

static size_t without_line_end(const char *line, size_t len) {
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
        len--;
    }
    return len;
}

/* Adds the words of one file to `builder`, counting its lines in `counts`; on CORE_OK `*readable` is
 * false when the file could not be opened or read (errno tells why). */
static core_status add_file(const char *path, dictionary_builder *builder, dictionary_file_stats *counts,
                            bool *readable) {
    *readable = false;
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        return CORE_OK;
    }
    char *line = NULL;
    size_t line_capacity = 0;
    uint32_t *letters = NULL;
    size_t letters_capacity = 0;
    core_status status = CORE_NO_MEMORY;
    ssize_t read;
    while ((read = getline(&line, &line_capacity, file)) >= 0) {
        size_t len = without_line_end(line, (size_t)read);
        counts->lines++;
        if (len > letters_capacity) {
            uint32_t *grown = realloc(letters, len * sizeof *letters);
            if (grown == NULL) {
                goto out;
            }
            letters = grown;
            letters_capacity = len;
        }
        size_t length;
        if (!dictionary_word_decode(line, len, false, letters, &length)) {
            counts->skipped++;
        } else if (!dictionary_builder_add(builder, letters, length)) {
            goto out;
        }
    }
    status = CORE_OK;
out:;
    int read_error = ferror(file) ? errno : 0;
    free(line);
    free(letters);
    fclose(file);
    *readable = read_error == 0;
    errno = read_error;
    return status;
}

core_status dictionary_load_files(const char *const *paths, size_t count, dictionary **out,
                                  dictionary_file_stats *stats) {
    dictionary_file_stats counts = {0};
    core_status status = CORE_NO_MEMORY;
    *out = NULL;
    dictionary_builder *builder = dictionary_builder_new(0, DICTIONARY_NEIGHBOUR_BUCKETS);
    if (builder == NULL) {
        goto out;
    }
    for (size_t i = 0; i < count; i++) {
        bool readable;
        status = add_file(paths[i], builder, &counts, &readable);
        if (status != CORE_OK || !readable) {
            counts.unreadable = readable ? NULL : paths[i];
            goto out;
        }
    }
    status = dictionary_builder_finish(builder, NULL, out);
    builder = NULL; /* freed by finishing */
out:;
    int error = errno;
    dictionary_builder_free(builder);
    if (stats != NULL) {
        *stats = counts;
    }
    errno = error;
    return status;
}

core_status dictionary_load_file(const char *path, dictionary **out, dictionary_file_stats *stats) {
    return dictionary_load_files(&path, 1, out, stats);
}
