/* Integration tests of /word-ladder/neighbours: random words of the built-in list, and the same words
 * with a letter changed (mostly not words), compared with a brute-force scan of the word list in
 * Python (word_ladder_games_reference.py); GET and POST agree; a request dictionary with accented
 * letters; errors and a server without a word list. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static void expect_same_json(const cJSON *got, const cJSON *expected, const char *what) {
    char *got_text = cJSON_PrintUnformatted(got), *expected_text = cJSON_PrintUnformatted(expected);
    cr_assert_str_eq(got_text, expected_text, "%s", what);
    free(got_text);
    free(expected_text);
}

Test(word_ladder_neighbours, equal_a_brute_force_scan_of_the_word_list) {
    cJSON *request = cJSON_Parse("{\"mode\":\"neighbours\",\"seed\":19,\"count\":120}");
    char *output = run_python_reference("tests/integration/ladder/word_ladder_games_reference.py", request);
    cJSON_Delete(request);
    cJSON *cases = cJSON_Parse(output);
    free(output);
    cr_assert(cJSON_IsArray(cases));
    int known = 0, with_neighbours = 0;
    const cJSON *one;
    cJSON_ArrayForEach(one, cases) {
        const char *word = cJSON_GetObjectItemCaseSensitive(one, "word")->valuestring;
        char body[128];
        snprintf(body, sizeof body, "{\"word\":\"%s\"}", word);
        cJSON *got = post_ok("/word-ladder/neighbours", body);
        cJSON *expected = cJSON_CreateObject();
        cJSON_AddStringToObject(expected, "kind", "word_ladder_neighbours");
        cJSON_AddStringToObject(expected, "word", word);
        cJSON_AddItemToObject(expected, "in_dictionary",
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(one, "in_dictionary"), true));
        const cJSON *neighbours = cJSON_GetObjectItemCaseSensitive(one, "neighbours");
        cJSON_AddNumberToObject(expected, "total", cJSON_GetArraySize(neighbours));
        cJSON_AddItemToObject(expected, "neighbours", cJSON_Duplicate(neighbours, true));
        expect_same_json(got, expected, word);
        known += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(one, "in_dictionary"));
        with_neighbours += cJSON_GetArraySize(neighbours) > 0;
        cJSON_Delete(expected);
        cJSON_Delete(got);
    }
    cr_assert(known > 30 && known < 100 && with_neighbours > 30, "the cases cover known, unknown and linked words");
    cJSON_Delete(cases);
}

Test(word_ladder_neighbours, get_and_post_agree_and_words_are_lowered) {
    cJSON *by_get = get_ok("/word-ladder/neighbours?word=COLD");
    cJSON *by_post = post_ok("/word-ladder/neighbours", "{\"word\":\"cold\"}");
    expect_same_json(by_get, by_post, "GET and POST");
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(by_get, "word")->valuestring, "cold");
    cJSON_Delete(by_get);
    cJSON_Delete(by_post);
}

Test(word_ladder_neighbours, a_request_dictionary_by_code_points) {
    cJSON *got =
        post_ok("/word-ladder/neighbours",
                "{\"word\":\"ÉTÉ\",\"dictionary\":[\"étà\",\"ete\",\"eté\",\"été\",\"ωtέ\",\"étés\",\"ÉTÈ\"]}");
    cJSON *expected = cJSON_Parse("{\"kind\":\"word_ladder_neighbours\",\"word\":\"été\",\"in_dictionary\":true,"
                                  "\"total\":3,\"neighbours\":[\"eté\",\"étà\",\"étè\"]}");
    expect_same_json(got, expected, "accented neighbours in code-point order");
    cJSON_Delete(got);
    cJSON_Delete(expected);
}

Test(word_ladder_neighbours, errors_name_the_field) {
    http_result r = http_get("/word-ladder/neighbours");
    expect_error_field(r, 400, "missing_field", "word");
    r = http_get("/word-ladder/neighbours?word=c0ld");
    expect_error_field(r, 400, "invalid_field", "word");
    r = http_post("/word-ladder/neighbours", "{\"word\":\"cold\",\"dictionary\":[\"co ld\"]}");
    expect_error_field(r, 400, "invalid_field", "dictionary");
    test_server server;
    const char *const args[] = {"--dict", "/nonexistent/words", NULL};
    cr_assert(test_server_start(&server, args));
    r = http_request(server.url, "GET", "/word-ladder/neighbours?word=cold", NULL, NULL);
    expect_error_field(r, 503, "no_dictionary", NULL);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}
