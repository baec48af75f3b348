/* /word-ladder: the shortest ladders between two words of the same length, changing one letter per
 * step, in the built-in dictionary (loaded once at start-up) or in a dictionary sent with the request.
 *
 * Decisions: `from` and `to` are lowered (dictionary_letters.h) and must be words of letters (else a
 * 400); from == to is found, a ladder of 0 steps. Entries of a request `dictionary` are lowered the
 * same way and must all be words of letters (else a 400 naming the entry), because a request that
 * silently lost entries could answer a different question; duplicates are harmless.
 * Only entries of the length of `from` are indexed. Without a ladder the answer is "found": false
 * (and with `all`, "total": "0" and no ladders). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "core/ladder/dictionary.h"
#include "core/ladder/dictionary_file.h"
#include "core/ladder/dictionary_letters.h"
#include "core/ladder/word_ladder.h"

#define MAX_LIMIT 1000000
#define MAX_ECHOED_BYTES 64

static const api_field fields[] = {
    {"from", FIELD_STRING}, {"to", FIELD_STRING},     {"dictionary", FIELD_STRING_ARRAY},
    {"all", FIELD_BOOLEAN}, {"limit", FIELD_INTEGER}, {NULL, 0},
};

/* Read-only after start-up, so request threads share it without locks. */
static dictionary *builtin_dictionary;

