/* What the word-ladder endpoints share (see word_ladder_words.h).
 *
 * Dictionaries: the built-in one (--dict, default Debian's wamerican), the common-words one (--common-dict,
 * default SCOWL up to size 35, asked for with dictionary "common"), or the request's own list.
 *
 * Decisions: words are lowered (dictionary_letters.h) and must be words of letters, else a 400.
 * Entries of a request `dictionary` are lowered the same way and must all be words of letters (else a
 * 400 naming the entry), because a request that silently lost entries could answer a different
 * question; duplicates are harmless. Only entries of the length asked for are indexed, with the
 * substitution index (core/ladder/dictionary.h: one pass over the entries; the search then looks up
 * only the words it reaches), where the built-in dictionaries use the bucket index built at start-up. */
#include "api/ladder/word_ladder_words.h"

#include <stdio.h>

#include "core/common/monotonic.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "core/ladder/dictionary_file.h"
#include "core/ladder/dictionary_letters.h"

#define MAX_ECHOED_BYTES 64

/* Read-only after start-up, so request threads share them without locks. */
static dictionary *builtin_dictionary; /* --dict */
static dictionary *common_dictionary;  /* --common-dict: dictionary "common" */

#define MAX_LISTS 64

/* Loads the union of `count` word lists into `*into`; says how it went on stderr. */
static bool load(const char *const *paths, size_t count, const char *shown, dictionary **into) {
    int64_t start_ns = monotonic_now_ns();
    dictionary_file_stats stats;
    bool loaded = dictionary_load_files(paths, count, into, &stats) == CORE_OK && *into != NULL;
    int64_t end_ns = monotonic_now_ns();
    if (!loaded) {
        dictionary_free(*into);
        *into = NULL;
        if (stats.unreadable != NULL) fprintf(stderr, "puzzled: cannot read the word list %s: %m\n", shown);
        else fprintf(stderr, "puzzled: cannot index the word list %s: too many letters, or out of memory\n", shown);
        return false;
    }
    double ms = (double)(end_ns - start_ns) / 1e6;
    fprintf(stderr, "puzzled: word list %s: %zu words indexed in %.0f ms (%zu of %zu lines skipped)\n", shown,
            (*into)->word_count, ms, stats.skipped, stats.lines);
    return true;
}

bool word_ladder_load_dictionary(const char *path) { return load(&path, 1, path, &builtin_dictionary); }

bool word_ladder_load_common_dictionary(const char *paths) {
    char *copy = strdup(paths), *save = NULL;
    const char *lists[MAX_LISTS];
    size_t count = 0;
    for (char *list = copy ? strtok_r(copy, ":", &save) : NULL; list != NULL && count < MAX_LISTS;
         list = strtok_r(NULL, ":", &save))
        lists[count++] = list;
    bool ok = count > 0 && load(lists, count, paths, &common_dictionary);
    if (count == 0) fprintf(stderr, "puzzled: no word list in --common-dict '%s'\n", paths);
    free(copy);
    return ok;
}

void word_ladder_unload_dictionary(void) {
    dictionary_free(builtin_dictionary);
    dictionary_free(common_dictionary);
    builtin_dictionary = common_dictionary = NULL;
}

/* `, got "..."` when the text is short, valid UTF-8, else nothing: messages stay valid and small. */
static const char *echo(const char *text, char *buffer, size_t size) {
    size_t len = strlen(text);
    uint32_t code_points[MAX_ECHOED_BYTES];
    size_t count;
    if (len > MAX_ECHOED_BYTES || !dictionary_utf8_decode(text, len, code_points, &count)) return "";
    snprintf(buffer, size, ", got \"%s\"", text);
    return buffer;
}

static const char LETTERS_RULE[] =
    "letters are a-z, the Latin-1 and Latin Extended-A letters such as \xC3\xA9 or \xC5\x82, and Greek and "
    "Cyrillic letters, in either case";

bool ladder_word_read(api_request *req, const char *name, uint32_t **out, size_t *length) {
    const char *text = param_string(req, name);
    if (text == NULL)
        return api_fail(req, API_MISSING_FIELD, name, "'%s' is required: a word of letters; %s", name, LETTERS_RULE);
    size_t len = strlen(text);
    *out = malloc((len ? len : 1) * sizeof **out);
    if (*out == NULL) return api_fail_out_of_memory(req);
    if (!dictionary_word_decode(text, len, true, *out, length)) {
        char got[MAX_ECHOED_BYTES + 16];
        return api_fail(req, API_INVALID_FIELD, name, "'%s' must be a non-empty word of letters only%s; %s", name,
                        echo(text, got, sizeof got), LETTERS_RULE);
    }
    return true;
}

bool ladder_word_read_entry(api_request *req, const char *field, size_t index, const char *text, uint32_t *out,
                            size_t *length) {
    if (dictionary_word_decode(text, strlen(text), true, out, length)) return true;
    char got[MAX_ECHOED_BYTES + 16];
    return api_fail(req, API_INVALID_FIELD, field,
                    "'%s' entries must be non-empty words of letters only; entry %zu (from 0) is not%s; %s", field,
                    index, echo(text, got, sizeof got), LETTERS_RULE);
}

