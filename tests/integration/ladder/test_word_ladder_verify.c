/* Integration tests of POST /word-ladder/verify: random word lists over random request dictionaries
 * (3-letter words over a 3-letter alphabet, some of other lengths or not in the dictionary) judged as
 * a reference written here judges them (the first bad step or unknown word; for a valid ladder the
 * shortest length and the number of shortest ladders by a breadth-first search); the solver's own
 * shortest ladders in the built-in list accepted as shortest, and with a detour as not shortest;
 * case folding, errors, a server without a dictionary. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { WORDS = 27 }; /* every 3-letter word over {a, b, c}: word w has letters w / 9, w / 3 % 3, w % 3 */

static uint64_t rng_state = 0xD1B54A32D192ED03u;
static unsigned next_random(unsigned bound) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % bound);
}

static void spell(int w, char out[4]) {
    out[0] = (char)('a' + w / 9), out[1] = (char)('a' + w / 3 % 3), out[2] = (char)('a' + w % 3), out[3] = '\0';
}

static bool one_letter(const char *a, const char *b) {
    if (strlen(a) != strlen(b)) return false;
    int differences = 0;
    for (size_t i = 0; a[i]; i++) differences += a[i] != b[i];
    return differences == 1;
}

/* Steps and number of shortest ladders from `from` to `to` inside `in`, by breadth-first search. */
static void shortest(const bool *in, int from, int to, int *steps, long *count) {
    int distance[WORDS], queue[WORDS], head = 0, tail = 0;
    long ways[WORDS] = {0};
    for (int w = 0; w < WORDS; w++) distance[w] = -1;
    distance[from] = 0, ways[from] = 1, queue[tail++] = from;
    while (head < tail) {
        int w = queue[head++];
        char a[4], b[4];
        spell(w, a);
        for (int v = 0; v < WORDS; v++) {
            spell(v, b);
            if (!in[v] || !one_letter(a, b)) continue;
            if (distance[v] < 0) distance[v] = distance[w] + 1, queue[tail++] = v;
            if (distance[v] == distance[w] + 1) ways[v] += ways[w];
        }
    }
    *steps = distance[to], *count = ways[to];
}

static int index_of(const char *word) {
    if (strlen(word) != 3 || strspn(word, "abc") != 3) return -1;
    return (word[0] - 'a') * 9 + (word[1] - 'a') * 3 + (word[2] - 'a');
}

static cJSON *reference(const bool *in, char words[][5], int count) {
    cJSON *expected = cJSON_CreateObject();
    cJSON_AddStringToObject(expected, "kind", "word_ladder_verify");
    for (int i = 0; i < count; i++) {
        if (i > 0 && !one_letter(words[i - 1], words[i])) {
            cJSON_AddFalseToObject(expected, "valid");
            cJSON_AddStringToObject(expected, "problem", "not_one_letter");
            cJSON_AddNumberToObject(expected, "index", i);
            cJSON_AddStringToObject(expected, "from", words[i - 1]);
            cJSON_AddStringToObject(expected, "to", words[i]);
            return expected;
        }
        if (index_of(words[i]) < 0 || !in[index_of(words[i])]) {
            cJSON_AddFalseToObject(expected, "valid");
            cJSON_AddStringToObject(expected, "problem", "unknown_word");
            cJSON_AddNumberToObject(expected, "index", i);
            cJSON_AddStringToObject(expected, "word", words[i]);
            return expected;
        }
    }
    int steps;
    long ways;
    shortest(in, index_of(words[0]), index_of(words[count - 1]), &steps, &ways);
    char total[24];
    snprintf(total, sizeof total, "%ld", ways);
    cJSON_AddTrueToObject(expected, "valid");
    cJSON_AddNumberToObject(expected, "steps", count - 1);
    cJSON_AddBoolToObject(expected, "shortest", steps == count - 1);
    cJSON_AddNumberToObject(expected, "shortest_steps", steps);
    cJSON_AddStringToObject(expected, "shortest_ladders", total);
    return expected;
}

static void expect_same_json(const cJSON *got, const cJSON *expected, const char *request) {
    char *got_text = cJSON_PrintUnformatted(got), *expected_text = cJSON_PrintUnformatted(expected);
    cr_assert_str_eq(got_text, expected_text, "request %.400s", request);
    free(got_text);
    free(expected_text);
}

Test(word_ladder_verify, random_lists_in_random_dictionaries_match_the_reference) {
    int valid = 0, not_shortest = 0;
    for (int trial = 0; trial < 600; trial++) {
        bool in[WORDS];
        cJSON *request = cJSON_CreateObject(), *dictionary = cJSON_AddArrayToObject(request, "dictionary");
        for (int w = 0; w < WORDS; w++) {
            char word[4];
            spell(w, word);
            in[w] = next_random(3) > 0;
            if (in[w]) cJSON_AddItemToArray(dictionary, cJSON_CreateString(word));
        }
        cJSON_AddItemToArray(dictionary, cJSON_CreateString("abcd")); /* another length, ignored */
        char words[8][5];
        int count = 1 + (int)next_random(7), at = (int)next_random(WORDS);
        cJSON *ladder = cJSON_AddArrayToObject(request, "ladder");
        for (int i = 0; i < count; i++) {
            spell(at, words[i]);
            unsigned twist = next_random(40);
            if (twist == 0) strcpy(words[i], "abca");
            cJSON_AddItemToArray(ladder, cJSON_CreateString(words[i]));
            int position = (int)next_random(3), letter = (int)next_random(3),
                power = position == 0   ? 9
                        : position == 1 ? 3
                                        : 1;
            at += (letter - at / power % 3) * power; /* one letter changed, or none (a repeat) */
            if (twist == 1) at = (int)next_random(WORDS);
        }
        char *body = cJSON_PrintUnformatted(request);
        cJSON *got = post_ok("/word-ladder/verify", body), *expected = reference(in, words, count);
        expect_same_json(got, expected, body);
        valid += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(got, "valid"));
        not_shortest += cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(got, "shortest"));
        cJSON_Delete(got);
        cJSON_Delete(expected);
        cJSON_Delete(request);
        free(body);
    }
    cr_assert(valid > 20 && not_shortest > 5, "the random lists cover valid and longer ladders (%d, %d)", valid,
              not_shortest);
}

