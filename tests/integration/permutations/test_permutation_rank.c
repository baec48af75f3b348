/* /permutation/rank and /permutation/unrank over HTTP: every arrangement of random small multisets
 * against Python's sorted distinct itertools.permutations (rank = index, unrank(index) = arrangement),
 * items and text; k-arrangements of a pool, distinct or not, against the /permutations reference
 * listing; round trips up to 100,000 items; errors. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static const char *const pool[] = {"-2",          "0",    "3",    "2.5",         "\"a\"", "\"B\"",
                                   "\"\\u00e9\"", "true", "null", "{\"x\":[1]}", "[0]"};

static cJSON *random_case(unsigned *seed) {
    size_t n = 1 + (size_t)(rand_r(seed) % 5), m = 1 + (size_t)(rand_r(seed) % n);
    size_t choices = sizeof pool / sizeof pool[0];
    size_t values[8];
    for (size_t i = 0; i < m; i++) values[i] = (size_t)(rand_r(seed) % choices);
    if (rand_r(seed) % 3 == 0) {
        char text[16] = "";
        for (size_t i = 0; i < n; i++) text[i] = (char)('a' + values[i < m ? i : rand_r(seed) % m] % 4);
        return cJSON_CreateString(text);
    }
    cJSON *items = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(items, cJSON_Parse(pool[values[i < m ? i : rand_r(seed) % m]]));
    return items;
}

/* POSTs {"<field>": value, extra...} and returns the parsed 200 answer. */
static cJSON *post_field_ok(const char *path, const char *field, const cJSON *value, const char *extra) {
    char *printed = cJSON_PrintUnformatted(value);
    size_t size = strlen(printed) + strlen(extra) + 128;
    char *body = malloc(size);
    snprintf(body, size, "{\"%s\":%s%s}", field, printed, extra);
    cJSON *doc = post_ok(path, body);
    free(body);
    cJSON_free(printed);
    return doc;
}

Test(permutation_rank, rank_and_unrank_match_python_on_random_multisets) {
    cJSON *cases = cJSON_CreateArray();
    unsigned seed = 77;
    for (int i = 0; i < 40; i++) cJSON_AddItemToArray(cases, random_case(&seed));
    char *lines = run_python_reference("tests/integration/permutations/permutation_rank_reference.py", cases);
    char *line = lines;
    for (cJSON *c = cases->child; c != NULL; c = c->next) {
        cJSON *all = reference_next(&line);
        bool text = cJSON_IsString(c);
        int total = cJSON_GetArraySize(all), index = 0;
        for (cJSON *arrangement = all->child; arrangement != NULL; arrangement = arrangement->next, index++) {
            cJSON *ranked = post_field_ok("/permutation/rank", text ? "text" : "permutation", arrangement, "");
            cr_assert_eq(atoi(cJSON_GetObjectItem(ranked, "rank")->valuestring), index);
            cr_assert_eq(atoi(cJSON_GetObjectItem(ranked, "total")->valuestring), total);
            char extra[48];
            snprintf(extra, sizeof extra, index % 2 ? ",\"rank\":%d" : ",\"rank\":\"%d\"", index);
            cJSON *unranked = post_field_ok("/permutation/unrank", text ? "text" : "items", c, extra);
            cr_assert(cJSON_Compare(cJSON_GetObjectItem(unranked, "permutation"), arrangement, true), "unrank %d of %s",
                      index, cJSON_PrintUnformatted(c));
            cr_assert_eq(atoi(cJSON_GetObjectItem(unranked, "total")->valuestring), total);
            cJSON_Delete(ranked);
            cJSON_Delete(unranked);
        }
        cJSON_Delete(all);
    }
    free(lines);
    cJSON_Delete(cases);
}

/* k-arrangements, distinct or not: every one /permutations lists (lexicographic, from Python's
 * itertools via tests/integration/permutations/permutations_reference.py) ranks as its index (the first index of
 * a repeated one) against its pool, and unranks back from each index. */
