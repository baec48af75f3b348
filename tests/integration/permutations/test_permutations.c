/* /permutations over HTTP against Python's itertools (tests/integration/permutations/permutations_reference.py,
 * run at test time) on random multisets, for every combination of order x distinct x k x
 * offset/limit x count_only x NDJSON, with items and with text; plus GET, errors and streaming. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "permutations_reference.h"

static const char *const orders[] = {"lexicographic", "input", "any"};

/* A value pool with ties by value across kinds: numbers, strings, and other JSON values. */
static const char *const pool[] = {"-3",    "0",     "1",         "2",     "7",           "1.5",   "-0.5",
                                   "\"a\"", "\"b\"", "\"ab\"",    "\"\"",  "\"\\u00e9\"", "\"1\"", "true",
                                   "false", "null",  "{\"a\":1}", "[1,2]", "[]"};
/* Numbers alone: sorted by their bits (api/arrangements/item_classes.c radix_sort_keys), not by qsort. */
static const char *const numbers[] = {"-3",
                                      "0",
                                      "1",
                                      "2",
                                      "7",
                                      "1.5",
                                      "-0.5",
                                      "1e300",
                                      "-1e300",
                                      "1e-300",
                                      "-2.5e-300",
                                      "9007199254740991",
                                      "-9007199254740991"};
static const char *const letters[] = {"a", "b", "c", "\xc3\xa9", "\xf0\x9f\x98\x80", "\"", "\\", "z"};

/* One request body for combination `combo` (its bits choose the options) on a random multiset drawn
 * from `values` (or, with bit 0, from the letters). */
static cJSON *random_body_from(const char *const *values, size_t value_count, unsigned combo, unsigned *seed) {
    cJSON *body = cJSON_CreateObject();
    size_t n = (size_t)(rand_r(seed) % 7);
    int picks[8];
    if (combo & 1) {
        test_random_picks(picks, n, sizeof letters / sizeof letters[0], seed);
        char text[64] = "";
        for (size_t i = 0; i < n; i++) strcat(text, letters[picks[i]]);
        cJSON_AddStringToObject(body, "text", text);
    } else {
        test_random_picks(picks, n, value_count, seed);
        cJSON *items = cJSON_AddArrayToObject(body, "items");
        for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(items, cJSON_Parse(values[picks[i]]));
    }
    unsigned order = (combo >> 1) % 4; /* 3: leave the default */
    if (order < 3) cJSON_AddStringToObject(body, "order", orders[order]);
    if (combo & 8) cJSON_AddBoolToObject(body, "distinct", true);
    if (combo & 16) cJSON_AddNumberToObject(body, "k", rand_r(seed) % (int)(n + 1));
    if (combo & 32) {
        int offset = rand_r(seed) % 4 == 0 ? rand_r(seed) % 800 : rand_r(seed) % 12;
        if (rand_r(seed) % 2) {
            char text[16];
            snprintf(text, sizeof text, "%d", offset);
            cJSON_AddStringToObject(body, "offset", text);
        } else {
            cJSON_AddNumberToObject(body, "offset", offset);
        }
        cJSON_AddNumberToObject(body, "limit", rand_r(seed) % 6);
    }
    if (combo & 64) cJSON_AddBoolToObject(body, "count_only", true);
    return body;
}

static cJSON *random_body(unsigned combo, unsigned *seed) {
    return random_body_from(pool, sizeof pool / sizeof pool[0], combo, seed);
}

static cJSON *random_number_body(unsigned combo, unsigned *seed) {
    return random_body_from(numbers, sizeof numbers / sizeof numbers[0], combo, seed);
}

enum { COMBOS = 256 }; /* bit 7: NDJSON */

/* Every option combination, three rounds, on bodies from `random_body`, against itertools. */
static void expect_itertools_listings(cJSON *(*random_body)(unsigned, unsigned *), unsigned seed) {
    expect_listings_match_reference(
        &(listing_check){.path = "/permutations",
                         .reference = "tests/integration/permutations/permutations_reference.py",
                         .list_key = "permutations",
                         .random_body = random_body,
                         .option_sets = COMBOS,
                         .ndjson_bit = 128,
                         .rounds = 3,
                         .seed = seed});
}

Test(permutations, match_itertools_for_every_option_combination) { expect_itertools_listings(random_body, 20261122); }

Test(permutations, number_items_match_itertools_for_every_option_combination) {
    expect_itertools_listings(random_number_body, 20261125);
}

/* Lines of one-byte entries up to 32 bytes take a fixed-shape path (api/arrangements/arrangement_listing.c), longer
 * ones the patching of changed entries: on both sides of that edge (15 and 16 numbers as NDJSON: 32
 * and 34 bytes a line; 29 and 30 characters: 32 and 33), the first 3,000 lines, as sent and as JSON
 * text, against the plain next-permutation step over positions applied to the sorted values. */
