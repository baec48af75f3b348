/* /combinations, /combination/rank and /combination/unrank over HTTP against Python's itertools
 * (tests/integration/combinations/combinations_reference.py, run at test time) on random sets and multisets, for
 * every combination of distinct x offset/limit x count_only x NDJSON, with items and with text; rank
 * and unrank of every combination against the index in the same reference list; GET, errors,
 * round trips at 100,000 items, streaming with flat memory. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Values with ties by value across kinds (1 and 1.0, "a" twice), as /permutations tests them. */
static const char *const pool[] = {"-3",    "0",     "1",      "1.0",       "2",           "1.5",
                                   "\"a\"", "\"b\"", "\"ab\"", "\"\"",      "\"\\u00e9\"", "\"1\"",
                                   "true",  "false", "null",   "{\"a\":1}", "[1,2]"};
static const char *const letters[] = {"a", "b", "c", "\xc3\xa9", "\xf0\x9f\x98\x80", "\"", "\\", "z"};

/* A random pool of up to 8 items, as `items` or as `text`. */
static void add_random_pool(cJSON *body, bool text, unsigned *seed) {
    size_t n = (size_t)(rand_r(seed) % 9);
    int picks[8];
    if (text) {
        test_random_picks(picks, n, sizeof letters / sizeof letters[0], seed);
        char chars[64] = "";
        for (size_t i = 0; i < n; i++) strcat(chars, letters[picks[i]]);
        cJSON_AddStringToObject(body, "text", chars);
    } else {
        test_random_picks(picks, n, sizeof pool / sizeof pool[0], seed);
        cJSON *items = cJSON_AddArrayToObject(body, "items");
        for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(items, cJSON_Parse(pool[picks[i]]));
    }
    cJSON_AddNumberToObject(body, "k", rand_r(seed) % (int)(n + 1));
}

/* One request body for option set `combo` (its bits choose the options) on a random pool. */
static cJSON *random_body(unsigned combo, unsigned *seed) {
    cJSON *body = cJSON_CreateObject();
    add_random_pool(body, combo & 1, seed);
    if (combo & 2) cJSON_AddBoolToObject(body, "distinct", true);
    if (combo & 4) {
        int offset = rand_r(seed) % 4 == 0 ? rand_r(seed) % 300 : rand_r(seed) % 12;
        char text[16];
        snprintf(text, sizeof text, "%d", offset);
        if (rand_r(seed) % 2) cJSON_AddStringToObject(body, "offset", text);
        else cJSON_AddNumberToObject(body, "offset", offset);
        cJSON_AddNumberToObject(body, "limit", rand_r(seed) % 6);
    }
    if (combo & 8) cJSON_AddBoolToObject(body, "count_only", true);
    return body;
}

enum { COMBOS = 32 }; /* bit 4: NDJSON */

Test(combinations, match_itertools_for_every_option_combination) {
    expect_listings_match_reference(
        &(listing_check){.path = "/combinations",
                         .reference = "tests/integration/combinations/combinations_reference.py",
                         .list_key = "combinations",
                         .random_body = random_body,
                         .option_sets = COMBOS,
                         .ndjson_bit = 16,
                         .rounds = 16,
                         .seed = 20261123});
}

Test(combinations, rank_and_unrank_match_the_index_in_itertools_order) {
    cJSON *bodies = cJSON_CreateArray();
    unsigned seed = 5;
    for (int i = 0; i < 120; i++) {
        cJSON *body = cJSON_CreateObject();
        add_random_pool(body, i % 2, &seed);
        cJSON_AddBoolToObject(body, "distinct", i % 4 >= 2);
        cJSON_AddItemToArray(bodies, body);
    }
    char *lines = run_python_reference("tests/integration/combinations/combinations_reference.py", bodies);
    char *line = lines;
    for (cJSON *body = bodies->child; body != NULL; body = body->next) {
        cJSON *expected = reference_next(&line);
        cJSON *all = cJSON_GetObjectItem(expected, "combinations");
        const char *total = cJSON_GetObjectItem(expected, "total")->valuestring;
        bool text = cJSON_GetObjectItem(body, "text") != NULL;
        cJSON *pool_only = cJSON_Duplicate(body, true);
        cJSON_DeleteItemFromObject(pool_only, "k");
        int index = 0;
        for (cJSON *combination = all->child; combination != NULL; combination = combination->next, index++) {
            int first = 0; /* list.index: repeats without `distinct` rank as their first occurrence */
            for (cJSON *c = all->child; !cJSON_Compare(c, combination, true); c = c->next) first++;
            cJSON *ranked =
                post_ok_with("/combination/rank", pool_only, text ? "combination_text" : "combination", combination);
            cr_assert_eq(atoi(cJSON_GetObjectItem(ranked, "rank")->valuestring), first, "%s", line);
            cr_assert_str_eq(cJSON_GetObjectItem(ranked, "total")->valuestring, total);
            cJSON_Delete(ranked);
            cJSON *rank = cJSON_CreateNumber(index);
            cJSON *unranked = post_ok_with("/combination/unrank", body, "rank", rank);
            cr_assert(cJSON_Compare(cJSON_GetObjectItem(unranked, "combination"), combination, true), "%s rank %d",
                      line, index);
            cr_assert_str_eq(cJSON_GetObjectItem(unranked, "total")->valuestring, total);
            cJSON_Delete(unranked);
            cJSON_Delete(rank);
        }
        cJSON_Delete(pool_only);
        cJSON_Delete(expected);
    }
    free(lines);
    cJSON_Delete(bodies);
}

