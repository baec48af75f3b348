/* Integration tests of /word-ladder against the real server: ladder lengths, totals and the full
 * ordered sets of shortest ladders compared with an independent Python breadth-first search
 * (word_ladder_reference.py) for many random pairs of several lengths, in the built-in word list and
 * in random request dictionaries; case folding, GET and NDJSON forms, the errors, a server without a
 * dictionary, and dictionaries built to have astronomically many shortest ladders. */
#include <criterion/criterion.h>
#include <gmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static cJSON *run_reference(const char *arguments) {
    const char *source = getenv("PUZZLED_SOURCE_DIR");
    cr_assert_not_null(source, "PUZZLED_SOURCE_DIR is not set");
    char command[4096];
    snprintf(command, sizeof command, "python3 '%s/tests/integration/ladder/word_ladder_reference.py' %s", source,
             arguments);
    char *output = run_command_output(command);
    cr_assert_not_null(output, "the Python reference failed: %s", command);
    cJSON *cases = cJSON_Parse(output);
    free(output);
    cr_assert(cJSON_IsArray(cases));
    return cases;
}

static const cJSON *member(const cJSON *object, const char *name) {
    return cJSON_GetObjectItemCaseSensitive(object, name);
}

/* POSTs `request` to /word-ladder and returns the parsed 200 answer. */
static cJSON *post_ladder(const cJSON *request) {
    char *body = cJSON_PrintUnformatted(request);
    cJSON *doc = post_ok("/word-ladder", body);
    free(body);
    return doc;
}

static cJSON *ladder_request(const cJSON *reference_case, bool all) {
    cJSON *request = cJSON_CreateObject();
    cJSON_AddStringToObject(request, "from", member(reference_case, "send_from")->valuestring);
    cJSON_AddStringToObject(request, "to", member(reference_case, "send_to")->valuestring);
    const cJSON *dictionary = member(reference_case, "dictionary");
    if (dictionary != NULL) cJSON_AddItemToObject(request, "dictionary", cJSON_Duplicate(dictionary, true));
    if (all) {
        cJSON_AddTrueToObject(request, "all");
        cJSON_AddNumberToObject(request, "limit", 1000);
    }
    return request;
}

static void expect_string(const cJSON *doc, const char *name, const char *expected) {
    const cJSON *value = member(doc, name);
    cr_assert(cJSON_IsString(value), "no string '%s'", name);
    cr_assert_str_eq(value->valuestring, expected, "'%s'", name);
}

/* The answer's from, to, found and steps agree with the reference case. */
static void expect_head(const cJSON *doc, const cJSON *expected) {
    expect_string(doc, "from", member(expected, "from")->valuestring);
    expect_string(doc, "to", member(expected, "to")->valuestring);
    int steps = member(expected, "steps")->valueint;
    cr_assert_eq(cJSON_IsTrue(member(doc, "found")), steps >= 0, "found, %s -> %s",
                 member(expected, "from")->valuestring, member(expected, "to")->valuestring);
    if (steps >= 0) cr_assert_eq(member(doc, "steps")->valueint, steps);
    else cr_assert_null(member(doc, "steps"));
}

/* Both forms of the answer for one case: every shortest ladder (all), and the first one. */
static void check_case(const cJSON *expected) {
    const cJSON *expected_ladders = member(expected, "ladders");
    cr_assert(cJSON_IsArray(expected_ladders), "the reference lists every ladder of its cases");

    cJSON *request = ladder_request(expected, true);
    cJSON *doc = post_ladder(request);
    expect_head(doc, expected);
    expect_string(doc, "total", member(expected, "total")->valuestring);
    cr_assert(cJSON_Compare(member(doc, "ladders"), expected_ladders, true), "ladders of %s -> %s differ",
              member(expected, "from")->valuestring, member(expected, "to")->valuestring);
    cJSON_Delete(doc);
    cJSON_Delete(request);

    request = ladder_request(expected, false);
    doc = post_ladder(request);
    expect_head(doc, expected);
    cr_assert_null(member(doc, "total"));
    if (cJSON_GetArraySize(expected_ladders) > 0)
        cr_assert(cJSON_Compare(member(doc, "ladder"), cJSON_GetArrayItem(expected_ladders, 0), true),
                  "the one ladder is the first in code-point order");
    else cr_assert_null(member(doc, "ladder"));
    cJSON_Delete(doc);
    cJSON_Delete(request);
}

