/* server/etag.c on its own. The tag hashes the parsed fields without printing them; the reference is
 * cJSON's own compact print: over every pair of requests built from a list of JSON values that print
 * alike and apart in many ways (1, 1.0, 1e0, -0 and 0; strings and arrays that concatenate alike;
 * nested containers), two requests get the same tag exactly when cJSON prints their fields the same.
 * Besides: time_limit_ms never counts, the route, the representation and the server's fingerprint do,
 * and If-None-Match lists are read as RFC 9110 says. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/etag.h"

static const char *const values[] = {
    "0",
    "-0",
    "1",
    "1.0",
    "1e0",
    "-1",
    "0.5",
    "5e-1",
    "2",
    "12",
    "0.1",
    "0.10000000000000001",
    "1e300",
    "9007199254740992",
    "9007199254740993",
    "1.7976931348623157e308",
    "null",
    "true",
    "false",
    "\"\"",
    "\"a\"",
    "\"ab\"",
    "\"1\"",
    "\"\\u00e9\"",
    "\"\xc3\xa9\"",
    "[]",
    "[1]",
    "[1,2]",
    "[12]",
    "[[1],2]",
    "[[1,2]]",
    "[1,[2]]",
    "[\"a\",\"b\"]",
    "[\"ab\"]",
    "[null]",
    "[true,false]",
    "{}",
    "{\"a\":1}",
    "{\"a\":\"b\"}",
    "{\"ab\":\"\"}",
    "{\"a\":{}}",
    "{\"a\":[]}",
    "[{}]",
};
enum { VALUES = sizeof values / sizeof values[0], REQUESTS = VALUES * VALUES };

typedef struct tagged {
    char tag[ETAG_SIZE];
    char *printed; /* the reference: cJSON's compact print of the fields */
} tagged;

static cJSON *parse(const char *text) {
    cJSON *params = cJSON_Parse(text);
    cr_assert_not_null(params, "%s", text);
    return params;
}

static void tag_of(char out[ETAG_SIZE], const char *fingerprint, const char *route, const char *representation,
                   const char *body) {
    cJSON *params = parse(body);
    etag_seed seed = etag_seed_of(fingerprint);
    etag_of_request(out, &seed, route, representation, params, NULL, 0);
    cJSON_Delete(params);
}

Test(etag, equal_tags_exactly_for_requests_cjson_prints_alike) {
    tagged *requests = calloc(REQUESTS, sizeof *requests);
    cr_assert_not_null(requests);
    etag_seed build_1 = etag_seed_of("build 1");
    for (size_t i = 0; i < VALUES; i++)
        for (size_t j = 0; j < VALUES; j++) {
            char body[256];
            snprintf(body, sizeof body, "{\"a\":%s,\"b\":%s}", values[i], values[j]);
            cJSON *params = parse(body);
            tagged *t = &requests[i * VALUES + j];
            etag_of_request(t->tag, &build_1, "/route", "json", params, NULL, 0);
            t->printed = cJSON_PrintUnformatted(params);
            cr_assert_not_null(t->printed);
            cJSON_Delete(params);
        }
    size_t alike = 0;
    for (size_t x = 0; x < REQUESTS; x++)
        for (size_t y = x + 1; y < REQUESTS; y++) {
            bool same_print = strcmp(requests[x].printed, requests[y].printed) == 0;
            bool same_tag = strcmp(requests[x].tag, requests[y].tag) == 0;
            cr_assert_eq(same_tag, same_print, "%s %s against %s %s", requests[x].printed, requests[x].tag,
                         requests[y].printed, requests[y].tag);
            alike += same_print;
        }
    cr_assert_gt(alike, 0, "the list has values that print alike");
    for (size_t x = 0; x < REQUESTS; x++) cJSON_free(requests[x].printed);
    free(requests);
}

Test(etag, a_tag_is_a_quoted_128_bit_hex_number) {
    char tag[ETAG_SIZE];
    tag_of(tag, "build 1", "/route", "json", "{\"n\":5}");
    cr_assert_eq(strlen(tag), ETAG_SIZE - 1);
    cr_assert(tag[0] == '"' && tag[ETAG_SIZE - 2] == '"', "%s", tag);
    cr_assert_eq(strspn(tag + 1, "0123456789abcdef"), ETAG_SIZE - 3, "%s", tag);
}

Test(etag, time_limit_ms_never_counts_and_the_rest_does) {
    char plain[ETAG_SIZE], limited[ETAG_SIZE], other[ETAG_SIZE];
    tag_of(plain, "build 1", "/route", "json", "{\"n\":5}");
    tag_of(limited, "build 1", "/route", "json", "{\"n\":5,\"time_limit_ms\":100}");
    cr_assert_str_eq(limited, plain);
    tag_of(other, "build 2", "/route", "json", "{\"n\":5}");
    cr_assert_str_neq(other, plain, "the server's fingerprint");
    tag_of(other, "build 1", "/other", "json", "{\"n\":5}");
    cr_assert_str_neq(other, plain, "the route");
    tag_of(other, "build 1", "/route", "ndjson", "{\"n\":5}");
    cr_assert_str_neq(other, plain, "the representation");
    tag_of(other, "build 1", "/route", "json", "{\"m\":5}");
    cr_assert_str_neq(other, plain, "the field's name");
    tag_of(other, "build 1", "/route", "json", "{}");
    cr_assert_str_neq(other, plain, "no field");
}

/* Bulk Sudoku's puzzles come as a text/plain body: two bodies are two questions. */
Test(etag, a_text_body_counts_byte_for_byte) {
    static const char *const bodies[] = {"", "1\n", "2\n", "1\n2\n", "1\n2", "12\n"};
    enum { BODIES = sizeof bodies / sizeof *bodies };
    char tags[BODIES][ETAG_SIZE], again[ETAG_SIZE], none[ETAG_SIZE];
    etag_seed build_1 = etag_seed_of("build 1");
    cJSON *params = parse("{\"n\":5}");
    etag_of_request(none, &build_1, "/route", "text", params, NULL, 0);
    for (size_t i = 0; i < BODIES; i++) {
        etag_of_request(tags[i], &build_1, "/route", "text", params, bodies[i], strlen(bodies[i]));
        etag_of_request(again, &build_1, "/route", "text", params, bodies[i], strlen(bodies[i]));
        cr_assert_str_eq(again, tags[i], "the same body: %s", bodies[i]);
        cr_assert_str_neq(tags[i], none, "a body against none: %s", bodies[i]);
        for (size_t j = 0; j < i; j++) cr_assert_str_neq(tags[i], tags[j], "%s against %s", bodies[i], bodies[j]);
    }
    cJSON_Delete(params);
}

Test(etag, if_none_match_names_a_tag_weakly_or_in_a_list) {
    cr_assert(etag_matches("\"abc\"", "\"abc\""));
    cr_assert(etag_matches("W/\"abc\"", "\"abc\""));
    cr_assert(etag_matches("\"x\", W/\"abc\"", "\"abc\""));
    cr_assert(etag_matches("*", "\"abc\""));
    cr_assert_not(etag_matches("\"abcd\"", "\"abc\""));
    cr_assert_not(etag_matches("\"ab\"", "\"abc\""));
    cr_assert_not(etag_matches("", "\"abc\""));
}
