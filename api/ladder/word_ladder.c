/* /word-ladder: the shortest ladders between two words of the same length, changing one letter per
 * step, in the built-in or the common-words dictionary (loaded once at start-up) or in a dictionary sent
 * with the request.
 *
 * Decisions: `from` and `to` are lowered and must be words of letters (api/ladder/word_ladder_words.h, which
 * also reads the dictionary); from == to is found, a ladder of 0 steps. Only entries of a request
 * `dictionary` of the length of `from` are indexed (by substitution, see core/ladder/dictionary.h).
 * Without a ladder the answer is "found": false (and with `all`, "total": "0" and no ladders). */
#include <stdlib.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/ladder/word_ladder_words.h"
#include "core/ladder/word_ladder.h"

#define MAX_LIMIT 1000000

static const api_field fields[] = {
    {"from", FIELD_STRING}, {"to", FIELD_STRING},     {"dictionary", FIELD_STRING_OR_STRING_ARRAY},
    {"all", FIELD_BOOLEAN}, {"limit", FIELD_INTEGER}, {NULL, 0},
};

/* ---- reading the request ---- */

typedef struct ladder_query {
    uint32_t *from; /* code points, lowered */
    uint32_t *to;
    size_t length;
    bool all;
    int64_t limit;
    ladder_words words;
} ladder_query;

static void query_free(ladder_query *query) {
    free(query->from);
    free(query->to);
    ladder_words_free(&query->words);
}

static bool read_query(api_request *req, ladder_query *query) {
    size_t to_length;
    if (!ladder_word_read(req, "from", &query->from, &query->length) ||
        !ladder_word_read(req, "to", &query->to, &to_length))
        return false;
    if (to_length != query->length) {
        api_fail(req, API_LENGTH_MISMATCH, "to",
                 "'from' has %zu letters and 'to' has %zu: a ladder changes one letter per step, so both words "
                 "must have the same number of letters",
                 query->length, to_length);
        return api_fail_details(req, "{\"from_letters\":%zu,\"to_letters\":%zu}", query->length, to_length);
    }
    query->all = param_flag(req, "all", false);
    if (!param_int(req, "limit", 0, MAX_LIMIT, 100, &query->limit)) return false;
    return ladder_words_choose(req, query->length, &query->words);
}

static void write_word(json_writer *out, const dictionary_group *group, uint32_t index) {
    ladder_word_write(out, dictionary_group_word(group, index), group->length);
}

static void write_ladder(json_writer *out, const dictionary_group *group, const uint32_t *ladder, size_t steps) {
    jw_char(out, '[');
    for (size_t i = 0; i <= steps; i++) {
        if (i > 0) jw_char(out, ',');
        write_word(out, group, ladder[i]);
    }
    jw_char(out, ']');
}

/* `"from":..,"to":..,"found":..` and, when found, `,"steps":n`; the caller opens the object (an answer
 * with its kind, the NDJSON head line bare) and closes it. */
static void write_head(json_writer *out, const dictionary_group *group, const word_ladders *ladders, uint32_t from,
                       uint32_t to) {
    jw_str(out, "\"from\":");
    write_word(out, group, from);
    jw_str(out, ",\"to\":");
    write_word(out, group, to);
    jw_str(out, word_ladders_found(ladders) ? ",\"found\":true,\"steps\":" : ",\"found\":false");
    if (word_ladders_found(ladders)) jw_uint(out, word_ladders_steps(ladders));
}

/* ---- the answer listing every shortest ladder, streamed ---- */

typedef enum list_phase { LIST_HEAD, LIST_LADDERS, LIST_END } list_phase;

typedef struct ladder_list {
    ladder_words words; /* owns the request's dictionary, if any */
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
    ladder_words_free(&list->words);
    free(list);
}

/* JSON: {"kind":"word_ladder_all","from","to","found","steps","total","ladders":[[...],...]}. NDJSON:
 * that head object without "kind" and "ladders" on the first line, then one ladder (an array of words)
 * per line. */
static stream_status ladder_list_next(void *state, json_writer *out, size_t want) {
    ladder_list *list = state;
    size_t target = out->len + want;
    if (list->phase == LIST_HEAD) {
        api_open_answer(out, list->ndjson ? NULL : "word_ladder_all");
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

static bool respond_all(api_request *req, api_response *res, ladder_query *query, const dictionary_group *group,
                        word_ladders *ladders, uint32_t from, uint32_t to) {
    ladder_list *list = calloc(1, sizeof *list);
    bool ok = false;
    if (list == NULL || !word_ladder_iter_init(&list->iter, ladders)) {
        api_fail_out_of_memory(req);
        goto out;
    }
    list->words = query->words;
    query->words = (ladder_words){0}; /* the stream owns it now */
    list->group = group;
    list->ladders = ladders;
    list->from = from;
    list->to = to;
    list->remaining = (uint64_t)query->limit;
    list->ndjson = req->ndjson;
    api_respond_stream(req, res, list, ladder_list_next, ladder_list_free, req->ndjson);
    list = NULL;
    ladders = NULL; /* both the stream's now */
    ok = true;
out:
    free(list);
    word_ladders_free(ladders);
    return ok;
}

static bool respond_one(api_request *req, api_response *res, const dictionary_group *group, word_ladders *ladders,
                        uint32_t from, uint32_t to) {
    word_ladder_iter iter;
    bool ok = false;
    if (!word_ladder_iter_init(&iter, ladders)) {
        api_fail_out_of_memory(req);
        goto out;
    }
    api_open_answer(&res->body, "word_ladder_one");
    write_head(&res->body, group, ladders, from, to);
    const uint32_t *ladder = word_ladder_iter_next(&iter);
    if (ladder != NULL) {
        jw_str(&res->body, ",\"ladder\":");
        write_ladder(&res->body, group, ladder, word_ladders_steps(ladders));
    }
    jw_char(&res->body, '}');
    word_ladder_iter_free(&iter);
    ok = true;
out:
    word_ladders_free(ladders);
    return ok;
}

static bool answer_word_ladder(api_request *req, api_response *res) {
    ladder_query query = {0};
    const dictionary_group *group = NULL;
    uint32_t from = 0, to = 0;
    word_ladders *ladders = NULL;
    bool ok = false;
    if (!read_query(req, &query)) goto out;
    group = ladder_words_group(&query.words, query.length);
    if (group == NULL || !dictionary_group_find(group, query.from, &from)) {
        ok = ladder_fail_unknown_word(req, "from", query.from, query.length, &query.words, group);
        goto out;
    }
    if (!dictionary_group_find(group, query.to, &to)) {
        ok = ladder_fail_unknown_word(req, "to", query.to, query.length, &query.words, group);
        goto out;
    }
    if (!api_fail_status(req, word_ladders_find(group, from, to, &req->deadline, &ladders))) goto out;
    ok = query.all ? respond_all(req, res, &query, group, ladders, from, to)
                   : respond_one(req, res, group, ladders, from, to);
out:
    query_free(&query);
    return ok;
}

const api_endpoint word_ladder_endpoint = {.fields = fields, .handler = answer_word_ladder};
