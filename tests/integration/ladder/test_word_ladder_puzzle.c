/* Integration tests of /word-ladder/puzzle: puzzles of several lengths and step counts, in the
 * built-in and the common dictionary, with ends in and outside the dictionary, checked by an
 * independent Python breadth-first search (word_ladder_games_reference.py) for their exact length,
 * their number of shortest ladders and their first ladder; the same seed replays the same puzzle;
 * in small random dictionaries "found" is true exactly for the distances some pair has (all pairs
 * searched here); errors. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define SCOWL "/usr/share/dict/scowl/"

static const cJSON *member(const cJSON *object, const char *name) {
    return cJSON_GetObjectItemCaseSensitive(object, name);
}

/* Draws puzzles with the service and checks each against the Python search over `lists` (NULL: the
 * default word list). */
static void check_puzzles(const char *dictionary_field, const char *const *lists, bool unknown_ends) {
    cJSON *request = cJSON_CreateObject(), *puzzles = cJSON_AddArrayToObject(request, "puzzles");
    cJSON_AddStringToObject(request, "mode", "puzzles");
    if (lists != NULL) {
        cJSON *paths = cJSON_AddArrayToObject(request, "lists");
        for (int i = 0; lists[i] != NULL; i++) cJSON_AddItemToArray(paths, cJSON_CreateString(lists[i]));
    }
    cJSON *answers = cJSON_CreateArray();
    int seed = 0;
    for (int length = 3; length <= 6; length++) {
        for (int steps = unknown_ends ? 2 : 1; steps <= 7; steps += 2) {
            char query[200];
            snprintf(query, sizeof query, "/word-ladder/puzzle?length=%d&steps=%d&seed=%d%s%s", length, steps, ++seed,
                     unknown_ends ? "&allow_unknown_ends=true" : "", dictionary_field);
            cJSON *answer = get_ok(query);
            cr_assert(cJSON_IsTrue(member(answer, "found")), "%s: a puzzle exists", query);
            cr_assert_eq(member(answer, "steps")->valueint, steps);
            cJSON *pair = cJSON_CreateObject();
            cJSON_AddStringToObject(pair, "from", member(answer, "from")->valuestring);
            cJSON_AddStringToObject(pair, "to", member(answer, "to")->valuestring);
            cJSON_AddItemToArray(puzzles, pair);
            cJSON_AddItemToArray(answers, answer);
        }
    }
    char *output = run_python_reference("tests/integration/ladder/word_ladder_games_reference.py", request);
    cJSON *expected = cJSON_Parse(output);
    free(output);
    cr_assert_eq(cJSON_GetArraySize(expected), cJSON_GetArraySize(answers));
    for (int i = 0; i < cJSON_GetArraySize(answers); i++) {
        const cJSON *got = cJSON_GetArrayItem(answers, i), *want = cJSON_GetArrayItem(expected, i);
        const char *from = member(got, "from")->valuestring, *to = member(got, "to")->valuestring;
        cr_assert_eq(member(want, "steps")->valueint, member(got, "steps")->valueint,
                     "%s -> %s: the BFS finds %d steps", from, to, member(want, "steps")->valueint);
        cr_assert_str_eq(member(got, "shortest_ladders")->valuestring, member(want, "total")->valuestring, "%s -> %s",
                         from, to);
        cr_assert(cJSON_Compare(member(got, "ladder"), cJSON_GetArrayItem(member(want, "ladders"), 0), true),
                  "%s -> %s: the ladder is the first shortest one", from, to);
        const cJSON *in = member(want, "ends_in_dictionary");
        cr_assert_eq(cJSON_IsTrue(cJSON_GetArrayItem(in, 0)), !unknown_ends, "%s in the dictionary?", from);
        cr_assert_eq(cJSON_IsTrue(cJSON_GetArrayItem(in, 1)), !unknown_ends, "%s in the dictionary?", to);
        cr_assert_eq(cJSON_IsTrue(member(got, "ends_in_dictionary")), !unknown_ends);
    }
    cJSON_Delete(expected);
    cJSON_Delete(answers);
    cJSON_Delete(request);
}

static const char *const common_lists[] = {SCOWL "english-words.10",
                                           SCOWL "english-words.20",
                                           SCOWL "english-words.35",
                                           SCOWL "american-words.10",
                                           SCOWL "american-words.20",
                                           SCOWL "american-words.35",
                                           NULL};

Test(word_ladder_puzzle, builtin_puzzles_have_exactly_their_length, .timeout = 240) { check_puzzles("", NULL, false); }

Test(word_ladder_puzzle, common_puzzles_have_exactly_their_length, .timeout = 240) {
    check_puzzles("&dictionary=common", common_lists, false);
}

Test(word_ladder_puzzle, puzzles_with_ends_outside_the_dictionary_have_exactly_their_length, .timeout = 240) {
    check_puzzles("&dictionary=common", common_lists, true);
}