Test(permutation_rank, k_arrangements_rank_as_their_index_in_the_listing) {
    cJSON *bodies = cJSON_CreateArray();
    unsigned seed = 99;
    for (int i = 0; i < 60; i++) {
        cJSON *c = random_case(&seed), *body = cJSON_CreateObject();
        bool text = cJSON_IsString(c);
        int n = text ? (int)strlen(c->valuestring) : cJSON_GetArraySize(c);
        cJSON_AddItemToObject(body, text ? "text" : "items", c);
        cJSON_AddNumberToObject(body, "k", rand_r(&seed) % (n + 1));
        cJSON_AddBoolToObject(body, "distinct", i % 2 == 0);
        cJSON_AddItemToArray(bodies, body);
    }
    char *lines = run_python_reference("tests/integration/permutations/permutations_reference.py", bodies);
    char *line = lines;
    for (cJSON *body = bodies->child; body != NULL; body = body->next) {
        cJSON *expected = reference_next(&line);
        cJSON *all = cJSON_GetObjectItem(expected, "permutations");
        const char *total = cJSON_GetObjectItem(expected, "total")->valuestring;
        bool text = cJSON_GetObjectItem(body, "text") != NULL;
        cJSON *pool = cJSON_CreateObject(); /* {"pool": items} or {"pool_text": text}, with distinct */
        cJSON_AddItemToObject(pool, text ? "pool_text" : "pool",
                              cJSON_Duplicate(cJSON_GetObjectItem(body, text ? "text" : "items"), true));
        cJSON_AddItemToObject(pool, "distinct", cJSON_Duplicate(cJSON_GetObjectItem(body, "distinct"), true));
        int index = 0;
        for (cJSON *a = all->child; a != NULL; a = a->next, index++) {
            int first = 0;
            for (cJSON *b = all->child; !cJSON_Compare(b, a, true); b = b->next) first++;
            cJSON *ranked = post_ok_with("/permutation/rank", pool, text ? "text" : "permutation", a);
            cr_assert_eq(atoi(cJSON_GetObjectItem(ranked, "rank")->valuestring), first, "%s: %s",
                         cJSON_PrintUnformatted(body), cJSON_PrintUnformatted(a));
            cr_assert_str_eq(cJSON_GetObjectItem(ranked, "total")->valuestring, total);
            cJSON_Delete(ranked);
            cJSON *rank = cJSON_CreateNumber(index);
            cJSON *unranked = post_ok_with("/permutation/unrank", body, "rank", rank);
            cr_assert(cJSON_Compare(cJSON_GetObjectItem(unranked, "permutation"), a, true), "%s: unrank %d", line,
                      index);
            cr_assert_str_eq(cJSON_GetObjectItem(unranked, "total")->valuestring, total);
            cJSON_Delete(unranked);
            cJSON_Delete(rank);
        }
        cJSON_Delete(pool);
        cJSON_Delete(expected);
    }
    free(lines);
    cJSON_Delete(bodies);
}

/* A k-arrangement of 100,000 items unranked, then ranked back against its pool. k is 2,000 here so
 * that this test, run beside the whole-arrangement round trips, leaves them their time limit under
 * the sanitizers; the core test takes k = 50,000 of 100,000. */
Test(permutation_rank, k_arrangement_round_trips_100000_items) {
    enum { N = 100000 };
    char *items = malloc(N * 8 + 4), *at = items;
    *at++ = '[';
    for (int i = 0; i < N; i++) at += sprintf(at, i ? ",%d" : "%d", i);
    strcpy(at, "]");
    size_t size = strlen(items) + 128;
    char *body = malloc(size);
    snprintf(body, size, "{\"items\":%s,\"k\":2000,\"distinct\":false,\"rank\":\"98765432109876543210\"}", items);
    cJSON *unranked = post_ok("/permutation/unrank", body);
    char *arrangement = cJSON_PrintUnformatted(cJSON_GetObjectItem(unranked, "permutation"));
    char *rank_body = malloc(size + strlen(arrangement));
    sprintf(rank_body, "{\"pool\":%s,\"permutation\":%s,\"distinct\":false}", items, arrangement);
    cJSON *ranked = post_ok("/permutation/rank", rank_body);
    cr_assert_str_eq(cJSON_GetObjectItem(ranked, "rank")->valuestring, "98765432109876543210");
    cr_assert_str_eq(cJSON_GetObjectItem(ranked, "total")->valuestring,
                     cJSON_GetObjectItem(unranked, "total")->valuestring);
    cJSON_Delete(ranked);
    cJSON_Delete(unranked);
    cJSON_free(arrangement);
    free(rank_body);
    free(body);
    free(items);
}

