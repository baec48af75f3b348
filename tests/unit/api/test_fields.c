/* Unit tests for api/fields: the one validation path for POST bodies and GET queries (the typed readers
 * that come after it: test_params.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "api/fields.h"

static const api_field fields[] = {
    {"n", FIELD_INTEGER},   {"flag", FIELD_BOOLEAN},     {"name", FIELD_STRING},
    {"items", FIELD_ARRAY}, {"seed", FIELD_BIG_INTEGER}, {NULL, 0},
};

static const api_limits limits = {.time_limit_ms = 5000};

static api_request new_request(void) {
    api_request req = {.limits = &limits};
    req.params = cJSON_CreateObject();
    return req;
}

static void expect_failure(api_request *req, int status, const char *code, const char *field) {
    cr_assert_eq(req->error.status, status, "status %d: %s", req->error.status, req->error.message);
    cr_assert_str_eq(req->error.code, code);
    cr_assert_str_eq(req->error.field, field);
    cr_assert(strlen(req->error.message) > 10);
}

Test(fields, query_values_take_their_declared_types) {
    api_request req = new_request();
    cr_assert(fields_add_query(&req, fields, "n", "12"));
    cr_assert(fields_add_query(&req, fields, "flag", "true"));
    cr_assert(fields_add_query(&req, fields, "name", "42"));
    cr_assert(fields_add_query(&req, fields, "items", "3,x,-1.5,false"));
    cr_assert(fields_add_query(&req, fields, "seed", "18446744073709551615"));
    cr_assert(fields_check(&req, fields));
    char *text = cJSON_PrintUnformatted(req.params);
    cr_assert_str_eq(text, "{\"n\":12,\"flag\":true,\"name\":\"42\",\"items\":[3,\"x\",-1.5,false],"
                           "\"seed\":\"18446744073709551615\"}");
    cJSON_free(text);
    cJSON_Delete(req.params);
}

Test(fields, an_empty_query_list_is_an_empty_array) {
    api_request req = new_request();
    cr_assert(fields_add_query(&req, fields, "items", ""));
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(req.params, "items")), 0);
    cJSON_Delete(req.params);
}

Test(fields, query_text_that_is_not_a_number_fails_the_type_check) {
    const char *bad[] = {"abc", "0x10", "1e", "", " 1", "inf", "nan", "1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        api_request req = new_request();
        cr_assert(fields_add_query(&req, fields, "n", bad[i]));
        cr_assert_not(fields_check(&req, fields), "accepted n=%s", bad[i]);
        expect_failure(&req, 400, "invalid_field", "n");
        cJSON_Delete(req.params);
    }
}

Test(fields, unknown_and_repeated_query_names_fail) {
    api_request req = new_request();
    cr_assert_not(fields_add_query(&req, fields, "nn", "1"));
    expect_failure(&req, 400, "unknown_field", "nn");
    cr_assert(strstr(req.error.message, "n, flag, name, items, seed") != NULL, "%s", req.error.message);
    cr_assert(fields_add_query(&req, fields, "n", "1"));
    cr_assert_not(fields_add_query(&req, fields, "n", "2"));
    expect_failure(&req, 400, "duplicate_field", "n");
    cJSON_Delete(req.params);
}

Test(fields, bodies_are_checked_the_same_way) {
    struct {
        const char *body;
        const char *code;
        const char *field;
    } cases[] = {
        {"{\"n\": 1.5}", "invalid_field", "n"},
        {"{\"n\": 9007199254740993}", "invalid_field", "n"},
        {"{\"n\": \"3\"}", "invalid_field", "n"},
        {"{\"flag\": 1}", "invalid_field", "flag"},
        {"{\"name\": null}", "invalid_field", "name"},
        {"{\"items\": {}}", "invalid_field", "items"},
        {"{\"seed\": 1e300}", "invalid_field", "seed"},
        {"{\"seed\": -0.5}", "invalid_field", "seed"},
        {"{\"n\": 1, \"n\": 2}", "duplicate_field", "n"},
        {"{\"N\": 1}", "unknown_field", "N"},
        {"{\"time_limit_ms\": 5001}", "invalid_field", "time_limit_ms"},
        {"{\"time_limit_ms\": 0}", "invalid_field", "time_limit_ms"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        api_request req = {.limits = &limits};
        cr_assert(fields_parse_body(&req, cases[i].body, strlen(cases[i].body)));
        cr_assert_not(fields_check(&req, fields), "accepted %s", cases[i].body);
        expect_failure(&req, 400, cases[i].code, cases[i].field);
        cJSON_Delete(req.params);
    }
}

Test(fields, malformed_or_non_object_bodies_fail) {
    const char *bad[] = {"{", "[1]", "42", "{\"n\":1} x", "\"s\"", "nul"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        api_request req = {.limits = &limits};
        cr_assert_not(fields_parse_body(&req, bad[i], strlen(bad[i])), "accepted %s", bad[i]);
        cr_assert_eq(req.error.status, 400);
        cr_assert(strcmp(req.error.code, "malformed_json") == 0 || strcmp(req.error.code, "invalid_body") == 0);
        cr_assert_null(req.params);
    }
}

Test(fields, deep_nesting_is_a_clean_error) {
    static char deep[5000];
    size_t n = 0;
    n += (size_t)sprintf(deep, "{\"items\":");
    for (int i = 0; i < 2000; i++) deep[n++] = '[';
    for (int i = 0; i < 2000; i++) deep[n++] = ']';
    deep[n++] = '}';
    api_request req = {.limits = &limits};
    cr_assert_not(fields_parse_body(&req, deep, n));
    cr_assert_str_eq(req.error.code, "malformed_json");
}

Test(fields, empty_body_is_an_empty_object_and_time_limit_applies) {
    api_request req = {.limits = &limits};
    cr_assert(fields_parse_body(&req, " \n", 2));
    cr_assert(cJSON_IsObject(req.params));
    cJSON_Delete(req.params);
    const char *body = "{\"time_limit_ms\": 1}";
    cr_assert(fields_parse_body(&req, body, strlen(body)));
    cr_assert(fields_check(&req, fields));
    cr_assert_neq(req.deadline.at_ns, 0);
    cJSON_Delete(req.params);
}

static const api_field word_fields[] = {{"words", FIELD_STRING_ARRAY}, {NULL, 0}};

Test(fields, string_arrays_keep_every_query_piece_a_string) {
    api_request req = new_request();
    cr_assert(fields_add_query(&req, word_fields, "words", "true,12,cold"));
    cr_assert(fields_check(&req, word_fields));
    char *text = cJSON_PrintUnformatted(req.params);
    cr_assert_str_eq(text, "{\"words\":[\"true\",\"12\",\"cold\"]}");
    cJSON_free(text);
    cJSON_Delete(req.params);
    const char *body = "{\"words\": [\"cold\", 3]}";
    req = (api_request){.limits = &limits};
    cr_assert(fields_parse_body(&req, body, strlen(body)));
    cr_assert_not(fields_check(&req, word_fields));
    expect_failure(&req, 400, "invalid_field", "words");
    cr_assert(strstr(req.error.message, "element 1") != NULL, "%s", req.error.message);
    cJSON_Delete(req.params);
}

/* Requests must be UTF-8 text: what is not would be echoed into answers (found by fuzzing and by the
 * garbage campaign; the inputs are in tests/fuzz/regressions/). The strings below hold a lone continuation byte (\x80), an
 * overlong '/' (\xc0\xaf) and a UTF-16 surrogate encoded in UTF-8 (\xed\xa0\x80). */