bool word_ladder_load_dictionary(const char *path) {
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    dictionary_file_stats stats;
    dictionary_status status = dictionary_load_file(path, &builtin_dictionary, &stats);
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (status != DICTIONARY_OK) {
        builtin_dictionary = NULL;
        if (status == DICTIONARY_UNREADABLE)
            fprintf(stderr, "puzzled: cannot read the word list %s: %m\n", path);
        else
            fprintf(stderr, "puzzled: cannot index the word list %s: %s\n", path,
                    status == DICTIONARY_TOO_LARGE ? "too many letters" : "out of memory");
        return false;
    }
    double ms = (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6;
    fprintf(stderr, "puzzled: word list %s: %zu words indexed in %.0f ms (%zu of %zu lines skipped)\n", path,
            builtin_dictionary->word_count, ms, stats.skipped, stats.lines);
    return true;
}

void word_ladder_unload_dictionary(void) {
    dictionary_free(builtin_dictionary);
    builtin_dictionary = NULL;
}

/* ---- reading the request ---- */

typedef struct ladder_query {
    uint32_t *from; /* code points, lowered */
    uint32_t *to;
    size_t length;
    bool all;
    int64_t limit;
    dictionary *own_dictionary; /* the request's dictionary, or NULL for the built-in one */
} ladder_query;

static void query_free(ladder_query *query) {
    free(query->from);
    free(query->to);
    dictionary_free(query->own_dictionary);
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

static bool read_word(api_request *req, const char *name, uint32_t **out, size_t *length) {
    const char *text = param_string(req, name);
    if (text == NULL)
        return api_fail(req, API_MISSING_FIELD, name, "'%s' is required: a word of letters; %s", name,
                        LETTERS_RULE);
    size_t len = strlen(text);
    *out = malloc((len ? len : 1) * sizeof **out);
    if (*out == NULL) return api_fail_out_of_memory(req);
    if (!dictionary_word_decode(text, len, true, *out, length)) {
        char got[MAX_ECHOED_BYTES + 16];
        return api_fail(req, API_INVALID_FIELD, name,
                        "'%s' must be a non-empty word of letters only%s; %s", name,
                        echo(text, got, sizeof got), LETTERS_RULE);
    }
    return true;
}

static bool fail_entry(api_request *req, size_t index, const char *text) {
    char got[MAX_ECHOED_BYTES + 16];
    return api_fail(req, API_INVALID_FIELD, "dictionary",
                    "'dictionary' entries must be non-empty words of letters only; entry %zu (from 0) "
                    "is not%s; %s",
                    index, echo(text, got, sizeof got), LETTERS_RULE);
}

/* The request dictionary: every entry checked, only those of `length` letters indexed. */
static bool read_dictionary(api_request *req, const cJSON *entries, size_t length, dictionary **out) {
    dictionary_builder *builder = dictionary_builder_new(length);
    uint32_t *letters = NULL;
    size_t capacity = 0;
    bool ok = builder != NULL || api_fail_out_of_memory(req);
    size_t index = 0;
    for (const cJSON *entry = entries->child; ok && entry != NULL; entry = entry->next, index++) {
        const char *text = entry->valuestring; /* a string: checked by the field type */
        size_t len = strlen(text);
        if (len > capacity) {
            uint32_t *grown = realloc(letters, len * sizeof *letters);
            if (grown == NULL) {
                ok = api_fail_out_of_memory(req);
                break;
            }
            letters = grown;
            capacity = len;
        }
        size_t word_length;
        if (!dictionary_word_decode(text, len, true, letters, &word_length))
            ok = fail_entry(req, index, text);
        else if (!dictionary_builder_add(builder, letters, word_length))
            ok = api_fail_out_of_memory(req);
    }
    free(letters);
    if (!ok) {
        dictionary_builder_free(builder);
        return false;
    }
    switch (dictionary_builder_finish(builder, &req->deadline, out)) {
    case DICTIONARY_OK: return true;
    case DICTIONARY_DEADLINE_EXCEEDED: return api_fail_deadline(req);
    case DICTIONARY_TOO_LARGE:
        return api_fail(req, API_TOO_LARGE, "dictionary",
                        "'dictionary' holds too many letters: at most 2^30 letters in words of one length");
    default: return api_fail_out_of_memory(req);
    }
}

static bool read_query(api_request *req, ladder_query *query) {
    size_t to_length;
    if (!read_word(req, "from", &query->from, &query->length) ||
        !read_word(req, "to", &query->to, &to_length))
        return false;
    if (to_length != query->length)
        return api_fail(
            req, API_LENGTH_MISMATCH, "to",
            "'from' has %zu letters and 'to' has %zu: a ladder changes one letter per step, so both "
            "words must have the same number of letters",
            query->length, to_length);
    if (!param_bool(req, "all", false, &query->all) ||
        !param_int(req, "limit", 0, MAX_LIMIT, 100, &query->limit))
        return false;
    const cJSON *entries = param_array(req, "dictionary");
    if (entries != NULL) return read_dictionary(req, entries, query->length, &query->own_dictionary);
    if (builtin_dictionary == NULL)
        return api_fail(req, API_NO_DICTIONARY, NULL,
                        "no built-in dictionary is loaded (the server could not read its --dict word list); "
                        "send the words to use in 'dictionary'");
    return true;
}

static void write_code_points(json_writer *out, const uint32_t *letters, size_t length) {
    jw_char(out, '"'); /* letters never need escaping */
    for (size_t i = 0; i < length; i++) {
        char bytes[4];
        jw_raw(out, bytes, dictionary_utf8_encode(letters[i], bytes));
    }
    jw_char(out, '"');
}

static void write_word(json_writer *out, const dictionary_group *group, uint32_t index) {
    write_code_points(out, dictionary_group_word(group, index), group->length);
}

static void write_ladder(json_writer *out, const dictionary_group *group, const uint32_t *ladder,
                         size_t steps) {
    jw_char(out, '[');
    for (size_t i = 0; i <= steps; i++) {
        if (i > 0) jw_char(out, ',');
        write_word(out, group, ladder[i]);
    }
    jw_char(out, ']');
}

/* `{"from":..,"to":..,"found":..` and, when found, `,"steps":n`; the caller closes the object. */
static void write_head(json_writer *out, const dictionary_group *group, const word_ladders *ladders,
                       uint32_t from, uint32_t to) {
    jw_str(out, "{\"from\":");
    write_word(out, group, from);
    jw_str(out, ",\"to\":");
    write_word(out, group, to);
    jw_str(out, word_ladders_found(ladders) ? ",\"found\":true,\"steps\":" : ",\"found\":false");
    if (word_ladders_found(ladders)) jw_uint(out, word_ladders_steps(ladders));
}

/* ---- the answer listing every shortest ladder, streamed ---- */

typedef enum list_phase { LIST_HEAD, LIST_LADDERS, LIST_END } list_phase;

typedef struct ladder_list {
    dictionary *own_dictionary;
    const dictionary_group *group;
    word_ladders *ladders;
    word_ladder_iter iter;
    uint32_t from, to;
    uint64_t remaining; /* ladders still allowed by `limit` */
    uint64_t listed;
    bool ndjson;
    list_phase phase;
} ladder_list;

static void ladder_list_free(void *state) {
    ladder_list *list = state;
    word_ladder_iter_free(&list->iter);
    word_ladders_free(list->ladders);
    dictionary_free(list->own_dictionary);
    free(list);
}

/* JSON: {"from","to","found","steps","total","ladders":[[...],...]}. NDJSON: that head object without
 * "ladders" on the first line, then one ladder (an array of words) per line. */
static stream_status ladder_list_next(void *state, json_writer *out, size_t want) {
    ladder_list *list = state;
    size_t target = out->len + want;
    if (list->phase == LIST_HEAD) {
        write_head(out, list->group, list->ladders, list->from, list->to);
        jw_str(out, ",\"total\":");
        jw_mpz_string(out, word_ladders_total(list->ladders));
        jw_str(out, list->ndjson ? "}\n" : ",\"ladders\":[");
        list->phase = LIST_LADDERS;
    }
    while (list->phase == LIST_LADDERS && out->len < target) {
        const uint32_t *ladder = list->remaining > 0 ? word_ladder_iter_next(&list->iter) : NULL;
        if (ladder == NULL) {
            list->phase = LIST_END;
            break;
        }
        if (!list->ndjson && list->listed > 0) jw_char(out, ',');
        write_ladder(out, list->group, ladder, word_ladders_steps(list->ladders));
        if (list->ndjson) jw_char(out, '\n');
        list->remaining--;
        list->listed++;
    }
    if (list->phase != LIST_END) return STREAM_MORE;
    if (!list->ndjson) jw_str(out, "]}");
    return STREAM_DONE;
}

static bool respond_all(api_request *req, api_response *res, ladder_query *query,
                        const dictionary_group *group, word_ladders *ladders, uint32_t from, uint32_t to) {
    ladder_list *list = calloc(1, sizeof *list);
    if (list == NULL || !word_ladder_iter_init(&list->iter, ladders)) {
        free(list);
        word_ladders_free(ladders);
        return api_fail_out_of_memory(req);
    }
    list->own_dictionary = query->own_dictionary;
    query->own_dictionary = NULL; /* the stream owns it now */
    list->group = group;
    list->ladders = ladders;
    list->from = from;
    list->to = to;
    list->remaining = (uint64_t)query->limit;
    list->ndjson = req->ndjson;
    api_respond_stream(res, list, ladder_list_next, ladder_list_free, req->ndjson);
    return true;
}

static bool respond_one(api_request *req, api_response *res, const dictionary_group *group,
                        word_ladders *ladders, uint32_t from, uint32_t to) {
    word_ladder_iter iter;
    if (!word_ladder_iter_init(&iter, ladders)) {
        word_ladders_free(ladders);
        return api_fail_out_of_memory(req);
    }
    write_head(&res->body, group, ladders, from, to);
    const uint32_t *ladder = word_ladder_iter_next(&iter);
    if (ladder != NULL) {
        jw_str(&res->body, ",\"ladder\":");
        write_ladder(&res->body, group, ladder, word_ladders_steps(ladders));
    }
    jw_char(&res->body, '}');
    word_ladder_iter_free(&iter);
    word_ladders_free(ladders);
    return true;
}

static bool fail_unknown_word(api_request *req, const char *name, const uint32_t *letters, size_t length,
                              const dictionary_group *group, bool builtin) {
    json_writer word;
    jw_init(&word);
    write_code_points(&word, letters, length);
    char shown[MAX_ECHOED_BYTES + 2] = "";
    if (!word.out_of_memory && word.len <= MAX_ECHOED_BYTES)
        snprintf(shown, sizeof shown, "%.*s ", (int)word.len, word.data);
    jw_free(&word);
    return api_fail(req, API_UNKNOWN_WORD, name,
                    "'%s' %sis not in the %s dictionary, which has %u words of %zu letters; every word of a "
                    "ladder, including both ends, must be in it",
                    name, shown, builtin ? "built-in" : "request's", group ? group->count : 0, length);
}

static bool answer_word_ladder(api_request *req, api_response *res) {
    ladder_query query = {0};
    bool ok = read_query(req, &query);
    const dictionary *dict = query.own_dictionary != NULL ? query.own_dictionary : builtin_dictionary;
    const dictionary_group *group = ok ? dictionary_group_of_length(dict, query.length) : NULL;
    uint32_t from = 0, to = 0;
    if (ok && (group == NULL || !dictionary_group_find(group, query.from, &from)))
        ok = fail_unknown_word(req, "from", query.from, query.length, group, dict == builtin_dictionary);
    if (ok && !dictionary_group_find(group, query.to, &to))
        ok = fail_unknown_word(req, "to", query.to, query.length, group, dict == builtin_dictionary);
    word_ladders *ladders = NULL;
    if (ok) ok = api_fail_status(req, word_ladders_find(group, from, to, &req->deadline, &ladders));
    if (ok) {
        ok = query.all ? respond_all(req, res, &query, group, ladders, from, to)
                       : respond_one(req, res, group, ladders, from, to);
    }
    query_free(&query);
    return ok;
}

const api_endpoint word_ladder_endpoint = {.fields = fields, .handler = answer_word_ladder};