static void check_cases(const cJSON *cases, size_t minimum_unreachable, size_t minimum_branching) {
    size_t unreachable = 0, branching = 0;
    const cJSON *expected;
    cJSON_ArrayForEach(expected, cases) {
        check_case(expected);
        unreachable += member(expected, "steps")->valueint < 0;
        branching += cJSON_GetArraySize(member(expected, "ladders")) > 1;
    }
    cr_assert_geq(unreachable, minimum_unreachable, "enough unreachable pairs");
    cr_assert_geq(branching, minimum_branching, "enough pairs with several shortest ladders");
}

Test(word_ladder, builtin_dictionary_matches_python_bfs_for_random_pairs_of_lengths_2_to_9, .timeout = 240) {
    cJSON *cases = run_reference("builtin 20261122 12");
    cr_assert_eq(cJSON_GetArraySize(cases), 8 * 12);
    check_cases(cases, 10, 20);
    cJSON_Delete(cases);
}

/* The server's default --common-dict: SCOWL's English and American words of sizes 10, 20 and 35. */
#define SCOWL "/usr/share/dict/scowl/"
#define COMMON_LISTS                                                                                               \
    SCOWL "english-words.10:" SCOWL "english-words.20:" SCOWL "english-words.35:" SCOWL "american-words.10:" SCOWL \
          "american-words.20:" SCOWL "american-words.35"

Test(word_ladder, common_dictionary_matches_python_bfs_over_the_scowl_lists, .timeout = 240) {
    cJSON *cases = run_reference("builtin 20261123 6 " COMMON_LISTS);
    cJSON *one;
    cJSON_ArrayForEach(one, cases) cJSON_AddStringToObject(one, "dictionary", "common");
    check_cases(cases, 5, 10);
    cJSON_Delete(cases);
}

Test(word_ladder, common_dictionary_leaves_out_obscure_words) {
    cJSON *full = get_ok("/word-ladder?from=fish&to=bird");
    cJSON *common = get_ok("/word-ladder?from=fish&to=bird&dictionary=common");
    cr_assert_eq(member(full, "steps")->valueint, 5, "fish fist gist girt gird bird");
    cr_assert_eq(member(common, "steps")->valueint, 6, "girt and gird are not common words");
    cJSON_Delete(full);
    cJSON_Delete(common);
    http_result r = http_get("/word-ladder?from=gird&to=bird&dictionary=common");
    expect_error_field(r, 422, "unknown_word", "from");
    r = http_post("/word-ladder", "{\"from\":\"cold\",\"to\":\"warm\",\"dictionary\":\"rare\"}");
    expect_error_field(r, 400, "invalid_field", "dictionary");
}

Test(word_ladder, request_dictionaries_match_python_bfs, .timeout = 240) {
    cJSON *cases = run_reference("custom 7");
    cr_assert_eq(cJSON_GetArraySize(cases), 5 * 8);
    check_cases(cases, 2, 10);
    cJSON_Delete(cases);
}