Test(combinations, get_query_matches_post) {
    http_result get = http_get("/combinations?text=aabc&k=2&distinct=true");
    http_result post = http_post("/combinations", "{\"text\":\"aabc\",\"k\":2,\"distinct\":true}");
    cr_assert_eq(get.status, 200);
    cr_assert_str_eq(get.body, post.body);
    http_result_free(&get);
    http_result_free(&post);
    cJSON *ranked = get_ok("/combination/rank?items=5,1,3,2&combination=5,2");
    cJSON *unranked = get_ok("/combination/unrank?items=5,1,3,2&k=2&rank=4");
    cr_assert_str_eq(cJSON_GetObjectItem(ranked, "rank")->valuestring, "4"); /* 12 13 15 23 25 35 */
    cr_assert_str_eq(cJSON_PrintUnformatted(cJSON_GetObjectItem(unranked, "combination")), "[2,5]");
    cJSON_Delete(ranked);
    cJSON_Delete(unranked);
}

/* The items 0..n-1 as a JSON array text. */
static char *range_items(size_t n) {
    char *text = malloc(n * 8 + 16), *at = text;
    at += sprintf(at, "[");
    for (size_t i = 0; i < n; i++) at += sprintf(at, i ? ",%zu" : "%zu", i);
    strcpy(at, "]");
    return text;
}

Test(combinations, round_trips_at_100000_items) {
    enum { N = 100000 };
    char *items = range_items(N);
    size_t size = strlen(items) + 256;
    char *body = malloc(size);
    const char *ranks[] = {"0", "123456789012345678901234567890", "7"};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++) {
        snprintf(body, size, "{\"items\":%s,\"k\":%d,\"rank\":\"%s\"}", items, N / 2, ranks[i]);
        cJSON *unranked = post_ok("/combination/unrank", body);
        cJSON *combination = cJSON_GetObjectItem(unranked, "combination");
        cr_assert_eq(cJSON_GetArraySize(combination), N / 2);
        char *printed = cJSON_PrintUnformatted(combination);
        char *rank_body = malloc(strlen(items) + strlen(printed) + 64);
        sprintf(rank_body, "{\"items\":%s,\"combination\":%s}", items, printed);
        cJSON *ranked = post_ok("/combination/rank", rank_body);
        cr_assert_str_eq(cJSON_GetObjectItem(ranked, "rank")->valuestring, ranks[i]);
        cr_assert_str_eq(cJSON_GetObjectItem(ranked, "total")->valuestring,
                         cJSON_GetObjectItem(unranked, "total")->valuestring);
        cJSON_Delete(ranked);
        cJSON_Delete(unranked);
        free(rank_body);
        cJSON_free(printed);
    }
    /* The last combination of k = 3 is the last three items: C(N, 3) - 1. */
    snprintf(body, size, "{\"items\":%s,\"k\":3,\"rank\":\"166661666699999\"}", items);
    cJSON *last = post_ok("/combination/unrank", body);
    cr_assert_str_eq(cJSON_PrintUnformatted(cJSON_GetObjectItem(last, "combination")), "[99997,99998,99999]");
    cr_assert_str_eq(cJSON_GetObjectItem(last, "total")->valuestring, "166661666700000");
    cJSON_Delete(last);
    free(body);
    free(items);
}