Test(permutation_rank, examples_and_get) {
    http_result r = http_post("/permutation/rank", "{\"permutation\":[3,1,2]}");
    cr_assert_str_eq(r.body, "{\"kind\":\"rank\",\"rank\":\"4\",\"total\":\"6\"}");
    http_result_free(&r);
    r = http_get("/permutation/rank?text=dcba");
    cr_assert_str_eq(r.body, "{\"kind\":\"rank\",\"rank\":\"23\",\"total\":\"24\"}");
    http_result_free(&r);
    r = http_get("/permutation/unrank?items=1,2,3&rank=4");
    cr_assert_str_eq(r.body, "{\"kind\":\"permutation_unrank\",\"permutation\":[3,1,2],\"total\":\"6\"}");
    http_result_free(&r);
    r = http_post("/permutation/unrank", "{\"text\":\"mississippi\",\"rank\":\"34649\"}");
    cr_assert_str_eq(r.body, "{\"kind\":\"permutation_unrank\",\"permutation\":\"ssssppmiiii\",\"total\":\"34650\"}");
    http_result_free(&r);
}

/* rank(p) then unrank(rank) of n items given as a JSON array of numbers or as text, on the server at
 * `base_url`. */
static void round_trip(const char *base_url, const char *field, const char *items_json) {
    size_t size = strlen(items_json) + 64;
    char *body = malloc(size);
    snprintf(body, size, "{\"%s\":%s}", strcmp(field, "text") ? "permutation" : "text", items_json);
    http_result ranked = http_request(base_url, "POST", "/permutation/rank", body, NULL);
    cr_assert_eq(ranked.status, 200, "%.200s", ranked.body);
    cJSON *doc = http_json(&ranked);
    const char *rank = cJSON_GetObjectItem(doc, "rank")->valuestring;
    char *request = malloc(size + strlen(rank));
    snprintf(request, size + strlen(rank), "{\"%s\":%s,\"rank\":\"%s\"}", field, items_json, rank);
    http_result unranked = http_request(base_url, "POST", "/permutation/unrank", request, NULL);
    cr_assert_eq(unranked.status, 200, "%.200s", unranked.body);
    cJSON *back = http_json(&unranked);
    cJSON *expected = cJSON_Parse(items_json);
    cr_assert(cJSON_Compare(cJSON_GetObjectItem(back, "permutation"), expected, true));
    cr_assert_str_eq(cJSON_GetObjectItem(back, "total")->valuestring, cJSON_GetObjectItem(doc, "total")->valuestring);
    cJSON_Delete(expected);
    cJSON_Delete(back);
    cJSON_Delete(doc);
    http_result_free(&ranked);
    http_result_free(&unranked);
    free(request);
    free(body);
}

/* On a server of its own with a long time limit: what is tested is the round trip, and under the
 * sanitizers on a loaded machine these requests can take longer than the default 10 s. */
