/* /shuffle over HTTP: replayable shuffles (and samples, derangements, cycles) equal to the independent
 * Python reference for every seed form and algorithm, items of any JSON type, GET = POST, fresh and
 * secure randomness, NDJSON, large streamed answers, limits, and every error path. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* The reference's lines for one job ("shuffle:SEED:ALGORITHM:N:COUNT"), as a cJSON array of arrays. */
static cJSON *reference_shuffles(const char *job) {
    const char *source = getenv("PUZZLED_SOURCE_DIR");
    char command[8192];
    snprintf(command, sizeof command, "python3 %s/tests/unit/core/random/shuffle_reference.py %s",
             source ? source : ".", job);
    char *out = run_command_output(command);
    cr_assert_not_null(out, "the Python reference failed: %s", command);
    cJSON *shuffles = cJSON_CreateArray();
    for (char *line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        cJSON *shuffle = cJSON_CreateArray();
        for (char *end = line; *end != '\0';) cJSON_AddItemToArray(shuffle, cJSON_CreateNumber(strtod(end, &end)));
        cJSON_AddItemToArray(shuffles, shuffle);
    }
    free(out);
    return shuffles;
}

static cJSON *post_json(const char *body, long expected_status) {
    http_result r = http_post("/shuffle", body);
    cr_assert_eq(r.status, expected_status, "%s gave %ld: %s", body, r.status, r.body);
    cJSON *doc = http_json(&r);
    cr_assert_not_null(doc, "not JSON: %.200s", r.body);
    http_result_free(&r);
    return doc;
}

static const char *seed_of(const cJSON *doc) {
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(doc, "seed");
    cr_assert(cJSON_IsString(seed), "no seed string");
    return seed->valuestring;
}

/* The shuffles of an answer, whichever shape (items for count 1, shuffles otherwise). */
static const cJSON *shuffles_of(const cJSON *doc, cJSON **owned) {
    const cJSON *shuffles = cJSON_GetObjectItemCaseSensitive(doc, "shuffles");
    *owned = NULL;
    if (shuffles != NULL) return shuffles;
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(doc, "items");
    cr_assert(cJSON_IsArray(items), "neither items nor shuffles");
    *owned = cJSON_CreateArray();
    cJSON_AddItemToArray(*owned, cJSON_Duplicate(items, true));
    return *owned;
}

/* Every shuffle equals the next of the reference's (`*want`, advanced), each value shifted by `start`. */
static void expect_reference_lines(const cJSON *shuffles, const cJSON **want, double start) {
    for (const cJSON *got = shuffles->child; got != NULL; got = got->next, *want = (*want)->next) {
        cr_assert_not_null(*want, "more shuffles than the reference");
        cr_assert_eq(cJSON_GetArraySize(got), cJSON_GetArraySize(*want), "wrong length");
        const cJSON *w = (*want)->child;
        for (const cJSON *g = got->child; g != NULL; g = g->next, w = w->next)
            cr_assert_eq(g->valuedouble, w->valuedouble + start, "%.0f where %.0f + %.0f was expected", g->valuedouble,
                         w->valuedouble, start);
    }
}

static void expect_reference(const cJSON *shuffles, const char *job, double start) {
    cJSON *expected = reference_shuffles(job);
    cr_assert_eq(cJSON_GetArraySize(shuffles), cJSON_GetArraySize(expected), "%s: wrong count", job);
    const cJSON *want = expected->child;
    expect_reference_lines(shuffles, &want, start);
    cJSON_Delete(expected);
}

