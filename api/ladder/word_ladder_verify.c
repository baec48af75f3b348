/* POST /word-ladder/verify: whether a list of words is a word ladder (each step changes exactly one
 * letter, every word is in the dictionary) and, when it is, whether it is a shortest one. A wrong
 * ladder is a 200 with "valid": false and its first problem located: the first step that does not
 * change exactly one letter, or the first word not in the dictionary, whichever comes first along the
 * ladder (at one word, the step into it is checked first). A 4xx is only for a request that is not a
 * list of words.
 *
 * Decisions: words are lowered like /word-ladder's `from` and `to`; a step between words of different
 * lengths, or between equal words, does not change exactly one letter; a ladder that repeats a word is
 * valid but not shortest. Only words as long as the first are looked up, which is enough: a word of
 * another length is always caught by the step into it first. */
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/ladder/word_ladder_words.h"
#include "core/ladder/word_ladder.h"

static const api_field fields[] = {
    {"ladder", FIELD_STRING_ARRAY}, {"dictionary", FIELD_STRING_OR_STRING_ARRAY}, {NULL, 0}};

typedef struct claimed_ladder {
    size_t count;
    uint32_t *letters; /* every word's code points, one after the other */
    size_t *start;     /* word i is letters[start[i] .. start[i + 1]) */
} claimed_ladder;

static const uint32_t *word_at(const claimed_ladder *ladder, size_t i) { return ladder->letters + ladder->start[i]; }
static size_t length_at(const claimed_ladder *ladder, size_t i) { return ladder->start[i + 1] - ladder->start[i]; }

static void ladder_free(claimed_ladder *ladder) {
    free(ladder->letters);
    free(ladder->start);
}

static bool read_ladder(api_request *req, claimed_ladder *ladder) {
    const cJSON *list = param_array(req, "ladder");
    if (list == NULL || list->child == NULL)
        return api_fail(req, list == NULL ? API_MISSING_FIELD : API_INVALID_FIELD, "ladder",
                        "'ladder' is required: the words of the ladder in order, at least one");
    size_t bytes = 0;
    for (const cJSON *item = list->child; item != NULL; item = item->next, ladder->count++)
        bytes += strlen(item->valuestring);
    ladder->letters = malloc((bytes ? bytes : 1) * sizeof *ladder->letters);
    ladder->start = malloc((ladder->count + 1) * sizeof *ladder->start);
    if (ladder->letters == NULL || ladder->start == NULL) return api_fail_out_of_memory(req);
    size_t index = 0;
    ladder->start[0] = 0;
    for (const cJSON *item = list->child; item != NULL; item = item->next, index++) {
        size_t length;
        if (!ladder_word_read_entry(req, "ladder", index, item->valuestring, ladder->letters + ladder->start[index],
                                    &length))
            return false;
        ladder->start[index + 1] = ladder->start[index] + length;
    }
    return true;
}

static bool one_letter_apart(const claimed_ladder *ladder, size_t a, size_t b) {
    size_t length = length_at(ladder, a), differences = 0;
    if (length_at(ladder, b) != length) return false;
    for (size_t p = 0; p < length; p++) differences += word_at(ladder, a)[p] != word_at(ladder, b)[p];
    return differences == 1;
}

static void write_word(json_writer *out, const char *key, const claimed_ladder *ladder, size_t i) {
    jw_char(out, ',');
    jw_key(out, key);
    ladder_word_write(out, word_at(ladder, i), length_at(ladder, i));
}

/* Writes the first problem and returns true, or returns false when there is none; `indices` gets the
 * dictionary index of every word. */
static bool write_problem(json_writer *out, const claimed_ladder *ladder, const dictionary_group *group,
                          uint32_t *indices) {
    for (size_t i = 0; i < ladder->count; i++) {
        if (i > 0 && !one_letter_apart(ladder, i - 1, i)) {
            api_open_answer(out, "word_ladder_verify");
            jw_str(out, "\"valid\":false,\"problem\":\"not_one_letter\",\"index\":");
            jw_uint(out, i);
            write_word(out, "from", ladder, i - 1);
            write_word(out, "to", ladder, i);
            return true;
        }
        if (group == NULL || !dictionary_group_find(group, word_at(ladder, i), &indices[i])) {
            api_open_answer(out, "word_ladder_verify");
            jw_str(out, "\"valid\":false,\"problem\":\"unknown_word\",\"index\":");
            jw_uint(out, i);
            write_word(out, "word", ladder, i);
            return true;
        }
    }
    return false;
}

static bool answer(api_request *req, api_response *res, const claimed_ladder *ladder, const ladder_words *words) {
    const dictionary_group *group = ladder_words_group(words, length_at(ladder, 0));
    word_ladders *shortest = NULL;
    bool ok = false;
    uint32_t *indices = malloc(ladder->count * sizeof *indices);
    if (indices == NULL) {
        api_fail_out_of_memory(req);
        goto out;
    }
    if (write_problem(&res->body, ladder, group, indices)) {
        jw_char(&res->body, '}');
        ok = true;
        goto out;
    }
    if (!api_fail_status(req,
                         word_ladders_find(group, indices[0], indices[ladder->count - 1], &req->deadline, &shortest)))
        goto out;
    /* a ladder exists, so the shortest one is found */
    size_t steps = ladder->count - 1, shortest_steps = word_ladders_steps(shortest);
    api_open_answer(&res->body, "word_ladder_verify");
    jw_str(&res->body, "\"valid\":true,\"steps\":");
    jw_uint(&res->body, steps);
    jw_str(&res->body, steps == shortest_steps ? ",\"shortest\":true" : ",\"shortest\":false");
    jw_str(&res->body, ",\"shortest_steps\":");
    jw_uint(&res->body, shortest_steps);
    jw_str(&res->body, ",\"shortest_ladders\":");
    jw_mpz_string(&res->body, word_ladders_total(shortest));
    jw_char(&res->body, '}');
    ok = true;
out:
    word_ladders_free(shortest);
    free(indices);
    return ok;
}

static bool answer_word_ladder_verify(api_request *req, api_response *res) {
    claimed_ladder ladder = {0};
    ladder_words words = {0};
    bool ok = read_ladder(req, &ladder) && ladder_words_choose(req, length_at(&ladder, 0), &words) &&
              answer(req, res, &ladder, &words);
    ladder_words_free(&words);
    ladder_free(&ladder);
    return ok;
}

const api_endpoint word_ladder_verify_endpoint = {.fields = fields, .handler = answer_word_ladder_verify};