Test(combinations, errors_name_the_field) {
    struct {
        const char *path, *body;
        long status;
        const char *code, *field;
    } cases[] = {
        {"/combinations", "{\"k\":1}", 400, "missing_field", "items"},
        {"/combinations", "{\"items\":[1,2]}", 400, "missing_field", "k"},
        {"/combinations", "{\"items\":[1],\"text\":\"a\",\"k\":1}", 400, "conflicting_fields", "text"},
        {"/combinations", "{\"items\":[1,2],\"k\":3}", 400, "invalid_field", "k"},
        {"/combinations", "{\"items\":[1,2],\"k\":-1}", 400, "invalid_field", "k"},
        {"/combinations", "{\"items\":[1,2],\"k\":1,\"offset\":\"x\"}", 400, "invalid_field", "offset"},
        {"/combinations", "{\"items\":[1,2],\"k\":1,\"limit\":-1}", 400, "invalid_field", "limit"},
        {"/combinations", "{\"text\":\"a\xff\",\"k\":1}", 400, "invalid_field", "text"},
        {"/combinations", "{\"items\":[1,2],\"k\":1,\"order\":\"input\"}", 400, "unknown_field", "order"},
        {"/combination/rank", "{\"items\":[1,2]}", 400, "missing_field", "combination"},
        {"/combination/rank", "{\"text\":\"ab\"}", 400, "missing_field", "combination_text"},
        {"/combination/rank", "{\"items\":[1,2],\"combination_text\":\"a\"}", 400, "conflicting_fields",
         "combination_text"},
        {"/combination/rank", "{\"text\":\"ab\",\"combination\":[\"a\"]}", 400, "conflicting_fields", "combination"},
        {"/combination/rank", "{\"items\":[1,2],\"combination\":[3]}", 400, "invalid_field", "combination"},
        {"/combination/rank", "{\"items\":[1,2],\"combination\":[1,1]}", 400, "invalid_field", "combination"},
        {"/combination/rank", "{\"text\":\"ab\",\"combination_text\":\"\xff\"}", 400, "invalid_field",
         "combination_text"},
        {"/combination/unrank", "{\"items\":[1,2],\"k\":1}", 400, "missing_field", "rank"},
        {"/combination/unrank", "{\"items\":[1,2],\"rank\":0}", 400, "missing_field", "k"},
        {"/combination/unrank", "{\"items\":[1,2],\"k\":1,\"rank\":2}", 400, "invalid_field", "rank"},
        {"/combination/unrank", "{\"items\":[1,2],\"k\":1,\"rank\":\"-1\"}", 400, "invalid_field", "rank"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_error_field(http_post(cases[i].path, cases[i].body), cases[i].status, cases[i].code, cases[i].field);
}

Test(combinations, too_many_items_is_422) {
    test_server server;
    const char *args[] = {"--max-rank-items", "3", NULL};
    cr_assert(test_server_start(&server, args));
    http_result r = http_request(server.url, "POST", "/combinations", "{\"text\":\"abcd\",\"k\":1}", NULL);
    expect_error_field(r, 422, "too_large", "text");
    r = http_request(server.url, "POST", "/combination/rank", "{\"text\":\"abc\",\"combination_text\":\"abcd\"}", NULL);
    expect_error_field(r, 422, "too_large", "combination_text");
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

Test(combinations, long_counts_stop_at_the_time_limit) {
    /* 60,000 letters over 20,000 classes of three: counting distinct 30,000-combinations is a
     * dynamic programme of about 6 * 10^8 big-number additions, far beyond 1 ms. */
    enum { N = 60000 };
    char *body = malloc(N * 6 + 256), *at = body;
    at += sprintf(at, "{\"time_limit_ms\":1,\"distinct\":true,\"k\":%d,\"count_only\":true,\"text\":\"", N / 2);
    for (int i = 0; i < N; i++) at += sprintf(at, "\\u%04x", 0x4e00 + i / 3);
    strcpy(at, "\"}");
    http_result r = http_post("/combinations", body);
    cJSON_Delete(expect_error(&r, 503, "deadline_exceeded"));
    http_result_free(&r);
    free(body);
}

/* Reads a stream until `stop_after` bytes, then hangs up (the write callback refuses the data). */
typedef struct reader {
    size_t received, stop_after;
} reader;

static size_t read_some(char *data, size_t size, size_t count, void *user) {
    (void)data;
    reader *r = user;
    r->received += size * count;
    return r->received >= r->stop_after ? 0 : size * count;
}

Test(combinations, long_listings_stream_and_stop_when_the_client_leaves) {
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    char url[256];
    snprintf(url, sizeof url, "%s/combinations", server.url);
    /* C(40, 20): 1.4 * 10^11 combinations, ~10 TB; JSON with the largest limit, far past a page */
    for (int attempt = 0; attempt < 3; attempt++) {
        CURL *curl = curl_easy_init();
        reader r = {0, (size_t)32 << 20};
        curl_easy_setopt(curl, CURLOPT_URL, url);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS,
                         "{\"text\":\"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN\",\"k\":20,\"limit\":9007199254740991}");
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, read_some);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
        cr_assert_eq(curl_easy_perform(curl), CURLE_WRITE_ERROR);
        curl_easy_cleanup(curl);
        cr_assert_geq(r.received, (size_t)32 << 20);
    }
    http_result again = http_request(server.url, "POST", "/combinations", "{\"text\":\"abc\",\"k\":2}", NULL);
    cr_assert_str_eq(
        again.body,
        "{\"kind\":\"combinations\",\"total\":\"3\",\"next_offset\":null,\"combinations\":[\"ab\",\"ac\",\"bc\"]}");
    http_result_free(&again);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}