Test(shuffle, seeded_answers_match_the_reference_for_every_seed_form_and_algorithm) {
    /* body seed, the seed the answer reports, the reference's seed */
    const char *seeds[][3] = {
        {"42", "42", "42"},
        {"\"0042\"", "42", "42"},
        {"\"9007199254740993\"", "9007199254740993", "9007199254740993"},
        {"\"18446744073709551615\"", "18446744073709551615", "18446744073709551615"},
        {"\"0123456789ABCDEFfedcba9876543210000000000000000180000000000000a5\"",
         "0123456789abcdeffedcba9876543210000000000000000180000000000000a5",
         "0123456789abcdeffedcba9876543210000000000000000180000000000000a5"},
    };
    const char *algorithms[] = {"fisher-yates", "inside-out", "naive"};
    enum { CASES = sizeof seeds / sizeof *seeds * 3 * 2 };
    cJSON *answers[CASES];
    char jobs[CASES * 100] = "";
    size_t c = 0;
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        for (size_t a = 0; a < 3; a++) {
            for (int count = 1; count <= 3; count += 2, c++) {
                char body[256];
                snprintf(body, sizeof body, "{\"n\":31,\"start\":-7,\"seed\":%s,\"algorithm\":\"%s\",\"count\":%d}",
                         seeds[s][0], algorithms[a], count);
                snprintf(jobs + strlen(jobs), sizeof jobs - strlen(jobs), " shuffle:%s:%s:31:%d", seeds[s][2],
                         algorithms[a], count);
                answers[c] = post_json(body, 200);
                cr_assert_str_eq(seed_of(answers[c]), seeds[s][1]);
            }
        }
    }
    cJSON *expected = reference_shuffles(jobs);
    const cJSON *want = expected->child;
    for (c = 0; c < CASES; c++) {
        cJSON *owned;
        expect_reference_lines(shuffles_of(answers[c], &owned), &want, -7);
        cJSON_Delete(owned);
        cJSON_Delete(answers[c]);
    }
    cr_assert_null(want, "fewer shuffles than the reference");
    cJSON_Delete(expected);
}

Test(shuffle, fisher_yates_is_the_default_and_start_defaults_to_zero) {
    cJSON *doc = post_json("{\"n\":54,\"seed\":7}", 200);
    cJSON *owned;
    expect_reference(shuffles_of(doc, &owned), "shuffle:7:fisher-yates:54:1", 0);
    cJSON_Delete(owned);
    cJSON_Delete(doc);
}

/* sample, derangement and cycle: every answer equals the reference's draw for the same seed, for
 * numbers (with start) and for items, once and several times from one stream. */