Test(word_ladder, known_ladder_and_case_folding) {
    http_result r = http_get("/word-ladder?from=COLD&to=Warm&all=true");
    cr_assert_eq(r.status, 200, "%s", r.body);
    cJSON *doc = http_json(&r);
    expect_string(doc, "from", "cold");
    expect_string(doc, "to", "warm");
    cr_assert_eq(member(doc, "steps")->valueint, 4);
    cJSON *cold_cord_card_ward_warm = cJSON_Parse("[\"cold\",\"cord\",\"card\",\"ward\",\"warm\"]");
    cr_assert(cJSON_Compare(cJSON_GetArrayItem(member(doc, "ladders"), 0), cold_cord_card_ward_warm, true));
    cJSON_Delete(cold_cord_card_ward_warm);
    cJSON_Delete(doc);
    http_result_free(&r);
}

Test(word_ladder, letters_are_code_points_and_get_lists_work) {
    /* ÉTÉ -> étà in a GET dictionary "été,ÉTÀ,true,eta": one step, the accents are single letters. */
    http_result r = http_get("/word-ladder?from=%C3%89T%C3%89&to=%C3%A9t%C3%A0"
                             "&dictionary=%C3%A9t%C3%A9,%C3%89T%C3%80,true,eta");
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_assert_str_eq(
        r.body,
        "{\"kind\":\"word_ladder_one\",\"from\":\"\xC3\xA9t\xC3\xA9\",\"to\":\"\xC3\xA9t\xC3\xA0\",\"found\":true,"
        "\"steps\":1,\"ladder\":[\"\xC3\xA9t\xC3\xA9\",\"\xC3\xA9t\xC3\xA0\"]}");
    http_result_free(&r);
    /* "true" in a GET list arrives as a boolean and still counts as the word. */
    r = http_get("/word-ladder?from=true&to=tree&dictionary=true,tree");
    cr_assert_eq(r.status, 200, "%s", r.body);
    cJSON *doc = http_json(&r);
    cr_assert_eq(member(doc, "steps")->valueint, 1);
    cJSON_Delete(doc);
    http_result_free(&r);
}

Test(word_ladder, same_word_is_zero_steps) {
    http_result r = http_get("/word-ladder?from=cold&to=cold&all=true");
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_assert_str_eq(
        r.body,
        "{\"kind\":\"word_ladder_all\",\"from\":\"cold\",\"to\":\"cold\",\"found\":true,\"steps\":0,\"total\":\"1\","
        "\"ladders\":[[\"cold\"]]}");
    http_result_free(&r);
}

Test(word_ladder, unreachable_pair_is_not_found) {
    http_result r = http_post("/word-ladder", "{\"from\":\"cat\",\"to\":\"dog\",\"all\":true,"
                                              "\"dictionary\":[\"cat\",\"cot\",\"dog\",\"dig\"]}");
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_assert_str_eq(r.body, "{\"kind\":\"word_ladder_all\",\"from\":\"cat\",\"to\":\"dog\",\"found\":false,\"total\":"
                             "\"0\",\"ladders\":[]}");
    http_result_free(&r);
    r = http_post("/word-ladder", "{\"from\":\"cat\",\"to\":\"dog\",\"dictionary\":[\"cat\",\"dog\"]}");
    cr_assert_str_eq(r.body, "{\"kind\":\"word_ladder_one\",\"from\":\"cat\",\"to\":\"dog\",\"found\":false}");
    http_result_free(&r);
}

Test(word_ladder, limit_cuts_the_list_but_not_the_total) {
    http_result r = http_get("/word-ladder?from=cold&to=warm&all=true&limit=2");
    cJSON *doc = http_json(&r);
    expect_string(doc, "total", "4");
    cr_assert_eq(cJSON_GetArraySize(member(doc, "ladders")), 2);
    cJSON_Delete(doc);
    http_result_free(&r);
    r = http_get("/word-ladder?from=cold&to=warm&all=true&limit=0");
    cr_assert_str_eq(
        r.body,
        "{\"kind\":\"word_ladder_all\",\"from\":\"cold\",\"to\":\"warm\",\"found\":true,\"steps\":4,\"total\":\"4\","
        "\"ladders\":[]}");
    http_result_free(&r);
}