Test(word_ladder_puzzle, a_seed_replays_its_puzzle_and_the_answer_names_it) {
    http_result first = http_get("/word-ladder/puzzle?length=5&steps=6&seed=12345678901234567890");
    http_result again =
        http_post("/word-ladder/puzzle", "{\"length\":5,\"steps\":6,\"seed\":\"12345678901234567890\"}");
    cr_assert_eq(first.status, 200);
    cr_assert_str_eq(first.body, again.body, "the same seed, the same puzzle");
    http_result_free(&first);
    http_result_free(&again);
    int different = 0;
    char previous[512] = "";
    for (int seed = 1; seed <= 5; seed++) {
        char query[96];
        snprintf(query, sizeof query, "/word-ladder/puzzle?length=5&steps=4&seed=%d", seed);
        cJSON *doc = get_ok(query);
        char pair[512];
        snprintf(pair, sizeof pair, "%s %s", member(doc, "from")->valuestring, member(doc, "to")->valuestring);
        different += strcmp(pair, previous) != 0;
        snprintf(previous, sizeof previous, "%s", pair);
        cJSON_Delete(doc);
    }
    cr_assert_geq(different, 4, "other seeds, other puzzles");
    cJSON *unseeded = get_ok("/word-ladder/puzzle?length=4&steps=3");
    const char *seed = member(unseeded, "seed")->valuestring;
    char query[128];
    snprintf(query, sizeof query, "/word-ladder/puzzle?length=4&steps=3&seed=%s", seed);
    cJSON *replayed = get_ok(query);
    cr_assert(cJSON_Compare(unseeded, replayed, true), "a fresh seed is returned and replays the puzzle");
    cJSON_Delete(unseeded);
    cJSON_Delete(replayed);
}

enum { WORDS = 27 }; /* 3-letter words over {a, b, c}: word w has letters w / 9, w / 3 % 3, w % 3 */

static bool apart_by_one(int a, int b) {
    int differences = (a / 9 != b / 9) + (a / 3 % 3 != b / 3 % 3) + (a % 3 != b % 3);
    return differences == 1;
}

Test(word_ladder_puzzle, found_exactly_for_the_distances_some_pair_has) {
    uint64_t state = 88172645463325252u;
    for (int trial = 0; trial < 30; trial++) {
        bool in[WORDS], has_distance[WORDS + 1] = {false};
        char body[1024];
        int used = snprintf(body, sizeof body, "{\"length\":3,\"seed\":%d,\"dictionary\":[\"zzzz\"", trial);
        for (int w = 0; w < WORDS; w++) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            in[w] = state % 2 == 0;
            if (in[w])
                used += snprintf(body + used, sizeof body - (size_t)used, ",\"%c%c%c\"", 'a' + w / 9, 'a' + w / 3 % 3,
                                 'a' + w % 3);
        }
        for (int from = 0; from < WORDS; from++) { /* all pairs' distances, by BFS from each word */
            if (!in[from]) continue;
            int distance[WORDS], queue[WORDS], head = 0, tail = 0;
            for (int w = 0; w < WORDS; w++) distance[w] = -1;
            distance[from] = 0, queue[tail++] = from;
            while (head < tail) {
                int w = queue[head++];
                for (int v = 0; v < WORDS; v++) {
                    if (in[v] && distance[v] < 0 && apart_by_one(w, v))
                        distance[v] = distance[w] + 1, queue[tail++] = v;
                }
            }
            for (int w = 0; w < WORDS; w++)
                if (distance[w] > 0) has_distance[distance[w]] = true;
        }
        for (int steps = 1; steps <= 8; steps++) {
            char request[1100];
            snprintf(request, sizeof request, "%s],\"steps\":%d}", body, steps);
            cJSON *doc = post_ok("/word-ladder/puzzle", request);
            cr_assert_eq(cJSON_IsTrue(member(doc, "found")), has_distance[steps], "%s", request);
            cJSON_Delete(doc);
        }
    }
}

Test(word_ladder_puzzle, errors_name_the_field) {
    expect_error_field(http_get("/word-ladder/puzzle?steps=3"), 400, "missing_field", "length");
    expect_error_field(http_get("/word-ladder/puzzle?length=4"), 400, "missing_field", "steps");
    expect_error_field(http_get("/word-ladder/puzzle?length=0&steps=3"), 400, "invalid_field", "length");
    expect_error_field(http_get("/word-ladder/puzzle?length=4&steps=0"), 400, "invalid_field", "steps");
    expect_error_field(http_get("/word-ladder/puzzle?length=4&steps=1&allow_unknown_ends=true"), 400, "invalid_field",
                       "steps");
    expect_error_field(http_get("/word-ladder/puzzle?length=4&steps=3&seed=18446744073709551616"), 400, "invalid_field",
                       "seed");
    expect_error_field(http_get("/word-ladder/puzzle?length=4&steps=3&seed=-1"), 400, "invalid_field", "seed");
    http_result r = http_post("/word-ladder/puzzle", "{\"length\":4,\"steps\":3,\"dictionary\":\"rare\"}");
    expect_error_field(r, 400, "invalid_field", "dictionary");
    test_server server;
    const char *const args[] = {"--dict", "/nonexistent/words", NULL};
    cr_assert(test_server_start(&server, args));
    r = http_request(server.url, "GET", "/word-ladder/puzzle?length=4&steps=3", NULL, NULL);
    expect_error_field(r, 503, "no_dictionary", NULL);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}