Test(permutations, one_byte_entries_on_both_sides_of_the_fixed_line_edge) {
    enum { LINES = 3000 };
    const struct {
        const char *body, *sorted;
        bool text;
    } cases[] = {
        {"{\"items\":[0,1,2,3,4,5,6,7,8,9,0,1,2,3,4],\"limit\":3000}", "001122334456789", false},
        {"{\"items\":[0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5],\"limit\":3000}", "0011223344556789", false},
        {"{\"text\":\"abcdefghijklmnopqrstuvwxyz012\",\"limit\":3000}", "012abcdefghijklmnopqrstuvwxyz", true},
        {"{\"text\":\"abcdefghijklmnopqrstuvwxyz0123\",\"limit\":3000}", "0123abcdefghijklmnopqrstuvwxyz", true},
    };
    const char *const ndjson[] = {"Accept: application/x-ndjson", NULL};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        http_result r = http_request(server_url(), "POST", "/permutations", cases[c].body, ndjson);
        cr_assert_eq(r.status, 200, "%s: %s", cases[c].body, r.body);
        int n = (int)strlen(cases[c].sorted), p[32];
        for (int i = 0; i < n; i++) p[i] = i;
        char *line = r.body;
        for (int count = 0; count < LINES; count++) {
            char expected[80];
            size_t len = 0;
            expected[len++] = cases[c].text ? '"' : '[';
            for (int i = 0; i < n; i++) {
                if (i > 0 && !cases[c].text) expected[len++] = ',';
                expected[len++] = cases[c].sorted[p[i]];
            }
            expected[len++] = cases[c].text ? '"' : ']';
            expected[len++] = '\n';
            cr_assert(strncmp(line, expected, len) == 0, "%s: line %d is %.40s, expected %.*s", cases[c].body, count,
                      line, (int)len, expected);
            line += len;
            cr_assert(reference_next_permutation(p, n));
        }
        cr_assert_eq(*line, '\0', "%s: more than %d lines", cases[c].body, LINES);
        http_result_free(&r);
    }
}

/* One case for the byte-exact check: the first n of the scrambled digits (or letters), a window. */
static void add_ordering_case(cJSON *cases, int n, bool text, bool ndjson, long offset, long limit, bool any_order) {
    const char scrambled_digits[] = "7302981645", scrambled_letters[] = "qzbkmdxwcape";
    cJSON *body = cJSON_CreateObject();
    if (text) {
        char letters[16];
        snprintf(letters, sizeof letters, "%.*s", n, scrambled_letters);
        cJSON_AddStringToObject(body, "text", letters);
    } else {
        cJSON *items = cJSON_AddArrayToObject(body, "items");
        for (int i = 0; i < n; i++) cJSON_AddItemToArray(items, cJSON_CreateNumber(scrambled_digits[i] - '0'));
    }
    if (offset > 0) cJSON_AddNumberToObject(body, "offset", (double)offset);
    if (limit >= 0) cJSON_AddNumberToObject(body, "limit", (double)limit);
    if (any_order) cJSON_AddStringToObject(body, "order", "any");
    cJSON *c = cJSON_CreateObject();
    cJSON_AddItemToObject(c, "body", body);
    cJSON_AddBoolToObject(c, "ndjson", ndjson);
    cJSON_AddItemToArray(cases, c);
}

/* Every ordering of distinct one-byte items is written by blocks of 7! lines (api/arrangements/permutation_blocks.c):
 * byte for byte against itertools (permutation_bytes_reference.py) for 1 to 12 items, numbers in a
 * scrambled input order and one-letter texts, JSON and NDJSON, whole listings up to 8 items and from
 * there windows starting and ending on, before and after block edges, near the end, and past it. */
