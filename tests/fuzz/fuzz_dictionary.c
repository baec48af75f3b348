/* Fuzz target: word lists for /word-ladder (core/ladder/dictionary*.c, api/ladder/word_ladder_words.c): a
 * word-list file as --dict loads it, and a request's own `dictionary` field.
 * Input: byte 0 picks the use; the rest is a word list, one word a line.
 *   0: loaded as a file (dictionary_load_file); every word indexed must be found again, in its group;
 *   1: /word-ladder/neighbours of the first line, the lines as the dictionary;
 *   2: /word-ladder from the first line to the second, the lines as the dictionary;
 *   3: /word-ladder/verify with the lines as the ladder and as the dictionary. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/ladder/dictionary_file.h"
#include "core/ladder/dictionary_letters.h"
#include "fuzz_request.h"

static void load_as_file(const uint8_t *data, size_t size) {
    int fd = memfd_create("fuzz-word-list", 0);
    fuzz_require(fd >= 0, "memfd_create failed");
    fuzz_require(write(fd, data, size) == (ssize_t)size, "writing the word list failed");
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    dictionary *dict = NULL;
    dictionary_file_stats stats;
    dictionary_status status = dictionary_load_file(path, &dict, &stats);
    close(fd);
    fuzz_require(status == DICTIONARY_OK, "a word list in memory did not load");
    size_t words = 0;
    for (size_t g = 0; g < dict->group_count; g++) {
        const dictionary_group *group = &dict->groups[g];
        fuzz_require(dictionary_group_of_length(dict, group->length) == group, "a group is not found by length");
        for (uint32_t w = 0; w < group->count; w++) {
            const uint32_t *word = dictionary_group_word(group, w);
            for (size_t i = 0; i < group->length; i++)
                fuzz_require(dictionary_is_lowercase_letter(word[i]), "an indexed word holds a non-letter");
            uint32_t found;
            fuzz_require(dictionary_group_find(group, word, &found) && found == w, "an indexed word is not found");
        }
        words += group->count;
    }
    fuzz_require(words == dict->word_count, "the groups do not add up to the word count");
    fuzz_require(stats.skipped <= stats.lines, "more lines skipped than read");
    dictionary_free(dict);
}

/* The lines of the input as a JSON array of strings (cut at NULs, as cJSON would). */
static cJSON *lines_of(const char *text, size_t len) {
    cJSON *lines = cJSON_CreateArray();
    size_t start = 0;
    while (start < len) {
        const char *newline = memchr(text + start, '\n', len - start);
        size_t end = newline ? (size_t)(newline - text) : len;
        char *line = strndup(text + start, end - start);
        cJSON_AddItemToArray(lines, cJSON_CreateString(line));
        free(line);
        start = end + 1;
    }
    return lines;
}

static void add_line(cJSON *params, const char *name, const cJSON *lines, int index) {
    const cJSON *line = cJSON_GetArrayItem(lines, index);
    cJSON_AddStringToObject(params, name, line ? line->valuestring : "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    cJSON *params = cJSON_CreateObject();
    cJSON *lines = lines_of(text, len);
    switch (data[0] % 4) {
    case 0:
        cJSON_Delete(params);
        cJSON_Delete(lines);
        load_as_file(data + 1, len);
        return 0;
    case 1:
        add_line(params, "word", lines, 0);
        cJSON_AddItemToObject(params, "dictionary", lines);
        fuzz_run_params(fuzz_endpoint_at("/word-ladder/neighbours"), params, false, NULL, 0);
        return 0;
    case 2:
        add_line(params, "from", lines, 0);
        add_line(params, "to", lines, 1);
        cJSON_AddItemToObject(params, "dictionary", lines);
        cJSON_AddTrueToObject(params, "all");
        fuzz_run_params(fuzz_endpoint_at("/word-ladder"), params, data[0] & 4, NULL, 0);
        return 0;
    default:
        cJSON_AddItemToObject(params, "ladder", cJSON_Duplicate(lines, true));
        cJSON_AddItemToObject(params, "dictionary", lines);
        fuzz_run_params(fuzz_endpoint_at("/word-ladder/verify"), params, false, NULL, 0);
        return 0;
    }
}