Test(permutation_rank, round_trips_100000_items) {
    enum { N = 100000 };
    test_server server;
    const char *args[] = {"--time-limit-ms", "120000", NULL};
    cr_assert(test_server_start(&server, args));
    int *order = malloc(N * sizeof *order);
    for (int i = 0; i < N; i++) order[i] = i;
    unsigned seed = 5;
    for (int i = N; i > 1; i--) {
        int j = rand_r(&seed) % i, t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    char *json = malloc(N * 8 + 4), *at = json;
    *at++ = '[';
    for (int i = 0; i < N; i++) at += sprintf(at, i ? ",%d" : "%d", order[i]);
    strcpy(at, "]");
    round_trip(server.url, "items", json); /* 100,000 distinct numbers: a 456,574-digit rank */
    at = json;
    *at++ = '"';
    for (int i = 0; i < N; i++) *at++ = "ab"[rand_r(&seed) % 2];
    strcpy(at, "\"");
    round_trip(server.url, "text", json); /* 100,000 letters over two classes */
    free(json);
    free(order);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

Test(permutation_rank, errors_name_the_field) {
    struct {
        const char *path, *body;
        long status;
        const char *code, *field;
    } cases[] = {
        {"/permutation/rank", "{}", 400, "missing_field", "permutation"},
        {"/permutation/rank", "{\"permutation\":[1],\"text\":\"a\"}", 400, "conflicting_fields", "text"},
        {"/permutation/unrank", "{\"items\":[1,2]}", 400, "missing_field", "rank"},
        {"/permutation/unrank", "{\"items\":[1,2],\"rank\":2}", 400, "invalid_field", "rank"},
        {"/permutation/unrank", "{\"text\":\"aab\",\"rank\":\"3\"}", 400, "invalid_field", "rank"},
        {"/permutation/unrank", "{\"items\":[1,2],\"rank\":-1}", 400, "invalid_field", "rank"},
        {"/permutation/unrank", "{\"items\":[1,2],\"rank\":\"0x1\"}", 400, "invalid_field", "rank"},
        {"/permutation/unrank", "{\"rank\":0}", 400, "missing_field", "items"},
        {"/permutation/unrank", "{\"items\":[1,2],\"rank\":0,\"k\":3}", 400, "invalid_field", "k"},
        {"/permutation/unrank", "{\"items\":[1,1],\"k\":1,\"rank\":1}", 400, "invalid_field", "rank"},
        {"/permutation/rank", "{\"pool\":[1,2],\"text\":\"a\"}", 400, "conflicting_fields", "text"},
        {"/permutation/rank", "{\"pool_text\":\"ab\"}", 400, "missing_field", "text"},
        {"/permutation/rank", "{\"pool\":[1,2],\"pool_text\":\"ab\"}", 400, "conflicting_fields", "pool_text"},
        {"/permutation/rank", "{\"pool\":[1,2],\"permutation\":[3]}", 400, "invalid_field", "permutation"},
        {"/permutation/rank", "{\"pool_text\":\"ab\",\"text\":\"aa\"}", 400, "invalid_field", "text"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        http_result r = http_post(cases[i].path, cases[i].body);
        cJSON *doc = expect_error(&r, cases[i].status, cases[i].code);
        cJSON *error = cJSON_GetObjectItem(doc, "error");
        cr_assert_str_eq(cJSON_GetObjectItem(error, "field")->valuestring, cases[i].field, "%s", cases[i].body);
        cJSON_Delete(doc);
        http_result_free(&r);
    }
    http_result r = http_post("/permutation/unrank", "{\"items\":[1,2,3],\"rank\":6}");
    cJSON_Delete(expect_error(&r, 400, "invalid_field"));
    cr_assert(strstr(r.body, "[0, 6)") != NULL, "the message states the range: %s", r.body);
    http_result_free(&r);
}

Test(permutation_rank, item_limit_and_time_limit) {
    test_server server;
    const char *args[] = {"--max-rank-items", "4", NULL};
    cr_assert(test_server_start(&server, args));
    const char *bodies[][2] = {{"/permutation/rank", "{\"text\":\"abcde\"}"},
                               {"/permutation/unrank", "{\"items\":[1,2,3,4,5],\"rank\":0}"},
                               {"/permutations", "{\"items\":[1,2,3,4,5]}"}};
    for (size_t i = 0; i < 3; i++) {
        http_result r = http_request(server.url, "POST", bodies[i][0], bodies[i][1], NULL);
        cJSON_Delete(expect_error(&r, 422, "too_large"));
        http_result_free(&r);
    }
    http_result r = http_request(server.url, "POST", "/permutation/rank", "{\"text\":\"abcd\"}", NULL);
    cr_assert_eq(r.status, 200);
    http_result_free(&r);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
    /* 100,000 letters of ten cannot be ranked within 1 ms (text is not estimated, so it starts and runs
     * out of time; distinct items that many are refused at once, below). On a server of its own: on the
     * shared one, a test running beside this one may keep a worker busy, and the request is then
     * refused at once as a wait it cannot afford (503 overloaded) instead of starting. */
    char *body = malloc(100000 + 64), *at = body;
    at += sprintf(at, "{\"time_limit_ms\":1,\"text\":\"");
    for (int i = 0; i < 100000; i++) *at++ = "abcdefghij"[i % 10];
    strcpy(at, "\"}");
    cr_assert(test_server_start(&server, NULL));
    r = http_request(server.url, "POST", "/permutation/rank", body, NULL);
    cJSON_Delete(expect_error(&r, 503, "deadline_exceeded"));
    http_result_free(&r);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
    free(body);
}

static double detail_number(const cJSON *details, const char *name) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(details, name);
    cr_assert(cJSON_IsNumber(item), "%s must be a number", name);
    return item->valuedouble;
}

/* A request of `n` distinct items n-1 .. 0 (the rank's `permutation`, the unrank's `items`), after
 * `fields` (ending in a comma); malloc'd. */
static char *reversed_items_body(const char *fields, const char *items_field, int n) {
    char *body = malloc((size_t)n * 8 + strlen(fields) + 64), *at = body;
    at += sprintf(at, "{%s\"%s\":[", fields, items_field);
    for (int i = 0; i < n; i++) at += sprintf(at, i ? ",%d" : "%d", n - 1 - i);
    strcpy(at, "]}");
    return body;
}

/* 10^6 distinct items against 1 ms: the model says a few hundred ms here (the rank of 2^16 items takes
 * about 20 ms on one core), about a hundred times the line of 4 ms whatever the machine's speed; the
 * refusal needs no worker (the server answers it on the I/O thread). On a server of its own, for
 * bodies of 7 MB. */
Test(permutation_rank, hopeless_ranks_and_unranks_are_refused_at_once_with_the_estimate) {
    enum { N = 1000000 };
    test_server server;
    const char *args[] = {"--max-body", "67108864", NULL};
    cr_assert(test_server_start(&server, args));
    struct {
        const char *path, *fields, *items_field, *blamed;
    } hopeless[] = {
        {"/permutation/rank", "\"time_limit_ms\":1,", "permutation", "permutation"},
        {"/permutation/unrank", "\"time_limit_ms\":1,\"rank\":\"1\",", "items", "items"},
        {"/permutation/unrank", "\"time_limit_ms\":1,\"rank\":\"1\",\"k\":999999,", "items", "k"},
    };
    for (size_t i = 0; i < sizeof hopeless / sizeof *hopeless; i++) {
        char *body = reversed_items_body(hopeless[i].fields, hopeless[i].items_field, N);
        http_result r = http_request(server.url, "POST", hopeless[i].path, body, NULL);
        cJSON *doc = expect_error(&r, 422, "too_large");
        const cJSON *error = cJSON_GetObjectItemCaseSensitive(doc, "error");
        cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(error, "field")->valuestring, hopeless[i].blamed, "%s",
                         r.body);
        const cJSON *details = cJSON_GetObjectItemCaseSensitive(error, "details");
        double estimated = detail_number(details, "estimated_ms"), fits = detail_number(details, "largest_that_fits");
        cr_assert_eq(detail_number(details, "time_limit_ms"), 1, "%s", r.body);
        cr_assert_gt(estimated, 2, "the estimate is over twice the time limit: %s", r.body);
        cr_assert(fits >= 0 && fits < N, "what fits is fewer items: %s", r.body);
        cr_assert_not_null(strstr(r.body, "would take about"), "%s", r.body);
        cJSON_Delete(doc);
        http_result_free(&r);
        free(body);
    }
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

/* 1,000 and 5,000 distinct items (the second estimated by the model, the first below the sizes it was
 * timed on) against 5 s: microseconds to a millisecond of work, answered; each rank and total against
 * Python's textbook Lehmer digits, and the rank unranked back to the arrangement within the same limit. */
Test(permutation_rank, ranks_far_within_the_time_limit_are_answered) {
    int sizes[] = {1000, 5000};
    cJSON *cases = cJSON_CreateArray();
    unsigned seed = 44;
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        int n = sizes[c], *order = malloc((size_t)n * sizeof *order);
        for (int i = 0; i < n; i++) order[i] = i;
        for (int i = n; i > 1; i--) {
            int j = rand_r(&seed) % i, t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        cJSON_AddItemToArray(cases, cJSON_CreateIntArray(order, n));
        free(order);
    }
    char *lines = run_python_reference("tests/integration/permutations/lehmer_rank_reference.py", cases);
    char *line = lines;
    for (cJSON *permutation = cases->child; permutation != NULL; permutation = permutation->next) {
        cJSON *expected = reference_next(&line);
        const char *rank = cJSON_GetArrayItem(expected, 0)->valuestring;
        cJSON *ranked = post_field_ok("/permutation/rank", "permutation", permutation, ",\"time_limit_ms\":5000");
        cr_assert_str_eq(cJSON_GetObjectItem(ranked, "rank")->valuestring, rank);
        cr_assert_str_eq(cJSON_GetObjectItem(ranked, "total")->valuestring,
                         cJSON_GetArrayItem(expected, 1)->valuestring);
        cJSON *sorted = cJSON_Duplicate(permutation, true);
        int n = cJSON_GetArraySize(sorted);
        for (int i = 0; i < n; i++) cJSON_SetNumberValue(cJSON_GetArrayItem(sorted, i), i);
        char extra[64 + 20000];
        snprintf(extra, sizeof extra, ",\"rank\":\"%s\",\"time_limit_ms\":5000", rank);
        cJSON *unranked = post_field_ok("/permutation/unrank", "items", sorted, extra);
        cr_assert(cJSON_Compare(cJSON_GetObjectItem(unranked, "permutation"), permutation, true), "unrank of %d items",
                  n);
        cJSON_Delete(unranked);
        cJSON_Delete(sorted);
        cJSON_Delete(ranked);
        cJSON_Delete(expected);
    }
    free(lines);
    cJSON_Delete(cases);
}