Test(permutations, every_ordering_of_one_byte_items_matches_itertools_byte_for_byte) {
    enum { BLOCK = 5040 }; /* 7! lines */
    /* {offset, limit}: a negative offset counts from the end, a negative limit is none */
    const long windows[][2] = {{0, BLOCK + 1}, {BLOCK - 1, 2},   {BLOCK, BLOCK}, {3 * BLOCK - 2, 3},
                               {BLOCK / 2, 7}, {-BLOCK - 3, -1}, {-2, 1},        {-1, -1},
                               {0, 0}};
    cJSON *cases = cJSON_CreateArray();
    for (int n = 1; n <= 12; n++)
        for (int kind = 0; kind < 4; kind++) {
            bool text = kind & 1, ndjson = kind & 2;
            if (!text && n > 10) continue; /* one-byte numbers stop at 9 */
            long count = 1;
            for (int i = 2; i <= n; i++) count *= i;
            add_ordering_case(cases, n, text, ndjson, count, -1, false); /* past the end: none */
            if (n <= 8) add_ordering_case(cases, n, text, ndjson, 0, -1, n % 2);
            else
                for (size_t w = 0; w < sizeof windows / sizeof *windows; w++)
                    add_ordering_case(cases, n, text, ndjson, windows[w][0] < 0 ? count + windows[w][0] : windows[w][0],
                                      windows[w][1], w % 2);
        }
    char *expected_lines = run_python_reference("tests/integration/permutations/permutation_bytes_reference.py", cases);
    char *line = expected_lines;
    const char *const ndjson_header[] = {"Accept: application/x-ndjson", NULL};
    for (cJSON *c = cases->child; c != NULL; c = c->next) {
        cJSON *expected = reference_next(&line);
        cr_assert(cJSON_IsString(expected));
        char *body = cJSON_PrintUnformatted(cJSON_GetObjectItem(c, "body"));
        bool ndjson = cJSON_IsTrue(cJSON_GetObjectItem(c, "ndjson"));
        http_result r = http_request(server_url(), "POST", "/permutations", body, ndjson ? ndjson_header : NULL);
        cr_assert_eq(r.status, 200, "%s: %s", body, r.body);
        size_t expected_len = strlen(expected->valuestring);
        cr_assert(r.body_len == expected_len && memcmp(r.body, expected->valuestring, expected_len) == 0,
                  "%s (%s): %zu bytes %.60s, expected %zu bytes %.60s", body, ndjson ? "NDJSON" : "JSON", r.body_len,
                  r.body, expected_len, expected->valuestring);
        http_result_free(&r);
        cJSON_free(body);
        cJSON_Delete(expected);
    }
    free(expected_lines);
    cJSON_Delete(cases);
}

Test(permutations, get_query_matches_post) {
    http_result get = http_get("/permutations?text=aab&order=input&distinct=true&k=2");
    http_result post = http_post("/permutations", "{\"text\":\"aab\",\"order\":\"input\",\"distinct\":true,\"k\":2}");
    cr_assert_eq(get.status, 200);
    cr_assert_str_eq(get.body, post.body);
    cr_assert_str_eq(
        get.body,
        "{\"kind\":\"permutations\",\"total\":\"3\",\"next_offset\":null,\"permutations\":[\"aa\",\"ab\",\"ba\"]}");
    http_result_free(&get);
    http_result_free(&post);
    get = http_get("/permutations?items=3,1,2&offset=4&limit=10");
    cr_assert_str_eq(
        get.body,
        "{\"kind\":\"permutations\",\"total\":\"6\",\"next_offset\":null,\"permutations\":[[3,1,2],[3,2,1]]}");
    http_result_free(&get);
}

Test(permutations, huge_offsets_unrank_without_listing) {
    /* 30 distinct items: 30! arrangements; the last one is the reverse of the sorted items. */
    char body[512] = "{\"items\":[";
    for (int i = 0; i < 30; i++) snprintf(body + strlen(body), sizeof body - strlen(body), i ? ",%d" : "%d", i);
    strcat(body, "],\"offset\":\"265252859812191058636308479999999\"}");
    http_result r = http_post("/permutations", body);
    cr_assert_eq(r.status, 200);
    cr_assert(strstr(r.body, "\"total\":\"265252859812191058636308480000000\"") != NULL, "%s", r.body);
    cr_assert(strstr(r.body, "[[29,28,27,26,25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0]]"),
              "%s", r.body);
    http_result_free(&r);
}