Test(shuffle, samples_derangements_and_cycles_match_the_reference) {
    const struct {
        const char *body, *job;
        double start;
    } cases[] = {
        {"{\"n\":31,\"start\":-7,\"seed\":42,\"sample\":5}", "sample:42:31:5:1", -7},
        {"{\"n\":31,\"seed\":42,\"sample\":1,\"count\":2}", "sample:42:31:1:2", 0},
        {"{\"n\":31,\"seed\":43,\"sample\":31,\"count\":3}", "sample:43:31:31:3", 0},
        {"{\"n\":1000000000,\"start\":1,\"seed\":\"18446744073709551615\",\"sample\":1000}",
         "sample:18446744073709551615:1000000000:1000:1", 1},
        {"{\"n\":4294967296,\"seed\":5,\"sample\":3,\"count\":4}", "sample:5:4294967296:3:4", 0},
        {"{\"n\":31,\"start\":-7,\"seed\":42,\"derangement\":true,\"count\":3}", "shuffle:42:derangement:31:3", -7},
        {"{\"n\":2,\"seed\":1,\"derangement\":true}", "shuffle:1:derangement:2:1", 0},
        {"{\"n\":31,\"start\":-7,\"seed\":42,\"cycle\":true,\"count\":3}", "shuffle:42:cycle:31:3", -7},
        {"{\"n\":1,\"seed\":1,\"cycle\":true}", "shuffle:1:cycle:1:1", 0},
        {"{\"n\":5,\"seed\":1,\"derangement\":false,\"cycle\":false}", "shuffle:1:fisher-yates:5:1", 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        cJSON *doc = post_json(cases[c].body, 200), *owned;
        expect_reference(shuffles_of(doc, &owned), cases[c].job, cases[c].start);
        cJSON_Delete(owned);
        cJSON_Delete(doc);
    }
    http_result empty = http_post("/shuffle", "{\"n\":31,\"seed\":42,\"sample\":0,\"count\":2}");
    cr_assert_str_eq(empty.body, "{\"kind\":\"shuffles\",\"seed\":\"42\",\"shuffles\":[[],[]]}");
    http_result_free(&empty);
    empty = http_post("/shuffle", "{\"n\":0,\"seed\":1,\"derangement\":true}");
    cr_assert_str_eq(empty.body, "{\"kind\":\"shuffle\",\"seed\":\"1\",\"items\":[]}",
                     "the empty arrangement moves nothing");
    http_result_free(&empty);
    /* Items: the Secret Santa draw of five names is the reference's derangement of their indices. */
    cJSON *doc =
        post_json("{\"items\":[\"ann\",\"bob\",\"cat\",\"dan\",\"eve\"],\"seed\":7,\"derangement\":true}", 200);
    cJSON *expected = reference_shuffles("shuffle:7:derangement:5:1");
    const char *names[] = {"ann", "bob", "cat", "dan", "eve"};
    const cJSON *got = cJSON_GetObjectItemCaseSensitive(doc, "items")->child;
    for (const cJSON *index = expected->child->child; index != NULL; index = index->next, got = got->next)
        cr_assert_str_eq(got->valuestring, names[(int)index->valuedouble]);
    cJSON_Delete(expected);
    cJSON_Delete(doc);
}

/* A large sample from 2^32 values streams (chunked) and equals the reference. */
Test(shuffle, large_samples_stream_and_match_the_reference) {
    http_result r = http_post("/shuffle", "{\"n\":4294967296,\"seed\":11,\"sample\":20000,\"count\":2}");
    cr_assert_eq(r.status, 200);
    char *encoding = http_header(&r, "Transfer-Encoding");
    cr_assert(encoding != NULL && strcmp(encoding, "chunked") == 0);
    free(encoding);
    cJSON *doc = http_json(&r);
    expect_reference(cJSON_GetObjectItemCaseSensitive(doc, "shuffles"), "sample:11:4294967296:20000:2", 0);
    cJSON_Delete(doc);
    http_result_free(&r);
}

/* Items of every JSON type come back as the same values, in the order of the reference's indices. */
Test(shuffle, items_of_any_json_type_follow_the_reference_order) {
    const char *items[] = {"\"ace\"", "{\"suit\":\"hearts\",\"rank\":[1,2]}",
                           "null",    "true",
                           "false",   "1.5",
                           "-12",     "9007199254740991",
                           "[]",      "\"\\u00e9\\n\\\"\""};
    enum { ITEMS = sizeof items / sizeof *items };
    char body[1024] = "{\"seed\":\"99\",\"count\":4,\"algorithm\":\"inside-out\",\"items\":[";
    for (size_t i = 0; i < ITEMS; i++) {
        strcat(body, items[i]);
        strcat(body, i + 1 < ITEMS ? "," : "]}");
    }
    cJSON *doc = post_json(body, 200);
    cJSON *request = cJSON_Parse(body);
    const cJSON *originals = cJSON_GetObjectItemCaseSensitive(request, "items");
    cJSON *expected = reference_shuffles("shuffle:99:inside-out:10:4");
    const cJSON *shuffles = cJSON_GetObjectItemCaseSensitive(doc, "shuffles");
    cr_assert_eq(cJSON_GetArraySize(shuffles), 4);
    const cJSON *want = expected->child;
    for (const cJSON *got = shuffles->child; got != NULL; got = got->next, want = want->next) {
        cr_assert_eq(cJSON_GetArraySize(got), ITEMS);
        for (int i = 0; i < ITEMS; i++) {
            const cJSON *original = cJSON_GetArrayItem(originals, (int)cJSON_GetArrayItem(want, i)->valuedouble);
            cr_assert(cJSON_Compare(cJSON_GetArrayItem(got, i), original, true), "item %d differs", i);
        }
    }
    cJSON_Delete(expected);
    cJSON_Delete(request);
    cJSON_Delete(doc);
}

Test(shuffle, get_query_gives_the_same_answer_as_post) {
    http_result get = http_get("/shuffle?items=a,b,c,d,e&seed=123&count=2&algorithm=naive");
    http_result post = http_post("/shuffle", "{\"items\":[\"a\",\"b\",\"c\",\"d\",\"e\"],\"seed\":123,\"count\":2,"
                                             "\"algorithm\":\"naive\"}");
    cr_assert_eq(get.status, 200);
    cr_assert_str_eq(get.body, post.body);
    http_result_free(&get);
    http_result_free(&post);
    get = http_get("/shuffle?n=20&start=1&seed=18446744073709551615");
    post = http_post("/shuffle", "{\"n\":20,\"start\":1,\"seed\":\"18446744073709551615\"}");
    cr_assert_eq(get.status, 200);
    cr_assert_str_eq(get.body, post.body);
    http_result_free(&get);
    http_result_free(&post);
}

/* Without a seed the answer reports a fresh one, and that seed replays it. */
Test(shuffle, unseeded_answers_report_a_seed_that_replays_them) {
    cJSON *first = post_json("{\"n\":52,\"count\":2}", 200);
    cJSON *second = post_json("{\"n\":52,\"count\":2}", 200);
    cr_assert_str_neq(seed_of(first), seed_of(second));
    char body[128];
    snprintf(body, sizeof body, "{\"n\":52,\"count\":2,\"seed\":\"%s\"}", seed_of(first));
    cJSON *replay = post_json(body, 200);
    cr_assert(cJSON_Compare(first, replay, true));
    cJSON_Delete(replay);
    cJSON_Delete(second);
    cJSON_Delete(first);
}

static bool is_permutation_from(const cJSON *values, int n, int start) {
    if (cJSON_GetArraySize(values) != n) return false;
    bool *seen = calloc((size_t)n + 1, 1);
    bool ok = true;
    for (const cJSON *v = values->child; v != NULL && ok; v = v->next) {
        int k = (int)v->valuedouble - start;
        ok = k >= 0 && k < n && !seen[k];
        if (ok) seen[k] = true;
    }
    free(seen);
    return ok;
}

Test(shuffle, secure_answers_have_no_seed_and_differ) {
    cJSON *first = post_json("{\"n\":52,\"start\":1,\"secure\":true,\"count\":2}", 200);
    cJSON *second = post_json("{\"n\":52,\"start\":1,\"secure\":true,\"count\":2}", 200);
    cr_assert_null(cJSON_GetObjectItemCaseSensitive(first, "seed"));
    const cJSON *shuffles = cJSON_GetObjectItemCaseSensitive(first, "shuffles");
    for (const cJSON *s = shuffles->child; s != NULL; s = s->next) cr_assert(is_permutation_from(s, 52, 1));
    cr_assert_not(cJSON_Compare(cJSON_GetArrayItem(shuffles, 0), cJSON_GetArrayItem(shuffles, 1), true));
    cr_assert_not(cJSON_Compare(first, second, true));
    cJSON_Delete(second);
    cJSON_Delete(first);
    cJSON *off = post_json("{\"n\":3,\"secure\":false,\"seed\":5}", 200);
    cr_assert_str_eq(seed_of(off), "5");
    cJSON_Delete(off);
}

/* Unseeded single answers for n = 3 are uniform over the 6 orders (chi-square, p = 1e-6: critical
 * value 35.9 for 5 degrees of freedom), and so are secure ones. */
Test(shuffle, separate_unseeded_and_secure_requests_are_uniform) {
    const char *bodies[] = {"{\"n\":3}", "{\"n\":3,\"secure\":true}"};
    enum { SAMPLES = 600 };
    for (int b = 0; b < 2; b++) {
        int counts[6] = {0};
        for (int s = 0; s < SAMPLES; s++) {
            cJSON *doc = post_json(bodies[b], 200);
            const cJSON *items = cJSON_GetObjectItemCaseSensitive(doc, "items");
            int first = (int)cJSON_GetArrayItem(items, 0)->valuedouble;
            bool descending_rest =
                cJSON_GetArrayItem(items, 1)->valuedouble > cJSON_GetArrayItem(items, 2)->valuedouble;
            counts[first * 2 + descending_rest]++;
            cJSON_Delete(doc);
        }
        double statistic = 0, expected = SAMPLES / 6.0;
        for (int k = 0; k < 6; k++) statistic += (counts[k] - expected) * (counts[k] - expected) / expected;
        cr_assert_lt(statistic, 35.9, "%s: chi-square %.1f", bodies[b], statistic);
    }
}

Test(shuffle, ndjson_gives_one_shuffle_per_line) {
    const char *accept[] = {"Accept: application/x-ndjson", NULL};
    http_result r = http_request(server_url(), "POST", "/shuffle", "{\"n\":9,\"seed\":11,\"count\":3}", accept);
    cr_assert_eq(r.status, 200);
    char *type = http_header(&r, "Content-Type");
    cr_assert_str_eq(type, "application/x-ndjson");
    free(type);
    cJSON *lines = http_ndjson(&r);
    cr_assert_eq(cJSON_GetArraySize(lines), 3);
    cJSON *as_json = post_json("{\"n\":9,\"seed\":11,\"count\":3}", 200);
    const cJSON *shuffles = cJSON_GetObjectItemCaseSensitive(as_json, "shuffles");
    for (int k = 0; k < 3; k++) {
        const cJSON *line = cJSON_GetArrayItem(lines, k);
        cr_assert_str_eq(seed_of(line), "11");
        cr_assert(
            cJSON_Compare(cJSON_GetObjectItemCaseSensitive(line, "items"), cJSON_GetArrayItem(shuffles, k), true));
    }
    cJSON_Delete(as_json);
    cJSON_Delete(lines);
    http_result_free(&r);
}

/* Several large shuffles in one streamed answer: chunked, and every shuffle equal to the reference. */
Test(shuffle, large_answers_stream_and_match_the_reference) {
    http_result r =
        http_post("/shuffle", "{\"n\":40000,\"start\":1000,\"seed\":3,\"count\":3,\"algorithm\":\"inside-out\"}");
    cr_assert_eq(r.status, 200);
    char *encoding = http_header(&r, "Transfer-Encoding");
    cr_assert_not_null(encoding);
    cr_assert_str_eq(encoding, "chunked");
    free(encoding);
    cJSON *doc = http_json(&r);
    cr_assert_not_null(doc);
    expect_reference(cJSON_GetObjectItemCaseSensitive(doc, "shuffles"), "shuffle:3:inside-out:40000:3", 1000);
    cJSON_Delete(doc);
    http_result_free(&r);
}

/* Checks a streamed {"seed":"1","items":[...]} body as it arrives, without keeping it (the harness's
 * http_result would copy it whole). */
typedef struct streamed_permutation {
    size_t n, bytes, values, frame_matched;
    bool *seen, ok, closed;
    uint64_t current;
    bool in_number;
    char tail[2];
} streamed_permutation;

static const char streamed_frame[] = "{\"kind\":\"shuffle\",\"seed\":\"1\",\"items\":[";

static size_t check_streamed_bytes(char *bytes, size_t size, size_t count, void *userdata) {
    streamed_permutation *p = userdata;
    for (size_t i = 0; i < size * count; i++, p->bytes++) {
        char c = bytes[i];
        p->tail[0] = p->tail[1];
        p->tail[1] = c;
        if (p->frame_matched < sizeof streamed_frame - 1) {
            p->ok = p->ok && c == streamed_frame[p->frame_matched++];
        } else if (c >= '0' && c <= '9' && !p->closed) {
            p->current = p->current * 10 + (uint64_t)(c - '0');
            p->in_number = true;
        } else if ((c == ',' || c == ']') && p->in_number && !p->closed) {
            p->ok = p->ok && p->current < p->n && !p->seen[p->current];
            if (p->ok) p->seen[p->current] = true;
            p->values++;
            p->current = 0;
            p->in_number = false;
            p->closed = c == ']';
        } else if (!p->closed || c != '}') {
            p->ok = false;
        }
    }
    return size * count;
}

/* n = 10,000,000 (the default limit) streams completely: a permutation of 0..n-1, and the body has
 * exactly the expected length (all decimal digits of 0..9999999, the commas and the frame). */
Test(shuffle, ten_million_values_stream_completely) {
    enum { N = 10000000 };
    streamed_permutation p = {.n = N, .seen = calloc(N, 1), .ok = true};
    char url[256];
    snprintf(url, sizeof url, "%s/shuffle", server_url());
    CURL *curl = curl_easy_init();
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "{\"n\":10000000,\"seed\":1}");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, check_streamed_bytes);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &p);
    cr_assert_eq(curl_easy_perform(curl), CURLE_OK);
    long status;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(curl);
    cr_assert_eq(status, 200);
    cr_assert(p.ok, "not a permutation of 0..n-1 in the expected frame");
    cr_assert_eq(p.values, N);
    cr_assert(p.closed && p.tail[0] == ']' && p.tail[1] == '}');
    size_t digits = 0;
    for (size_t width = 1, low = 0, high = 10; low < N; width++, low = high, high *= 10)
        digits += width * ((high < N ? high : N) - low);
    cr_assert_eq(p.bytes, digits + (N - 1) + strlen(streamed_frame) + 2);
    free(p.seen);
}

