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

/* Adds the words of one file to `builder`, counting its lines in `counts`. */
static dictionary_status add_file(const char *path, dictionary_builder *builder, dictionary_file_stats *counts) {
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        return DICTIONARY_UNREADABLE;
    }
    char *line = NULL;
    size_t line_capacity = 0;
    uint32_t *letters = NULL;
    size_t letters_capacity = 0;
    dictionary_status status = DICTIONARY_OK;
    ssize_t read;
    while (status == DICTIONARY_OK && (read = getline(&line, &line_capacity, file)) >= 0) {
        size_t len = without_line_end(line, (size_t)read);
        counts->lines++;
        if (len > letters_capacity) {
            uint32_t *grown = realloc(letters, len * sizeof *letters);
            if (grown == NULL) {
                status = DICTIONARY_OUT_OF_MEMORY;
                break;
            }
            letters = grown;
            letters_capacity = len;
        }
        size_t length;
        if (!dictionary_word_decode(line, len, false, letters, &length)) {
            counts->skipped++;
        } else if (!dictionary_builder_add(builder, letters, length)) {
            status = DICTIONARY_OUT_OF_MEMORY;
        }
    }
    int read_error = ferror(file) ? errno : 0;
    free(line);
    free(letters);
    fclose(file);
    if (status == DICTIONARY_OK && read_error != 0) {
        status = DICTIONARY_UNREADABLE;
    }
    errno = read_error;
    return status;
}

dictionary_status dictionary_load_files(const char *const *paths, size_t count, dictionary **out,
                                        dictionary_file_stats *stats) {
    dictionary_builder *builder = dictionary_builder_new(0, DICTIONARY_NEIGHBOUR_BUCKETS);
    dictionary_file_stats counts = {0};
    dictionary_status status = builder == NULL ? DICTIONARY_OUT_OF_MEMORY : DICTIONARY_OK;
    for (size_t i = 0; status == DICTIONARY_OK && i < count; i++) {
        status = add_file(paths[i], builder, &counts);
    }
    if (status != DICTIONARY_OK) {
        int error = errno;
        dictionary_builder_free(builder);
        errno = error;
        return status;
    }
    if (stats != NULL) {
        *stats = counts;
    }
    return dictionary_builder_finish(builder, NULL, out);
}

dictionary_status dictionary_load_file(const char *path, dictionary **out, dictionary_file_stats *stats) {
    return dictionary_load_files(&path, 1, out, stats);
}
