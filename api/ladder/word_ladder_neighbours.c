/* GET|POST /word-ladder/neighbours: the words one letter away from a word (the next rungs a player
 * may climb to), sorted by code points, in the built-in dictionary or the request's.
 *
 * Decisions: the word is lowered like /word-ladder's `from`; it need not be in the dictionary (a
 * ladder's end may lie outside it), and `in_dictionary` says whether it is. The list is short (at most
 * the alphabet size times the length), so it is one JSON document, not a stream. */
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/ladder/word_ladder_words.h"
#include "core/ladder/dictionary_neighbours.h"

static const api_field fields[] = {{"word", FIELD_STRING}, {"dictionary", FIELD_STRING_OR_STRING_ARRAY}, {NULL, 0}};

static void write_answer(json_writer *out, const uint32_t *word, size_t length, const dictionary_group *group,
                         const uint32_t *neighbours, size_t count) {
    uint32_t index;
    api_open_answer(out, "word_ladder_neighbours");
    jw_str(out, "\"word\":");
    ladder_word_write(out, word, length);
    jw_str(out, group != NULL && dictionary_group_find(group, word, &index) ? ",\"in_dictionary\":true"
                                                                            : ",\"in_dictionary\":false");
    jw_str(out, ",\"total\":");
    jw_uint(out, count);
    jw_str(out, ",\"neighbours\":[");
    for (size_t i = 0; i < count; i++) {
        if (i > 0) jw_char(out, ',');
        ladder_word_write(out, dictionary_group_word(group, neighbours[i]), length);
    }
    jw_str(out, "]}");
}

static bool answer_neighbours(api_request *req, api_response *res) {
    uint32_t *word = NULL, *neighbours = NULL;
    size_t length = 0, count = 0;
    ladder_words words = {0};
    const dictionary_group *group = NULL;
    bool ok = false;
    if (!ladder_word_read(req, "word", &word, &length) || !ladder_words_choose(req, length, &words)) goto out;
    group = ladder_words_group(&words, length);
    if (group != NULL && !api_fail_status(req, dictionary_neighbours(group, word, &neighbours, &count))) goto out;
    write_answer(&res->body, word, length, group, neighbours, count);
    ok = true;
out:
    free(neighbours);
    free(word);
    ladder_words_free(&words);
    return ok;
}

const api_endpoint word_ladder_neighbours_endpoint = {.fields = fields, .handler = answer_neighbours};