typedef struct error_case {
    const char *body;
    long status;
    const char *code, *field;
} error_case;

Test(shuffle, invalid_requests_are_refused_with_status_code_and_field) {
    const error_case cases[] = {
        {"{}", 400, "missing_field", "items"},
        {"{\"n\":3,\"items\":[1]}", 400, "conflicting_fields", "n"},
        {"{\"items\":[1],\"start\":3}", 400, "conflicting_fields", "start"},
        {"{\"n\":-1}", 400, "invalid_field", "n"},
        {"{\"n\":2.5}", 400, "invalid_field", "n"},
        {"{\"n\":\"5\"}", 400, "invalid_field", "n"},
        {"{\"items\":{\"a\":1}}", 400, "invalid_field", "items"},
        {"{\"n\":10000001}", 422, "too_large", "n"},
        {"{\"n\":5,\"count\":0}", 400, "invalid_field", "count"},
        {"{\"n\":5,\"count\":2000001}", 422, "too_large", "count"},
        {"{\"n\":0,\"count\":10000001}", 422, "too_large", "count"},
        {"{\"n\":5,\"start\":9007199254740990}", 400, "invalid_field", "start"},
        {"{\"n\":5,\"start\":9007199254740992}", 400, "invalid_field", "start"},
        {"{\"n\":5,\"algorithm\":\"bogo\"}", 400, "invalid_field", "algorithm"},
        {"{\"n\":5,\"secure\":\"yes\"}", 400, "invalid_field", "secure"},
        {"{\"n\":5,\"secure\":true,\"seed\":1}", 400, "conflicting_fields", "seed"},
        {"{\"n\":5,\"seed\":-1}", 400, "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":1.5}", 400, "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":9007199254740992}", 400, "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":\"18446744073709551616\"}", 400, "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":\"\"}", 400, "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":\"-3\"}", 400, "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":\"0x10\"}", 400, "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg\"}", 400,
         "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":\"0000000000000000000000000000000000000000000000000000000000000000\"}", 400,
         "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":\"0123456789abcdef\"}", 400, "invalid_field", "seed"},
        {"{\"n\":5,\"seed\":true}", 400, "invalid_field", "seed"},
        {"{\"n\":5,\"shuffle\":true}", 400, "unknown_field", "shuffle"},
        {"{\"n\":5,\"sample\":6}", 400, "invalid_field", "sample"},
        {"{\"n\":5,\"sample\":-1}", 400, "invalid_field", "sample"},
        {"{\"n\":5,\"sample\":true}", 400, "invalid_field", "sample"},
        {"{\"n\":4294967297,\"sample\":1}", 422, "too_large", "n"},
        {"{\"n\":4294967296,\"sample\":10000001}", 422, "too_large", "sample"},
        {"{\"n\":100,\"sample\":10,\"count\":1000001}", 422, "too_large", "count"},
        {"{\"n\":5,\"sample\":2,\"derangement\":true}", 400, "conflicting_fields", "derangement"},
        {"{\"n\":5,\"derangement\":true,\"cycle\":true}", 400, "conflicting_fields", "cycle"},
        {"{\"n\":5,\"cycle\":true,\"algorithm\":\"naive\"}", 400, "conflicting_fields", "algorithm"},
        {"{\"n\":5,\"sample\":2,\"algorithm\":\"fisher-yates\"}", 400, "conflicting_fields", "algorithm"},
        {"{\"n\":1,\"derangement\":true}", 400, "invalid_field", "derangement"},
        {"{\"items\":[\"solo\"],\"derangement\":true}", 400, "invalid_field", "derangement"},
        {"{\"n\":5,\"cycle\":1}", 400, "invalid_field", "cycle"},
        {"{\"n\":10000001,\"cycle\":true}", 422, "too_large", "n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        http_result r = http_post("/shuffle", cases[i].body);
        cJSON *doc = expect_error(&r, cases[i].status, cases[i].code);
        const cJSON *field = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "error"), "field");
        cr_assert(cJSON_IsString(field) && strcmp(field->valuestring, cases[i].field) == 0, "%s: field %s",
                  cases[i].body, cJSON_IsString(field) ? field->valuestring : "(none)");
        cJSON_Delete(doc);
        http_result_free(&r);
    }
}