static cJSON *verify_words(const cJSON *ladder) {
    cJSON *request = cJSON_CreateObject();
    cJSON_AddItemToObject(request, "ladder", cJSON_Duplicate(ladder, true));
    char *body = cJSON_PrintUnformatted(request);
    cJSON *got = post_ok("/word-ladder/verify", body);
    free(body);
    cJSON_Delete(request);
    return got;
}

Test(word_ladder_verify, the_solvers_ladders_are_shortest_and_a_detour_is_not) {
    const char *pairs[][2] = {{"cold", "warm"}, {"cat", "dog"}, {"head", "tail"}, {"stone", "money"}};
    for (int p = 0; p < 4; p++) {
        char query[96];
        snprintf(query, sizeof query, "/word-ladder?from=%s&to=%s&all=true&limit=1", pairs[p][0], pairs[p][1]);
        cJSON *solved = get_ok(query);
        const cJSON *ladder = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(solved, "ladders"), 0);
        int steps = cJSON_GetObjectItemCaseSensitive(solved, "steps")->valueint;
        cJSON *got = verify_words(ladder);
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(got, "valid")), "%s", query);
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(got, "shortest")), "%s", query);
        cr_assert_eq(cJSON_GetObjectItemCaseSensitive(got, "shortest_steps")->valueint, steps);
        cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(got, "shortest_ladders")->valuestring,
                         cJSON_GetObjectItemCaseSensitive(solved, "total")->valuestring);
        cJSON_Delete(got);
        /* a detour: the second word, back to the first, and on: valid, two steps longer */
        cJSON *detour = cJSON_CreateArray();
        for (int i = 0; i < 2; i++) {
            cJSON_AddItemToArray(detour, cJSON_CreateString(cJSON_GetArrayItem(ladder, 0)->valuestring));
            cJSON_AddItemToArray(detour, cJSON_CreateString(cJSON_GetArrayItem(ladder, 1)->valuestring));
        }
        for (int i = 2; i <= steps; i++)
            cJSON_AddItemToArray(detour, cJSON_CreateString(cJSON_GetArrayItem(ladder, i)->valuestring));
        got = verify_words(detour);
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(got, "valid")));
        cr_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(got, "shortest")));
        cr_assert_eq(cJSON_GetObjectItemCaseSensitive(got, "steps")->valueint, steps + 2);
        cJSON_Delete(got);
        cJSON_Delete(detour);
        cJSON_Delete(solved);
    }
}

Test(word_ladder_verify, words_are_lowered_and_unknown_ones_located) {
    cJSON *got = post_ok("/word-ladder/verify", "{\"ladder\":[\"COLD\",\"Cord\",\"card\"]}");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(got, "valid")));
    cJSON_Delete(got);
    got = post_ok("/word-ladder/verify", "{\"ladder\":[\"cold\",\"cord\",\"cxrd\",\"card\"]}");
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(got, "problem")->valuestring, "unknown_word");
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(got, "index")->valueint, 2);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(got, "word")->valuestring, "cxrd");
    cJSON_Delete(got);
}

Test(word_ladder_verify, malformed_lists_are_400_naming_the_field) {
    expect_error_field(http_post("/word-ladder/verify", "{}"), 400, "missing_field", "ladder");
    expect_error_field(http_post("/word-ladder/verify", "{\"ladder\":[]}"), 400, "invalid_field", "ladder");
    expect_error_field(http_post("/word-ladder/verify", "{\"ladder\":[\"cold\",\"c0ld\"]}"), 400, "invalid_field",
                       "ladder");
    expect_error_field(http_post("/word-ladder/verify", "{\"ladder\":[\"cold\",3]}"), 400, "invalid_field", "ladder");
    expect_error_field(http_post("/word-ladder/verify", "{\"ladder\":[\"cold\"],\"dictionary\":[\"co ld\"]}"), 400,
                       "invalid_field", "dictionary");
}

Test(word_ladder_verify, without_a_dictionary_only_a_request_dictionary_works) {
    test_server server;
    const char *const args[] = {"--dict", "/nonexistent/words", NULL};
    cr_assert(test_server_start(&server, args));
    http_result r = http_request(server.url, "POST", "/word-ladder/verify", "{\"ladder\":[\"cold\",\"cord\"]}", NULL);
    expect_error_field(r, 503, "no_dictionary", NULL);
    r = http_request(server.url, "POST", "/word-ladder/verify",
                     "{\"ladder\":[\"cold\",\"cord\"],\"dictionary\":[\"cold\",\"cord\"]}", NULL);
    cr_assert_eq(r.status, 200);
    http_result_free(&r);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}