Test(fields, text_that_is_not_utf8_is_refused_not_echoed) {
    static const char *const bad_values[] = {"{\"name\": \"a\x80\"}", "{\"items\": [\"\xc0\xaf\"]}",
                                             "{\"items\": [{\"\xed\xa0\x80\": 1}]}"};
    static const char *const blamed[] = {"name", "items", "items"};
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        api_request req = {.limits = &limits};
        cr_assert(fields_parse_body(&req, bad_values[i], strlen(bad_values[i])));
        cr_assert_not(fields_check(&req, fields), "accepted %s", bad_values[i]);
        expect_failure(&req, 400, "invalid_field", blamed[i]);
        cJSON_Delete(req.params);
    }
    const char *bad_name = "{\"n\xff\": 1}";
    api_request req = {.limits = &limits};
    cr_assert(fields_parse_body(&req, bad_name, strlen(bad_name)));
    cr_assert_not(fields_check(&req, fields));
    expect_failure(&req, 400, "unknown_field", "");
    cr_assert_null(strchr(req.error.message, '\xff'));
    cJSON_Delete(req.params);

    req = new_request();
    cr_assert_not(fields_add_query(&req, fields, "na\xe2\x82", "1"));
    expect_failure(&req, 400, "unknown_field", "");
    cJSON_Delete(req.params);
    req = new_request();
    cr_assert_not(fields_add_query(&req, fields, "name", "\xf4\x90\x80\x80")); /* above U+10FFFF */
    expect_failure(&req, 400, "invalid_field", "name");
    cJSON_Delete(req.params);
}

/* An unknown name is quoted cut at 64 bytes, which may fall inside a character: the message stays UTF-8. */
Test(fields, a_quoted_name_cut_inside_a_character_stays_utf8) {
    char name[100] = "x";
    for (int i = 0; i < 40; i++) strcat(name, "\xc3\xa9"); /* é: 'x' then 2-byte characters, cut at 64 */
    api_request req = new_request();
    cr_assert_not(fields_add_query(&req, fields, name, "1"));
    expect_failure(&req, 400, "unknown_field",
                   "x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                   "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                   "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                   "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
    cr_assert(strstr(req.error.message, "\xc3\xa9?'") != NULL, "%s", req.error.message);
    cJSON_Delete(req.params);
}