Test(shuffle, get_errors_match_post_errors) {
    http_result r = http_get("/shuffle?n=5&seed=abc");
    cJSON_Delete(expect_error(&r, 400, "invalid_field"));
    http_result_free(&r);
    r = http_get("/shuffle?n=5&secure=true&seed=3");
    cJSON_Delete(expect_error(&r, 400, "conflicting_fields"));
    http_result_free(&r);
}

/* --max-shuffle-items bounds n, the item count and count * n, and the message says the limit. */
Test(shuffle, configured_limit_applies_to_n_items_and_count) {
    test_server server;
    const char *args[] = {"--max-shuffle-items", "10", NULL};
    cr_assert(test_server_start(&server, args));
    const char *bodies[] = {"{\"n\":11}", "{\"items\":[1,2,3,4,5,6,7,8,9,10,11]}", "{\"n\":5,\"count\":3}"};
    for (int i = 0; i < 3; i++) {
        http_result r = http_request(server.url, "POST", "/shuffle", bodies[i], NULL);
        cJSON_Delete(expect_error(&r, 422, "too_large"));
        cr_assert(strstr(r.body, "at most 10") != NULL || strstr(r.body, "than 10 values") != NULL, "%s", r.body);
        http_result_free(&r);
    }
    http_result r = http_request(server.url, "POST", "/shuffle", "{\"n\":5,\"count\":2}", NULL);
    cr_assert_eq(r.status, 200);
    http_result_free(&r);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

Test(shuffle, derangements_and_samples_run_out_of_time_with_503) {
    const char *bodies[] = {"{\"n\":10000000,\"derangement\":true,\"time_limit_ms\":1}",
                            "{\"n\":4294967296,\"sample\":1000000,\"time_limit_ms\":1}"};
    for (int i = 0; i < 2; i++) {
        http_result r = http_post("/shuffle", bodies[i]);
        cJSON_Delete(expect_error(&r, 503, "deadline_exceeded"));
        http_result_free(&r);
    }
}

Test(shuffle, naive_on_a_large_input_runs_out_of_time_with_503) {
    http_result r = http_post("/shuffle", "{\"n\":2000000,\"algorithm\":\"naive\",\"time_limit_ms\":50}");
    cJSON_Delete(expect_error(&r, 503, "deadline_exceeded"));
    http_result_free(&r);
}