/* The request dictionary: every entry checked, only those of `length` letters indexed. */
static bool read_dictionary(api_request *req, const cJSON *entries, size_t length, dictionary **out) {
    dictionary_builder *builder = dictionary_builder_new(length, DICTIONARY_NEIGHBOUR_SUBSTITUTION);
    uint32_t *letters = NULL;
    size_t capacity = 0, index = 0;
    bool ok = false;
    if (builder == NULL) {
        api_fail_out_of_memory(req);
        goto out;
    }
    for (const cJSON *entry = entries->child; entry != NULL; entry = entry->next, index++) {
        const char *text = entry->valuestring; /* a string: checked by the field type */
        size_t len = strlen(text);
        if (len > capacity) {
            uint32_t *grown = realloc(letters, len * sizeof *letters);
            if (grown == NULL) {
                api_fail_out_of_memory(req);
                goto out;
            }
            letters = grown;
            capacity = len;
        }
        size_t word_length;
        if (!ladder_word_read_entry(req, "dictionary", index, text, letters, &word_length)) goto out;
        if (!dictionary_builder_add(builder, letters, word_length)) {
            api_fail_out_of_memory(req);
            goto out;
        }
    }
    core_status status = dictionary_builder_finish(builder, &req->deadline, out);
    builder = NULL; /* freed by finishing */
    if (!api_fail_status(req, status)) goto out;
    ok = *out != NULL || api_fail(req, API_TOO_LARGE, "dictionary",
                                  "'dictionary' holds too many letters: at most 2^30 letters in words of one length");
out:
    free(letters);
    dictionary_builder_free(builder);
    return ok;
}

/* The dictionary named by the request: "common" as a string, or as the one entry of a list (how GET
 * sends it; a dictionary of one word has no ladder, so nothing is lost). */
static bool names_common(const cJSON *value) {
    if (cJSON_IsArray(value) && value->child != NULL && value->child->next == NULL) /* one entry, */
        value = value->child; /* found without counting a long list */
    return cJSON_IsString(value) && strcmp(value->valuestring, "common") == 0;
}

bool ladder_words_choose(api_request *req, size_t length, ladder_words *out) {
    *out = (ladder_words){0};
    const cJSON *entries = param_array(req, "dictionary");
    if (entries != NULL && names_common(entries)) {
        if (common_dictionary == NULL)
            return api_fail(req, API_NO_DICTIONARY, "dictionary",
                            "the common-words dictionary is not loaded (the server could not read its "
                            "--common-dict word lists); leave 'dictionary' out for the built-in one");
        out->dict = common_dictionary;
        out->name = "common";
        return true;
    }
    if (cJSON_IsString(entries))
        return api_fail(req, API_INVALID_FIELD, "dictionary",
                        "'dictionary' must be \"common\" (the common-words list) or an array of words");
    if (entries != NULL) {
        if (!read_dictionary(req, entries, length, &out->own)) return false;
        out->dict = out->own;
        out->name = "request's";
        return true;
    }
    if (builtin_dictionary == NULL)
        return api_fail(req, API_NO_DICTIONARY, NULL,
                        "no built-in dictionary is loaded (the server could not read its --dict word list); "
                        "send the words to use in 'dictionary'");
    out->dict = builtin_dictionary;
    out->name = "built-in";
    return true;
}

void ladder_words_free(ladder_words *words) {
    dictionary_free(words->own);
    *words = (ladder_words){0};
}

const dictionary_group *ladder_words_group(const ladder_words *words, size_t length) {
    return dictionary_group_of_length(words->dict, length);
}

void ladder_word_write(json_writer *out, const uint32_t *letters, size_t length) {
    jw_char(out, '"'); /* letters never need escaping */
    for (size_t i = 0; i < length; i++) {
        char bytes[4];
        bb_append(out, bytes, dictionary_utf8_encode(letters[i], bytes));
    }
    jw_char(out, '"');
}

bool ladder_fail_unknown_word(api_request *req, const char *name, const uint32_t *letters, size_t length,
                              const ladder_words *words, const dictionary_group *group) {
    json_writer word;
    bb_init(&word);
    ladder_word_write(&word, letters, length);
    char shown[MAX_ECHOED_BYTES + 2] = "";
    if (!word.out_of_memory && word.len <= MAX_ECHOED_BYTES)
        snprintf(shown, sizeof shown, "%.*s ", (int)word.len, word.data);
    bb_free(&word);
    api_fail(req, API_UNKNOWN_WORD, name,
             "'%s' %sis not in the %s dictionary, which has %u words of %zu letters; every word of a ladder, "
             "including both ends, must be in it",
             name, shown, words->name, group ? group->count : 0, length);
    /* the word is the quoted text shown in the message (letters never need escaping) */
    return shown[0] == '\0'
               ? false
               : api_fail_details(req, "{\"word\":%.*s,\"letters\":%zu}", (int)strlen(shown) - 1, shown, length);
}