Test(permutations, errors_name_the_field) {
    struct {
        const char *body;
        long status;
        const char *code, *field;
    } cases[] = {
        {"{}", 400, "missing_field", "items"},
        {"{\"items\":[1],\"text\":\"a\"}", 400, "conflicting_fields", "text"},
        {"{\"items\":[1,2],\"order\":\"random\"}", 400, "invalid_field", "order"},
        {"{\"items\":[1,2],\"k\":3}", 400, "invalid_field", "k"},
        {"{\"items\":[1,2],\"k\":-1}", 400, "invalid_field", "k"},
        {"{\"items\":[1,2],\"offset\":\"-1\"}", 400, "invalid_field", "offset"},
        {"{\"items\":[1,2],\"offset\":\"12x\"}", 400, "invalid_field", "offset"},
        {"{\"items\":[1,2],\"limit\":-1}", 400, "invalid_field", "limit"},
        {"{\"items\":[1,2],\"distinct\":\"yes\"}", 400, "invalid_field", "distinct"},
        {"{\"items\":\"ab\"}", 400, "invalid_field", "items"},
        {"{\"text\":\"a\xff\"}", 400, "invalid_field", "text"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        http_result r = http_post("/permutations", cases[i].body);
        cJSON *doc = expect_error(&r, cases[i].status, cases[i].code);
        cJSON *error = cJSON_GetObjectItem(doc, "error");
        cr_assert_str_eq(cJSON_GetObjectItem(error, "field")->valuestring, cases[i].field, "%s", cases[i].body);
        cJSON_Delete(doc);
        http_result_free(&r);
    }
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

static long resident_kib(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmRSS: %ld", &kib) == 1) break;
    if (f != NULL) fclose(f);
    return kib;
}

/* Without `limit`, a JSON list is one default page (10000, the service's default --default-page)
 * that says the total and where the next page starts; NDJSON of the same request is every line. */
Test(permutations, a_json_list_without_limit_is_one_page_saying_where_the_next_starts) {
    http_result r = http_post("/permutations", "{\"text\":\"abcdefghijkl\"}");
    cr_assert_eq(r.status, 200);
    cr_assert_lt(strlen(r.body), (size_t)1 << 20, "12 letters answer %zu bytes", strlen(r.body));
    cJSON *doc = cJSON_Parse(r.body);
    cr_assert_not_null(doc);
    cr_assert_str_eq(cJSON_GetObjectItem(doc, "total")->valuestring, "479001600"); /* 12! */
    cr_assert_str_eq(cJSON_GetObjectItem(doc, "next_offset")->valuestring, "10000");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "permutations")), 10000);
    cJSON_Delete(doc);
    http_result_free(&r);
    r = http_post("/permutations", "{\"text\":\"abcdefghijkl\",\"offset\":\"479001599\"}");
    cr_assert_str_eq(r.body, "{\"kind\":\"permutations\",\"total\":\"479001600\",\"next_offset\":null,"
                             "\"permutations\":[\"lkjihgfedcba\"]}");
    http_result_free(&r);
}

Test(permutations, twelve_items_stream_with_flat_memory_and_stop_on_disconnect) {
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    char url[256];
    snprintf(url, sizeof url, "%s/permutations", server.url);
    struct curl_slist *ndjson = curl_slist_append(NULL, "Accept: application/x-ndjson");
    long before = resident_kib(server.pid);
    for (int attempt = 0; attempt < 3; attempt++) {
        CURL *curl = curl_easy_init();
        reader r = {0, (size_t)64 << 20}; /* 64 MiB of the ~6 GB of lines, far past a page, then hang up */
        curl_easy_setopt(curl, CURLOPT_URL, url);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, ndjson);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "{\"text\":\"abcdefghijkl\"}");
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, read_some);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
        cr_assert_eq(curl_easy_perform(curl), CURLE_WRITE_ERROR);
        curl_easy_cleanup(curl);
        cr_assert_geq(r.received, (size_t)64 << 20);
    }
    curl_slist_free_all(ndjson);
    long after = resident_kib(server.pid);
    cr_assert_lt(after - before, 32 * 1024, "server memory grew from %ld to %ld KiB", before, after);
    http_result health = http_request(server.url, "GET", "/healthz", NULL, NULL);
    cr_assert_eq(health.status, 200, "the server stays healthy after clients hang up");
    http_result_free(&health);
    http_result again = http_request(server.url, "POST", "/permutations", "{\"text\":\"ab\"}", NULL);
    cr_assert_str_eq(
        again.body,
        "{\"kind\":\"permutations\",\"total\":\"2\",\"next_offset\":null,\"permutations\":[\"ab\",\"ba\"]}");
    http_result_free(&again);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

Test(permutations, long_counts_and_seeks_stop_at_the_time_limit) {
    /* 30,000 letters over 26 classes: counting distinct 15,000-arrangements (a dynamic programme of
     * about 10^8 big-number steps) and seeking deep into input order cannot finish within 1 ms. */
    enum { N = 30000 };
    char *body = malloc(N + 2200), *at = body;
    at += sprintf(at, "{\"time_limit_ms\":1,\"distinct\":true,\"text\":\"");
    for (int i = 0; i < N; i++) *at++ = (char)('a' + i % 26);
    char *after_text = at;
    strcpy(after_text, "\",\"k\":15000,\"count_only\":true}");
    http_result r = http_post("/permutations", body);
    cJSON_Delete(expect_error(&r, 503, "deadline_exceeded"));
    http_result_free(&r);
    at = after_text + sprintf(after_text, "\",\"order\":\"input\",\"offset\":\"1");
    for (int i = 0; i < 2000; i++) *at++ = '0';
    strcpy(at, "\"}");
    r = http_post("/permutations", body);
    cJSON_Delete(expect_error(&r, 503, "deadline_exceeded"));
    http_result_free(&r);
    free(body);
}
