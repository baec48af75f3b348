/* GET|POST /word-ladder/puzzle: a pair of words of `length` letters whose shortest ladder has exactly
 * `steps` steps, for a game to set, replayable by `seed`, with the number of shortest ladders as a
 * difficulty hint and one of them as the solution (core/ladder/ladder_puzzle.h draws it).
 *
 * Decisions: the seed is an unsigned 64-bit integer (a JSON number or decimal digits); without one a
 * fresh seed is drawn and returned, so every puzzle can be replayed; the same seed, fields and
 * dictionary give the same puzzle. `allow_unknown_ends` asks for ends outside the dictionary (every
 * inner word in it), which needs at least 2 steps. When no pair has that distance the answer is
 * "found": false (with unknown ends: none was found by the draws around every start). */
#include <inttypes.h>
#include <stdio.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/ladder/word_ladder_words.h"
#include "core/ladder/ladder_puzzle.h"

#define MAX_LENGTH 64
#define MAX_STEPS 1000

static const api_field fields[] = {
    {"length", FIELD_INTEGER},
    {"steps", FIELD_INTEGER},
    {"seed", FIELD_BIG_INTEGER},
    {"allow_unknown_ends", FIELD_BOOLEAN},
    {"dictionary", FIELD_STRING_OR_STRING_ARRAY},
    {NULL, 0},
};

typedef struct puzzle_request {
    int64_t length, steps;
    bool unknown_ends;
    uint64_t seed;
} puzzle_request;

static bool read_seed(api_request *req, uint64_t *seed) {
    mpz_t value;
    mpz_init(value);
    bool present, ok = param_big_uint(req, "seed", value, &present);
    if (ok && present && mpz_sizeinbase(value, 2) > 64)
        ok = api_fail(req, API_INVALID_FIELD, "seed", "'seed' must be at most 18446744073709551615 (2^64-1)");
    if (ok && present) *seed = mpz_get_ui(value); /* unsigned long is 64 bits on the platforms we build for */
    mpz_clear(value);
    if (ok && !present && !rng_fresh_seed(seed))
        ok = api_fail(req, API_INTERNAL_ERROR, NULL, "the operating system gave no randomness for a fresh seed");
    return ok;
}

static bool read_request(api_request *req, puzzle_request *q) {
    if (!param_int_required(req, "length", 1, MAX_LENGTH, &q->length) ||
        !param_int_required(req, "steps", 1, MAX_STEPS, &q->steps) ||
        !param_bool(req, "allow_unknown_ends", false, &q->unknown_ends))
        return false;
    if (q->unknown_ends && q->steps < 2)
        return api_fail(req, API_INVALID_FIELD, "steps",
                        "with allow_unknown_ends, 'steps' must be at least 2 (an inner word between the ends); "
                        "got %" PRId64,
                        q->steps);
    return read_seed(req, &q->seed);
}

static void write_word(json_writer *out, const dictionary_group *group, uint32_t index) {
    ladder_word_write(out, dictionary_group_word(group, index), group->length);
}

static void write_answer(json_writer *out, const puzzle_request *q, const ladder_puzzle *puzzle,
                         const uint32_t *ladder) {
    jw_str(out, "{\"length\":");
    jw_int(out, q->length);
    jw_str(out, ",\"steps\":");
    jw_int(out, q->steps);
    jw_str(out, ",\"seed\":");
    jw_uint_string(out, q->seed);
    jw_str(out, puzzle->found ? ",\"found\":true" : ",\"found\":false");
    if (puzzle->found) {
        jw_str(out, ",\"from\":");
        write_word(out, puzzle->group, puzzle->from);
        jw_str(out, ",\"to\":");
        write_word(out, puzzle->group, puzzle->to);
        jw_str(out, q->unknown_ends ? ",\"ends_in_dictionary\":false" : ",\"ends_in_dictionary\":true");
        jw_str(out, ",\"shortest_ladders\":");
        jw_mpz_string(out, word_ladders_total(puzzle->ladders));
        jw_str(out, ",\"ladder\":[");
        for (int64_t i = 0; i <= q->steps; i++) {
            if (i > 0) jw_char(out, ',');
            write_word(out, puzzle->group, ladder[i]);
        }
        jw_char(out, ']');
    }
    jw_char(out, '}');
}

static bool answer(api_request *req, api_response *res, const puzzle_request *q, const dictionary_group *group) {
    rng generator;
    rng_seed_u64(&generator, q->seed);
    ladder_puzzle puzzle = {0};
    if (group != NULL && !api_fail_status(req, ladder_puzzle_draw(group, (size_t)q->steps, q->unknown_ends, &generator,
                                                                  &req->deadline, &puzzle)))
        return false;
    word_ladder_iter iter;
    bool ok = !puzzle.found || word_ladder_iter_init(&iter, puzzle.ladders) || api_fail_out_of_memory(req);
    if (ok) {
        write_answer(&res->body, q, &puzzle, puzzle.found ? word_ladder_iter_next(&iter) : NULL);
        if (puzzle.found) word_ladder_iter_free(&iter);
    }
    ladder_puzzle_free(&puzzle);
    return ok;
}

static bool answer_puzzle(api_request *req, api_response *res) {
    puzzle_request q = {0};
    ladder_words words = {0};
    bool ok = read_request(req, &q) && ladder_words_choose(req, (size_t)q.length, &words) &&
              answer(req, res, &q, ladder_words_group(&words, (size_t)q.length));
    ladder_words_free(&words);
    return ok;
}

/* Without a seed a fresh one is drawn, so the answer differs every time. */
static bool puzzle_varies(const api_request *req) { return !param_present(req, "seed"); }

const api_endpoint word_ladder_puzzle_endpoint = {.fields = fields, .handler = answer_puzzle, .varies = puzzle_varies};