Test(word_ladder, ndjson_puts_the_head_then_one_ladder_per_line) {
    const char *accept[] = {"Accept: application/x-ndjson", NULL};
    http_result r = http_request(server_url(), "GET", "/word-ladder?from=cold&to=warm&all=true", NULL, accept);
    cr_assert_eq(r.status, 200);
    char *type = http_header(&r, "Content-Type");
    cr_assert_str_eq(type, "application/x-ndjson");
    free(type);
    cJSON *lines = http_ndjson(&r);
    cr_assert_eq(cJSON_GetArraySize(lines), 5);
    const cJSON *head = cJSON_GetArrayItem(lines, 0);
    expect_string(head, "total", "4");
    cr_assert_null(member(head, "ladders"));
    http_result_free(&r);
    r = http_get("/word-ladder?from=cold&to=warm&all=true");
    cJSON *doc = http_json(&r);
    for (int i = 0; i < 4; i++)
        cr_assert(cJSON_Compare(cJSON_GetArrayItem(lines, i + 1), cJSON_GetArrayItem(member(doc, "ladders"), i), true));
    cJSON_Delete(doc);
    cJSON_Delete(lines);
    http_result_free(&r);
}

Test(word_ladder, unknown_words_name_their_field) {
    expect_error_field(http_get("/word-ladder?from=qzqz&to=cold"), 422, "unknown_word", "from");
    expect_error_field(http_get("/word-ladder?from=cold&to=qzqz"), 422, "unknown_word", "to");
    expect_error_details(http_get("/word-ladder?from=cold&to=qzqz"), 422, "unknown_word",
                         "{\"word\":\"qzqz\",\"letters\":4}");
    expect_error_details(http_get("/word-ladder?from=cold&to=warmer"), 422, "length_mismatch",
                         "{\"from_letters\":4,\"to_letters\":6}");
    expect_error_field(http_post("/word-ladder", "{\"from\":\"warm\",\"to\":\"cold\",\"dictionary\":[\"cold\"]}"), 422,
                       "unknown_word", "from");
    /* a length the request dictionary has no word of */
    expect_error_field(http_post("/word-ladder", "{\"from\":\"ab\",\"to\":\"cd\",\"dictionary\":[\"cold\"]}"), 422,
                       "unknown_word", "from");
}

Test(word_ladder, different_lengths_are_a_length_mismatch) {
    expect_error_field(http_get("/word-ladder?from=cold&to=warmer"), 422, "length_mismatch", "to");
    /* é is one letter: "été" (3) against "ete" (3) is fine, against "etee" (4) is not */
    expect_error_field(http_get("/word-ladder?from=%C3%A9t%C3%A9&to=etee"), 422, "length_mismatch", "to");
}

Test(word_ladder, malformed_fields_are_400) {
    expect_error_field(http_get("/word-ladder?from=co1d&to=warm"), 400, "invalid_field", "from");
    expect_error_field(http_get("/word-ladder?from=&to=warm"), 400, "invalid_field", "from");
    expect_error_field(http_get("/word-ladder?from=cold&to=don%27t"), 400, "invalid_field", "to");
    expect_error_field(http_get("/word-ladder?to=warm"), 400, "missing_field", "from");
    expect_error_field(http_get("/word-ladder?from=cold"), 400, "missing_field", "to");
    expect_error_field(http_get("/word-ladder?from=cold&to=warm&limit=1000001"), 400, "invalid_field", "limit");
    expect_error_field(http_get("/word-ladder?from=cold&to=warm&limit=-1"), 400, "invalid_field", "limit");
    expect_error_field(http_get("/word-ladder?from=cold&to=warm&all=yes"), 400, "invalid_field", "all");
    expect_error_field(http_post("/word-ladder", "{\"from\":\"cold\",\"to\":\"warm\",\"dictionary\":\"cold\"}"), 400,
                       "invalid_field", "dictionary");
    expect_error_field(http_post("/word-ladder", "{\"from\":\"cold\",\"to\":\"warm\",\"dictionary\":[\"cold\",7]}"),
                       400, "invalid_field", "dictionary");
    expect_error_field(http_post("/word-ladder", "{\"from\":\"cold\",\"to\":\"warm\",\"dictionary\":[\"x-ray\"]}"), 400,
                       "invalid_field", "dictionary");
    expect_error_field(http_post("/word-ladder", "{\"from\":\"cold\",\"to\":\"warm\",\"dictionary\":[\"\"]}"), 400,
                       "invalid_field", "dictionary");
    expect_error_field(http_post("/word-ladder", "{\"from\":\"cold\",\"to\":\"warm\",\"color\":1}"), 400,
                       "unknown_field", "color");
}

