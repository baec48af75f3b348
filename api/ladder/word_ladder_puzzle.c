/* GET|POST /word-ladder/puzzle: a pair of words of `length` letters whose shortest ladder has exactly
 * `steps` steps, for a game to set, replayable by `seed`, with the number of shortest ladders as a
 * difficulty hint and one of them as the solution (core/ladder/ladder_puzzle.h draws it).
 *
 * Decisions: the seed is the one `seed` field of api/seed.h (as for /shuffle); without one a fresh
 * seed is drawn and returned, so every puzzle can be replayed; the same seed, fields and
 * dictionary give the same puzzle. `allow_unknown_ends` asks for ends outside the dictionary (every
 * inner word in it), which needs at least 2 steps. When no pair has that distance the answer is
 * "found": false (with unknown ends: none was found by the draws around every start). */
#include <inttypes.h>
#include <stdio.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/seed.h"
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
    rng generator;
    char seed_text[SEED_TEXT_SIZE];
} puzzle_request;

static bool read_request(api_request *req, puzzle_request *q) {
    if (!param_int_required(req, "length", 1, MAX_LENGTH, &q->length) ||
        !param_int_required(req, "steps", 1, MAX_STEPS, &q->steps))
        return false;
    q->unknown_ends = param_flag(req, "allow_unknown_ends", false);
    if (q->unknown_ends && q->steps < 2)
        return api_fail(req, API_INVALID_FIELD, "steps",
                        "with allow_unknown_ends, 'steps' must be at least 2 (an inner word between the ends); "
                        "got %" PRId64,
                        q->steps);
    return param_seed(req, "seed", &q->generator, q->seed_text);
}

static void write_word(json_writer *out, const dictionary_group *group, uint32_t index) {
    ladder_word_write(out, dictionary_group_word(group, index), group->length);
}

static void write_answer(json_writer *out, const puzzle_request *q, const ladder_puzzle *puzzle,
                         const uint32_t *ladder) {
    api_open_answer(out, "word_ladder_puzzle");
    jw_str(out, "\"length\":");
    jw_int(out, q->length);
    jw_str(out, ",\"steps\":");
    jw_int(out, q->steps);
    jw_str(out, ",\"seed\":");
    jw_cstring(out, q->seed_text);
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

static bool answer(api_request *req, api_response *res, puzzle_request *q, const dictionary_group *group) {
    ladder_puzzle puzzle = {0};
    if (group != NULL && !api_fail_status(req, ladder_puzzle_draw(group, (size_t)q->steps, q->unknown_ends,
                                                                  &q->generator, &req->deadline, &puzzle)))
        return false;
    word_ladder_iter iter;
    bool ok = false;
    if (!puzzle.found) {
        write_answer(&res->body, q, &puzzle, NULL);
    } else if (word_ladder_iter_init(&iter, puzzle.ladders)) {
        write_answer(&res->body, q, &puzzle, word_ladder_iter_next(&iter));
        word_ladder_iter_free(&iter);
    } else {
        api_fail_out_of_memory(req);
        goto out;
    }
    ok = true;
out:
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