Test(word_ladder, without_a_dictionary_requests_need_their_own) {
    test_server server;
    const char *args[] = {"--dict", "/nonexistent/words", NULL};
    cr_assert(test_server_start(&server, args));
    expect_error_field(http_request(server.url, "GET", "/word-ladder?from=cold&to=warm", NULL, NULL), 503,
                       "no_dictionary", NULL);
    http_result r = http_request(server.url, "POST", "/word-ladder",
                                 "{\"from\":\"cold\",\"to\":\"cord\",\"dictionary\":[\"cold\",\"cord\"]}", NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    http_result_free(&r);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

Test(word_ladder, without_the_common_lists_only_dictionary_common_is_503) {
    test_server server;
    const char *args[] = {"--common-dict", "/nonexistent/common-words", NULL};
    cr_assert(test_server_start(&server, args));
    expect_error_field(http_request(server.url, "GET", "/word-ladder?from=cold&to=warm&dictionary=common", NULL, NULL),
                       503, "no_dictionary", "dictionary");
    http_result r = http_request(server.url, "GET", "/word-ladder?from=cold&to=warm", NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    http_result_free(&r);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

/* A request dictionary as JSON text: `count` words made by `word(i, out)`. */
static char *dictionary_request(const char *from, const char *to, size_t count, void (*word)(size_t, char *),
                                const char *extra) {
    size_t length = strlen(from);
    size_t size = (count + 2) * (length + 3) + strlen(extra) + 64;
    char *body = malloc(size);
    size_t used = (size_t)snprintf(body, size, "{\"from\":\"%s\",\"to\":\"%s\",%s\"dictionary\":[", from, to, extra);
    for (size_t i = 0; i < count; i++) {
        if (i > 0) body[used++] = ',';
        body[used++] = '"';
        word(i, body + used);
        used += length;
        body[used++] = '"';
    }
    snprintf(body + used, size - used, "]}");
    return body;
}

enum { CUBE = 14, DIAMONDS = 100 };

/* Word i of the 14-dimensional hypercube: the bits of i as a/b. */
static void cube_word(size_t i, char *out) {
    for (size_t p = 0; p < CUBE; p++) out[p] = (i >> p) & 1 ? 'b' : 'a';
}

static void expect_ladder_steps(const cJSON *ladder, size_t letters, size_t steps) {
    cr_assert_eq((size_t)cJSON_GetArraySize(ladder), steps + 1);
    for (size_t i = 0; i < steps; i++) {
        const char *a = cJSON_GetArrayItem(ladder, (int)i)->valuestring;
        const char *b = cJSON_GetArrayItem(ladder, (int)i + 1)->valuestring;
        size_t differences = 0;
        for (size_t p = 0; p < letters; p++) differences += a[p] != b[p];
        cr_assert_eq(differences, 1, "%s -> %s", a, b);
    }
}

/* Every word over {a, b} of 14 letters: aa..a to bb..b changes the 14 letters in any order, so there
 * are exactly 14! shortest ladders of 14 steps. */
Test(word_ladder, hypercube_has_factorial_many_ladders_counted_exactly) {
    char *body =
        dictionary_request("aaaaaaaaaaaaaa", "bbbbbbbbbbbbbb", 1u << CUBE, cube_word, "\"all\":true,\"limit\":50,");
    http_result r = http_post("/word-ladder", body);
    free(body);
    cr_assert_eq(r.status, 200, "%.300s", r.body);
    cJSON *doc = http_json(&r);
    uint64_t factorial = 1;
    for (uint64_t k = 2; k <= CUBE; k++) factorial *= k;
    char expected[32];
    snprintf(expected, sizeof expected, "%llu", (unsigned long long)factorial);
    expect_string(doc, "total", expected);
    cr_assert_eq(member(doc, "steps")->valueint, CUBE);
    const cJSON *ladders = member(doc, "ladders");
    cr_assert_eq(cJSON_GetArraySize(ladders), 50);
    /* In code-point order the first ladder changes the last letter first, and so on leftwards. */
    const cJSON *first = cJSON_GetArrayItem(ladders, 0);
    for (int step = 1; step <= CUBE; step++) {
        const char *word = cJSON_GetArrayItem(first, step)->valuestring;
        for (int p = 0; p < CUBE; p++) cr_assert_eq(word[p], p >= CUBE - step ? 'b' : 'a', "%s", word);
    }
    const cJSON *ladder;
    const cJSON *previous = NULL;
    cJSON_ArrayForEach(ladder, ladders) {
        expect_ladder_steps(ladder, CUBE, CUBE);
        cr_assert(previous == NULL || !cJSON_Compare(previous, ladder, true), "distinct ladders");
        previous = ladder;
    }
    cJSON_Delete(doc);
    http_result_free(&r);
}

/* A chain of 100 diamonds: words of 200 letters where the pairs before pair k are "bb", the pairs after
 * it "aa", and pair k is ab, ba or bb (word i < 300 has k = i / 3), plus aa..a (word 300). A ladder
 * must turn the pairs to "bb" one after the other, each in 2 orders, so there are 2^100 of them. */
static void diamond_word(size_t i, char *out) {
    static const char *const middles[] = {"ab", "ba", "bb"};
    size_t pair = i / 3;
    for (size_t p = 0; p < 2 * DIAMONDS; p++) out[p] = p < 2 * pair && pair < DIAMONDS ? 'b' : 'a';
    if (pair < DIAMONDS) memcpy(out + 2 * pair, middles[i % 3], 2);
}

Test(word_ladder, chain_of_diamonds_has_two_to_the_hundred_ladders) {
    char from[2 * DIAMONDS + 1], to[2 * DIAMONDS + 1];
    memset(from, 'a', 2 * DIAMONDS);
    memset(to, 'b', 2 * DIAMONDS);
    from[2 * DIAMONDS] = to[2 * DIAMONDS] = '\0';
    /* the last pair's bb is `to` */
    char *body = dictionary_request(from, to, 3 * DIAMONDS + 1, diamond_word, "\"all\":true,\"limit\":3,");
    http_result r = http_post("/word-ladder", body);
    free(body);
    cr_assert_eq(r.status, 200, "%.300s", r.body);
    cJSON *doc = http_json(&r);
    mpz_t expected;
    mpz_init(expected);
    mpz_ui_pow_ui(expected, 2, DIAMONDS);
    char *digits = mpz_get_str(NULL, 10, expected);
    expect_string(doc, "total", digits); /* 1267650600228229401496703205376 */
    free(digits);
    mpz_clear(expected);
    cr_assert_eq(member(doc, "steps")->valueint, 2 * DIAMONDS);
    const cJSON *ladder;
    cJSON_ArrayForEach(ladder, member(doc, "ladders")) expect_ladder_steps(ladder, 2 * DIAMONDS, 2 * DIAMONDS);
    cr_assert_eq(cJSON_GetArraySize(member(doc, "ladders")), 3);
    cJSON_Delete(doc);
    http_result_free(&r);
}
